"""One unit per column: exact conversions, the plan for a column, the encoder end to end."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sparge.data.encoder import Encoder
from sparge.data.number_format import format_number
from sparge.data.parsing import column_units, parse_numeric
from sparge.data.tables import DEFAULT_MISSING_TOKENS
from sparge.data.unit_conversion import analyte, conversion, plan_units
from sparge.services.display import biomarker_name


@pytest.mark.parametrize("column, source, target, value, expected", [
    ("Serum creatinine", "mg/dL", "µmol/L", 1.0, 88.40),  # the textbook factors
    ("Creatinine", "umol/l", "mg/dl", 88.4, 1.0),
    ("Fasting glucose", "mmol/L", "mg/dL", 1.0, 18.02),
    ("LDL-C", "mg/dL", "mmol/L", 38.67, 1.0),
    ("Triglycerides", "mmol/L", "mg/dL", 1.0, 88.57),
    ("Total bilirubin", "mg/dL", "µmol/L", 1.0, 17.10),
    ("BUN", "mg/dL", "mmol/L", 2.8, 1.0),
    ("HbA1c", "mmol/mol", "%", 53.0, 7.0),  # IFCC 53 mmol/mol is NGSP 7.0 %
    ("HbA1c", "%", "mmol/mol", 6.5, 47.53),  # 48 as the labs round it
    ("Haemoglobin", "g/dL", "g/L", 13.5, 135.0),  # any analyte: another prefix
    ("Albumin", "g/dL", "µmol/L", 3.5, 526.8),  # 66.4 kDa
    ("NT-proBNP", "ng/mL", "pg/mL", 1.2, 1200.0),
    ("Weight", "lbs", "kg", 220.0, 99.79),
    ("Temperature", "°F", "°C", 98.6, 37.0),
    ("Arterial pressure", "kPa", "mmHg", 13.3, 99.76),
    ("Platelets", "/µL", "x10^9/L", 250_000, 250.0),  # cell counts (walk-through 25)
    ("Platelets", "K/µL", "×10⁹/L", 250, 250.0),
    ("WBC", "/mm³", "10^9/L", 7_000, 7.0),
    ("Red cells", "x10^12/L", "10^6/µL", 4.5, 4.5),
    ("Height", "m", "cm", 1.65, 165.0),
])
def test_conversions_are_the_textbook_ones(column, source, target, value, expected):
    conv = conversion(column, source, target)
    assert conv is not None and float(conv(value)) == pytest.approx(expected, abs=0.02)
    back = conversion(column, target, source)  # and back again
    assert float(back(conv(value))) == pytest.approx(value, rel=1e-9)


def test_no_conversion_that_depends_on_a_guess():
    assert conversion("Total protein", "g/dL", "mmol/L") is None  # no molar mass for it
    assert conversion("Marker", "mg/dL", "mmol/L") is None  # no analyte named
    assert conversion("Creatinine", "mg/dL", "U/L") is None  # another quantity
    assert conversion("Weight", "kg", "cm") is None
    assert conversion("Glucose", "%", "mmol/mol") is None  # only HbA1c has % and mmol/mol
    assert conversion("Albumin", "G/L", "x10^9/L") is None  # "G/L" is grams per litre
    assert conversion("Platelets", "x10^9/L", "mg/dL") is None
    assert analyte("Creatine kinase") is None and analyte("Age") is None
    assert analyte("HbA1c (mmol/mol)") is None  # HbA1c is not glucose
    assert analyte("LDL-C (mmol/L)")[0] == "cholesterol"


def _creatinine(n: int = 300, seed: int = 0, plain: bool = True):
    """Creatinine in mg/dL (true values), written as plain numbers (mg/dL), 'µmol/L' and
    'mg/dL' cells, with a few gaps."""
    rng = np.random.default_rng(seed)
    mgdl = np.round(np.exp(rng.normal(np.log(1.8), 0.5, n)), 2)
    cells = []
    for i, v in enumerate(mgdl):
        if i % 3 == 0:
            cells.append(f"{v * 88.42:.0f} µmol/L")
        elif i % 3 == 1 or not plain:
            cells.append(f"{v:.2f} mg/dL")
        else:
            cells.append(f"{v:.2f}")
    cells[5] = "NA"
    return mgdl, pd.Series(cells, dtype=object)


def test_plan_reads_plain_numbers_in_the_unit_they_lie_in():
    truth, cells = _creatinine()
    units = column_units(cells, "Serum creatinine", DEFAULT_MISSING_TOKENS)
    plan = plan_units("Serum creatinine", cells, units, DEFAULT_MISSING_TOKENS)
    assert plan.target == "mg/dL" and plan.plain_as == "mg/dL" and plan.left == []
    assert list(plan.converted) == ["umol/l"]
    x, info = parse_numeric(cells, DEFAULT_MISSING_TOKENS, plan.target,
                            convert=plan.converted)
    ok = np.arange(len(truth)) != 5
    np.testing.assert_allclose(x[ok], truth[ok], rtol=0.01, atol=0.006)
    assert np.isnan(x[5]) and len(info["converted"]) == 100 and not info["bad"]


def test_plan_without_plain_numbers_reads_the_most_common_unit():
    truth, cells = _creatinine(plain=False)  # 200 in mg/dL, 100 in µmol/L
    plan = plan_units("Creatinine", cells, column_units(cells, "Creatinine"),
                      DEFAULT_MISSING_TOKENS)
    assert plan.target == "mg/dL" and plan.plain_as is None


def test_plan_refuses_what_it_cannot_be_sure_of():
    _, cells = _creatinine()
    # no analyte in the name: mg/dL and µmol/L cannot be linked; the plain numbers' unit
    # is read, the other left out
    plan = plan_units("Lab 7", cells, column_units(cells, "Lab 7"), DEFAULT_MISSING_TOKENS)
    assert (plan.target, plan.converted, plan.left) == ("mg/dL", {}, ["umol/l"])
    # without plain numbers, no unit is the column's: no plan
    tagged = cells[cells.str.contains("[a-z]", regex=True)]
    assert plan_units("Lab 7", tagged, column_units(tagged, "Lab 7"),
                      DEFAULT_MISSING_TOKENS) is None
    # "mg/dL" written on µmol/L numbers: converted, they would not lie with the others
    wrong = cells.str.replace(r"^(\d+) µmol/L$", r"\1 mg/dL", regex=True)
    wrong = wrong.where(~wrong.str.fullmatch(r"\d+\.\d+ mg/dL"), wrong + "x")
    wrong = pd.Series([c if not c.endswith("x") else c[:-1].replace("mg/dL", "mmol/L")
                       for c in wrong], dtype=object)
    units = column_units(wrong, "Creatinine")
    assert units.mixed and plan_units("Creatinine", wrong, units,
                                      DEFAULT_MISSING_TOKENS) is None
    # plain numbers between the two units' cells: in which unit? no answer, no plan
    rng = np.random.default_rng(1)
    mixed = pd.Series([f"{v:.0f} mg/L" for v in rng.uniform(20, 30, 40)]
                      + [f"{v:.1f} mg/dL" for v in rng.uniform(2, 3, 40)]
                      + [f"{v:.1f}" for v in rng.uniform(7, 9, 40)], dtype=object)
    assert plan_units("CRP", mixed, column_units(mixed, "CRP"),
                      DEFAULT_MISSING_TOKENS) is None


def _kidney_table(n: int = 240, seed: int = 2) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    creat, cells = _creatinine(n, seed)
    hba1c = np.round(rng.uniform(5.5, 11, n), 1)
    hb_cells = [f"{(v - 2.152) / 0.09148:.0f} mmol/mol" if i % 4 == 0 else f"{v}"
                for i, v in enumerate(hba1c)]
    df = pd.DataFrame({"ID": [f"P{i}" for i in range(n)], "Serum creatinine": cells,
                       "HbA1c (%)": hb_cells, "Age": rng.integers(40, 90, n),
                       "Outcome": np.where(creat * rng.lognormal(0, 0.6, n) > 2, "progressed",
                                           "stable")})
    return df, creat, hba1c


def test_encoder_reads_a_column_written_in_two_units_in_one():
    df, creat, hba1c = _kidney_table()
    enc = Encoder(id_column="ID", label_column="Outcome", max_patient_missing=None)
    X = enc.fit_transform(df)
    names = enc.feature_names_out_
    assert enc.roles_["Serum creatinine"] == "numeric"  # kept (it was left out)
    c = X[:, names.index("Serum creatinine")]
    ok = np.arange(len(df)) != 5
    np.testing.assert_allclose(c[ok], creat[ok], rtol=0.01, atol=0.006)
    np.testing.assert_allclose(X[:, names.index("HbA1c (%)")], hba1c, atol=0.06)
    rep = enc.report_
    assert not any("mixes units" in w for w in rep.warnings)
    note = next(m for m in rep.notes if m.startswith("Column 'Serum creatinine' is read in"))
    assert ("'mg/dL': 80 cell(s) in 'µmol/L' converted to 'mg/dL' (creatinine: 1 µmol/L = "
            "0.0113 mg/dL); its plain numbers are read as 'mg/dL'") in note
    assert any(m.startswith("Column 'HbA1c (%)' is read in '%': 60 cell(s) in 'mmol/mol' "
                            "converted to '%' (HbA1c: % = 0.09148 × mmol/mol + 2.152, IFCC "
                            "to NGSP)")
               for m in rep.notes)
    # the form's hint names the unit the name does not give
    assert enc.cell_unit("Serum creatinine") == "mg/dL" and enc.cell_unit("HbA1c (%)") is None
    aged = Encoder().fit(pd.DataFrame({"Age": [f"{a} y" if a % 3 else str(a)
                                               for a in range(40, 90)]}))
    assert aged.cell_unit("Age") == "years" and aged.cell_unit("Nothing") is None
    # in the form's label and the comparison tables' rows
    assert biomarker_name("Serum creatinine", enc) == "Serum creatinine (mg/dL)"
    assert biomarker_name("HbA1c (%)", enc) == "HbA1c (%)" == biomarker_name("HbA1c (%)")
    # a name that says its unit without brackets (walk-through 25's "Neutrophils % (%)")
    pct = Encoder(max_patient_missing=None).fit(pd.DataFrame({
        "Neutrophils %": [f"{i}%" for i in range(40, 80)],
        "Sys BP": [f"{i} mmHg" for i in range(100, 140)]}))
    assert biomarker_name("Neutrophils %", pct) == "Neutrophils %"
    assert biomarker_name("Sys BP", pct) == "Sys BP (mmHg)"
    # the user's numeric role converts as the inferred one does
    forced = Encoder(id_column="ID", label_column="Outcome", max_patient_missing=None,
                     roles={"Serum creatinine": "numeric"}).fit(df)
    assert forced.unit_conversions_ == enc.unit_conversions_
    # a new patient in either unit, with the encoder as fitted and as saved
    new = pd.DataFrame({"ID": ["N1", "N2"], "Serum creatinine": ["141 µmol/L", "1.6"],
                        "HbA1c (%)": ["53 mmol/mol", "7.1%"], "Age": [60, 70]})
    back = Encoder.from_dict(json.loads(json.dumps(enc.to_dict())))
    for e in (enc, back):
        got = dict(zip(names, e.transform(new).T))
        np.testing.assert_allclose(got["Serum creatinine"], [1.595, 1.6], atol=0.001)
        np.testing.assert_allclose(got["HbA1c (%)"], [7.0, 7.1], atol=0.001)
    # a state saved before conversions existed reads new patients the same way (every
    # exact conversion applies to new patients)
    old = Encoder.from_dict({k: v for k, v in enc.to_dict().items()
                             if k != "unit_conversions"})
    assert old.unit_conversions_ == {}
    got = dict(zip(names, old.transform(new).T))
    np.testing.assert_allclose(got["Serum creatinine"], [1.595, 1.6], atol=0.001)
    for bad in ({"Serum creatinine": {"umol/l": ["x", 0]}}, {"Serum creatinine": [1, 2]},
                {"Serum creatinine": {"umol/l": [float("inf"), 0]}}, ["umol/l"]):
        with pytest.raises(ValueError, match="unit_conversions"):
            Encoder.from_dict({**enc.to_dict(), "unit_conversions": bad})


def test_a_new_patient_from_another_laboratory_is_read_in_the_columns_unit():
    """The training table wrote one unit; a new patient's file comes from a laboratory
    that writes another: its exact conversions apply, and the report says so."""
    rng = np.random.default_rng(0)
    n = 100
    df = pd.DataFrame({"Creatinine (mg/dL)": np.round(rng.uniform(0.6, 4, n), 2),
                       "Weight (kg)": rng.integers(50, 100, n),
                       "CRP": np.round(rng.uniform(1, 50, n), 1),
                       "Outcome": rng.choice(["a", "b"], n)})
    enc = Encoder(label_column="Outcome").fit(df)
    assert enc.unit_conversions_ == {}
    new = pd.DataFrame({"Creatinine (mg/dL)": ["141 µmol/L", "1.2"],
                        "Weight (kg)": ["176 lb", "80"], "CRP": ["2 mg/dL", "5"]})
    X, rep = enc.transform_with_report(new)
    np.testing.assert_allclose(X[:, :2], [[1.595, 79.83], [1.2, 80.0]], atol=0.005)
    assert ("Column 'Creatinine (mg/dL)': 1 value(s) in another unit converted to "
            "'mg/dL' (e.g. '141 µmol/L' read as 1.59).") in rep.notes
    # a column whose unit is not known: nothing to convert to, the cell is questioned
    assert np.isnan(X[0, 2]) and X[1, 2] == 5.0
    assert [(s.column, s.examples) for s in rep.stray_text] == [("CRP", ["2 mg/dL"])]


def test_a_unit_without_conversion_is_set_to_missing_and_the_rest_read():
    """Walk-through 23's albumin: plain numbers and 'g/dL' cells beside 'µmol/L' ones was
    left out whole (here a protein without a molar mass listed, so no exact
    conversion)."""
    rng = np.random.default_rng(0)
    n = 200
    alb = np.round(rng.normal(3.8, 0.5, n), 1)
    cells = [f"{v} g/dL" if i % 4 == 0 else f"{v * 151:.0f} µmol/L" if i % 4 == 1 else str(v)
             for i, v in enumerate(alb)]
    df = pd.DataFrame({"Serum protein": cells, "Age": rng.integers(20, 90, n),
                       "Outcome": rng.choice(["a", "b"], n)})
    enc = Encoder(label_column="Outcome").fit(df)
    assert enc.roles_["Serum protein"] == "numeric" and enc.cell_unit("Serum protein") == "g/dL"
    x = enc.transform(df)[:, enc.feature_names_out_.index("Serum protein")]
    other = np.arange(n) % 4 == 1
    assert np.isnan(x[other]).all() and np.allclose(x[~other], alb[~other])
    said = [w for w in enc.report_.warnings if "'Serum protein'" in w]
    assert said == ["Column 'Serum protein' mixes units: it is read in 'g/dL', the unit of its "
                    "plain numbers, and its cells in 'µmol/L' (50 cell(s), CSV line(s) 3, 7, "
                    "11 …; e.g. '559 µmol/L') were set to missing: no exact conversion to "
                    "'g/dL' is known for them. Convert them and load the file again to keep "
                    "them."]
    assert [m for m in enc.report_.notes if "is read in" in m] == [
        "Column 'Serum protein' is read in 'g/dL': its plain numbers are read as 'g/dL', the "
        "unit in which its cells written with a unit, once converted, lie among them."]


def test_far_values_say_which_unit_they_were_probably_written_in():
    """Walk-through 22: HbA1c values written in mmol/mol among % values (60, 51, 69)
    were listed as far values without a word on the unit."""
    from sparge.data.unit_conversion import unit_guess

    assert unit_guess("Creatinine (µmol/L)", "µmol/L", 1.6, 44, 574) == pytest.approx(
        ("mg/dL", 141.4), abs=0.1)
    assert unit_guess("Creatinine", "µmol/L", 23600, 44, 574) is None  # a typo ×100
    assert unit_guess("Age", None, 640, 40, 84) is None
    # a height in metres in a cm column; of the units that fit, the one nearest the
    # middle of the range (walk-through 25's haemoglobins in g/L, not mg/dL)
    assert unit_guess("Height (cm)", "cm", 1.65, 145, 195) == ("m", 165.0)
    assert unit_guess("Hb (g/dL)", "g/dL", 147, 2.6, 65) == pytest.approx(("g/L", 14.7))
    rng = np.random.default_rng(5)
    hba1c = np.round(rng.uniform(5.5, 10, 200), 1)
    cells = [str(v) for v in hba1c]
    for i in (3, 50, 120):
        cells[i] = f"{(hba1c[i] - 2.152) / 0.09148:.0f}"  # mmol/mol, written plainly
    enc = Encoder().fit(pd.DataFrame({"HbA1c (%)": cells, "Age": rng.integers(30, 80, 200)}))
    said = next(w for w in enc.report_.warnings if "far from the rest" in w)
    shown = ", ".join(format_number(float(c) * 0.09148 + 2.152) for c in
                      (cells[3], cells[50], cells[120]))
    assert f"(in 'mmol/mol'? {shown} %)" in said
    # one click converts them for training (and sets the others to missing)
    from sparge.data.encoding_notes import far_values_button, far_values_done
    from sparge.services.workflow import encode_cohort

    df = pd.DataFrame({"HbA1c (%)": cells, "Age": rng.integers(30, 80, 200)})
    df.loc[7, "Age"] = 800
    kept = encode_cohort(df)
    checks = kept.encoder.report_.values_to_check
    assert far_values_button(checks, cleared=False) == (
        "Convert the 3 in a probable other unit and set the other 1 value to missing for "
        "training")
    assert far_values_button(checks, cleared=True) == "Use the 4 far values as given"
    assert far_values_done(checks) == ("1 value set to missing and 3 converted from a "
                                       "probable other unit")
    cleared = encode_cohort(df, clear_far=True)
    j = cleared.features.index("HbA1c (%)")
    np.testing.assert_allclose(cleared.X[[3, 50, 120], j], hba1c[[3, 50, 120]], atol=0.06)
    assert np.isnan(cleared.X[7, cleared.features.index("Age")])
    # one value that fits another unit may be a typo: named with the unit, not converted
    one = df.assign(**{"HbA1c (%)": [c if i not in (50, 120) else str(hba1c[i])
                                    for i, c in enumerate(cells)]})
    alone = encode_cohort(one, clear_far=True)
    said = next(w for w in alone.encoder.report_.warnings if "far from the rest" in w)
    assert "(in 'mmol/mol'? " in said
    assert np.isnan(alone.X[3, j])
    assert far_values_button(alone.encoder.report_.values_to_check, cleared=False) == (
        "Set 2 values to missing for training")


def test_far_values_in_another_unit_convert_within_the_columns_plausible_range():
    """Walk-through 25: 25 haemoglobins in g/L among g/dL values and 101 platelet counts
    per µL among ×10^9/L ones were listed without a unit, and the one click set all 126
    to missing: a value such as 160 g/L, 16 g/dL, lies above most patients' 15."""
    from sparge.services.workflow import encode_cohort

    rng = np.random.default_rng(11)
    n = 300
    hb = np.round(rng.normal(12.8, 1.6, n), 1)
    plt = np.round(rng.lognormal(np.log(260), 0.3, n))
    hb_cells = [f"{v:.1f}" for v in hb]
    plt_cells = [f"{v:.0f} x10^9/L" if i % 2 else f"{v:.0f}" for i, v in enumerate(plt)]
    slips = rng.choice(n, 30, replace=False)
    for i in slips[:15]:
        hb_cells[i] = f"{hb[i] * 10:.0f}"  # g/L
    for i in slips[15:]:
        plt_cells[i] = f"{plt[i] * 1000:.0f}"  # per µL
    top = int(slips[0])
    hb_cells[top], hb[top] = "168", 16.8  # 16.8 g/dL: above most patients
    df = pd.DataFrame({"Hb (g/dL)": hb_cells, "Platelets": plt_cells,
                       "Age": rng.integers(30, 80, n)})
    cleared = encode_cohort(df, clear_far=True)
    for col, truth, rows in (("Hb (g/dL)", hb, slips[:15]), ("Platelets", plt, slips[15:])):
        j = cleared.features.index(col)
        np.testing.assert_allclose(cleared.X[rows, j], truth[rows], rtol=1e-6)
    said = next(w for w in cleared.encoder.report_.warnings if "far from the rest" in w)
    assert "(in 'g/L'? " in said and "(in '/µL'? " in said


