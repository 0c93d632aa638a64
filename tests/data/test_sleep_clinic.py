"""Walk-through 79: a sleep-apnoea clinic's export, CPAP adherence at 3 months.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.alcohol import read_alcohol
from sparge.data.encoder import Encoder
from sparge.services.ages import default_ages

N = 240
OUTCOME = "CPAP adherent at 3 months"


@pytest.fixture(scope="module")
def clinic() -> pd.DataFrame:
    rng = np.random.default_rng(79)
    severity = rng.normal(size=N)
    neck = np.round(40 + 3 * severity + rng.normal(0, 2, N), 1)
    neck_cells = neck.astype(object)
    inches = rng.choice(N, 20, replace=False)
    neck_cells[inches] = np.round(neck[inches] / 2.54, 1)  # inches, no unit written
    neck_cells[5] = 4.3  # a lost digit
    ahi = np.round(np.exp(3 + 0.6 * severity + rng.normal(0, 0.3, N)), 1).astype(object)
    ahi[7] = 1500.0
    odi = np.round(np.asarray(ahi[:], dtype=float) * 0.9, 1).astype(object)
    odi[7], odi[9] = 40.0, -3.0
    spo2 = np.clip(np.round(88 - 4 * severity + rng.normal(0, 2, N)), 60, 95).astype(object)
    spo2[11] = 0.84  # a fraction among percentages
    epworth = np.clip(np.round(11 + 3 * severity + rng.normal(0, 3, N)), 0, 24).astype(int)
    epworth_cells = epworth.astype(object)
    epworth_cells[13] = 31
    epworth_cells[14] = "14/24"
    weight = np.round(95 + 15 * severity + rng.normal(0, 8, N), 1).astype(object)
    weight[::10] = [f"{w}kg" for w in weight[::10]]  # the unit written on some
    weight[15] = 925.0  # 92.5 kg
    born = pd.Timestamp("1950-01-01") + pd.to_timedelta(rng.integers(0, 15000, N), unit="D")
    seen = pd.Timestamp("2021-01-01") + pd.to_timedelta(rng.integers(0, 900, N), unit="D")
    alcohol = rng.integers(0, 30, N).astype(str).astype(object)
    alcohol[rng.choice(N, 8, replace=False)] = "0 - teetotal"
    return pd.DataFrame({
        "Hospital No": [f"RX{3400000 + i}" for i in range(N)],
        "DOB": born.strftime("%d/%m/%Y"),
        "Date first seen": seen.strftime("%d/%m/%Y"),
        "Sex": rng.choice(["M", "Male", "male", "F", "female"], N),
        "Weight": weight, "Neck circ": neck_cells, "AHI": ahi, "ODI": odi,
        "Lowest SpO2 %": spo2, "Epworth": epworth_cells,
        "Smoking": rng.choice(["never", "Never", "ex", "Ex smoker", "current",
                               "Current smoker"], N),
        "Alcohol (units/wk)": alcohol,
        OUTCOME: np.where(severity + rng.normal(0, 1, N) > 0, "Yes", "No"),
    })


@pytest.fixture(scope="module")
def encoded(clinic):
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME)
    return enc, enc.fit_transform(clinic)


def _column(encoded, name):
    enc, X = encoded
    return X[:, enc.feature_names_out_.index(name)]


def test_the_age_is_taken_at_the_date_first_seen(clinic):
    """The clinic had "DOB" and "Date first seen" and no age: the age a sleep physician
    relies on was not added ("seen" named no event)."""
    ages = default_ages(clinic, "Hospital No", OUTCOME)
    assert list(ages) == ["Age at Date first seen"]
    assert ages["Age at Date first seen"]["at"] == "Date first seen"
    # a date last seen follows the outcome: no event
    last = clinic.rename(columns={"Date first seen": "Date last seen"})
    assert default_ages(last, "Hospital No", OUTCOME) is None


def test_neck_circumferences_in_inches_among_cm_are_converted(clinic, encoded):
    """29 necks written in inches without a unit ("15.4") were read as 15.4 cm, trained
    on, and grouped their patients as look-alikes."""
    neck = _column(encoded, "Neck circ")
    written = pd.to_numeric(clinic["Neck circ"], errors="coerce").to_numpy()
    inches = (written < 20) & (written > 8)
    np.testing.assert_allclose(neck[inches], written[inches] * 2.54)
    assert np.isnan(neck[5])  # 4.3: no neck, in either unit


@pytest.mark.parametrize("column, row", [
    ("AHI", 7), ("ODI", 9), ("Epworth", 13), ("Weight", 15), ("Lowest SpO2 %", 11)])
def test_values_no_patient_can_have_are_missing_for_training(encoded, column, row):
    """An AHI of 1500 led a patient's "most distinctive biomarkers"; a weight of 925 kg,
    an SpO2 of 0.84 % (its unit said by a bare "%"), an Epworth score of 31 (its top is
    24) and an ODI of -3 trained the model as given."""
    enc, _ = encoded
    assert [column, row] in enc.report_.impossible
    assert np.isnan(_column(encoded, column)[row])


def test_the_other_values_are_kept(clinic, encoded):
    epworth = _column(encoded, "Epworth")
    assert epworth[14] == 14  # "14/24"
    assert np.nanmax(_column(encoded, "AHI")) < 200
    assert np.nanmin(_column(encoded, "Lowest SpO2 %")) >= 60


def test_a_teetotal_written_after_its_zero_is_zero(clinic):
    out = read_alcohol(clinic[["Alcohol (units/wk)"]])
    teetotal = clinic["Alcohol (units/wk)"] == "0 - teetotal"
    assert (pd.to_numeric(out["Alcohol (units/wk)"][teetotal]) == 0).all()


def test_sex_and_smoking_written_several_ways_are_one_answer_each(encoded):
    """The form offered "F, Female, M, Male" and nine smoking answers; choosing "M" for
    "Male" changed a new patient's look-alikes."""
    enc, _ = encoded
    def code(column, answer):
        return enc.table_.lookup(column, answer)

    assert code("Sex", "M") == code("Sex", "Male") == code("Sex", "male") != \
        code("Sex", "F") == code("Sex", "female")
    assert code("Smoking", "ex") == code("Smoking", "Ex smoker")
    assert code("Smoking", "current") == code("Smoking", "Current smoker")
    assert code("Smoking", "never") == code("Smoking", "Never")
    assert len(set(enc.table_.levels("Smoking").values())) == 3


def test_the_dates_note_says_the_age_is_in_the_model(clinic):
    """The report offered to add an age from the date of birth beside the age added by
    default."""
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME,
                  ages=default_ages(clinic, "Hospital No", OUTCOME)).fit(clinic)
    assert "Age at Date first seen" in enc.feature_names_out_
    note = next(n for n in enc.report_.notes if "which hold dates" in n)
    assert "the age computed from the date of birth is one" in note
    assert "Add an age" not in note
