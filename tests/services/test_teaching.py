"""The lecture's computations (sparge.services.teaching) and figures
(sparge.app.plots_lecture), issue 13."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from helpers import SAMPLES

from sparge.app import plots_lecture as pt
from sparge.services import teaching as tc
from sparge.services.persistence import load_model


@pytest.fixture(scope="module")
def cohort():
    return tc.toy_cohort()


@pytest.fixture(scope="module")
def toy(cohort):
    return tc.fit_toy(cohort, tc.ToyParams())


@pytest.fixture(scope="module")
def real():
    return load_model(SAMPLES / "default_model.sparge")[0]


def test_toy_cohort_is_small_seeded_and_has_gaps_with_a_known_truth(cohort):
    X = cohort.X
    assert X.shape == (40, 6)
    assert "age (years)" in X.columns and "LDL (mmol/L)" in X.columns
    assert 0.15 <= cohort.gaps.mean() <= 0.25
    assert cohort.hidden.sum() >= 10
    assert not (cohort.gaps & cohort.hidden).any()
    assert X.isna().to_numpy()[cohort.hidden].all()          # hidden from the model
    assert cohort.truth.notna().to_numpy().all()               # but known to the lecture
    assert ((~X.isna()).sum(axis=1) >= 2).all()
    assert sorted(set(cohort.y)) == ["high risk", "low risk"]
    assert (cohort.y == "high risk").sum() == 20
    again = tc.toy_cohort()
    assert again.X.equals(X) and (again.hidden == cohort.hidden).all()
    assert not tc.toy_cohort(seed=1).X.equals(X)
    with pytest.raises(ValueError, match="n_patients"):
        tc.toy_cohort(n_patients=5)


def test_toy_refit_reads_the_controls(cohort):
    """(Its time is a benchmark's: the lecture page's refit of the toy cohort.)"""
    m = tc.fit_toy(cohort, tc.ToyParams(k1=2, k2=8, n_components=3))
    assert (m.k1, m.k2, m.embedding_.shape[1]) == (2, 8, 3)
    assert list(tc.patient_ids(m)[:2]) == ["P01", "P02"]


def test_completion_rank_and_lambda_change_the_singular_values_and_the_error(cohort, toy):
    full = tc.fit_toy(cohort, tc.ToyParams(rank=6))
    assert toy.rank_ == 2 and full.rank_ == 6
    e2, e6 = tc.completion_error(toy, cohort), tc.completion_error(full, cohort)
    assert e2["n_hidden"] == cohort.hidden.sum()
    # a rank-2 basis fills the gaps from the measured values; so does a full basis, whose
    # weak components the posterior fill barely trusts (round 16: before it, a full basis
    # put every gap at the mean)
    assert e2["rmse_lowrank"] < e2["rmse_mean"] - 0.1
    assert e6["rmse_lowrank"] < e6["rmse_mean"] - 0.1
    assert "better than the mean" in e2["caption"]
    assert "the rank cap keeps 2" in tc.completion_caption(toy)
    heavy = tc.fit_toy(cohort, tc.ToyParams(rank=6, completion_lambda=0.3))
    total, left, kept = tc.kept_components(heavy)
    assert left < total and kept == left
    assert f"{total - left} vanished" in tc.completion_caption(heavy)
    # λ as the controls give it (a fraction) next to the amount itself
    sigma = heavy.completion_lambda_ / 0.3
    assert f"(0.3 × {sigma:.3g}, the largest singular value of the table with its gaps at 0)" \
        in tc.completion_caption(heavy)
    assert not np.allclose(heavy.completion_singular_values_[:2],
                           full.completion_singular_values_[:2])


def test_completion_caption_never_claims_that_components_vanished_when_they_did_not():
    m = SimpleNamespace(training_data_=np.zeros((30, 26)), rank_=25, completion_lambda_=0.5,
                        completion_singular_values_=np.linspace(5, 1, 26))
    text = tc.completion_caption(m)
    assert "26 of 26 components survived (none vanished)" in text
    assert "keeps 25" in text and "vanish" not in text.replace("none vanished", "")
    assert "not close to a low-rank matrix" not in text  # the cap kept 25 of 26
    # every component kept: the lecture's low-rank premise did not hold, and says so
    # (walk-through 27: "23 of 23 survived; the model keeps all 23", unremarked)
    m.rank_ = 26
    text = tc.completion_caption(m)
    assert "the model keeps all 26" in text and "not close to a low-rank matrix" in text


def test_patient_completion_fills_exactly_the_gaps(toy):
    i = int(np.flatnonzero(np.isnan(toy.training_data_).any(axis=1))[0])
    row = tc.patient_completion(toy, i)
    assert row["was_gap"].sum() == np.isnan(toy.training_data_[i]).sum()
    assert row["completed_sd"].notna().all()
    assert row.loc[row["was_gap"], "observed"].isna().all()


def test_r1_makes_codes_sparser_and_the_patient_code_is_read_from_the_model(cohort, toy):
    sparse = tc.fit_toy(cohort, tc.ToyParams(r1=0.6))
    a, b = tc.code_step(toy, 3), tc.code_step(sparse, 3)
    assert b["zero_share"] > a["zero_share"]
    assert f"{100 * b['zero_share']:.0f}% of all code weights" in b["caption"]
    used = np.flatnonzero(toy.codes_[3])
    assert len(a["table"]) == len(used)
    assert np.allclose(np.sort(a["table"]["weight"].to_numpy()), np.sort(toy.codes_[3, used]))


def test_atoms_change_the_dictionary(cohort, toy):
    four = tc.fit_toy(cohort, tc.ToyParams(n_atoms=4))
    assert four.dictionary_.shape == (6, 4) and toy.dictionary_.shape == (6, 8)
    assert tc.atom_labels(four) == [f"atom {j + 1} ({four.classes_[four.atom_class_[j]]})"
                                    for j in range(4)]
    assert tc.dictionary_caption(four).startswith("4 atoms")
    # s is given its value, and an atom's outcome is said to be its sub-dictionary's
    # (walk-through 69: near-identical "high" and "low" atoms read as opposites)
    said = tc.dictionary_caption(four)
    assert f"at most s = {four.n_nonzero} of them (the n_nonzero parameter)" in said
    assert "names the sub-dictionary it was learned in" in said
    assert np.allclose(np.linalg.norm(four.dictionary_, axis=0), 1)


def test_graphs_follow_k1_k2_and_join_the_right_outcomes(cohort, toy):
    more = tc.fit_toy(cohort, tc.ToyParams(k1=8, k2=1))
    a, b = tc.graph_step(toy, 0), tc.graph_step(more, 0)
    assert b["n_plus"] > a["n_plus"] and b["n_minus"] < a["n_minus"]
    y = tc.outcomes(toy)
    r, c = a["W_plus"].nonzero()
    assert (y[r] == y[c]).all()
    r, c = a["W_minus"].nonzero()
    assert (y[r] != y[c]).all()
    assert f"{a['n_plus']} same-outcome edges" in a["caption"]


def test_graphs_of_a_big_model_keep_only_the_followed_patients_edges(real):
    g = tc.graph_step(real, 5)
    fig = pt.graph_figure(g["coords"], g["W_plus"], g["W_minus"], tc.outcomes(real),
                          tc.patient_ids(real), highlight=5, shown=g["shown"],
                          totals=(g["n_plus"], g["n_minus"]))
    assert f"of the {g['n_plus']} edges" in [t.name for t in fig.data if t.name][1]
    r, c = (g["W_plus"] + g["W_minus"]).nonzero()
    assert len(r) and ((r == 5) | (c == 5)).all()
    Wp, _ = real.training_graphs()
    assert g["n_plus"] == sp.triu(Wp, 1).nnz
    assert "only patient" in g["caption"]


def test_dimensions_change_the_map_and_precision_is_honest(cohort, toy):
    five = tc.fit_toy(cohort, tc.ToyParams(n_components=5))
    a, b = tc.embedding_step(toy), tc.embedding_step(five)
    assert np.allclose(a["after"], toy.embedding_[:, :2])
    assert b["after"].shape == (40, 2) and "l = 5" in b["caption"]
    p = a["precision"]
    assert 0 <= p["before"] <= 1 and 0 <= p["after"] <= 1
    assert f"{100 * p['after']:.0f}% after" in a["caption"]
    # the change is that of the shares as written: the three numbers add up
    before, after = round(100 * p["before"]), round(100 * p["after"])
    said = (f"({after - before:+d} point" if after != before else "(no change")
    assert f"{before}% before, {after}% after in the embedding alone {said}" in a["caption"]
    # "after" is the embedding's own nearest patients: the forest part's in-bag proximity
    # credited the embedding with +16 points on the toy where it gave +1.5 (walk-through
    # 69); the model's look-alikes are said apart
    from sparge.method.similarity import knn_search
    from sparge.services.teaching import precision_at_k
    Y = np.asarray(toy.embedding_)
    idx = knn_search(Y, Y, 6)[1]
    own = np.array([[j for j in row if j != i][:5] for i, row in enumerate(idx)])
    y = np.asarray(toy.y_)
    assert p["after"] == pytest.approx(precision_at_k(y[own], y))
    if tc.forest_part(toy):
        assert f"with it {round(100 * p['model'])}% of them share the outcome" in a["caption"]
    # more dimensions asked than the representation has: said (a lecturer read "l = 6"
    # after asking for 8)
    wide = tc.fit_toy(cohort, tc.ToyParams(n_atoms=4, n_components=8))
    c = wide.training_representation().shape[1]
    assert f"to l = {c} dimensions, 8 asked: at most the representation's c = {c}," in \
        tc.embedding_step(wide)["caption"]
    assert "asked" not in b["caption"]
    one = tc.embedding_step(tc.fit_toy(cohort, tc.ToyParams(n_components=1)))
    assert "its other axis is flat" in one["caption"]
    # the figure is the training patients', and a supervised model's says it is optimistic
    assert "on the training patients themselves" in a["caption"]
    assert ("optimistic for new patients" in a["caption"]) == bool(toy.supervised)


def test_the_maps_cross_the_patients_among_another_outcome(toy):
    """A lecturer's "after" map looked perfectly separated beside a 76 % share: three
    patients lay on or under patients of the other outcome. Those most of whose nearest
    patients (in the full space) have another outcome are returned, crossed on the map
    on top of every point, and counted in the caption."""
    from sparge.method.similarity import knn_search

    info = tc.embedding_step(toy)
    y = np.asarray(toy.y_)
    Y = np.asarray(toy.embedding_, dtype=float)
    k = info["precision"]["k"]
    idx = knn_search(Y, Y, k + 1)[1]
    own = np.array([[j for j in row if j != i][:k] for i, row in enumerate(idx)])
    want = np.flatnonzero((y[own] == y[:, None]).sum(axis=1) * 2 < k)
    assert len(want) and np.array_equal(info["marked_after"], want)
    assert (f"Crossed (×): the patients most of whose {k} nearest have another outcome, "
            f"{len(info['marked_before'])} before and {len(want)} after") in info["caption"]
    # a toy of two far apart groups: none crossed
    two = np.r_[np.zeros((5, 2)), np.full((5, 2), 9.0)] + np.arange(10)[:, None] * 1e-3
    assert tc.among_others(two, ["a"] * 5 + ["b"] * 5, 3).size == 0
    assert tc.among_others(two, ["a", "b"] * 5, 3).size > 0
    fig = pt.map_figure(info["after"], tc.outcomes(toy), tc.patient_ids(toy), "t",
                        marked=info["marked_after"])
    crossed = next(t for t in fig.data if str(t.name).startswith("among another outcome"))
    assert crossed.name == f"among another outcome ({len(want)})"
    assert [c[0] for c in crossed.customdata] == want.tolist()  # a click follows it
    names = [t.name for t in fig.data]
    assert all(names.index(crossed.name) > names.index(v)
               for v in set(tc.outcomes(toy)))  # drawn over every outcome's points


def test_refinement_caption_reads_the_history(cohort, toy):
    info = tc.refinement_step(toy)
    assert len(info["history"]) == len(toy.history_)
    assert f"iteration {toy.best_iteration_}" in info["caption"]
    none = tc.fit_toy(cohort, tc.ToyParams(max_iter=0))
    assert tc.refinement_step(none)["caption"].startswith("No refinement")
    # the Model page's plain version: the same numbers, no symbols
    story = tc.training_story(toy)
    assert f"The final objective above ({toy.objective_:.3g})" in story  # 0.0004, not 0.000
    h = toy.history_
    assert f"refined for {len(h) - 1} step" in story
    assert f"from {h[0]['J']:.3g} to {h[-1]['J']:.3g}" in story  # 0.000750 is not "0.001"
    assert "J =" not in story and "precision@10" not in story and "iterate" not in story
    assert tc.training_story(none).startswith("The dictionary was not refined")


def test_a_model_without_outcomes_is_not_described_by_outcomes(cohort):
    """A walk-through's unsupervised model read "-2 % of their 10 look-alikes shared their
    outcome" (minus the held-out objective shown as a share) on the Model page, and
    "Held-out precision@10: -0.02" in the lecture."""
    from sparge.app.plots_setup import objective_figure

    m = tc.ToyParams().estimator().set_params(supervised=False).fit(cohort.X, cohort.y)
    assert not m.supervised and len(m.history_) > 1
    story = tc.training_story(m)
    assert "outcome" not in story.replace("without the outcome", "") and "%" not in story
    caption = tc.refinement_step(m)["caption"]
    assert "precision" not in caption and "J of the held-out patients" in caption
    fig = objective_figure(m.history_, supervised=False)
    assert all("outcome" not in (t.name or "") for t in fig.data)
    assert fig.layout.yaxis2.tickformat != ".0%"
    lecture = pt.objective_figure(pd.DataFrame(m.history_), 0, supervised=False)
    assert "precision" not in lecture.layout.yaxis2.title.text


def test_lookalikes_of_the_followed_patient_with_sparse_weights(toy, real):
    for model in (toy, real):
        info = tc.lookalike_step(model, 2, n_neighbors=6)
        t = info["table"]
        assert len(t) == 6 and 2 not in t["training_index"].to_list()
        assert t["sparse_weight"].sum() == pytest.approx(1.0, abs=1e-6)
        assert (t["sparse_weight"] >= 0).all()
        same = int((t["outcome"] == tc.outcomes(model)[2]).sum())
        assert f"{same} of 6 look-alikes" in info["caption"]
        # the look-alikes counted are those whose weight reads at least 0.01 (walk-through
        # 21 read "from 2 look-alikes" beside bars of 1.00 and 0.00)
        used = int((t["sparse_weight"] >= 0.005).sum())
        assert f"point from {used} look-alike" in info["caption"]


def test_matrix_view_keeps_the_patient_and_its_gaps(real, toy):
    assert (tc.matrix_view(toy, 3, max_rows=40)[0] == np.arange(40)).all()
    rows, cols = tc.matrix_view(real, 7)
    assert 7 in rows and len(rows) <= 30 and len(cols) == 12
    gap = np.isnan(real.training_data_[7])
    assert gap[cols].sum() == min(6, gap.sum()) and (~gap[cols]).sum() == 12 - gap[cols].sum()
    feats = tc.dictionary_view(real, 7)
    assert len(feats) == 15
    # the caption says which part of the table is shown (nothing left out silently)
    cap = tc.matrix_view_caption(real, 7, rows, cols)
    m = real.training_data_.shape[1]
    assert f"12 of {m} biomarkers" in cap and f"{int(gap[cols].sum())} gap" in cap
    full = tc.matrix_view(toy, 3, max_rows=40)
    assert tc.matrix_view_caption(toy, 3, *full) == ""  # the toy table is shown whole


def test_every_step_has_formulas_words_and_the_papers_corrections():
    keys = [s.key for s in tc.STEPS]
    assert keys == ["data", "completion", "dictionary", "codes", "graphs", "embedding",
                    "refinement", "lookalikes"]
    for s in tc.STEPS:
        assert s.formulas and len(s.words) > 100
    by = {s.key: s for s in tc.STEPS}
    assert "SVT" in "".join(by["completion"].formulas)
    assert "U^{\\mathsf T} U = I" in "".join(by["embedding"].formulas)
    assert "Stiefel" in by["embedding"].words and "trace-ratio" in by["embedding"].words
    assert "k₂" in by["graphs"].correction
    assert "descent" in by["refinement"].correction
    assert "early stopping" in by["refinement"].words
    assert "K-SVD" in by["dictionary"].words and "elastic" in by["codes"].title


def test_figures_mark_the_followed_patient_and_label_everything(toy):
    g = tc.graph_step(toy, 4)
    fig = pt.graph_figure(g["coords"], g["W_plus"], g["W_minus"], tc.outcomes(toy),
                          tc.patient_ids(toy), highlight=4)
    bold = [t for t in fig.data if t.mode == "lines" and t.line.width == 3]
    n_edges = sum((np.asarray(t.x[::3]) is not None) and len(t.x) // 3 for t in bold)
    assert n_edges == g["W_plus"][4].nnz + g["W_minus"][4].nnz
    assert [t.name for t in bold] == [
        f"pushed apart: its {g['W_minus'][4].nnz} of the {g['n_minus']} edges",
        f"pulled together: its {g['W_plus'][4].nnz} of the {g['n_plus']} edges"]
    d = pt.dictionary_figure(toy.dictionary_, toy.feature_names(), tc.atom_labels(toy))
    assert list(d.layout.xaxis.tickvals) == tc.atom_labels(toy)
    h = pt.data_heatmap(toy.training_data_, toy.feature_names(), tc.patient_ids(toy),
                        highlight=9)
    box = h.layout.shapes[0]  # around row 9, its lines just outside it (they hid it)
    assert box.y0 + box.y1 == 18 and box.y0 < 8.5 and "SD" in h.data[0].colorbar.title.text
    m = pt.map_figure(toy.embedding_[:, :2], tc.outcomes(toy), tc.patient_ids(toy), "t",
                      highlight=3)
    keys = np.concatenate([np.asarray(t.customdata).ravel() for t in m.data
                           if t.customdata is not None])
    assert sorted(keys.tolist()) == list(range(40))


def test_the_lecture_colours_outcomes_as_the_app_does():
    """A walk-through saw "Yes" in blue on Explore and in orange on How it works: the
    lecture's figures take the app's colours (category_colours with the model's order)."""
    import pandas as pd

    from sparge.app.plots import PALETTE

    labels = np.array(["No", "Yes"] * 5)
    coords = np.arange(20, dtype=float).reshape(10, 2)
    m = pt.map_figure(coords, labels, [f"P{i}" for i in range(10)], "t", order=["Yes", "No"])
    colour = {t.name: t.marker.color for t in m.data if t.name in ("Yes", "No")}
    assert colour == {"Yes": PALETTE[0], "No": PALETTE[1]}
    # only "No" among the look-alikes: still the map's "No" colour
    table = pd.DataFrame({"rank": [1, 2], "ID": ["a", "b"], "outcome": ["No", "No"],
                          "distance": [0.1, 0.2], "sparse_weight": [0.6, 0.4]})
    bars = pt.lookalike_weights_figure(table, "P0", order=["Yes", "No"])
    assert list(bars.data[0].marker.color) == [PALETTE[1], PALETTE[1]]
    # a key to the colours, the one outcome's too (walk-through 88 saw none)
    key = [t for t in bars.data[1:] if t.showlegend]
    assert [(t.name, t.marker.color) for t in key] == [("No", PALETTE[1])]
    # a weight of 0 is written, above its empty bar; three decimals, as the table
    zero = pt.lookalike_weights_figure(table.assign(sparse_weight=[0.999, 0.0]), "P0")
    assert list(zero.data[0].text) == ["0.999", "0.000"]
    assert list(zero.data[0].textposition) == ["inside", "outside"]


def test_a_wide_dictionary_is_numbered_with_the_outcome_on_hover(real):
    labels = tc.atom_labels(real)
    fig = pt.dictionary_figure(real.dictionary_[:10], real.feature_names()[:10], labels)
    assert list(fig.data[0].x) == [str(j + 1) for j in range(len(labels))]
    assert list(fig.data[0].customdata[0]) == labels
    assert "hover" in fig.layout.xaxis.title.text
    # the numbers are names, not positions: atom 8 (index 7) is boxed at place 7 ± 0.5
    # (read as numbers, "8" stood at 8 and every box sat one atom to the left)
    boxed = pt.dictionary_figure(real.dictionary_[:10], real.feature_names()[:10], labels,
                                 used=[7])
    assert boxed.layout.xaxis.type == "category" and boxed.layout.shapes[0].x0 == 6.5
    # a box's sides stay thin beside many atoms (they filled a narrow column)
    assert boxed.layout.shapes[0].line.width == (3 if len(labels) <= 16 else
                                                 2 if len(labels) <= 32 else 1)
    many = pt.dictionary_figure(np.ones((3, 64)), ["a", "b", "c"],
                                [f"atom {j + 1}" for j in range(64)], used=[5])
    assert many.layout.shapes[0].line.width == 1
    codes = pt.codes_figure(real.codes_[:5], labels, ["1", "2", "3", "4", "5"], highlight=2)
    assert codes.layout.xaxis.type == "category" and codes.layout.yaxis.type == "category"


def test_atoms_of_a_model_without_outcome_are_not_said_to_have_one():
    """A walk-through read "atom (hover: its outcome)" on a model learned without one."""
    D = np.random.default_rng(0).standard_normal((5, 20))
    plain = [f"atom {j + 1}" for j in range(20)]
    for atoms in (plain, plain[:6]):
        fig = pt.dictionary_figure(D[:, :len(atoms)], [f"b{i}" for i in range(5)], atoms)
        assert fig.layout.xaxis.title.text == "atom"
    named = pt.dictionary_figure(D[:, :6], [f"b{i}" for i in range(5)],
                                 [f"atom {j + 1} (died)" for j in range(6)])
    assert named.layout.xaxis.title.text == "atom (outcome it was learned for)"


def test_the_distance_caption_says_whether_the_forest_part_is_used(cohort):
    off = tc.fit_toy(cohort, tc.ToyParams(forest_weight=0.0))
    on = tc.fit_toy(cohort, tc.ToyParams(forest_weight=1.0))
    assert tc.forest_part(off) == "" and on.forest_ is not None
    assert "Euclidean in the learned space" in tc.lookalike_step(off, 0)["caption"]
    assert "random-forest proximity (weight g = 1" in tc.lookalike_step(on, 0)["caption"]
    assert "need not be the nearest points" in tc.embedding_step(on)["caption"]
    assert "need not" not in tc.embedding_step(off)["caption"]


def test_many_atoms_get_a_few_readable_numbers():
    """41 atoms: at most 8 numbers on the axis (they overlapped in large type), every
    atom still a column, its outcome on hover."""
    D = np.random.default_rng(0).standard_normal((5, 41))
    fig = pt.dictionary_figure(D, [f"b{i}" for i in range(5)],
                               ["alive"] * 16 + ["died"] * 25, font_size=22)
    ticks = fig.layout.xaxis.tickvals
    assert 4 <= len(ticks) <= 8 and ticks[0] == "1"
    assert len(fig.data[0].x) == 41


def test_a_patient_without_gaps_is_not_drawn_as_completed(toy):
    model = toy  # the toy model: some of its patients have gaps, some none
    gaps = np.isnan(model.training_data_).any(axis=1)
    for patient in (int(np.flatnonzero(gaps)[0]), int(np.flatnonzero(~gaps)[0])):
        row = tc.patient_completion(model, patient)
        fig = pt.completion_row_figure(row, str(patient))
        title = fig.layout.title.text.replace("<br>", " ")
        has_gap = bool(row["was_gap"].any())
        # every symbol drawn has its legend entry (the diamonds had none)
        assert {t.name for t in fig.data} == ({"measured", "low-rank value", "filled gap"}
                                              if has_gap else {"measured", "low-rank value"})
        assert ("measured, low-rank and filled values" in title) == has_gap
        assert ("low-rank values (no gaps to fill)" in title) == (not has_gap)


def test_the_dictionary_caption_names_every_biomarker_tied_at_the_top():
    D = np.zeros((3, 6))
    D[0, [0, 1, 2]] = 1.0  # age leads 3 atoms
    D[1, [3, 4, 5]] = 1.0  # HDL leads 3 atoms too
    m = SimpleNamespace(dictionary_=D, feature_names=lambda: ["Age", "HDL", "BMI"])
    assert "weighed most by the most atoms: Age and HDL (3 atoms each)" in \
        tc.dictionary_caption(m)
    D[1, 5], D[2, 5] = 0.0, 1.0
    assert "The biomarker weighed most by the most atoms: Age (3 atoms)" in \
        tc.dictionary_caption(m)


def test_a_lecture_model_with_one_component_is_finite_and_explained(cohort):
    """A walk-through moved λ to 0.5: one completion component was left, a direction's
    weight became NaN and with it the whole embedding (an empty map, similarities 'None',
    'J = inf')."""
    m = tc.fit_toy(cohort, tc.ToyParams(completion_lambda=0.5))
    assert m.rank_ == 1 and np.isfinite(m.embedding_).all()
    dist, idx = m.training_neighbors(5, rows=[0])
    assert np.isfinite(dist).all() and len(set(idx[0])) == 5
    assert "fall on two points" in tc.completion_caption(m)
    assert tc.completion_caption(m).endswith("Lower λ or raise the rank.")
    # the rank cap alone left one: λ is not the cause (a walk-through at the lowest λ)
    capped = tc.fit_toy(cohort, tc.ToyParams(completion_lambda=0.02, rank=1))
    assert capped.rank_ == 1
    assert tc.completion_caption(capped).endswith("two points: the later steps have almost "
                                                  "nothing left to tell patients apart. "
                                                  "Raise the rank.")
    said = tc.refinement_step(m)["caption"]
    assert "inf" not in said and "nan" not in said
    flat = pt.map_figure(m.embedding_[:, :2], tc.outcomes(m), tc.patient_ids(m), "t")
    assert "flat" in flat.layout.yaxis.title.text


def test_direction_weights_of_a_flat_direction_are_finite():
    from sparge.estimator.steps import Pipeline

    rng = np.random.default_rng(0)
    F = np.column_stack([rng.normal(size=30), np.zeros(30)])  # the second one is flat
    L = sp.csr_matrix(np.eye(30) - np.full((30, 30), 1 / 30))
    # every same-outcome neighbour at the same point, its quadratic form rounded below 0
    # (the toy model at λ = 0.5): the weights were NaN
    pipe = Pipeline(representation="codes", normalize_rows=True, r1=0.1, r2=0.1, k1=5,
                    k2=5, graph_weight="heat", class_balance=True, trace_ratio_reg=0.01,
                    metric_weighting="ratio", neighbor_search="exact")
    for Lp in (L, sp.identity(30, format="csr") * -1e-18):
        w = pipe.direction_weights(F, Lp, 0.5 * L, np.eye(2))
        assert np.isfinite(w).all() and np.isclose(np.mean(w ** 2), 1.0)


def test_the_training_story_says_why_a_dictionary_was_not_refined():
    """Walk-through 33: an untouched form (8 iterations) read "refinement iterations set
    to 0" when the first step found nothing to lower."""
    from types import SimpleNamespace

    from sparge.services.teaching import training_story

    stopped = SimpleNamespace(history_=[{"J": 1.0, "grad_norm": 0.1, "step": 0.0}],
                              max_iter=8, n_iter_no_change=3, supervised=True)
    assert "its first step found no change" in training_story(stopped)
    assert "set to 0" not in training_story(stopped)
    unset = SimpleNamespace(history_=[{"J": 1.0}], max_iter=0, n_iter_no_change=3,
                            supervised=True)
    assert "refinement iterations set to 0" in training_story(unset)


def test_a_tiny_models_training_story_and_chart_tell_its_numbers_apart():
    """Walk-through 40's 13-patient model: "went from 4.08e-05 to 4.08e-05" beside a
    falling line, four y ticks of "0.0000408", and "their 10 look-alikes" where each
    set-aside patient had 10 fitting patients at most."""
    from types import SimpleNamespace

    from sparge.app.plots_setup import objective_figure, tick_format

    history = [{"iteration": i, "J": 4.0801e-05 - 2e-9 * i, "heldout_score": 0.5}
               for i in range(3)]
    model = SimpleNamespace(history_=history, best_iteration_=2, supervised=True,
                            max_iter=2, n_iter_no_change=5, objective_=np.nan,
                            training_data_=np.zeros((13, 4)), validation_fraction=0.2)
    story = tc.training_story(model)
    assert "went from 4.0801e-05 to 4.0797e-05" in story
    assert "% of their 10 look-alikes" in story  # 13 - round(2.6) = 10 fit
    model.training_data_ = np.zeros((8, 4))
    assert "% of their 6 look-alikes" in tc.training_story(model)  # 8 - 2 = 6 fit
    # the check is in the learned space alone: with a forest part, the Model page's
    # held-out check scores other look-alikes (its 74 % read against this 67 %)
    assert "learned space alone" not in tc.training_story(model)
    model.forest_scale_ = 0.8
    assert "learned space alone: the look-alikes the app shows also count the forest " \
        "proximity, and the Model page's held-out check scores those" in tc.training_story(model)
    fmt = tick_format([h["J"] for h in history])
    assert fmt == objective_figure(history).layout.yaxis.tickformat
    ticks = np.linspace(4.0797e-05, 4.0801e-05, 5)
    assert len({format(float(t), fmt) for t in ticks}) == 5
    assert tick_format([0.41, 0.39, 0.35]) == ".3g"


@pytest.mark.parametrize("change", [dict(completion_lambda=0.5, n_atoms=2),
                                    dict(completion_lambda=0.5, r1=0.6),
                                    dict(completion_lambda=0.5, k2=1)])
def test_the_toys_extreme_settings_fit_and_draw(change):
    """Walk-through 69: two sliders at their ends ("λ" 0.5 with "Atoms k" 2) replaced the
    whole lecture, controls included, by an error until the browser reloaded."""
    from sparge.services import teaching as tc

    model = tc.fit_toy(tc.toy_cohort(), tc.ToyParams(**{**tc.params_dict(tc.ToyParams()),
                                                       **change}))
    assert np.all(np.isfinite(model.embedding_))
    tc.embedding_step(model, 5)
    tc.lookalike_step(model, 0, 5)


def test_the_embedding_step_rings_the_nearest_patients_of_the_learned_space(toy):
    """Walk-through 74: the ringed "look-alikes in the learned space" were the model's
    look-alikes, ranked with the forest proximity too, not the map's nearest patients."""
    E = toy.embedding_
    got = tc.embedding_neighbors(toy, 3, 5)
    d = ((E - E[3]) ** 2).sum(axis=1)
    d[3] = np.inf
    assert 3 not in got and len(got) == 5
    assert np.allclose(np.sort(d[got]), np.sort(d)[:5])
