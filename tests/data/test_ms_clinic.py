"""Walk-through 85: a multiple sclerosis clinic's export, with confirmed disability
progression at 24 months as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.answer_merging import same_answer
from sparge.data.column_guess import later_outcome_named
from sparge.data.drug_combinations import drug_set, same_regimen
from sparge.data.encoder import Encoder
from sparge.data.lesion_counts import read_lesion_counts
from sparge.data.serology import read_serology

N = 300
OUTCOME = "Confirmed disability progression at 24 months"
DMT = ["Ocrevus (ocrelizumab)", "OCREVUS", "Ocrelizumab", "ocrelizumab 600mg 6-monthly",
       "natalizumab", "Tysabri", "Tysabri SC", "natalizumab EID 6-weekly", "Kesimpta",
       "Ofatumumab", "DMF", "Tecfidera", "Dimethyl fumarate", "Gilenya", "Fingolimod",
       "Mavenclad", "Cladribine", "mavenclad (yr 2 done)", "Aubagio", "Teriflunomide",
       "aubagio 14mg", "Mayzent", "Siponimod", "Betaferon", "Avonex", "Plegridy",
       "copaxone", "Copaxone (glatiramer)", "GA 40mg tiw", "Lemtrada",
       "lemtrada (2 courses)", "none", "nil", "no DMT", "none (declined)", "None"]
PHENOTYPE = ["RRMS", "RR", "Relapsing-remitting MS", "Relapsing remitting", "SPMS", "SP",
             "Secondary progressive", "SPMS - not active", "PPMS", "PP",
             "Primary progressive", "CIS", "Clinically isolated syndrome"]
GD = ["0", "0", "Gd-", "none", "no Gd+", "1", "1 enhancing", "Gd+ x1", "2 enhancing",
      "Gd+ x2", "2", "3", "yes", "not given"]
JCV = ["JCV neg", "0.14", "-ve", "+ve", "Negative (0.11)", "neg", "Positive", "negative",
       "positive 0.9", "JCV+ index 1.9", "Positive (index 0.52)", "equivocal 0.25", "3.15",
       "0.27", "0.27 (indeterminate)", "not tested"]


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    rng = np.random.default_rng(85)
    edss = (rng.integers(0, 14, N) / 2).astype(object)
    edss[9] = 45  # a lost decimal point: 4.5
    sdmt = rng.integers(25, 70, N).astype(object)
    sdmt[4] = 510
    walk = np.round(rng.normal(6, 1.2, N).clip(3.5, 12), 1).astype(object)
    walk[[3, 30, 60]] = "unable"
    risk = -2.0 + 0.4 * np.asarray(
        [e if isinstance(e, float) else 4.5 for e in edss], dtype=float)
    event = rng.random(N) < 1 / (1 + np.exp(-risk))
    return pd.DataFrame({
        "Hospital No": [f"RX{4700000 + i}" for i in range(N)],
        "Age": rng.integers(20, 65, N),
        "MS phenotype": rng.choice(PHENOTYPE, N),
        "EDSS": edss,
        "T25FW (s)": walk,
        "SDMT": sdmt,
        "Date of last relapse": rng.choice(["2019", "2020", "none", "Nov-2020"], N),
        "Current DMT": rng.choice(DMT, N),
        "Treatment line": rng.choice(["1", "2", "1st line", "2nd line", "first line",
                                      "second-line", "escalation"], N),
        "New T2 lesions (last MRI)": rng.choice(["0", "1", "2", "3", "stable",
                                                 "multiple"], N),
        "Gd+ lesions": rng.choice(GD, N),
        "Spinal cord lesions": rng.choice(["yes", "Y", "No", "N", "none seen",
                                           "C-spine lesion C4", "cervical + thoracic"], N),
        "JCV antibody": rng.choice(JCV, N),
        OUTCOME: np.where(event, "Yes", "No"),
    })


@pytest.fixture(scope="module")
def encoder(export) -> Encoder:
    return Encoder(label_column=OUTCOME, id_column="Hospital No").fit(export)


def _said(enc: Encoder) -> str:
    return " ".join(enc.report_.notes + enc.report_.warnings)


def test_a_therapy_written_by_brand_generic_name_or_abbreviation_is_one_answer(encoder):
    """Left out as more than 30 text answers: the current disease-modifying therapy, the
    strongest treatment factor. Its brands, generic names and abbreviations name one drug,
    merged by default; a dose is offered into it, not merged."""
    assert encoder.roles_["Current DMT"] == "categorical"
    codes = encoder.table_.levels("Current DMT")
    for same in (("Ocrevus (ocrelizumab)", "OCREVUS", "Ocrelizumab"),
                 ("natalizumab", "Tysabri", "Tysabri SC", "natalizumab EID 6-weekly"),
                 ("DMF", "Tecfidera", "Dimethyl fumarate"), ("Kesimpta", "Ofatumumab"),
                 ("copaxone", "Copaxone (glatiramer)"),
                 ("none", "nil", "no DMT", "none (declined)")):
        assert len({codes[a] for a in same}) == 1, same
    assert codes["Ocrevus (ocrelizumab)"] != codes["Tysabri"]
    assert codes["Betaferon"] != codes["Avonex"] != codes["Plegridy"]  # 1b, 1a, pegylated
    offered = dict(encoder.report_.answers_two_ways["Current DMT"])
    assert offered["aubagio 14mg"] == "Teriflunomide" and "ocrelizumab 600mg 6-monthly" in \
        offered
    assert same_regimen("Tysabri", "natalizumab", "Previous DMTs")
    assert not same_regimen("Tysabri", "natalizumab", "Ward")
    assert drug_set("IFN b-1a -> DMF") == drug_set("Avonex, Tecfidera") == \
        frozenset({"interferon beta-1a", "dimethyl fumarate"})
    assert drug_set("glatiramer then fingolimod") == drug_set("Copaxone, Gilenya")
    assert drug_set("Tysabri (JCV+ switched)") == frozenset({"natalizumab"})


def test_a_sequence_of_therapies_is_merged_by_default_only_in_the_same_order():
    """"glatiramer -> fingolimod" and "fingolimod -> glatiramer" name the same drugs but
    two histories: merged by default, which came first was lost. Spellings of one
    history are still one answer."""
    col = "Current DMT"
    assert same_regimen("glatiramer -> fingolimod", "Copaxone then Gilenya", col)
    assert same_regimen("IFN b-1a -> DMF", "Avonex → Tecfidera", col)
    assert not same_regimen("glatiramer -> fingolimod", "fingolimod -> glatiramer", col)
    assert not same_regimen("glatiramer -> fingolimod", "glatiramer, fingolimod", col)
    assert not same_regimen("glatiramer -> fingolimod", "glatiramer -> Tysabri", col)
    assert same_regimen("LEV + LTG", "lamotrigine/levetiracetam", "Current ASMs")


def test_the_ms_phenotype_written_several_ways_is_one_answer(encoder):
    """"RRMS", "RR", "Relapsing remitting" were four answers, and a match on "RR" found a
    fifth of the relapsing-remitting patients. A modifier keeps its answer apart."""
    codes = encoder.table_.levels("MS phenotype")
    for same in (("RRMS", "RR", "Relapsing-remitting MS", "Relapsing remitting"),
                 ("SPMS", "SP", "Secondary progressive"), ("PPMS", "PP", "Primary progressive"),
                 ("CIS", "Clinically isolated syndrome")):
        assert len({codes[a] for a in same}) == 1, same
    assert len({codes[a] for a in ("RRMS", "SPMS", "PPMS", "CIS")}) == 4
    assert codes["SPMS - not active"] != codes["SPMS"]
    assert same_answer("RR", "RRMS", "MS phenotype")
    assert not same_answer("RR", "RRMS", "Ward")


def test_lesion_counts_written_in_words_are_numbers(encoder, export):
    """Gd+ lesions were 17 unordered answers: zero written four ways ("0", "Gd-", "none",
    "no Gd+"), "1 enhancing" and "Gd+ x1" apart from 1. "stable" new lesions were set to
    missing. A yes/no column of lesions is no count."""
    assert encoder.roles_["Gd+ lesions"] == "numeric"
    X = encoder.transform(export)
    col = list(encoder.feature_names_out_).index
    gd = dict(zip(export["Gd+ lesions"], X[:, col("Gd+ lesions")], strict=True))
    assert gd["Gd-"] == gd["none"] == gd["no Gd+"] == gd["0"] == 0
    assert gd["1 enhancing"] == gd["Gd+ x1"] == 1 and gd["Gd+ x2"] == gd["2 enhancing"] == 2
    assert np.isnan(gd["yes"]) and np.isnan(gd["not given"])
    new = dict(zip(export["New T2 lesions (last MRI)"], X[:, col("New T2 lesions (last MRI)")],
                   strict=True))
    assert new["stable"] == 0 and np.isnan(new["multiple"])
    assert encoder.roles_["Spinal cord lesions"] == "categorical"
    assert "read as a count of lesions (e.g." in _said(encoder)
    # a new patient's count in words, however few the rows
    one = export.iloc[:1].assign(**{"Gd+ lesions": "Gd+ x3"})
    assert encoder.transform(one)[0, col("Gd+ lesions")] == 3
    spinal = pd.DataFrame({"Spinal cord lesions": ["yes", "no", "none seen", "C4"] * 10})
    assert read_lesion_counts(spinal) is spinal


def test_a_location_on_the_spine_is_offered_as_its_yes(encoder):
    offered = dict(encoder.report_.answers_two_ways["Spinal cord lesions"])
    assert offered["C-spine lesion C4"] == offered["cervical + thoracic"] == "yes"
    assert offered["none seen"] in ("No", "N")


def test_an_edss_or_sdmt_beyond_its_scale_is_impossible(export):
    """EDSS 45 (its top is 10) and SDMT 510 (110 symbols) were used as given."""
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No")
    X = enc.fit_transform(export)  # what the model trains on
    col = list(enc.feature_names_out_).index
    assert np.isnan(X[9, col("EDSS")]) and np.isnan(X[4, col("SDMT")])
    assert np.isfinite(np.delete(X[:, col("EDSS")], 9)).all()
    said = _said(enc)
    assert "'EDSS' 45" in said and "'SDMT' 510" in said


def test_unable_to_walk_is_the_worst_walk_time(encoder, export):
    """The 25-foot walk's "unable" (EDSS 7 and above) was set to missing."""
    X = encoder.transform(export)
    walk = X[:, list(encoder.feature_names_out_).index("T25FW (s)")]
    assert np.isfinite(walk[[3, 30, 60]]).all()
    assert walk[3] == max(float(v) for v in export["T25FW (s)"] if v != "unable")
    assert "as unable to do the test" in _said(encoder)


