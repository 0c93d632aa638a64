"""sparge.data.plausible: a column's unit from its values, and cells written in another
unit that the far-values rule does not see (walk-through 27's ICU export)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.plausible import quantity_of, unit_from_values, unit_slips


@pytest.mark.parametrize("name, quantity", [
    ("Temp max", "temperature"), ("num_temp", "temperature"), ("TempMax", "temperature"),
    ("Creatinine", "creatinine"), ("s_creat", "creatinine"), ("Hb (g/dL)", "haemoglobin"),
    ("Albumin", "albumin"), ("Height", "height"), ("Lactate (mmol/L)", "lactate"),
    ("HbA1c (%)", "HbA1c"), ("HbA1c", "HbA1c"), ("Hb A1c", "HbA1c"),
    ("Glycated haemoglobin", "HbA1c"), ("Hb", "haemoglobin"), ("CA 19-9", None),
    ("Temperament score", None), ("Age", None),
    ("Albumin/creatinine ratio", None), ("Urine creatinine", None), ("BUN/Cr", None),
    ("Creatinine change", None), ("Creatinine (mg/dL)", "creatinine"),
])
def test_the_quantity_is_named_by_whole_words(name, quantity):
    found = quantity_of(name)
    assert (found[0] if found else None) == quantity


def test_a_columns_unit_is_read_from_its_values_only_when_one_unit_fits():
    rng = np.random.default_rng(0)
    mg = np.exp(rng.normal(np.log(1.1), 0.4, 300))
    assert unit_from_values("Creatinine", mg) == "mg/dL"
    assert unit_from_values("Creatinine", mg * 88.42) == "µmol/L"
    # 12 % in °C among °F: still °F
    temps = np.r_[rng.normal(100.5, 1.5, 264), rng.normal(38, 0.8, 36)]
    assert unit_from_values("Temp max", temps) == "°F"
    # half and half is no unit; a bilirubin of median 1.2 fits mg/dL and µmol/L
    assert unit_from_values("Temp max", np.r_[temps[:150], temps[:150] * 5 / 9 - 17.8]) \
        is None
    assert unit_from_values("Bilirubin", rng.uniform(1.1, 1.3, 100)) is None
    # codes are no measurement (smarto's albuminuria 1, 2, 3); nor a name of no quantity
    assert unit_from_values("fac_albumin", rng.integers(1, 4, 300)) is None
    assert unit_from_values("Age", rng.uniform(20, 90, 300)) is None


def test_a_low_value_is_not_read_as_another_unit_many_times_the_columns_values():
    """Walk-through 72: a frail patient's creatinine of 24 µmol/L (eGFR >90 beside it)
    was read as 24 mg/dL, 2,122 µmol/L, for training. 24 µmol/L is possible; and a
    value impossible in its unit is not read as another unit when that makes it 20 times
    the column's typical value (a lost or doubled digit is likelier)."""
    rng = np.random.default_rng(1)
    umol = np.round(np.exp(rng.normal(np.log(85), 0.35, 200)))
    col = np.r_[umol, 24.0, 1.1, 9.0]
    slipped, source, conv = unit_slips("Creatinine", "µmol/L", col)
    assert not slipped[200]                          # 24 µmol/L: low, possible
    assert slipped[201] and conv[201] == pytest.approx(97.2, abs=0.1)   # 1.1 mg/dL
    assert slipped[202] and conv[202] == pytest.approx(795.6, abs=0.5)  # 9 mg/dL
    # a haemoglobin of 1220 g/L (122.0 with a lost point) is not 1220 g/dL: in no unit;
    # 14.1 among g/L values is g/dL, 141 g/L
    hb = np.r_[np.round(rng.normal(125, 15, 200)), 14.1]
    s2 = unit_slips("Hb", "g/L", hb)
    assert s2[0][200] and s2[2][200] == pytest.approx(141.0)
    # the guard itself: among creatinines of median 55 µmol/L, 14.5 (impossible) read as
    # mg/dL would be 1,282, 23 times the median: left as written, to be checked; 9.0
    # would be 796, 14 times: read as mg/dL
    low = np.r_[np.round(np.exp(rng.normal(np.log(55), 0.3, 200))), 14.5, 9.0]
    s3 = unit_slips("Creatinine", "µmol/L", low)
    assert np.median(low[:200]) == pytest.approx(55, abs=3)
    assert not s3[0][200] and s3[0][201]