@pytest.mark.parametrize("column, plain, written, unit, expected", [
    # plain creatinines in mg/dL beside cells in µmol/L only (walk-through 24)
    ("Creatinine", lambda r: np.round(r.lognormal(0, 0.4, 300), 2),
     lambda v: f"{v * 88.42:.0f} µmol/L", "µmol/L", "mg/dL"),
    # plain temperatures in °C beside "98 °F" cells: a factor 2.7, within a plain 3
    ("Temperature", lambda r: np.round(r.normal(37, 0.4, 300), 1),
     lambda v: f"{v * 9 / 5 + 32:.1f} °F", "°F", "°C"),
])
def test_plain_numbers_in_a_unit_no_cell_names(column, plain, written, unit, expected):
    rng = np.random.default_rng(9)
    truth = plain(rng)
    cells = [written(v) if i % 8 == 0 else str(v) for i, v in enumerate(truth)]
    df = pd.DataFrame({column: cells, "Age": rng.integers(30, 80, 300)})
    enc = Encoder().fit(df)
    assert enc.cell_unit(column) == expected
    x = enc.transform(df)[:, enc.feature_names_out_.index(column)]
    np.testing.assert_allclose(x, truth, rtol=0.01, atol=0.06)
    assert any(m.startswith(f"Column '{column}' is read in '{expected}': 38 cell(s) in "
                            f"'{unit}' converted") for m in enc.report_.notes)


