"""Walk-through 82: a cystic fibrosis clinic's export, children and adults, with a
pulmonary exacerbation in the next 12 months as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.column_guess import guess_columns, later_outcome_named
from sparge.data.column_kinds import looks_like_follow_up
from sparge.data.drug_combinations import drug_set
from sparge.data.encoder import Encoder

N = 240
OUTCOME = "Pulmonary exacerbation requiring IVs in next 12 months"


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    rng = np.random.default_rng(82)
    fev = np.round(rng.normal(75, 20, N).clip(20, 125), 1)
    fev_cells = fev.astype(object)
    fev_cells[7] = 950.0  # a doubled digit: 95
    sweat = np.round(rng.normal(95, 15, N).clip(30, 150)).astype(object)
    sweat[11] = 1050
    pseudo = rng.choice(["Yes", "No", "Intermittent"], N, p=[0.35, 0.45, 0.2])
    risk = -1.0 - 0.04 * (fev - 75) + 1.2 * (pseudo == "Yes")
    event = rng.random(N) < 1 / (1 + np.exp(-risk))
    return pd.DataFrame({
        "Hospital No": [f"RX{2000000 + i}" for i in range(N)],
        "Age (yrs)": rng.integers(6, 60, N),
        "Pancreatic status": rng.choice(["Insufficient", "PI", "Sufficient", "PS"], N,
                                        p=[0.4, 0.4, 0.1, 0.1]),
        "Sweat Cl (mmol/L)": sweat,
        "FEV1 % pred": fev_cells,
        "Pseudomonas aeruginosa": pseudo,
        "CFTR modulator": rng.choice(["Kaftrio (ETI)", "Kaftrio", "ETI",
                                      "elexacaftor-tezacaftor-ivacaftor", "Orkambi",
                                      "Symkevi (tez/iva)", "none"], N),
        "IV courses (last 12m)": rng.poisson(1.0, N),
        "Hospital days (last 12m)": rng.poisson(6.0, N),
        OUTCOME: np.where(event, "Yes", "No"),
    })


def test_an_event_in_the_next_12_months_is_guessed_as_the_outcome(export):
    """Not guessed: the model trained without an outcome and the future event went in as
    an input. "In (the) next 12 months", "over the following year" name a window after
    the visit; "last 12m" and "in the last year" one before it."""
    assert guess_columns(export) == ("Hospital No", OUTCOME)
    assert later_outcome_named(OUTCOME)
    for name in ("Admission over the following 30 days", "Flare in the next year"):
        assert guess_columns(export.rename(columns={OUTCOME: name}))[1] == name
    for name in ("Exacerbations (last 12m)", "Exacerbation in the last year"):
        assert guess_columns(export.rename(columns={OUTCOME: name}))[1] is None


def test_hospital_days_in_the_last_year_are_known_at_the_visit():
    """Left out as a length of stay, while "IV courses (last 12m)" was kept: days in
    hospital over a window before the visit are a history, not a stay after it."""
    assert not looks_like_follow_up("Hospital days (last 12m)")
    assert not looks_like_follow_up("Bed days in the past year")
    assert looks_like_follow_up("Hospital days") and looks_like_follow_up("Length of stay")


def test_impossible_lung_function_and_sweat_chloride_are_not_trained_on(export):
    """An FEV1 of 950 % predicted and a sweat chloride of 1050 mmol/L were "used as
    given": neither is possible (0-200 %, 0-200 mmol/L)."""
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME)
    X = enc.fit_transform(export)
    names = enc.feature_names_out_
    assert np.isnan(X[7, names.index("FEV1 % pred")])
    assert np.isnan(X[11, names.index("Sweat Cl (mmol/L)")])
    assert np.isfinite(X[8, names.index("FEV1 % pred")])
    assert {("FEV1 % pred", 7), ("Sweat Cl (mmol/L)", 11)} <= \
        {(c, r) for c, r in enc.report_.impossible}
    assert enc.roles_["Hospital days (last 12m)"] == "numeric"