def test_slips_are_values_impossible_in_the_unit_and_possible_after_an_exact_conversion():
    slipped, source, conv = unit_slips("Temp max", "°F", [101.1, 38.0, 36.5, 99.1, np.nan,
                                                          130.0, 20.0])
    assert slipped.tolist() == [False, True, True, False, False, False, False]
    assert source[1:3] == ["°C", "°C"]
    np.testing.assert_allclose(conv[1:3], [100.4, 97.7])
    assert np.isnan(conv[[0, 3, 4, 5, 6]]).all()  # 130 °F and 20 °F: in no unit
    slipped, source, conv = unit_slips("Creatinine", "mg/dL", [0.9, 214.0, 3000.0])
    assert slipped.tolist() == [False, True, False]  # 3000: neither mg/dL nor µmol/L
    assert source[1] == "µmol/L" and conv[1] == pytest.approx(214 * 113.12 / 10000)
    # the other way round, and a haemoglobin in g/L among g/dL
    assert unit_slips("Creatinine", "µmol/L", [1.6])[2][0] == pytest.approx(141.4, abs=0.1)
    assert unit_slips("Hb", "g/dL", [147.0])[2][0] == pytest.approx(14.7)
    # no quantity, no unit, or a unit the quantity does not list: nothing
    for name, unit in (("Age", "years"), ("Temp max", None), ("Temp max", "K")):
        assert not unit_slips(name, unit, [38.0, 500.0])[0].any()


def _icu(n: int = 300, seed: int = 27) -> pd.DataFrame:
    """An ICU export's shape: temperatures in °F with 12 % in °C, a creatinine without a
    unit with a few in µmol/L, GCS written as totals and as parts, and an MRN."""
    rng = np.random.default_rng(seed)
    died = rng.random(n) < 0.3
    temp_f = np.round(rng.normal(100.2, 1.4, n) + 1.0 * died, 1)
    celsius = rng.random(n) < 0.12
    temp = np.where(celsius, np.round((temp_f - 32) * 5 / 9, 1), temp_f)
    creat = np.round(np.exp(rng.normal(np.log(1.1), 0.4, n)) * (1 + died), 2)
    umol = rng.random(n) < 0.06
    creat_cell = np.where(umol, np.round(creat * 88.42).astype(int).astype(str),
                          creat.astype(str))
    e, v, m = rng.integers(1, 5, n), rng.integers(1, 6, n), rng.integers(1, 7, n)
    parts = rng.random(n) < 0.4
    gcs = np.where(parts, [f"E{a}V{b}M{c}" for a, b, c in zip(e, v, m)],
                   (e + v + m).astype(str))
    return pd.DataFrame({
        "MRN": [f"{i:08d}" for i in rng.integers(1, 10**7, n)],
        "Temp max": temp.astype(str), "Creatinine": creat_cell, "GCS": gcs,
        "HR": rng.integers(60, 140, n).astype(str),
        "Outcome": np.where(died, "Died", "Survived")}), celsius, umol, e + v + m, creat, \
        temp_f


