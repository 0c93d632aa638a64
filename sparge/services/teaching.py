"""The method as a lecture: a toy cohort and every step's numbers and captions (issue 13).

Pure (no Streamlit): the page ``pages/how_it_works.py`` renders what this module
computes. Every step reads a *fitted* :class:`sparge.SparGE` through its public API, so the
same code explains the toy model (refitted when a control moves, well under a second at
40 patients) and the session's real model. Captions are computed from the model: they say
what the model did (ranks kept, share of zero weights, objective), never a fixed sentence.

Notation follows the paper (``z_i = D phi_i``, ``y_i = U^T phi_i``) with the corrections of
DESIGN.md §4; in the code, rows are patients.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from sparge.estimator.model import SparGE
from sparge.method.similarity import knn_search, precision_at_k

#: The toy cohort's biomarkers: (name with unit, mean, SD, loading on risk, loading on age).
TOY_BIOMARKERS = (
    ("age (years)", 52.0, 9.0, 0.35, 0.85),
    ("systolic BP (mmHg)", 128.0, 14.0, 0.65, 0.45),
    ("LDL (mmol/L)", 3.3, 0.8, 0.75, 0.15),
    ("HDL (mmol/L)", 1.35, 0.3, -0.7, 0.05),
    ("BMI (kg/m²)", 26.5, 3.8, 0.7, 0.0),
    ("glucose (mmol/L)", 5.6, 0.9, 0.75, 0.2),
)
TOY_OUTCOMES = ("low risk", "high risk")


@dataclass(frozen=True)
class ToyCohort:
    """A small, seeded cohort with a known truth behind every gap.

    Attributes
    ----------
    X : DataFrame (n, m)
        What the model is trained on, original units: ``NaN`` for the gaps *and* for the
        hidden entries.
    truth : DataFrame (n, m)
        Every value before any gap (only a toy has this).
    gaps : ndarray of bool (n, m)
        Entries that were never measured.
    hidden : ndarray of bool (n, m)
        Measured entries hidden from the model to measure the completion error.
    y : ndarray of str (n,)
    ids : ndarray of str (n,)
    """

    X: pd.DataFrame
    truth: pd.DataFrame
    gaps: np.ndarray
    hidden: np.ndarray
    y: np.ndarray
    ids: np.ndarray


def toy_cohort(n_patients: int = 40, missing: float = 0.2, hidden: float = 0.1,
               seed: int = 0) -> ToyCohort:
    """Two outcomes, six everyday biomarkers, ``missing`` gaps, ``hidden`` held-out entries.

    Two hidden factors drive the biomarkers (a cardiometabolic risk and age), so the table
    is close to rank 2 plus noise; the outcome shifts the risk factor. Every patient keeps
    at least two measured values and every biomarker at least a third of its values.

    Parameters
    ----------
    n_patients : int
        At least 12 (half of them with each outcome).
    missing : float in [0, 0.5]
        Share of entries never measured.
    hidden : float in [0, 0.3]
        Share of the measured entries hidden from the model (the completion's exam).
    seed : int
    """
    if n_patients < 12:
        raise ValueError(f"n_patients must be at least 12, got {n_patients}")
    if not 0 <= missing <= 0.5 or not 0 <= hidden <= 0.3:
        raise ValueError("missing must lie in [0, 0.5] and hidden in [0, 0.3]")
    rng = np.random.default_rng(seed)
    y_idx = np.arange(n_patients) % 2
    rng.shuffle(y_idx)
    risk = np.where(y_idx == 1, 0.9, -0.9) + 0.75 * rng.standard_normal(n_patients)
    age = rng.standard_normal(n_patients)
    names = [b[0] for b in TOY_BIOMARKERS]
    mean = np.array([b[1] for b in TOY_BIOMARKERS])
    sd = np.array([b[2] for b in TOY_BIOMARKERS])
    load = np.array([[b[3], b[4]] for b in TOY_BIOMARKERS])  # (m, 2)
    z = np.column_stack([risk, age]) @ load.T + 0.4 * rng.standard_normal((n_patients,
                                                                           len(names)))
    values = np.round(mean + sd * z / np.sqrt(1 + (load**2).sum(axis=1)), 2)
    truth = pd.DataFrame(values, columns=names)
    n, m = values.shape
    gaps = rng.random((n, m)) < missing
    for i in range(n):  # at least two measured values per patient
        while (~gaps[i]).sum() < 2:
            gaps[i, rng.choice(np.flatnonzero(gaps[i]))] = False
    measured = np.argwhere(~gaps)
    n_hide = int(round(hidden * len(measured)))
    hide = np.zeros_like(gaps)
    for i, j in measured[rng.permutation(len(measured))]:
        if hide.sum() >= n_hide:
            break
        seen = ~gaps & ~hide
        if seen[i].sum() > 2 and seen[:, j].sum() > n // 3:
            hide[i, j] = True
    X = truth.mask(gaps | hide)
    ids = np.array([f"P{i + 1:02d}" for i in range(n)])
    return ToyCohort(X=X, truth=truth, gaps=gaps, hidden=hide,
                     y=np.array(TOY_OUTCOMES, dtype=object)[y_idx].astype(str), ids=ids)


@dataclass(frozen=True)
class ToyParams:
    """The lecture's controls (one per step) and the SparGE they build."""

    completion_lambda: float = 0.1
    rank: int = 2
    r1: float = 0.15
    n_atoms: int = 8
    k1: int = 3
    k2: int = 3
    n_components: int = 2
    max_iter: int = 8
    forest_weight: str | float = SparGE().forest_weight  # the library's default

    def estimator(self) -> SparGE:
        """The SparGE these controls describe (everything else at its default)."""
        return SparGE(completion_lambda=float(self.completion_lambda), rank=int(self.rank),
                      r1=float(self.r1), n_atoms=int(self.n_atoms), k1=int(self.k1),
                      k2=int(self.k2), n_components=int(self.n_components),
                      max_iter=int(self.max_iter), forest_weight=self.forest_weight,
                      random_state=0)


def fit_toy(cohort: ToyCohort, params: ToyParams) -> SparGE:
    """Fit SparGE on the toy cohort (hidden entries stay hidden); remembers the IDs."""
    # One thread: on a 40-patient table the OpenMP pools of scikit-learn's neighbour search
    # cost far more than the work (1.5 s against 0.2 s on a busy 2-core machine).
    with threadpool_limits(limits=1):
        return params.estimator().fit(cohort.X, cohort.y, ids=cohort.ids)


# ---------------------------------------------------------------------- shared helpers
def patient_ids(model) -> np.ndarray:
    """IDs of the training patients (``train_ids_`` when the app set it, else row numbers)."""
    n = len(model.embedding_)
    ids = getattr(model, "train_ids_", None)
    if ids is None or len(ids) != n:
        return np.array([f"row {i}" for i in range(n)], dtype=object)
    return np.asarray(ids, dtype=object).astype(str)


def outcomes(model) -> np.ndarray:
    """Training outcomes as text ("all patients" for a model without outcomes)."""
    y = getattr(model, "y_", None)
    if y is None:
        return np.full(len(model.embedding_), "all patients", dtype=object)
    return np.asarray(y).astype(str)


def pca_2d(F: np.ndarray) -> np.ndarray:
    """First two principal coordinates (one column of zeros when F has a single column)."""
    F = np.asarray(F, dtype=float)
    Fc = F - F.mean(axis=0)
    if F.shape[1] < 2:
        return np.column_stack([Fc[:, 0], np.zeros(len(F))])
    Vt = np.linalg.svd(Fc, full_matrices=False)[2][:2]
    C = Fc @ Vt.T
    return C * np.where(C[np.abs(C).argmax(axis=0), [0, 1]] < 0, -1, 1)  # stable sign


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


# ---------------------------------------------------------------------- 0. the data
def data_step(model, patient: int) -> dict:
    """The table as the model saw it (standardised, gaps ``NaN``) and one patient's row."""
    Xs = np.asarray(model.training_data_, dtype=float)
    n, m = Xs.shape
    gaps = np.isnan(Xs)
    caption = (f"{n:,} patients × {m:,} biomarkers; {100 * gaps.mean():.0f}% of the entries are "
               f"gaps. Patient {patient_ids(model)[patient]} has "
               f"{_plural(int(gaps[patient].sum()), 'gap')} of {m}. Colours are standard "
               "deviations (SD) from the cohort mean; an empty (grey) cell is a gap.")
    return {"Xs": Xs, "gaps": gaps, "caption": caption}


def matrix_view(model, patient: int, max_rows: int = 30, max_cols: int = 12
                ) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns small enough to read, always with the followed patient.

    Rows: the patient and evenly spaced others. Columns: up to half of them the patient's
    gaps, the rest its measured values (both preferring biomarkers with many gaps in the
    cohort), in table order.
    """
    Xs = np.asarray(model.training_data_, dtype=float)
    n, m = Xs.shape
    if n <= max_rows:
        rows = np.arange(n)
    else:
        rows = np.unique(np.linspace(0, n - 1, max_rows - 1).round().astype(int))
        rows = np.unique(np.append(rows[rows != patient][: max_rows - 1], patient))
    if m <= max_cols:
        return rows, np.arange(m)
    gap = np.isnan(Xs[patient])
    by_gaps = np.argsort(-np.isnan(Xs).mean(axis=0), kind="stable")  # most gaps first
    mine = [j for j in by_gaps if gap[j]][: max_cols // 2]
    seen = [j for j in by_gaps if not gap[j]][: max_cols - len(mine)]
    cols = np.sort(np.array(mine + seen, dtype=int))
    return rows, cols


def matrix_view_caption(model, patient: int, rows: np.ndarray, cols: np.ndarray) -> str:
    """Which part of the table :func:`matrix_view` shows, in words ("" when all of it)."""
    Xs = np.asarray(model.training_data_, dtype=float)
    n, m = Xs.shape
    parts = []
    if len(cols) < m:
        gap = np.isnan(Xs[patient, cols])
        gap_free = int((~np.isnan(Xs).any(axis=0)).sum())
        parts.append(
            f"{len(cols)} of {m} biomarkers: {_plural(int(gap.sum()), 'gap')} of this "
            f"patient and {int((~gap).sum())} of its measured values, chosen among the "
            "biomarkers with the most gaps in the cohort"
            + (f" (the {_plural(gap_free, 'biomarker')} without any gap "
               f"{'is' if gap_free == 1 else 'are'} left out of the view, not of the model)"
               if gap_free and not np.isin(
                   np.flatnonzero(~np.isnan(Xs).any(axis=0)), cols).any() else ""))
    if len(rows) < n:
        parts.append(f"{len(rows)} of {n:,} patients, evenly spaced, with this one")
    return ("Shown: " + "; ".join(parts) + ".") if parts else ""


# ---------------------------------------------------------------------- 1. completion
def kept_components(model) -> tuple[int, int, int]:
    """(components of the filled table, non-zero after shrinkage, kept by the model)."""
    n, m = np.shape(model.training_data_)
    after = np.asarray(model.completion_singular_values_, dtype=float)
    left = int(np.count_nonzero(after > 1e-12 * max(after.max(initial=0.0), 1e-300)))
    return min(n, m), left, int(model.rank_)


def completion_caption(model) -> str:
    """What the shrinkage and the rank cap did, from the model's own singular values."""
    total, left, kept = kept_components(model)
    lam = float(model.completion_lambda_)
    # the controls and the model's line give λ as a fraction of the largest singular value
    # ("λ = 0.1"); this is the amount itself, so both are said ("shrunk by λ = 1.03" beside
    # "λ = 0.1" read as a contradiction)
    frac = getattr(model, "completion_lambda", None)
    # the chart's singular values are the filled table's; the fraction is of the table with
    # its gaps at 0, so its largest singular value is written out (0.1 × 12.17 ≠ 1.03 read
    # as an error)
    of = (f" ({float(frac):g} × {lam / float(frac):.3g}, the largest singular value of the "
          "table with its gaps at 0)" if isinstance(frac, (int, float)) and frac > 0 else
          " (chosen by the error on held-out entries)"
          if getattr(model, "completion_path_", None) else "")
    text = (f"Every singular value of the filled table was shrunk by λ = {lam:.3g}{of}: "
            f"{left} of {total} components survived")
    text += " (none vanished)" if left >= total else f" ({total - left} vanished)"
    if kept < left:
        text += f"; the rank cap keeps {kept} of them"
    else:
        text += "; the model keeps it" if kept == 1 else f"; the model keeps all {kept}"
    text += "."
    if left >= total and kept >= total > 1:
        # walk-through 27: "close to a low-rank matrix" beside "23 of 23 survived" on a
        # flat spectrum, and nothing said that the assumption did not hold
        text += (" This table is not close to a low-rank matrix: every component carries "
                 "enough to survive, so the completion only shrinks them (it denoises) and "
                 "fills each gap from all of them; the later steps do the rest.")
    if kept <= 1 and getattr(model, "normalize_rows", False):
        # a walk-through's λ = 0.5 left one component: every later step drew nonsense
        text += (" With one component every patient's completed values lie on one line, "
                 "and scaled to unit length they fall on two points: the later steps have "
                 "almost nothing left to tell patients apart. "
                 + ("Raise the rank." if kept < left else
                    "Lower λ or raise the rank."))
    return text


def completion_error(model, cohort: ToyCohort) -> dict:
    """Error on the hidden entries (SD units): low-rank completion vs the column mean.

    The mean is the model's own (computed without the hidden entries), i.e. 0 in
    standardised units.
    """
    Z = model.complete(cohort.X, units="standardized")
    T = model.standardize(cohort.truth)
    h = cohort.hidden
    if not h.any():
        return {"n_hidden": 0, "rmse_lowrank": float("nan"), "rmse_mean": float("nan"),
                "caption": "No entries are hidden, so the completion cannot be scored."}
    lowrank = float(np.sqrt(np.mean((Z[h] - T[h]) ** 2)))
    mean = float(np.sqrt(np.mean(T[h] ** 2)))
    verdict = ("better than" if lowrank < mean - 1e-9 else
               "no better than" if lowrank > mean + 1e-9 else "as good as")
    caption = (f"On the {int(h.sum())} measured values hidden from the model, the low-rank "
               f"completion misses by {lowrank:.2f} SD (root mean square), the column mean by "
               f"{mean:.2f} SD: the completion is {verdict} the mean.")
    return {"n_hidden": int(h.sum()), "rmse_lowrank": lowrank, "rmse_mean": mean,
            "caption": caption}


def patient_completion(model, patient: int) -> pd.DataFrame:
    """One patient's row and its low-rank values, in SD and original units.

    ``completed``: at a gap the value the model fills in (:meth:`SparGE.complete`), at a
    measured value its low-rank (denoised) reconstruction (:meth:`SparGE.reconstruct`).
    """
    names = model.feature_names()
    raw = model.training_values().iloc[[patient]]
    z_obs = np.asarray(model.training_data_[patient], dtype=float)
    gap = np.isnan(z_obs)
    z_done = np.where(gap, model.complete(raw, units="standardized")[0],
                      model.reconstruct(raw, units="standardized")[0])
    done = np.where(gap, model.complete(raw)[0], model.reconstruct(raw)[0])
    return pd.DataFrame({"biomarker": names, "observed_sd": z_obs, "completed_sd": z_done,
                         "observed": raw.to_numpy(dtype=float)[0], "completed": done,
                         "was_gap": np.isnan(z_obs)})


# ---------------------------------------------------------------------- 2. dictionary
def atom_labels(model) -> list[str]:
    """"atom j (class)" for every atom (the class it was learned for when supervised)."""
    cls = getattr(model, "atom_class_", None)
    classes = getattr(model, "classes_", None)
    out = []
    for j in range(model.n_atoms_):
        if cls is not None and classes is not None and 0 <= int(cls[j]) < len(classes):
            out.append(f"atom {j + 1} ({classes[int(cls[j])]})")
        else:
            out.append(f"atom {j + 1}")
    return out


def dictionary_caption(model) -> str:
    """How many atoms, for which outcome, and the biomarker each atom weighs most."""
    D = model.dictionary_
    names = model.feature_names()
    k = D.shape[1]
    text = f"{k} atoms, each of unit length (‖d_j‖ = 1)"
    cls = getattr(model, "atom_class_", None)
    classes = getattr(model, "classes_", None)
    if cls is not None and classes is not None:
        counts = [f"{int(np.sum(np.asarray(cls) == c))} for {classes[c]}"
                  for c in range(len(classes))]
        text += ": " + ", ".join(counts)
    top = np.abs(D).argmax(axis=0)
    common = pd.Series([names[i] for i in top]).value_counts()
    # every biomarker tied at the top is named (a walk-through's HDL and age both led 3)
    leaders = [str(n) for n in common.index[common == common.iloc[0]]]
    shown = ", ".join(leaders[:-1]) + " and " + leaders[-1] if len(leaders) > 1 \
        else leaders[0]
    text += (f". The {'biomarker' if len(leaders) == 1 else 'biomarkers'} weighed most by "
             f"the most atoms: {shown} ({_plural(int(common.iloc[0]), 'atom')}"
             f"{'' if len(leaders) == 1 else ' each'}).")
    # walk-through 69: s was never given a value, and two near-identical atoms labelled
    # "high" and "low" risk read as opposite patterns
    s_max = getattr(model, "n_nonzero", None)
    if s_max is not None:
        # walk-through 74 saw up to 7 atoms in a patient's code beside "at most s = 3"
        text += (f" While it learns the atoms, K-SVD writes each patient with at most "
                 f"s = {int(s_max)} of them (the n_nonzero parameter); the sparse codes of "
                 "the next step are another fit (the elastic net), whose r₁ sets how many "
                 "atoms a patient uses.")
    if cls is not None and classes is not None:
        text += (" An atom's outcome names the sub-dictionary it was learned in, not a "
                 "pattern only that outcome has: atoms of two outcomes can be near-identical, "
                 "and an atom and its opposite (every sign flipped) are the same atom.")
    return text


def dictionary_view(model, patient: int, max_features: int = 15) -> np.ndarray:
    """Biomarkers to show with the atoms: all when few, else those the patient's atoms
    weigh most (then those all atoms weigh most)."""
    D = np.abs(model.dictionary_)
    m = D.shape[0]
    if m <= max_features:
        return np.arange(m)
    used = np.flatnonzero(model.codes_[patient])
    score = D[:, used].max(axis=1) if used.size else D.max(axis=1)
    order = np.lexsort((-D.max(axis=1), -score))
    return np.sort(order[:max_features])


# ---------------------------------------------------------------------- 3. codes
def code_step(model, patient: int) -> dict:
    """Sparsity of all codes and the followed patient's code (which atoms, what weights)."""
    Phi = np.asarray(model.codes_, dtype=float)
    k = Phi.shape[1]
    nnz = (Phi != 0).sum(axis=1)
    mine = Phi[patient]
    used = np.flatnonzero(mine)
    labels = atom_labels(model)
    table = pd.DataFrame({"atom": [labels[j] for j in used], "weight": mine[used]})
    table = table.reindex(table["weight"].abs().sort_values(ascending=False).index)
    zero = float(np.mean(Phi == 0))
    pid = patient_ids(model)[patient]
    caption = (f"r₁ = {model.r1:g}, r₂ = {model.r2:g}: {100 * zero:.0f}% of all code weights "
               f"are exactly zero; a patient uses {np.median(nnz):g} of {k} atoms (median, "
               f"range {nnz.min()}–{nnz.max()}). Patient {pid} uses "
               f"{_plural(len(used), 'atom')}")
    if len(used):
        parts = [f"{a} ({w:+.2f})" for a, w in zip(table["atom"], table["weight"], strict=True)]
        more = f" and {len(parts) - 4} more" if len(parts) > 4 else ""
        caption += ": " + ", ".join(parts[:4]) + more
    caption += "."
    return {"nnz": nnz, "zero_share": zero, "code": mine, "table": table.reset_index(drop=True),
            "caption": caption}


# ---------------------------------------------------------------------- 4. graphs
def graph_step(model, patient: int, max_patients: int = 60, graphs=None) -> dict:
    """The two graphs of the final fit, drawn on the patients before the embedding.

    Up to ``max_patients`` patients all edges are drawn; beyond (a real cohort) only the
    followed patient, its graph neighbours and their edges, so the picture stays readable.
    ``graphs``: ``model.training_graphs()`` when the caller already has them (cached).
    """
    Wp, Wn = model.training_graphs() if graphs is None else graphs
    Wp, Wn = sp.csr_matrix(Wp), sp.csr_matrix(Wn)
    n = Wp.shape[0]
    coords = pca_2d(model.training_representation())
    n_plus, n_minus = int(sp.triu(Wp, 1).nnz), int(sp.triu(Wn, 1).nnz)
    if n <= max_patients:
        shown = np.arange(n)
    else:
        shown = np.unique(np.concatenate([[patient], Wp[patient].indices, Wn[patient].indices]))
    mask = np.zeros(n, bool)
    mask[shown] = True
    D = sp.diags(mask.astype(float))
    Wp_s, Wn_s = (D @ Wp @ D).tocsr(), (D @ Wn @ D).tocsr()
    if n > max_patients:  # only the edges that touch the followed patient
        keep = sp.lil_matrix((n, n))
        keep[patient, :] = 1
        keep[:, patient] = 1
        keep = keep.tocsr()
        Wp_s, Wn_s = Wp_s.multiply(keep).tocsr(), Wn_s.multiply(keep).tocsr()
    pid = patient_ids(model)[patient]
    deg_p, deg_n = int(Wp[patient].nnz), int(Wn[patient].nnz)
    supervised = getattr(model, "classes_", None) is not None and model.supervised
    if supervised:
        text = (f"k₁ = {model.k1}, k₂ = {model.k2}: {n_plus:,} same-outcome edges (black, "
                f"pulled together) and {n_minus:,} other-outcome edges (red, pushed "
                f"apart). Patient {pid} has {deg_p} black and {deg_n} red edges (an "
                "edge counts when either end picks the other).")
    else:
        text = (f"Unsupervised: {n_plus:,} local edges (black, each patient's {model.k1} nearest"
                f" neighbours) and {n_minus:,} sampled non-local edges (red).")
    if n > max_patients:
        text += (f" With {n} patients only patient {pid}'s own "
                 f"{_plural(int(sp.triu(Wp_s + Wn_s, 1).nnz), 'edge')} are drawn, in bold.")
    else:  # every edge drawn (walk-through 88 read "only its own" and "faint: all others")
        text += f" Bold: patient {pid}'s own edges; faint: all the others."
    return {"coords": coords, "W_plus": Wp_s, "W_minus": Wn_s, "n_plus": n_plus,
            "n_minus": n_minus, "shown": shown, "caption": text}


# ---------------------------------------------------------------------- 5. embedding
def lookalike_precision(model, n_neighbors: int = 5) -> dict:
    """Class-balanced share of same-outcome look-alikes, before and after the embedding.

    Before: Euclidean neighbours in the representation the embedding projects. After:
    Euclidean neighbours in the embedding alone (walk-through 69: the model's look-alikes,
    with the forest part's in-bag proximity on the trees' own training patients, credited
    the embedding with +33 points where it gave +11). ``model``: the model's look-alikes
    (forest part included). Each patient excludes itself.
    """
    y = getattr(model, "y_", None)
    if y is None:
        return {"before": float("nan"), "after": float("nan"), "model": float("nan"),
                "k": 0}
    y = np.asarray(y)
    F = model.training_representation()
    Y = np.asarray(model.embedding_, dtype=float)
    k = int(min(n_neighbors, len(F) - 1))
    near_f, near_y = _nearest_others(F, k), _nearest_others(Y, k)
    idx_m = model.training_neighbors(k)[1]
    # the neighbours too: the maps' crosses (:func:`among_others`) read the same ones
    return {"before": precision_at_k(y[near_f], y),
            "after": precision_at_k(y[near_y], y),
            "model": precision_at_k(y[idx_m], y), "k": k,
            "near_before": near_f, "near_after": near_y}


def _nearest_others(Z: np.ndarray, k: int) -> np.ndarray:
    """Each row's ``k`` nearest other rows (Euclidean), the row itself left out."""
    idx = knn_search(Z, Z, k + 1)[1]
    return np.array([[j for j in row if j != i][:k] for i, row in enumerate(idx)])


def among_others(Z: np.ndarray, y, k: int, near: np.ndarray | None = None) -> np.ndarray:
    """The patients most of whose ``k`` nearest others (Euclidean in ``Z``, the patient
    itself left out) have another outcome: the ones the share of same-outcome
    neighbours misses, marked on the maps (a lecturer's toy map looked perfectly
    separated at 76 %: three patients lay under others of the other outcome). ``near``:
    those neighbours when found already (:func:`lookalike_precision` gives them)."""
    y = np.asarray(y)
    k = int(min(k, len(Z) - 1))
    if k < 1:
        return np.zeros(0, dtype=int)
    if near is None:
        near = _nearest_others(Z, k)
    same = (y[near] == y[:, None]).sum(axis=1)
    return np.flatnonzero(2 * same < k)


def embedding_step(model, n_neighbors: int = 5) -> dict:
    """Map before (PCA of the representation) and after (the learned space) the embedding;
    ``marked_before`` / ``marked_after``: the patients among another outcome in each
    space (:func:`among_others`), none without outcomes."""
    F = model.training_representation()
    Y = np.asarray(model.embedding_, dtype=float)
    l = Y.shape[1]
    after = Y[:, :2] if l == 2 else pca_2d(Y)
    prec = lookalike_precision(model, n_neighbors)
    y = getattr(model, "y_", None)
    marked = ((among_others(F, y, prec["k"], prec["near_before"]),
               among_others(Y, y, prec["k"], prec["near_after"]))
              if y is not None and prec["k"] else (np.zeros(0, int), np.zeros(0, int)))
    asked = getattr(model, "n_components", None)
    # more dimensions asked than the representation has: said (a lecturer set l = 8 on a
    # 6-dimensional toy and read "l = 6" unexplained)
    capped = (f", {asked} asked: at most the representation's c = {F.shape[1]},"
              if isinstance(asked, int | np.integer) and asked > l and l == F.shape[1]
              else f", {asked} asked," if isinstance(asked, int | np.integer) and asked > l
              else "")
    text = (f"U maps the {F.shape[1]}-dimensional representation (completed scores and "
            f"codes) to l = {l} "
            + ("dimension" if l == 1 else "dimensions") + capped
            + (" (the map shows both)." if l == 2 else
               " (the map draws it across; its other axis is flat)." if l == 1 else
               " (the map shows their first two principal axes)."))
    if prec["k"]:
        # the change of the shares as written, so the three numbers add up ("80% before,
        # 90% after (+11 points)" had read as an error)
        share_0, share_1 = round(100 * prec["before"]), round(100 * prec["after"])
        change = share_1 - share_0
        text += (f" Share of same-outcome patients among the {prec['k']} nearest "
                 f"patients (class-balanced): {share_0}% before, {share_1}% after in the "
                 "embedding alone ("
                 + (f"{change:+d} point{'s' if abs(change) != 1 else ''}" if change
                    else "no change") + ")")
        # the after figure sat near 90 % beside a held-out 60 % on the Model page: say
        # whose figure it is
        text += (", on the training patients themselves" +
                 (", whose outcomes U was fitted to: optimistic for new patients (the "
                  "Model page's held-out check measures those)." if model.supervised
                  else "."))
        # a map can look cleaner than its share: points lie on top of others
        text += (f" Crossed (×): the patients most of whose {prec['k']} nearest have "
                 f"another outcome, {len(marked[0])} before and {len(marked[1])} after"
                 + (" (in the full space: on the map some lie on or under others)"
                    if len(marked[1]) else "") + ".")
    forest = forest_part(model)
    if forest:
        text += (f" This model's look-alikes also use {forest}, so they need not be the "
                 "nearest points on the map")
        text += (f"; with it {round(100 * prec['model'])}% of them share the outcome here, "
                 "where its trees saw these very patients: for new patients only the held-"
                 "out check says." if prec["k"] else ".")
    return {"before": pca_2d(F), "after": after, "precision": prec, "caption": text,
            "marked_before": marked[0], "marked_after": marked[1]}


# ---------------------------------------------------------------------- 6. refinement
def refinement_step(model) -> dict:
    """The objective per refinement iteration and which iterate the model kept."""
    h = pd.DataFrame(getattr(model, "history_", []) or [])
    if h.empty:
        return {"history": h, "caption": "This model was not refined (max_iter = 0)."}
    final = (f"J = {model.objective_:.3g} with the kept dictionary on all training "
             "patients (the held-out ones included)"
             if np.isfinite(getattr(model, "objective_", np.nan)) else
             "J is undefined: the patients' learned positions collapsed onto a few points "
             "(too few components kept in step 1?)")
    if len(h) == 1:
        why = (f"No refinement (max_iter = {model.max_iter})" if model.max_iter == 0 else
               "No refinement step was taken ("
               + stop_reason(model).split(": ", 1)[-1] + ")")
        return {"history": h, "caption": f"{why}: the K-SVD dictionary is kept; {final}."}
    j0, j1 = float(h["J"].iloc[0]), float(h["J"].iloc[-1])
    best = int(getattr(model, "best_iteration_", len(h) - 1))
    text = (f"Trace ratio J on the training part: {j0:.3g} at the start, {j1:.3g} after "
            f"{_plural(len(h) - 1, 'refinement step')}")
    text += (" (lower is better; every step lowers it for its iteration's graphs, which are "
             "then rebuilt, so it can also rise from one iteration to the next). ")
    if "heldout_score" in h and h["heldout_score"].notna().any():
        s = h["heldout_score"].to_numpy(dtype=float)
        if model.supervised:
            text += (f"Held-out precision@10: {s[0]:.2f} at the start, best "
                     f"{np.nanmax(s):.2f}; ")
        else:  # without outcomes the check is the objective J of the held-out patients
            text += (f"J of the held-out patients: {-s[0]:.3g} at the start, best "
                     f"{-np.nanmax(s):.3g}; ")
        text += f"the model keeps the dictionary of iteration {best}"
        text += "." if len(h) - 1 >= model.max_iter else f" and {stop_reason(model)}."
    else:
        text += f"No patients were held out; the model keeps iteration {best}."
    text += f" Final objective: {final}"
    if np.isfinite(getattr(model, "objective_", np.nan)):
        # a lecturer read 0.0628 → 0.0538 on the chart beside a final J of 0.0255
        text += (": its graphs join more patients (each ratio is of the graphs it is "
                 "computed on), so it is not a point of the chart above")
    text += "."
    return {"history": h, "caption": text}


def training_story(model) -> str:
    """The Model page's words for what the refinement did: the same facts as
    :func:`refinement_step`'s caption, without the lecture's symbols (J, precision@10,
    iterate)."""
    h = pd.DataFrame(getattr(model, "history_", []) or [])
    if len(h) <= 1:
        # walk-through 33: "set to 0" was said of an untouched form whose first step
        # found nothing to lower
        why = ("refinement iterations set to 0" if not getattr(model, "max_iter", 0)
               or len(h) == 0 else "its first step found no change that lowered the "
               "objective")
        return (f"The dictionary was not refined ({why}): the model uses the one learned "
                "first.")
    j0, j1 = float(h["J"].iloc[0]), float(h["J"].iloc[-1])
    best = int(getattr(model, "best_iteration_", len(h) - 1))
    what = ("the distance between neighbours with the same outcome relative to that "
            "between neighbours with different outcomes" if model.supervised else
            "the distance between close neighbours relative to that between distant "
            "patients: the model learned without the outcome")
    a, b = _apart(j0, j1)
    text = (f"The dictionary was refined for {_plural(len(h) - 1, 'step')}. The chart's "
            f"objective ({what}; lower is better) went from {a} to {b}. ")
    if "heldout_score" in h and h["heldout_score"].notna().any():
        s = h["heldout_score"].to_numpy(dtype=float)
        kept = "the first dictionary" if best == 0 else f"the dictionary of step {best}"
        if model.supervised:
            # a 13-patient model fits on 10 and sets 3 aside: not "their 10 look-alikes"
            n = len(getattr(model, "training_data_", ()))
            k = min(10, n - int(round(model.validation_fraction * n))) if n else 10
            text += (f"Each step was also checked on training patients set aside from it: "
                     f"{100 * s[0]:.0f} % of their {k} look-alikes shared their outcome at "
                     f"the start, {100 * np.nanmax(s):.0f} % at best (averaged over "
                     "outcomes" + (
                         "; in the learned space alone: the look-alikes the app shows also "
                         "count the forest proximity, and the Model page's held-out check "
                         "scores those, so its share differs"
                         if float(getattr(model, "forest_scale_", 0.0) or 0.0) > 0 else
                         "") + "). ")
        else:  # minus the held-out objective: no outcome to share
            text += (f"Each step was also checked on training patients set aside from it, "
                     f"by the same objective: {-s[0]:.3g} at the start, "
                     f"{-np.nanmax(s):.3g} at best. ")
        text += f"The model keeps {kept}, the best on that check"
        if len(h) - 1 < model.max_iter:
            text += (f", and training stopped when {model.n_iter_no_change} more steps "
                     "brought no better check" if "early" in stop_reason(model) else
                     f", and training {stop_reason(model)}")
        text += "."
    else:
        text += f"No patients were set aside for a check; the model keeps step {best}."
    final = getattr(model, "objective_", None)
    if final is not None and np.isfinite(final):
        # a walk-through read 'Final objective 0.415' beside 'went from 0.409 to 0.388'
        text += (f" The final objective above ({final:.3g}) is the kept model's on all "
                 "training patients; the chart's is on the part the refinement fitted on, "
                 "so the two differ.")
    return text


def _apart(a: float, b: float) -> tuple[str, str]:
    """Two numbers with the fewest significant digits (3 to 8) that tell them apart:
    walk-through 40 read "went from 4.08e-05 to 4.08e-05" beside a falling line."""
    for digits in range(3, 9):
        x, y = f"{a:.{digits}g}", f"{b:.{digits}g}"
        if x != y or a == b:
            return x, y
    return x, y


def stop_reason(model) -> str:
    """Why the refinement stopped before ``max_iter``, read from the model's history."""
    last = (getattr(model, "history_", None) or [{}])[-1]
    g, step = float(last.get("grad_norm", np.nan)), float(last.get("step", 0.0))
    if np.isfinite(g) and g < 1e-12:
        return "stopped: the gradient vanished"
    if np.isfinite(g) and step == 0.0:
        return "stopped: no step along the gradient lowered J"
    return (f"stopped early: no better held-out score for {model.n_iter_no_change} "
            "iterations")


def forest_part(model) -> str:
    """What the look-alike distance is made of, read from the model ("" = embedding only)."""
    if getattr(model, "forest_", None) is None:
        return ""
    chosen = ("chosen on held-out training patients" if model.forest_selection_ else
              "set by the forest_weight parameter")
    return (f"the embedding plus random-forest proximity (weight g = "
            f"{model.forest_weight_:g}, {chosen})")


def embedding_neighbors(model, patient: int, n_neighbors: int = 5) -> np.ndarray:
    """A training patient's nearest other training patients in the learned space alone
    (the embedding step's picture): walk-through 74 ringed the model's look-alikes there,
    ranked with the forest proximity too, and read them as the embedding's nearest."""
    E = np.asarray(model.embedding_, dtype=float)
    k = min(int(n_neighbors) + 1, len(E))
    idx = knn_search(E, E[[patient]], k)[1][0]
    return np.asarray([i for i in idx if i != patient][:n_neighbors], dtype=int)


# ---------------------------------------------------------------------- 7. look-alikes
def lookalike_step(model, patient: int, n_neighbors: int = 5) -> dict:
    """The followed patient's look-alikes with distances and sparse weights."""
    dist, idx, W = model.lookalikes(rows=[patient], n_neighbors=n_neighbors)
    ids = patient_ids(model)
    y = outcomes(model)
    w = np.asarray(W[0].toarray()).ravel()[idx[0]]
    table = pd.DataFrame({"rank": np.arange(1, idx.shape[1] + 1), "ID": ids[idx[0]],
                          "outcome": y[idx[0]], "distance": dist[0],
                          "similarity": model.similarity(dist[0]), "sparse_weight": w,
                          "training_index": idx[0]})
    same = int(np.sum(y[idx[0]] == y[patient]))
    # weights that read 0.00 at two decimals are not counted (walk-through 21: "from 2
    # look-alikes" beside bars of 1.00 and 0.00, the second weight 0.001)
    used = int(np.sum(w >= 0.005))
    tiny = int(np.sum((w > 1e-9) & (w < 0.005)))
    if getattr(model, "y_", None) is None:
        text = f"Patient {ids[patient]}: {len(table)} look-alikes (a model without outcomes)."
    else:
        text = (f"Patient {ids[patient]} ({y[patient]}): {same} of {len(table)} look-alikes "
                "share the outcome.")
    forest = forest_part(model)
    text += (f" Distance: {forest}." if forest else
             " Distance: Euclidean in the learned space.")
    text += (" The sparse weights rebuild the patient's point from "
             f"{_plural(used, 'look-alike')} (weights ≥ 0, summing to {w.sum():.2f}"
             + (f"; {tiny} more under 0.01" if tiny else "") + "); a zero "
             "weight means the other look-alikes together already rebuild the patient (this "
             "can happen to the closest one)."
             + (" The weights rebuild the point in the learned space alone; the forest "
                "proximity, which also ranks the list, has no point to rebuild, so weights "
                "and ranks can disagree." if forest else ""))
    return {"table": table, "caption": text}


# ---------------------------------------------------------------------- the lecture text
@dataclass(frozen=True)
class Step:
    """One screen of the lecture: a title, formulas, plain words, corrections."""

    key: str
    title: str
    formulas: tuple[str, ...]
    words: str
    correction: str = ""
    control: str = ""


STEPS: tuple[Step, ...] = (
    Step("data", "The data: a table with gaps",
         (r"X \in \mathbb{R}^{m \times n},\quad \Omega = \{(i,j) : x_{ij}\ \text{measured}\}",
          r"x_{ij} \leftarrow (x_{ij} - \mu_i)/\sigma_i"),
         "Each patient is one column of the paper's matrix X (one row on screen): m "
         "biomarkers, many of them never measured. Ω is the set of measured entries. Every "
         "biomarker is put on one scale first: standard deviations from the cohort mean.",
         "The paper writes patients as columns; the app and the code use rows (scikit-learn)."),
    Step("completion", "1 · Fill the gaps with a low-rank matrix",
         (r"\min_{Z}\ \tfrac12 \|P_\Omega(Z - X)\|_F^2 + \lambda \|Z\|_*",
          r"Z \leftarrow \mathrm{SVT}_\lambda\big(P_\Omega(X) + P_\Omega^\perp(Z)\big)",
          r"\mathrm{SVT}_\lambda(Q) = \textstyle\sum_i \max(\sigma_i - \lambda, 0)\,"
          r" u_i v_i^{\mathsf T}"),
         "Biomarkers move together (a few health factors drive many measurements), so the "
         "table is close to a low-rank matrix. Soft-impute fills the gaps with the current "
         "guess, takes the singular value decomposition, shrinks every singular value by λ "
         "(singular value thresholding, SVT) and repeats. Small components vanish, large ones "
         "survive. A patient's gaps are then filled from its measured values through the kept "
         "basis, strong components trusted and weak ones barely (the probabilistic-PCA "
         "posterior), and the filled row is projected on the basis by a ridge regression — "
         "the same rule for the training patients and for a new one. Each patient's "
         "projected row is then scaled to length one (normalize_rows, the default): its "
         "pattern counts, not its size, so "
         "a patient 2.5 SD from the mean and one 0.3 SD from it in the same direction are "
         "alike (this is why patients sit on a ring in the pictures below).",
         "Not in the paper: the kept basis, its posterior fill and its ridge rule, so that "
         "training and new patients are completed the same way (Eq. 1 there has no ½, which "
         "only rescales λ).",
         "rank and λ"),
    Step("dictionary", "2 · A dictionary of patterns (K-SVD + OMP)",
         (r"\min_{D,\,\phi_1,\dots,\phi_n}\ \textstyle\sum_i \|z_i - D\phi_i\|_2^2",
          r"\text{s.t.}\ \ \|\phi_i\|_0 \le s,\quad \|d_j\|_2 = 1"),
         "z_i is patient i's completed row (as a vector). K-SVD learns k atoms d_j, the "
         "columns of D: typical patterns of biomarkers. It alternates two moves: "
         "orthogonal matching pursuit (OMP) writes every patient with at most s atoms, then "
         "each atom is replaced by the best rank-1 fit of what the patients using it still "
         "miss. With outcomes, one sub-dictionary is learned per outcome and they are put "
         "side by side.",
         "Corrected: the paper lets atoms shrink (‖d_j‖ ≤ 1, they fell to 0.4–0.8); here every "
         "atom keeps unit length.",
         "atoms"),
    Step("codes", "3 · Sparse codes (elastic net)",
         (r"\begin{aligned}\phi_i = \arg\min_{\phi}\ & \tfrac12\|z_i - D\phi\|_2^2 \\"
          r" & + r_1\|\phi\|_1 + \tfrac{r_2}{2}\|\phi\|_2^2\end{aligned}",
          r"\phi_\Lambda = (D_\Lambda^{\mathsf T} D_\Lambda + r_2 I)^{-1}"
          r"(D_\Lambda^{\mathsf T} z_i - r_1\,\mathrm{sign}\,\phi_\Lambda)"),
         "Every completed patient z_i is written as a weighted sum of a few atoms. The ℓ₁ "
         "term (r₁) sets most weights exactly to zero; the small ℓ₂ term (r₂) keeps the "
         "weights stable when atoms look alike. On the atoms a patient uses (its active set "
         "Λ) the code has the closed form on the second line. A larger r₁ gives sparser "
         "codes.",
         "", "r₁"),
    Step("graphs", "4 · Two graphs: who should be close, who should be far (MFA)",
         (r"W^+_{ij} > 0 \iff j \in \mathcal{N}^+_{k_1}(i)\ \text{or}\ i \in "
          r"\mathcal{N}^+_{k_1}(j)",
          r"W^-_{ij} > 0 \iff j \in \mathcal{N}^-_{k_2}(i)\ \text{or}\ i \in "
          r"\mathcal{N}^-_{k_2}(j)",
          # two lines: one lost its last "F" in the presentation's narrower column
          r"W_{ij} = e^{-\|f_i - f_j\|^2/t},\quad L = \mathrm{Deg} - W",
          r"S^\pm = F^{\mathsf T} L^\pm F"),
         "Marginal Fisher analysis joins every patient to its k₁ nearest patients with the "
         "same outcome (the intrinsic graph W⁺, to be pulled together) and to its k₂ nearest "
         "patients with another outcome (the penalty graph W⁻, to be pushed apart). Closer "
         "pairs get heavier edges (heat kernel; t is the mean squared length of the "
         "graph's edges). f_i is patient i's representation, c numbers long (step 5 says "
         "what it holds), and F stacks the n patients' f_i as rows (n × c). L is the graph "
         "Laplacian; S⁺ and S⁻ (c × c) measure how spread each graph's edges are.",
         "Corrected: the paper builds W⁻ with k₁ (it is k₂) and weights edges by the "
         "distance itself (far pairs would weigh most); here heat-kernel weights.",
         "k₁ and k₂"),
    Step("embedding", "5 · The embedding: trace ratio on the Stiefel manifold",
         (r"\min_{U^{\mathsf T} U = I_l}\ J(U) = "
          r"\frac{\mathrm{tr}(U^{\mathsf T} S^+ U)}{\mathrm{tr}(U^{\mathsf T} S^- U)}",
          r"y_i = \Theta\,U^{\mathsf T} f_i,\qquad U \in \mathbb{R}^{c \times l}",
          r"\Theta = \mathrm{diag}(\theta_1, \dots, \theta_l)",
          r"\mu \leftarrow J(U),\qquad U \leftarrow \mathrm{eig}_{\,l\ \mathrm{smallest}}"
          r"\big(S^+ - \mu S^-\big)"),
         "U projects every patient's representation f_i (its completed scores next to its "
         "code) to l dimensions. Its columns are orthonormal (UᵀU = I): the set of such U is "
         "the Stiefel manifold, so U itself rotates and drops directions but never "
         "stretches them; each kept direction is then weighted (θ, from its own trace "
         "ratio: the better it separates the outcomes, the more it counts). J is small "
         "when black edges become short and red edges long. The iterative "
         "trace-ratio algorithm (Wang et al. 2007) alternates two "
         "updates until J stops falling: μ takes the current ratio, then U takes the l "
         "eigenvectors of "
         "S⁺ − μS⁻ with the smallest eigenvalues. Distances in the new space are the patient "
         "similarity as the paper defines it; this app's look-alikes add the random "
         "forest's proximity to them (step 7, weight g; g = 0 leaves the paper's).",
         "Differs from the paper: it embeds the codes alone (y = Uᵀφ); here f_i holds the "
         "completed scores next to the code, and each direction is weighted (Θ) by its own "
         "trace ratio.",
         "dimensions"),
    Step("refinement", "6 · Joint refinement with early stopping",
         (r"\frac{\partial J}{\partial F} = \frac{2\,L^+ F U U^{\mathsf T}}{\mathrm{den}} - "
          r"\frac{2\,\mathrm{num}\, L^- F U U^{\mathsf T}}{\mathrm{den}^2}",
          r"\beta_\Lambda = (D_\Lambda^{\mathsf T} D_\Lambda + r_2 I)^{-1} g_\Lambda,\quad "
          r"g_i = \partial J/\partial \phi_i",
          r"\frac{\partial J}{\partial D} = \textstyle\sum_i \big(-D\beta_i\phi_i^{\mathsf T} + "
          r"(z_i - D\phi_i)\beta_i^{\mathsf T}\big)",
          r"D \leftarrow \mathrm{normalize}\big(D - \gamma\, \partial J/\partial D\big)"),
         "The dictionary is then tuned for the embedding: the gradient of J flows through the "
         "codes to the atoms (task-driven dictionary learning, Mairal et al. 2012), D takes a "
         "descent step of size γ (halved until J falls) and the atoms go back to unit length. "
         "In the formulas J = num / den, step 5's ratio with num = tr(UᵀFᵀL⁺FU) and den = "
         "tr(UᵀFᵀL⁻FU); g_i is the row of ∂J/∂F that belongs to patient i's code φ_i, and "
         "β_i carries it back through step 3's closed form on the atoms the code uses (Λ). "
         "Then the codes, graphs and U are rebuilt from the new dictionary, so J from one "
         "iteration to the next can rise as well as fall. A lower training J need not mean "
         "better look-alikes for new patients either, so part of the training patients is "
         "held out and the iterate that does best on them is kept (early stopping): the one "
         "whose look-alikes share their outcome most often, or without an outcome the one "
         "with the lowest held-out J.",
         "Corrected: the paper's gradient through the codes is not right, its update +γH is "
         "an ascent step (here a descent step with a relative size), and Z ← DΦ collapses "
         "the codes (Z stays the completed data). Left out: the paper's SVT of D at every "
         "step (ζ = 0.1), which is no proximal step (that needs ζ = γλ₂): it cut the "
         "dictionary's rank from 19 to 6 and stalled the descent."),
    Step("lookalikes", "7 · Look-alikes and their sparse weights",
         (r"d^2(i,j) = \|y_i - y_j\|_2^2 \;\big[+\, g^2 s^2\,(1 - p_{ij})\big]",
          r"\begin{aligned}\min_{w \ge 0,\ \sum_j w_j = 1}\ & \tfrac12\big\|y_i - "
          r"\textstyle\sum_j w_j y_j\big\|^2 \\ & + \tfrac{\rho}{2}\textstyle\sum_j w_j "
          r"\|y_i - y_j\|^2\end{aligned}"),
         "The look-alikes of a patient are its nearest patients in the learned space. The "
         "bracket is the model's forest part (forest_weight = 0 turns it off; auto changes "
         "its weight only when held-out training patients clearly show a better one): "
         "p_ij is the share of the random forest's trees grown with look-alike j in which "
         "patient i ends in j's leaf (the patients a forest's own vote comes from), s² the "
         "spread of the "
         "embedding and g its weight. The sparse weights rebuild "
         "the patient's point from its listed look-alikes (the paper's self-expressive "
         "model): non-negative, summing to one, and mostly zero (ρ makes a far look-alike "
         "cost more than a near one) — a zero says the other "
         "listed look-alikes together already rebuild the patient without that one (even "
         "the closest one can get a zero). The weights rebuild y_i in the learned space "
         "alone: the forest term ranks the list but has no coordinates to rebuild from, so "
         "a look-alike ranked first by the bracket can get a zero weight.",
         "Differs from the paper: the weights are restricted to the listed look-alikes, so "
         "every listed patient has a weight; the forest proximity term is ours.",
         "forest"),
)


def params_dict(params: ToyParams) -> dict:
    """The controls as a plain dict (for cache keys and tests)."""
    return asdict(params)
