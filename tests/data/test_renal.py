"""A haemodialysis unit's export (walk-through 56): haemolysed potassiums, "5/12" in a
dialysis vintage in years, URRs written as fractions, PTH in pg/mL beside pmol/L,
phosphates in mg/dL without a unit, "BP 138/89" and "spKt/V 1.25", and the unit's
modalities, accesses, primary renal diseases, transplant list statuses and ESAs written
every way."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge import Encoder
from sparge.data.drug_combinations import drug_set
from sparge.data.levels import abbreviated_levels, shown_answer
from sparge.data.not_applicable import read_not_applicable
from sparge.data.parsing import invalid_sample, parse_numeric
from sparge.data.unit_conversion import conversion

OUT = "Hospitalised within 12 months"


def _unit(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    k = rng.normal(4.8, 0.6, n).round(1)
    potassium = [f"{v + 1.5:.1f} haemolysed" if i % 20 == 0 else
                 f"{v + 1.2:.1f} (haemolysed - repeat)" if i % 20 == 1 else str(v)
                 for i, v in enumerate(k)]
    years = rng.integers(1, 12, n)
    vintage = ["5/12" if i % 50 == 0 else f"{y} yrs" for i, y in enumerate(years)]
    urr = rng.normal(69, 4, n).round()
    urr_cells = [f"{v / 100:.2f}" if i % 15 == 0 else f"{v:.0f}%" for i, v in enumerate(urr)]
    phos = rng.lognormal(np.log(1.6), 0.25, n).round(2)
    phos_cells = [f"{v / 0.3229:.1f}" if i % 25 == 0 else
                  f"{v / 0.3229:.1f} mg/dL" if i % 25 == 1 else str(v)
                  for i, v in enumerate(phos)]
    pth = rng.lognormal(np.log(30), 0.5, n).round(1)
    pth_cells = [f"{v * 9.43:.0f} pg/mL" if i % 3 == 0 else f"{v} pmol/L"
                 for i, v in enumerate(pth)]
    bp = [f"{'BP ' if i % 10 == 0 else ''}{s}/{d}" for i, (s, d) in
          enumerate(zip(rng.integers(110, 170, n), rng.integers(60, 95, n)))]
    ktv = [f"spKt/V {v:.2f}" if i % 8 == 0 else f"{v:.2f}"
           for i, v in enumerate(rng.normal(1.4, 0.15, n))]
    return pd.DataFrame({"Potassium": potassium, "Dialysis vintage": vintage, "URR": urr_cells,
                         "Phosphate": phos_cells, "PTH": pth_cells, "BP pre": bp, "Kt/V": ktv,
                         OUT: rng.choice(["Y", "N"], n)})


def _encoded(df):
    enc = Encoder(label_column=OUT, max_patient_missing=None)
    X = pd.DataFrame(np.asarray(enc.fit_transform(df), float), columns=enc.feature_names_out_)
    return enc, X


def test_a_haemolysed_result_is_a_gap_and_never_a_unit():
    """"7.0 haemolysed" was read as a potassium of 7.0, and the column was named
    "Potassium (haemolysed)"."""
    df = _unit()
    enc, X = _encoded(df)
    assert "Potassium" in enc.feature_names_out_
    assert X["Potassium"][df["Potassium"].str.contains("haemolysed")].isna().all()
    assert X["Potassium"][~df["Potassium"].str.contains("haemolysed")].notna().all()
    notes = " ".join(enc.report_.notes)
    assert "Column 'Potassium': 40 result(s) marked as from a haemolysed, clotted or " \
           f"insufficient sample (e.g. '{df['Potassium'][0]}', CSV line 2) set to " \
           "missing" in notes
    assert all(invalid_sample(c) for c in ("clotted", "K 6.1 hemolyzed", "QNS",
                                          "insufficient sample"))
    assert not any(invalid_sample(c) for c in ("5.1", "not haem", "see note"))
    # a new patient's cell the same
    got, info = parse_numeric(pd.Series(["5.8 (haemolysed - repeat)", "4.2"]))
    assert np.isnan(got[0]) and got[1] == 4.2 and info["invalid_sample"][0][0] == 0


def test_months_written_n_over_12_in_a_column_of_years():
    df = _unit()
    _, X = _encoded(df)
    rows = df.index[df["Dialysis vintage"] == "5/12"]
    assert np.allclose(X["Dialysis vintage"][rows], 5 / 12)


def test_urr_as_a_fraction_is_offered_as_its_percentage():
    df = _unit()
    enc, _ = _encoded(df)
    checks = [v for v in enc.report_.values_to_check if v[0] == "URR"]
    rows = df.index[~df["URR"].str.endswith("%")]
    assert sorted(v[1] for v in checks) == list(rows)
    assert all(v[3] == "fraction" and abs(v[4] - 100 * v[2]) < 1e-9 for v in checks)


def test_pth_in_pg_per_ml_converted_and_plain_phosphates_in_mg_per_dl_listed():
    assert abs(conversion("PTH", "pg/mL", "pmol/L").factor - 1 / 9.425) < 1e-12
    assert abs(conversion("iPTH (pmol/L)", "ng/L", "pmol/L").factor - 1 / 9.425) < 1e-12
    df = _unit()
    enc, X = _encoded(df)
    pg = df["PTH"].str.endswith("pg/mL")
    want = df["PTH"][pg].str.split().str[0].astype(float) / 9.425
    assert np.allclose(X["PTH"][pg], want)
    listed = {v[1] for v in enc.report_.values_to_check
              if v[0] == "Phosphate" and v[3] == "mg/dL"}
    plain_mg = set(np.flatnonzero(np.arange(len(df)) % 25 == 0))
    # those possible in either unit (3.2 mg/dL is 1.03 mmol/L) are not all told apart
    assert len(listed) >= len(plain_mg) / 2 and listed <= plain_mg


def test_bp_and_kt_v_after_their_names_are_read():
    df = _unit()
    _, X = _encoded(df)
    assert X[["BP pre systolic", "BP pre diastolic", "Kt/V"]].notna().all().all()
    assert X["BP pre systolic"][0] == float(df["BP pre"][0].split()[1].split("/")[0])


def test_a_renal_units_answers_written_every_way_are_offered():
    pairs = dict(abbreviated_levels(["HD", "Haemodialysis", "hemodialysis", "HDF",
                                     "online HDF", "APD", "CAPD", "PD", "Tx", "transplant"],
                                    "Modality"))
    assert pairs["HD"] == pairs["hemodialysis"] == "Haemodialysis"
    assert pairs["online HDF"] == "HDF" and pairs["Tx"] == "transplant"
    assert not {"APD", "CAPD", "PD"} & set(pairs)
    pairs = dict(abbreviated_levels(["AVF", "fistula", "L RC AVF", "R BC fistula", "AVG",
                                     "graft", "TCL", "tunnelled line", "permcath",
                                     "PD catheter", "Tenckhoff"], "Access"))
    assert pairs["fistula"] == pairs["L RC AVF"] == pairs["R BC fistula"] == "AVF"
    assert pairs["graft"] == "AVG" and pairs["Tenckhoff"] == "PD catheter"
    assert pairs["TCL"] == pairs["permcath"] == "tunnelled line"
    pairs = dict(abbreviated_levels(["Diabetic nephropathy", "DKD", "DN", "IgA nephropathy",
                                     "IgAN", "APKD", "polycystic kidneys", "FSGS",
                                     "glomerulonephritis", "GN - not biopsied"],
                                    "Primary renal disease"))
    assert pairs["DKD"] == pairs["DN"] == "Diabetic nephropathy"
    assert pairs["APKD"] == "polycystic kidneys" and pairs["IgAN"] == "IgA nephropathy"
    assert pairs["GN - not biopsied"] == "glomerulonephritis" and "FSGS" not in pairs
    pairs = dict(abbreviated_levels(["Active", "on list", "suspended", "susp.",
                                     "Not suitable", "NS - frailty", "unsuitable",
                                     "work-up", "in work up", "transplanted",
                                     "functioning graft"], "Transplant list status"))
    assert pairs["on list"] == "Active" and pairs["susp."] == "suspended"
    assert pairs["NS - frailty"] == pairs["unsuitable"] == "Not suitable"
    assert pairs["functioning graft"] == "transplanted"
    # "n/a - Tx" is another name of one of the column's answers: that answer
    read = read_not_applicable(pd.DataFrame({"Transplant list status": [
        "transplanted", "Active", "n/a - Tx", "n/a - PD"]}))
    assert read["Transplant list status"].tolist() == ["transplanted", "Active",
                                                       "transplanted", "N/A"]


def test_esas_by_brand_and_dose_are_one_answer_each_shown_by_generic_name():
    assert drug_set("Aranesp 40mcg weekly") == drug_set("darbepoetin 20 mcg fortnightly")
    assert drug_set("epoetin alfa 4000u 3x/wk") == drug_set("Binocrit 2000 u tiw") == \
        drug_set("EPO 3000 u tiw") == drug_set("Eprex 4000 units weekly")
    assert drug_set("Mircera 50 mcg monthly") != drug_set("EPO 3000 u tiw")
    # a combination with a dose each stays a combination
    assert len(drug_set("EFV 600mg/TDF 300mg")) == 2
    assert shown_answer(["Aranesp 20 mcg", "darbepoetin 40 mcg fortnightly"], "ESA") == \
        "Darbepoetin"
    pairs = dict(abbreviated_levels(["Nil", "no ESA", "Aranesp 20 mcg",
                                     "darbepoetin 40 mcg fortnightly", "EPO 3000 u tiw",
                                     "Eprex 4000 units weekly"], "ESA"))
    # two doses are two answers (walk-through 87), not offered as one
    assert "Aranesp 20 mcg" not in pairs and "Eprex 4000 units weekly" not in pairs
    assert pairs["no ESA"] in ("Nil", "none")
    # the generic name's answer is the one the others join (walk-through 60's "amox",
    # "Amoxil" and "amoxicillin 40mg/kg" joined "amoxicillin"), at one dose
    pairs = dict(abbreviated_levels(["Aranesp 20 mcg", "darbepoetin 20 mcg fortnightly",
                                     "darbepoetin"], "ESA"))
    assert pairs == {"Aranesp 20 mcg": "darbepoetin",
                     "darbepoetin 20 mcg fortnightly": "darbepoetin"}


def _aged(n: int = 200, seed: int = 1, start: bool = True) -> pd.DataFrame:
    """Ages today written as numbers, a few as dates of birth, beside a start of dialysis
    up to 12 years back (some written "Jan 2018") and dates of death after the export."""
    rng = np.random.default_rng(seed)
    export = pd.Timestamp("2024-06-30")
    age = rng.integers(30, 85, n)
    born = [export - pd.Timedelta(days=int(a * 365.25 + 100)) for a in age]
    cells = [b.strftime("%d/%m/%Y") if i % 10 == 0 else f"{a} yrs"
             for i, (a, b) in enumerate(zip(age, born))]
    began = [export - pd.Timedelta(days=int(d)) for d in rng.integers(30, 12 * 365, n)]
    df = pd.DataFrame({"Age": cells, "Hb": rng.normal(110, 10, n).round(),
                       "Date of death": [(export + pd.Timedelta(days=200)).strftime("%d/%m/%Y")
                                         if i % 7 == 0 else "" for i in range(n)],
                       OUT: rng.choice(["Y", "N"], n)})
    if start:
        df["Date started dialysis"] = [b.strftime("%b %Y") if i % 4 == 0 else
                                       b.strftime("%d/%m/%Y") for i, b in enumerate(began)]
    return df, age


def test_dates_of_birth_among_ages_today_are_read_at_the_exports_date():
    """Walk-through 56: "DOB 06/03/1977" among ages today could not be read (no admission
    date), and read at each patient's start of dialysis they would be years too young;
    the table's latest date (not a date of death, after the export) is taken."""
    from sparge.data.dates import read_dates

    got = read_dates(pd.Series(["Jan 2018", "September 2023", "Eprex 2000"])).dates
    assert got[:2].tolist() == [pd.Timestamp("2018-01-15"), pd.Timestamp("2023-09-15")]
    assert pd.isna(got[2])
    df, age = _aged()
    enc, X = _encoded(df)
    rows = np.arange(len(df)) % 10 == 0
    # the latest start of dialysis lies within a month of the export; the age in
    # completed years, as the column writes them (born 100 days before a birthday)
    assert np.all(X["Age"][rows] == age[rows])
    note = next(n for n in enc.report_.notes if n.startswith("Column 'Age': 20 date(s)"))
    assert "the table's latest date (in 'Date started dialysis'" in note
    assert "the ages at each patient's own 'Date started dialysis' lay far" in note
    # no date but a date of death (after the export): not read, and said
    df, _ = _aged(start=False)
    enc, X = _encoded(df)
    assert X["Age"][rows].isna().all()
    assert any("hold a date (of birth?)" in n for n in enc.report_.notes)