def test_pancreatic_status_abbreviations_are_one_answer(export):
    """"PI" beside "Insufficient" and "PS" beside "Sufficient" were four answers."""
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(export)
    codes = enc.table_.to_dict()["Pancreatic status"]
    assert codes["PI"] == codes["Insufficient"] != codes["PS"] == codes["Sufficient"]


def test_cftr_modulators_written_four_ways_name_the_same_drugs():
    """"Kaftrio (ETI)", "Kaftrio", "ETI" and "elexacaftor-tezacaftor-ivacaftor" are one
    treatment; "Symkevi (tez/iva)" and "Orkambi" two others."""
    eti = frozenset({"elexacaftor", "tezacaftor", "ivacaftor"})
    for answer in ("Kaftrio (ETI)", "Kaftrio", "ETI", "elexacaftor-tezacaftor-ivacaftor",
                   "Kaftrio + Kalydeco", "Trikafta"):
        assert drug_set(answer) == eti, answer
    assert drug_set("Symkevi (tez/iva)") == frozenset({"tezacaftor", "ivacaftor"})
    assert drug_set("Orkambi") == frozenset({"lumacaftor", "ivacaftor"})
    assert drug_set("Colomycin 2MU bd") == drug_set("Promixin") == {"colistimethate"}
    # one name with a hyphen stays one drug; unknown words joined by hyphens are no drugs
    assert drug_set("co-amoxiclav") == {"co-amoxiclav"}
    assert drug_set("elexacaftor-something") is None


def test_a_protein_change_in_three_letter_codes_is_the_one_letter_genotype():
    """"Phe508del/Phe508del" (HGVS) beside "F508del/F508del" (legacy) were two genotypes:
    in a column of genotypes they are one answer, merged by default; elsewhere and for
    other changes, nothing is merged."""
    from sparge.data.answer_merging import same_answer
    from sparge.data.levels import abbreviated_levels, protein_key

    assert protein_key("p.(gly12asp)") == "g12d" and protein_key("gly542*") == "g542x"
    levels = ["F508del/F508del", "F508del/G551D", "Phe508del/Phe508del",
              "Phe508del/Gly551Asp", "G542X/N1303K", "Gly542Ter/Asn1303Lys", "unknown"]
    pairs = abbreviated_levels(levels, "CFTR genotype")
    assert sorted(pairs) == [("Gly542Ter/Asn1303Lys", "G542X/N1303K"),
                             ("Phe508del/Gly551Asp", "F508del/G551D"),
                             ("Phe508del/Phe508del", "F508del/F508del")]
    assert all(same_answer(a, b, "CFTR genotype") for a, b in pairs)
    assert not same_answer("Phe508del/Phe508del", "F508del/F508del", "Comments")
    assert not same_answer("F508del/F508del", "F508del/G551D", "CFTR genotype")
    assert abbreviated_levels(levels, "Comments") == []
    df = pd.DataFrame({"ID": range(40), "CFTR genotype": ["F508del/F508del"] * 30
                       + ["Phe508del/Phe508del"] * 10, "FEV1 % pred": range(50, 90),
                       "Outcome": ["Yes", "No"] * 20})
    enc = Encoder(id_column="ID", label_column="Outcome").fit(df)
    codes = enc.table_.to_dict()["CFTR genotype"]
    assert codes["Phe508del/Phe508del"] == codes["F508del/F508del"]


def test_a_yes_written_as_its_treatment_is_offered_as_yes():
    """CFRD "on insulin" stayed a fourth answer beside Y/Yes, N/No and IGT: it is a yes
    written as its treatment, offered to merge ("not on insulin" is not)."""
    from sparge.data.levels import abbreviated_levels

    assert ("on insulin", "Yes") in abbreviated_levels(
        ["Y", "Yes", "N", "No", "IGT", "on insulin"], "CFRD")
    pairs = abbreviated_levels(["Yes", "No", "diet controlled", "not on insulin"], "Diabetes")
    assert pairs == [("diet controlled", "Yes")]