def test_plain_kilograms_beside_kilogram_and_pound_cells():
    """Walk-through 24: 'Weight' held plain kg, '67.2 kg' and '170 lbs' cells; every cell
    with a unit was dropped (kg and lb differ by 2.2, within a plain factor of 3)."""
    rng = np.random.default_rng(10)
    kg = np.round(rng.normal(78, 12, 300), 1)
    cells = [f"{v} kg" if i % 10 == 1 else f"{v / 0.45359237:.0f} lbs" if i % 10 == 2
             else str(v) for i, v in enumerate(kg)]
    enc = Encoder().fit(pd.DataFrame({"Weight": cells, "Age": rng.integers(30, 80, 300)}))
    x = enc.transform(pd.DataFrame({"Weight": cells}))[:, enc.feature_names_out_.index(
        "Weight")]
    np.testing.assert_allclose(x, kg, atol=0.5)
    assert enc.cell_unit("Weight") == "kg"
    assert not any("mixes units" in w for w in enc.report_.warnings)


def test_a_temperature_written_with_a_bare_f_is_in_fahrenheit():
    """Walk-through 24: '97.8 F' cells were read as text and set to missing."""
    from sparge.data.parsing import unit_key

    assert unit_key("F") == unit_key("°F") == unit_key("ºF") == unit_key("Fahrenheit")
    rng = np.random.default_rng(1)
    t = np.round(rng.normal(37, 0.4, 200), 1)
    cells = [f"{v * 9 / 5 + 32:.1f} F" if i % 9 == 0 else str(v) for i, v in enumerate(t)]
    enc = Encoder().fit(pd.DataFrame({"Temperature": cells, "Age": rng.integers(30, 80, 200)}))
    x = enc.transform(pd.DataFrame({"Temperature": cells}))[:, 0]
    np.testing.assert_allclose(x, t, atol=0.03)
    assert enc.cell_unit("Temperature") == "°C"