def test_a_diabetes_type_or_treatment_in_a_yes_no_column_is_offered_with_yes():
    """Walk-through 56's "Diabetes": "T2DM", "type 2", "insulin treated", "diet
    controlled" beside Yes and No split the diabetics five ways."""
    pairs = dict(abbreviated_levels(["no", "Yes", "insulin treated", "T2DM", "T1DM",
                                     "diet controlled", "type 2"], "Diabetes"))
    assert {pairs[k] for k in ("insulin treated", "T1DM", "diet controlled", "type 2")} == \
        {"Yes"}
    assert pairs["T2DM"] in ("type 2", "Yes")
    # a column of diabetes types keeps them apart
    assert "Yes" not in dict(abbreviated_levels(["T2DM", "T1DM", "type 2", "None"],
                                                "Diabetes type")).values()


def test_walk_through_57_a_merged_diabetes_yes_is_shown_yes_and_dob_after_its_name():
    """Walk-through 57: after the merge every diabetic (T1DM too) showed as "Type 2";
    "DOB 06/03/1977" in "Age" was set to missing; a form's "Darbepoetin" was said to be
    read as "Darbepoetin"."""
    assert shown_answer(["Yes", "Y", "T2DM", "type 2", "T1DM", "insulin treated"],
                        "Diabetes") == "Yes"
    assert shown_answer(["T2DM", "type 2"], "Diabetes") == "Type 2"
    assert shown_answer(["No", "none", "nil"], "Diabetes") == "No"
    assert shown_answer(["Yes", "current", "Smoker - 10/day"], "Smoking") == "Current"
    df, age = _aged()
    df.loc[::10, "Age"] = "DOB " + df.loc[::10, "Age"]
    enc, X = _encoded(df)
    rows = np.arange(len(df)) % 10 == 0
    assert np.all(X["Age"][rows] == age[rows])
    assert any("(e.g. 'DOB " in n for n in enc.report_.notes)
    from sparge.data.answer_merging import merge_answers

    esa = pd.DataFrame({"ESA": ["Aranesp", "darbepoetin 40 mcg fortnightly",
                                "EPO 3000 u tiw", "Nil"] * 30, OUT: ["Y", "N", "N"] * 40})
    enc = Encoder(label_column=OUT).fit(esa)
    merged = Encoder(label_column=OUT, encoding_table=merge_answers(
        enc.table_, enc.report_.answers_two_ways)).fit(esa)
    X, report = merged.transform_with_report(pd.DataFrame({"ESA": ["Darbepoetin",
                                                                  "Aranesp"]}))
    assert X[0, 0] == X[1, 0] and not any("read as 'Darbepoetin'" in n for n in report.notes)