def test_a_jc_virus_antibody_is_read_as_its_result(encoder, export):
    """Left out as more than 30 text answers: "JCV neg", "positive 0.9", "JCV+ index
    1.9", "0.14". The index reads by the assay's cut-offs: negative up to 0.20,
    equivocal up to 0.40, positive above; the laboratory's word decides when given."""
    assert encoder.roles_["JCV antibody"] == "categorical"
    read = read_serology(pd.DataFrame({"JCV antibody": JCV * 3}))["JCV antibody"]
    got = dict(zip(JCV, read[:len(JCV)], strict=True))
    assert {got[c] for c in ("JCV neg", "0.14", "-ve", "Negative (0.11)", "neg",
                             "negative")} == {"Negative"}
    assert {got[c] for c in ("+ve", "Positive", "positive 0.9", "JCV+ index 1.9",
                             "Positive (index 0.52)", "3.15")} == {"Positive"}
    assert {got[c] for c in ("equivocal 0.25", "0.27", "0.27 (indeterminate)")} == \
        {"Equivocal"}
    assert got["not tested"] == "not tested"
    X = encoder.transform(export.iloc[:1].assign(**{"JCV antibody": "JCV pos 1.2"}))
    codes = encoder.table_.levels("JCV antibody")
    assert X[0, list(encoder.feature_names_out_).index("JCV antibody")] == codes["Positive"]