def test_the_encoder_lists_the_slips_with_their_unit_and_the_values_converted():
    df, celsius, umol, total, creat, temp_f = _icu()
    df.loc[5, "MRN"] = df.loc[6, "MRN"]  # an MRN repeats: not the ID
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    rep = enc.report_
    assert enc.value_units_ == {"Temp max": "°F", "Creatinine": "mg/dL"}
    assert enc.cell_unit("Temp max") == "°F" and enc.unit_of("Creatinine") == "mg/dL"
    assert any("No unit in the name of 'Temp max', 'Creatinine'" in n for n in rep.notes)
    listed = {(c, r): (u, v) for c, r, _, u, v in rep.values_to_check}
    assert {r for c, r in listed if c == "Temp max"} == set(np.flatnonzero(celsius))
    assert {r for c, r in listed if c == "Creatinine"} == set(np.flatnonzero(umol))
    for (c, r), (u, v) in listed.items():
        want = temp_f[r] if c == "Temp max" else creat[r]
        assert u == ("°C" if c == "Temp max" else "µmol/L")
        assert v == pytest.approx(want, abs=0.1 if c == "Temp max" else 0.01)
    assert any("impossible in its unit" in w and "(in '°C'? " in w for w in rep.warnings)
    # the MRN is no biomarker; GCS parts read as their total
    assert enc.roles_["MRN"] == "ignore" and "MRN" not in enc.feature_names_out_
    assert any("'MRN', named like a patient identifier" in n for n in rep.notes)
    g = enc.feature_names_out_.index("GCS")
    np.testing.assert_array_equal(X[:, g], total)
    assert any("Glasgow coma scale's parts" in n for n in rep.notes)
    # saved and loaded, the units from values stay
    again = Encoder.from_dict(enc.to_dict())
    assert again.value_units_ == enc.value_units_


def test_a_new_patients_cell_in_another_unit_is_converted_and_a_bare_slip_questioned():
    from sparge.services.workflow import questioned_values

    df, *_ = _icu()
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    new = pd.DataFrame({"Temp max": ["38.9 °C", "38.9"], "Creatinine": ["1.2", "1.3"],
                        "GCS": ["E4V5M6", "12"], "HR": ["90", "95"]})
    Xn = enc.transform(new)
    t = enc.feature_names_out_.index("Temp max")
    assert Xn[0, t] == pytest.approx(102.02)  # written with its unit: converted
    assert Xn[1, t] == 38.9  # a bare 38.9 reads as given ...
    ref = pd.DataFrame(X, columns=enc.feature_names_out_)
    got = questioned_values(Xn[1], ref, enc)  # ... within the training range, but asked
    assert t in got and got[t].source_unit == "°C" and got[t].far
    assert got[t].converted == pytest.approx(102.02)
    assert "in °C? that would be 102 °F" in got[t].words
    # the value as typed (walk-through 33 typed 101.3 and was asked about "101")
    assert got[t].words.startswith("Temp max = 38.9 (")
    from sparge.data.number_format import format_given

    assert format_given(101.3) == "101.3" and format_given(12000) == "12\u00a0000"
    assert format_given(0.000123456) == "0.000123456" and format_given(3.0) == "3"


def test_a_refit_reads_the_units_of_its_own_table():
    """The units read from values belong to the table fitted last: a refit on a table in
    °C does not keep the °F of the one before."""
    df, *_ = _icu()
    enc = Encoder(label_column="Outcome").fit(df)
    assert enc.value_units_["Temp max"] == "°F"
    temps = pd.to_numeric(df["Temp max"])
    celsius = np.where(temps > 50, (temps - 32) * 5 / 9, temps).round(1)
    enc.fit(df.assign(**{"Temp max": celsius.astype(str)}))
    assert enc.value_units_["Temp max"] == "°C"
    assert not any(c == "Temp max" for c, *_ in enc.report_.values_to_check)