def test_a_column_no_unit_of_its_quantity_explains_is_not_judged():
    """The bundled sample's "Phosphate (mmol/L)" holds 15 to 42: no phosphate in mmol/L
    or mg/dL; a new patient's 16.9 was asked "in mg/dL? that would be 5.47 mmol/L"."""
    from sparge.data.plausible import judged_column, unit_slips

    rng = np.random.default_rng(0)
    odd = rng.uniform(15, 42, 300)
    assert not judged_column("Phosphate (mmol/L)", "mmol/L", odd)
    assert not unit_slips("Phosphate (mmol/L)", "mmol/L", odd)[0].any()
    # mostly mmol/L, with some in mg/dL (14 to 25: impossible in mmol/L)
    usual = np.r_[rng.lognormal(np.log(1.5), 0.25, 280), rng.uniform(14, 18, 20)]
    assert judged_column("Phosphate (mmol/L)", "mmol/L", usual)
    # fractions of a share among percentages are its quantity's, in another unit
    shares = np.r_[rng.uniform(60, 80, 140), rng.uniform(0.6, 0.8, 160)]
    assert judged_column("URR (%)", "%", shares)


def test_clotted_is_a_gap_among_numbers_and_an_answer_among_answers():
    """A bare "clotted" is a sample that gave no value in a column of results, and an
    answer in a filter's status."""
    rng = np.random.default_rng(0)
    n = 80
    k = [f"{v:.1f}" for v in rng.normal(4.5, 0.5, n)]
    k[3], k[7], k[9] = "5.0 haemolysed", "clotted", "QNS"
    df = pd.DataFrame({"Filter status": (["running", "clotted", "changed"] * 30)[:n],
                       "K": k, OUT: (["Y", "N"] * 40)})
    enc, X = _encoded(df)
    assert enc.roles_["K"] == "numeric" and X["K"][[3, 7, 9]].isna().all()
    assert "clotted" in enc.table_.levels("Filter status")
