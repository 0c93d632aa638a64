"""Measures written in two units at once (sparge.data.compound_units), and the other
forms an emergency department's export wrote numbers in (walk-through 33)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.compound_units import (
    clock_minutes,
    inches,
    minutes,
    read_compound_units,
)
from sparge.data.encoder import Encoder
from sparge.data.parsing import parse_numeric, plain_number, score_maximum


def test_feet_and_inches_and_hours_and_minutes_are_read_in_one_unit():
    assert inches("5'7\"") == inches("5 ft 7 in") == inches("5'7") == 67.0
    assert inches("6'") == 72.0 and inches("5'13\"") is None and inches("170") is None
    assert minutes("1h 20m") == minutes("1 hr 20 min") == 80.0
    assert minutes("2 hours 5 minutes") == 125.0 and minutes("1h 75m") is None
    assert clock_minutes("01:20") == 80.0 and clock_minutes("1:75") is None


def test_only_heights_and_columns_of_durations_are_rewritten():
    df = pd.DataFrame({
        "Height": ["170", "5'7\"", "5 ft 7 in", "160 cm", "5'7"],
        "Time to doctor": ["80", "1h 20m", "80 min", "01:20", "45"],
        "Ward": ["4H", "5H", "1A", "2B", "4H"],  # wards, not hours
        "Arrival": ["14:30", "09:12", "01:20", "22:00", "10:00"],  # times of day
        "Lap time": ["5'7", "5'9", "6'1", "5'2", "5'5"]})  # minutes and seconds?
    out = read_compound_units(df)
    assert list(out["Height"]) == ["170", "67 in", "67 in", "160 cm", "67 in"]
    assert list(out["Time to doctor"]) == ["80", "80 min", "80 min", "80 min", "45"]
    for col in ("Ward", "Arrival", "Lap time"):
        assert list(out[col]) == list(df[col])
    notes = out.attrs["sparge_read_notes"]
    assert any("'Height': 3 height(s) written in feet and inches" in n
               and "read in inches (67 in)" in n for n in notes)


def test_a_clinic_exports_plain_numbers_written_other_ways():
    """Walk-through 33: pain "7/10" and "seven", "GCS 14", SpO2 "94% on 2L", troponin
    "<5 ng/L" and a weight "est 67" were set to missing, or cost their column."""
    assert plain_number("7/10", 10) == 7 and plain_number("14/27", 27) == 14
    assert plain_number("7/10") is None  # a fraction alone says nothing of its maximum
    assert plain_number("seven") == 7 and plain_number("GCS: 14/15") == 14
    assert plain_number("PHQ9: 14") == 14 and plain_number("AUDIT 18/40") == 18
    assert plain_number("14 (moderate)") == 14 and plain_number("5 (mg)") is None
    assert score_maximum(["7/10", "3", "10/10"]) == 10
    assert score_maximum(["6/9", "6/12"]) is None  # Snellen acuities
    assert score_maximum(["120/80"]) is None
    cells = pd.Series(["98% RA", "94% on 2L", "94 % O2", "93% 2L NP", "96", "<5 ng/L",
                       "est 67", "~70 kg", "5% dextrose"])
    values, info = parse_numeric(cells, unit="ng/L")
    np.testing.assert_array_equal(values[:8], [98, 94, 94, 93, 96, 5, 67, np.nan])
    assert np.isnan(values[8])  # not a saturation: left as text
    assert [c for _, c, _ in info["saturation"]] == list(cells[:4])
    assert info["censored"] == [(5, "<5 ng/L")]
    assert [c for _, c, _ in info["estimated"]] == ["est 67"]


def test_an_emergency_departments_columns_are_read_and_noted():
    rng = np.random.default_rng(3)
    n = 200
    pain = rng.integers(0, 11, n)
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
             "nine", "ten"]
    df = pd.DataFrame({
        "Pain": [(str(p), f"{p}/10", words[p])[i % 3] for i, p in enumerate(pain)],
        "Time to doctor": [f"{t // 60}h {t % 60}m" if i % 2 else f"{t} min"
                           for i, t in enumerate(rng.integers(5, 300, n))],
        "Height": [f"{h // 12}'{h % 12}\"" if i % 4 == 0 else f"{h * 2.54:.0f}"
                   for i, h in enumerate(rng.integers(60, 76, n))],
        "WBC": [f"{w:.1f}" if i % 10 else f"{w * 1000:,.0f}"
                for i, w in enumerate(rng.uniform(4, 15, n))],
        "Outcome": rng.choice(["a", "b"], n)})
    enc = Encoder(label_column="Outcome").fit(df)
    X = enc.transform(df)
    names = list(enc.feature_names_out_)
    assert {"Pain", "Time to doctor", "Height", "WBC"} <= set(names)
    np.testing.assert_array_equal(X[:, names.index("Pain")], pain)
    h = X[:, names.index("Height")]
    assert np.nanmin(h) > 140 and np.nanmax(h) < 200 and np.isfinite(h).all()
    wbc = enc.report_.values_to_check
    listed = [v for v in wbc if v[0] == "WBC"]
    assert len(listed) == 20 and all(v[3] == "/µL" for v in listed)
    assert all(v[4] == pytest.approx(v[2] / 1000) for v in listed)


def test_a_column_of_bands_written_as_limits_stays_answers():
    """rott2's tumour size "<=20mm", ">20-50mmm", ">50mm" and nki70's "<=2cm", ">2cm" are
    bands: read as limits with a unit they fell to one or two values (found by encoding
    the 49 benchmark cohorts before and after the limits with units were read)."""
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"Size": rng.choice(["<=20mm", ">20-50mmm", ">50mm"], 120),
                       "Diam": rng.choice(["<=2cm", ">2cm"], 120),
                       "Troponin": rng.choice(["<5 ng/L", "12", "30", "8 ng/L"], 120),
                       "Outcome": rng.choice(["a", "b"], 120)})
    enc = Encoder(label_column="Outcome").fit(df)
    assert enc.roles_["Size"] == enc.roles_["Diam"] == "categorical"
    assert enc.roles_["Troponin"] == "numeric"
    assert set(enc.table_.levels("Diam")) == {"<=2cm", ">2cm"}


def test_scales_out_of_any_maximum_are_read_and_acuities_are_not():
    """Walk-through 35's mental health unit: PHQ-9 "14/27", "PHQ9: 14", "14 (moderate)";
    a Snellen acuity column ("6/9", "6/12") is no score: its logMAR (walk-through 77)."""
    rng = np.random.default_rng(6)
    phq = rng.integers(0, 28, 150)
    df = pd.DataFrame({
        "PHQ-9": [(str(p), f"{p}/27", f"PHQ9: {p}", f"{p} (moderate)")[i % 4]
                  for i, p in enumerate(phq)],
        "Acuity": rng.choice(["6/6", "6/9", "6/12", "6/18"], 150),
        "Outcome": rng.choice(["a", "b"], 150)})
    enc = Encoder(label_column="Outcome").fit(df)
    np.testing.assert_array_equal(enc.transform(df)[:, enc.feature_names_out_.index("PHQ-9")],
                                  phq)
    acuity = enc.transform(df)[:, enc.feature_names_out_.index("Acuity")]
    np.testing.assert_allclose(acuity, np.log10(df["Acuity"].str[2:].astype(float) / 6),
                               atol=1e-3)


def test_stones_milliseconds_and_units_of_alcohol_and_tobacco_are_read():
    """Walk-through 35's forms: weights "12st 4lb" among kg, QTc "440ms" and "0.44 s",
    alcohol "20 units/wk" / "20u/w", smoking "10/day" / "10 cpd"."""
    from sparge.data.compound_units import pounds_of_stones

    assert pounds_of_stones("12st 4lb") == 172 and pounds_of_stones("12 stone") == 168
    assert pounds_of_stones("12st 15lb") is None
    rng = np.random.default_rng(7)
    n = 120
    kg = rng.normal(80, 10, n).round(1)
    q = rng.integers(380, 480, n)
    alcohol, cigs = rng.integers(0, 60, n), rng.integers(0, 30, n)
    stones = [divmod(round(w / 0.45359237), 14) for w in kg]
    df = pd.DataFrame({
        "Weight (kg)": [f"{st}st {lb}lb" if i % 5 == 0 else str(w)
                        for i, (w, (st, lb)) in enumerate(zip(kg, stones, strict=True))],
        "QTc": [f"{v / 1000:.3f} s" if i % 7 == 0 else f"{v}ms" if i % 3 == 0 else str(v)
                for i, v in enumerate(q)],
        "Alcohol": [(f"{v} units/wk", f"{v}u/w", str(v))[i % 3] for i, v in enumerate(alcohol)],
        "Smoking": [(f"{v}/day", f"{v} cpd", str(v))[i % 3] for i, v in enumerate(cigs)],
        "Outcome": rng.choice(["a", "b"], n)})
    enc = Encoder(label_column="Outcome").fit(df)
    X = pd.DataFrame(enc.transform(df), columns=enc.feature_names_out_)
    true_kg = [(14 * st + lb) * 0.45359237 if i % 5 == 0 else w
               for i, (w, (st, lb)) in enumerate(zip(kg, stones, strict=True))]
    np.testing.assert_allclose(X["Weight (kg)"], true_kg, atol=1e-6)
    np.testing.assert_allclose(X["QTc"], q, atol=1e-6)
    np.testing.assert_array_equal(X["Alcohol"], alcohol)
    np.testing.assert_array_equal(X["Smoking"], cigs)


def test_none_is_zero_where_the_column_writes_zero_and_number_words_reach_ninety_nine():
    """Walk-through 35: alcohol "nil" / "none" (160 cells) and prior admissions "none"
    were gaps; PHQ-9 "twenty-one" was lost."""
    cells = pd.Series(["0", "12", "nil", "none", "30", "twenty-one", "forty two", "never"])
    values, info = parse_numeric(cells)
    np.testing.assert_array_equal(values, [0, 12, 0, 0, 30, 21, 42, 0])
    assert len(info["none_as_zero"]) == 3
    # a column without a 0 (a lab value): "none" stays a gap
    values, _ = parse_numeric(pd.Series(["4.1", "none", "5.0"]))
    assert np.isnan(values[1])


def test_a_new_patients_score_is_read_out_of_the_training_columns_maximum():
    """Walk-through 36: a PHQ-9 typed "14/21" (GAD-7's maximum) on the New patient page
    was read as 14 without a word."""
    rng = np.random.default_rng(9)
    phq = rng.integers(0, 28, 120)
    df = pd.DataFrame({"PHQ-9": [f"{p}/27" if i % 3 == 0 else str(p)
                                 for i, p in enumerate(phq)],
                       "HR": rng.integers(50, 100, 120), "Outcome": rng.choice(["a", "b"], 120)})
    enc = Encoder(label_column="Outcome").fit(df)
    assert enc.score_maxima_ == {"PHQ-9": 27}
    back = Encoder.from_dict(enc.to_dict())
    new = pd.DataFrame({"PHQ-9": ["14/27", "14/21", "14"], "HR": ["80"] * 3})
    got = back.transform(new)[:, back.feature_names_out_.index("PHQ-9")]
    assert got[0] == 14 and np.isnan(got[1]) and got[2] == 14
    # a column that wrote no score out of a maximum reads none for a new patient
    plain = Encoder(label_column="Outcome").fit(df.assign(**{"PHQ-9": phq.astype(str)}))
    assert np.isnan(plain.transform(new.iloc[[0]])[0, 0])


def test_a_count_with_its_word_is_a_number_not_a_unit():
    """Walk-through 36: "5 previous" made "previous" the unit of 'Prior admissions'."""
    from sparge.data.parsing import column_units

    cells = pd.Series(["5 previous", "2 previous", "3", "0", "none"])
    assert column_units(cells, "Prior admissions").written == {}
    np.testing.assert_array_equal(parse_numeric(cells)[0], [5, 2, 3, 0, 0])
