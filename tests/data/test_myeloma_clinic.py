"""Walk-through 73: a myeloma clinic's database export, progression within 2 years.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.encoder import Encoder
from sparge.data.leaks import vital_status


@pytest.mark.parametrize("column, answers, died", [
    ("Status", ["Alive", "Dead"], ["Dead"]),
    ("Status", ["alive", "deceased", "lost to follow-up"], ["deceased"]),
    ("Status at last FU", ["Alive", "Died of disease"], ["Died of disease"]),
    ("Follow-up status", ["NED", "AWD", "DOD", "DOC"], ["DOD", "DOC"]),
    ("Died", ["Yes", "No"], ["Yes"]),
    ("Deceased (Y/N)", ["Y", "N"], ["Y"]),
    ("Death (1=yes)", ["0", "1"], ["1"]),
    ("Alive", ["Yes", "No"], ["No"]),
    # not a vital status: a history, a discharge (its own rule), a plain yes/no
    ("Family history of sudden death", ["Yes", "No"], []),
    ("Discharge destination", ["Home", "Died"], []),
    ("Transplant eligible", ["Y", "N"], []),
    ("Status", ["Active", "Inactive"], []),
])
def test_a_vital_status_is_recognised_by_its_answers_or_its_name(column, answers, died):
    assert vital_status(column, answers) == died


def _myeloma(n: int = 240, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    risk = rng.normal(size=n)
    progressed = risk + rng.normal(scale=1.0, size=n) > 0.6
    dead = np.where(progressed, rng.random(n) < 0.5, rng.random(n) < 0.08)
    return pd.DataFrame({
        "Patient ID": [f"MM{1000 + i}" for i in range(n)],
        "Age": rng.integers(45, 85, n),
        "B2M (mg/L)": np.round(np.exp(1.2 + 0.4 * risk + rng.normal(0, .3, n)), 1),
        "Albumin (g/L)": np.round(38 - 3 * risk + rng.normal(0, 3, n)),
        "Hb (g/L)": np.round(110 - 8 * risk + rng.normal(0, 10, n)),
        "Status": np.where(dead, "Dead", "Alive"),
        "Progression within 2 years": np.where(progressed, "Yes", "No"),
    })


def test_a_status_at_last_contact_is_left_out_whatever_its_auc():
    """"Status" (Alive / Dead) beside an outcome of progression: its AUC was far below
    the leak rules' thresholds, the page said it "goes to the model as an input", and
    every look-alike of a patient who died was another who died."""
    df = _myeloma()
    enc = Encoder(id_column="Patient ID", label_column="Progression within 2 years").fit(df)
    assert "Status" not in enc.feature_names_out_
    assert enc.roles_["Status"] == "ignore"
    assert "known only at the last contact" in enc.left_out_why_["Status"]
    said = " ".join(enc.report_.warnings)
    assert "Left out of the model: 'Status' answers 'Dead'" in said
    assert "whatever the outcome" in said
    # the user's role is not judged: they said the status was known
    kept = Encoder(id_column="Patient ID", label_column="Progression within 2 years",
                   roles={"Status": "categorical"}).fit(df)
    assert "Status" in kept.feature_names_out_
    # the outcome itself is no input to judge
    own = Encoder(id_column="Patient ID", label_column="Status").fit(
        df.drop(columns="Progression within 2 years"))
    assert own.label_column == "Status" and "Status" not in own.left_out_why_


@pytest.mark.parametrize("name, later", [
    ("Best response", True), ("Best_response", True), ("Response to induction", True),
    ("Overall response", True), ("Virological response", True),
    ("Treatment response at 3 months", True),
    # before the visit, or measured at it
    ("Response to prior therapy", False), ("Previous best response", False),
    ("Ambulance response time", False), ("Inflammatory response", False),
    ("Response to fluid challenge", False), ("Cortisol response to Synacthen test", False)])
def test_a_response_to_treatment_is_named_like_a_later_outcome(name, later):
    from sparge.data.column_guess import later_outcome_named

    assert later_outcome_named(name) is later


def test_the_best_response_beside_progression_is_left_out():
    """"Best response" (CR, VGPR, PR, PD) went to the model as an input beside the outcome
    "Progression within 2 years": a response is judged after the treatment."""
    df = _myeloma()
    df["Best response"] = np.where(df["Progression within 2 years"] == "Yes", "PR", "VGPR")
    df.loc[::7, "Best response"] = "CR"
    enc = Encoder(id_column="Patient ID", label_column="Progression within 2 years").fit(df)
    assert "Best response" not in enc.feature_names_out_
    assert enc.left_out_why_["Best response"].startswith("named like another outcome")
    own = Encoder(id_column="Patient ID", label_column="Best response").fit(
        df.drop(columns=["Progression within 2 years", "Status"]))
    assert own.label_column == "Best response"


def test_calcium_in_mg_per_dl_among_mmol_per_l_is_found_and_converted():
    """Six calciums of 9.5-10.5 (mg/dL, no unit) trained as impossible mmol/L values;
    "CA 19-9" and "CA-125" are tumour markers, no calcium."""
    from sparge.data.plausible import quantity_of, unit_slips

    rng = np.random.default_rng(0)
    values = np.r_[np.round(rng.normal(2.4, 0.15, 200), 2), [10.4, 10.5, 9.5, 10.2]]
    slipped, source, converted = unit_slips("Calcium (mmol/L)", "mmol/L", values)
    assert np.flatnonzero(slipped).tolist() == [200, 201, 202, 203]
    assert set(source[200:]) == {"mg/dL"}
    assert converted[200] == pytest.approx(10.4 * 10 / 40.078, abs=1e-3)  # 2.59
    assert quantity_of("Adj Ca (mmol/L)")[0] == "calcium"
    assert quantity_of("CA 19-9 (U/mL)") is None and quantity_of("CA-125") is None


@pytest.mark.parametrize("column, flagged", [
    ("BM plasma cells (%)", True), ("Blasts %", True), ("LVEF", True), ("SpO2 (%)", True),
    # a count of cells is no share
    ("Blasts (x10^9/L)", False), ("Plasma cells", False)])
def test_a_share_of_cells_above_100_percent_is_impossible(column, flagged):
    from sparge.data.plausible import impossible_values

    values = list(np.random.default_rng(1).integers(5, 90, 300)) + [115]
    assert bool(impossible_values(column, values)[-1]) is flagged
    assert not impossible_values(column, values)[:-1].any()


def test_ecog_written_as_ps_is_read_as_its_grade():
    """89 "PS 1" cells in a column ECOG were set to missing (20 % of the column)."""
    from sparge.data.named_values import read_named_values

    df = pd.DataFrame({"ECOG": ["0", "1", "PS 1", "PS 2", "ECOG 2", "WHO PS 1", "2"] * 3})
    assert read_named_values(df)["ECOG"].tolist()[:7] == ["0", "1", "1", "2", "2", "1", "2"]


def test_a_trace_paraprotein_reads_as_the_columns_lower_limit():
    """18 paraproteins of "trace" beside "<1" g/L were set to missing."""
    from sparge.data.parsing import parse_numeric

    cells = pd.Series(["12.5", "30", "<1", "trace", "not quantifiable", "8", "<1", "n/k"],
                      name="Paraprotein (g/L)")
    out, info = parse_numeric(cells)
    assert out[3] == 1.0 and np.isnan(out[7])
    assert [c for _, c in info["not_detected"]] == ["trace"]
    # a light-chain myeloma's paraprotein "not quantifiable" is not measured: a gap
    assert np.isnan(out[4])
    # without a limit in the column, "trace" says no number: a gap
    out, _ = parse_numeric(pd.Series(["12.5", "30", "trace", "8"], name="Paraprotein"))
    assert np.isnan(out[2])


def test_response_frailty_and_iss_are_ordered_scales_with_their_spellings():
    """Best response was coded alphabetically (sCR next to PD; CR, "complete response"
    and "Complete remission" three answers), frailty fit 1, frail 2, intermediate 5, and
    "R-ISS II" (86 patients) was an answer beside "II" (196)."""
    from sparge.data.tables import scale_codes, scale_of

    response = [">VGPR", "CR", "Complete remission", "NR", "PD", "PR", "Progression", "SCR",
                "SD", "VGPR", "VGRP", "complete response", "partial response",
                "progressive disease", "sCR", "stable disease", "stringent CR",
                "very good partial response"]
    assert scale_of(response, "Best response") == "response"
    codes = scale_codes(response, "response")
    assert codes["PD"] == codes["Progression"] == codes["progressive disease"] < codes["SD"]
    assert codes["SD"] == codes["NR"] < codes["PR"] < codes["VGPR"] == codes["VGRP"]
    assert codes["VGPR"] < codes[">VGPR"] < codes["CR"] == codes["Complete remission"]
    assert codes["CR"] < codes["sCR"] == codes["stringent CR"] == codes["SCR"]
    # CR and PR alone are a response only in a column named so
    assert scale_of(["CR", "PR", "SD"], "Ward") is None
    frailty = ["FIT", "Fit", "Frail", "Frail (IMWG)", "Intermediate", "intermed."]
    codes = scale_codes(frailty, scale_of(frailty, "Frailty"))
    assert codes["Fit"] < codes["intermed."] == codes["Intermediate"] < codes["Frail (IMWG)"]
    riss = ["1", "2", "3", "I", "II", "III", "R-ISS I", "R-ISS II", "R-ISS III"]
    codes = scale_codes(riss, scale_of(riss, "R-ISS"))
    assert codes["R-ISS II"] == codes["II"] == codes["2"] < codes["III"]


def test_paraprotein_regimen_and_bone_disease_spellings_are_offered_as_one():
    from sparge.data.levels import abbreviated_levels

    pairs = abbreviated_levels(["IgG K", "IgG kappa", "BJ kappa", "LC kappa",
                                "Kappa light chain", "LC lambda", "Lambda light chain",
                                "NSMM", "Non-secretory"], "Paraprotein type")
    assert {("IgG K", "IgG kappa"), ("BJ kappa", "Kappa light chain"),
            ("LC kappa", "Kappa light chain"), ("LC lambda", "Lambda light chain"),
            ("NSMM", "Non-secretory")} <= set(pairs)
    assert not any({a, b} == {"Kappa light chain", "Lambda light chain"} for a, b in pairs)
    pairs = abbreviated_levels(["VRd", "Bortezomib/lenalidomide/dex", "Rd", "Len/dex",
                                "KRd", "Carfilzomib-Len-Dex", "Dara-Rd", "VTd"],
                               "Induction regimen")
    assert {("Bortezomib/lenalidomide/dex", "VRd"), ("Len/dex", "Rd"),
            ("Carfilzomib-Len-Dex", "KRd")} <= set(pairs)
    assert not any({a, b} == {"Rd", "Dara-Rd"} for a, b in pairs)  # daratumumab added
    pairs = abbreviated_levels(["Yes", "No", "pathological fracture", "multiple", "none"],
                               "Bone disease")
    assert {("pathological fracture", "Yes"), ("multiple", "Yes"), ("none", "No")} \
        <= set(pairs)


@pytest.mark.parametrize("cell, read", [
    ("t(4;14)", "t(4;14)"), ("t4;14", "t(4;14)"), ("t(4:14)", "t(4;14)"),
    ("del17p", "del(17p)"), ("17p deletion", "del(17p)"), ("TP53 del", "del(17p)"),
    ("+1q", "gain(1q)"), ("amp 1q", "gain(1q)"), ("1q gain", "gain(1q)"),
    ("t(4;14) + 1q gain", "t(4;14), gain(1q)"), ("17p deletion + +1q", "del(17p), gain(1q)"),
    ("t4;14, 17p deletion, 1q gain", "t(4;14), del(17p), gain(1q)"),
    ("Standard risk (t(11;14))", "t(11;14), standard risk"), ("SR", "standard risk"),
    ("no abnormality detected", "none"), ("Normal FISH", "none"), ("hyperdiploid", "hyperdiploid"),
    ("insufficient sample", ""), ("failed", ""),
    # what is not read stays as written
    ("complex karyotype", None), ("IgH rearranged, partner unknown", None)])
def test_cytogenetics_are_read_as_findings_by_their_standard_names(cell, read):
    from sparge.data.cytogenetics import cytogenetic_findings

    assert cytogenetic_findings(cell) == read


def test_a_cytogenetics_column_is_one_yes_no_column_per_finding():
    """The column (52 spellings) was left out as more than 30 text answers, and with it
    the disease's main risk factor; 37 of its 380 results held two findings, under the
    share that makes a column of lists."""
    rng = np.random.default_rng(3)
    spellings = {"t(4;14)": ["t(4;14)", "t4;14", "t(4:14)"],
                 "del(17p)": ["del17p", "17p deletion", "TP53 del", "del(17p)"],
                 "gain(1q)": ["+1q", "amp 1q", "gain 1q", "1q gain"],
                 "t(11;14)": ["t(11;14)"], "hyperdiploid": ["hyperdiploid"]}
    cells, truth = [], []
    for _ in range(300):
        kind = rng.choice(["sr", "none", "failed", "one", "two"], p=[.3, .2, .1, .33, .07])
        if kind == "sr":
            cells.append(rng.choice(["SR", "standard risk", "Standard risk"]))
            truth.append({"standard risk"})
        elif kind == "none":
            cells.append(rng.choice(["normal", "no abnormality detected"]))
            truth.append(set())
        elif kind == "failed":
            cells.append(rng.choice(["failed", "insufficient sample", "not done"]))
            truth.append(None)
        else:
            names = list(rng.choice(list(spellings), size=1 if kind == "one" else 2,
                                    replace=False))
            cells.append(", ".join(rng.choice(spellings[n]) for n in names))
            truth.append(set(names))
    df = pd.DataFrame({"ID": range(300), "Cytogenetics": cells,
                       "Outcome": rng.choice(["Yes", "No"], 300)})
    enc = Encoder(id_column="ID", label_column="Outcome").fit(df)
    X = enc.transform(df)
    names = [f for f in enc.feature_names_out_ if f.startswith("Cytogenetics: ")]
    assert set(names) == {f"Cytogenetics: {n}" for n in [*spellings, "standard risk"]}
    yes = enc.table_.levels(names[0])
    for f in names:
        col = X[:, enc.feature_names_out_.index(f)]
        finding = f.split(": ", 1)[1]
        for v, t in zip(col, truth, strict=True):
            if t is None:
                assert np.isnan(v)
            else:
                assert (v == yes["Yes"]) == (finding in t)
    said = " ".join(enc.report_.notes)
    assert "read as their findings by standard names" in said
    assert "test(s) without a result" in said