def test_the_date_of_the_last_relapse_is_no_later_outcome():
    """"Date of last relapse" was left out as named like an outcome that happens later:
    the last relapse before the visit is known at it."""
    assert not later_outcome_named("Date of last relapse")
    assert not later_outcome_named("Most recent relapse")
    assert later_outcome_named("Relapse at 2 years")


def test_a_treatment_line_as_a_number_or_an_ordinal_is_one_answer(encoder):
    codes = encoder.table_.levels("Treatment line")
    assert codes["1"] == codes["1st line"] == codes["first line"]
    assert codes["2"] == codes["2nd line"] == codes["second-line"] != codes["1"]
    assert codes["escalation"] not in (codes["1"], codes["2"])


def test_an_oligoclonal_band_pattern_is_offered_as_its_result():
    """"Type 2 pattern" (bands in the CSF only) was an answer apart from Positive; a
    matched "type 4" pattern is no intrathecal synthesis."""
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"Oligoclonal bands": rng.choice(
        ["Positive", "Negative", "Type 2 pattern", "matched bands (type 4)"], 120),
        "Age": rng.integers(20, 60, 120)})
    offered = dict(Encoder().fit(df).report_.answers_two_ways["Oligoclonal bands"])
    assert offered == {"Type 2 pattern": "Positive", "matched bands (type 4)": "Negative"}