def test_values_in_a_probable_other_unit_are_converted_by_default_and_the_click_undoes_it():
    """Walk-through 68: 132 haemoglobins in g/dL among g/L were used as g/L unless the
    user clicked; a look-alike's Hb showed as "61.6 (11.9–137)". Three or more far
    values all converting from one unit are converted by default, the others used as
    given; the Data page's click sets the others to missing, or uses the converted ones
    as given."""
    from sparge.data.encoding_notes import FAR_VALUES_CONVERTED, far_values_click
    from sparge.services.workflow import encode_again, encode_cohort

    rng = np.random.default_rng(12)
    n = 300
    hb = np.round(rng.normal(128, 16, n))
    cells = [f"{v:.0f}" for v in hb]
    slips = rng.choice(n, 40, replace=False)
    for i in slips:
        cells[i] = f"{hb[i] / 10:.1f}"  # g/dL in a g/L column
    # a typo, possible in no unit but judged by no limit: as given (an impossible value,
    # an age of 700, is set to missing: tests/data/test_eye_clinic.py)
    df = pd.DataFrame({"Hb (g/L)": cells, "Chloride": rng.integers(130, 146, n)})
    df.loc[int(np.setdiff1d(np.arange(n), slips)[0]), "Chloride"] = 1380
    cohort = encode_cohort(df)
    j = cohort.features.index("Hb (g/L)")
    np.testing.assert_allclose(cohort.X[slips, j], hb[slips], atol=0.51)
    assert np.nanmax(cohort.X[:, cohort.features.index("Chloride")]) == 1380
    said = next(w for w in cohort.encoder.report_.warnings if "far from the rest" in w)
    assert FAR_VALUES_CONVERTED in said
    checks = cohort.encoder.report_.values_to_check
    label, changes, done = far_values_click(checks, cleared=False, converted=True)
    assert label == "Set the other 1 far value to missing for training"
    assert changes == {"clear_far": True, "convert_slips": True}
    assert done == "1 value set to missing"
    cleared = encode_again(cohort, **changes)
    assert np.nanmax(cleared.X[:, cleared.features.index("Chloride")]) < 1380
    np.testing.assert_allclose(cleared.X[slips, j], hb[slips], atol=0.51)
    # undone, only the value set to missing is used as given: the conversions stay
    # (walk-through 72's undo also undid 78 good conversions)
    label, changes, done = far_values_click(checks, cleared=True, converted=True)
    assert label == ("Use the 1 value set to missing as given (the 40 converted stay "
                     "converted)") and changes == {"clear_far": False}
    undone = encode_again(cleared, **changes)
    np.testing.assert_allclose(undone.X[slips, j], hb[slips], atol=0.51)
    assert np.nanmax(undone.X[:, undone.features.index("Chloride")]) == 1380
    # without the conversions (the library's switch), every far value as given
    label, changes, done = far_values_click(checks, cleared=True, converted=False)
    assert label == "Use the 41 far values as given" and changes == {
        "clear_far": False, "convert_slips": False}
    given = encode_again(cleared, **changes)
    np.testing.assert_allclose(given.X[slips, j], hb[slips] / 10, atol=0.051)
    # without another far value the click uses the converted ones as given
    only = encode_cohort(df.assign(Chloride=rng.integers(130, 146, n)))
    label, changes, _ = far_values_click(only.encoder.report_.values_to_check,
                                         cleared=False, converted=True)
    assert label == "Undo the 40 conversions from a probable other unit (use the values as written)"
    assert changes == {"convert_slips": False}
    # the library's own switch, saved with the model
    assert Encoder(convert_slips=False).get_params()["convert_slips"] is False
    assert Encoder.from_dict(given.encoder.to_dict()).convert_slips is False