def test_hba1c_in_percent_among_mmol_per_mol_is_found_and_converted():
    """Walk-through 29's practice export wrote 101 of 908 HbA1c in % (DCCT) among
    mmol/mol (IFCC), no unit anywhere: the far values set them to missing, 12 % of the
    column, with two real typos (680, 480) among them."""
    from sparge.services.workflow import questioned_values

    rng = np.random.default_rng(29)
    ifcc = np.round(rng.normal(58, 12, 400).clip(30, 120))
    pct = rng.random(400) < 0.1
    cells = np.where(pct, np.round(ifcc * 0.09148 + 2.152, 1), ifcc)
    cells[7], cells[50] = 680, 480
    df = pd.DataFrame({"HbA1c": cells, "Age": rng.integers(30, 90, 400),
                       "Outcome": rng.integers(0, 2, 400)})
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    assert enc.value_units_ == {"HbA1c": "mmol/mol"}
    listed = {r: (u, v) for c, r, _, u, v in enc.report_.values_to_check}
    assert {r for r, (u, _) in listed.items() if u == "%"} == set(np.flatnonzero(pct)) - {7, 50}
    assert listed[7] == (None, None) and listed[50] == (None, None)  # typos: no unit
    for r in np.flatnonzero(pct):
        if r not in (7, 50):
            assert listed[r][1] == pytest.approx(ifcc[r], abs=0.6)
    # a new patient: "7.5 %" is converted; a bare 7.5 asked about
    Xn = enc.transform(pd.DataFrame({"HbA1c": ["7.5 %", "7.5", "58 mmol/mol"],
                                     "Age": [60, 60, 60]}))
    assert Xn[0, 0] == pytest.approx(58.5, abs=0.1) and Xn[1, 0] == 7.5 and Xn[2, 0] == 58
    got = questioned_values(Xn[1], pd.DataFrame(X, columns=enc.feature_names_out_), enc)
    assert 0 in got and got[0].source_unit == "%"
    assert "in %? that would be 58.5 mmol/mol" in got[0].words


def test_a_share_written_in_another_unit_possible_in_both_is_found():
    """Walk-through 31: 77 glucoses in mg/dL (16-92) among mmol/L, every one possible in
    either unit, were read as mmol/L without a word; bilirubins in mg/dL among µmol/L
    the same. A column in one unit, however skewed, is left alone."""
    from sparge.data.plausible import mixed_unit, unit_slips

    rng = np.random.default_rng(0)
    mmol = np.exp(rng.normal(np.log(4.0), 0.35, 600))
    mg = np.zeros(600, bool)
    mg[rng.choice(600, 70, replace=False)] = True
    glucose = np.where(mg, mmol * 18.0, mmol).round(1)
    slipped, source, converted = unit_slips("Glucose", "mmol/L", glucose)
    assert source[np.flatnonzero(mg)[0]] == "mg/dL"
    found = slipped & mg
    assert found.sum() >= 65 and not (slipped & ~mg).any()
    np.testing.assert_allclose(converted[found], glucose[found] / 18.0, rtol=0.01)
    umol = np.exp(rng.normal(np.log(110), 0.5, 500))
    mgdl = np.arange(500) < 40
    bili = np.where(mgdl, umol / 17.1, umol)
    assert mixed_unit("Bilirubin", "µmol/L", bili)[0][mgdl].mean() > 0.9
    # one unit: a skewed liver cohort's bilirubin (0.3 to 30 mg/dL), a plain glucose
    skewed = np.exp(rng.normal(np.log(1.2), 1.0, 800))
    assert not mixed_unit("Bilirubin", "mg/dL", skewed)[0].any()
    assert not mixed_unit("Glucose", "mmol/L", mmol)[0].any()
    assert not mixed_unit("Glucose", "mmol/L", glucose[:30])[0].any()  # too few values


def test_a_new_patients_bare_weight_is_read_in_the_unit_nearest_the_cohort():
    """Walk-through 32: a bare birth weight of 3.2 on the New patient page was offered
    as 3.2 lb (1,451 g), though the cohort's bare 3.46 had been read as kg."""
    from sparge.services.workflow import unit_slip_table

    assert unit_slips("Birth Weight", "g", [3.2])[1] == ["lb"]  # alone: the range's middle
    reference = pd.DataFrame({"Birth Weight (g)": np.random.default_rng(0).normal(3000, 400,
                                                                              200)})
    slipped, source, converted = unit_slip_table(np.array([[3.2]]), reference)
    assert slipped[0, 0] and source[0, 0] == "kg" and converted[0, 0] == 3200.0
