"""An intensive care unit's export (walk-through 58): a mortality outcome written Died,
D, dead, 1 and Alive, A, survived, 0; "APACHE 20"; "RASS -2"; FiO2 as 0.4, 40% and one
"0.4l"; PaO2 and P/F ratios in mmHg among kPa; noradrenaline "off"; vasopressin doses
with "nil"; Glasgow coma scales of intubated patients ("E1VTM4"); "NKMH" in a list; an
admission re-entered under a new ID."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge import Encoder
from sparge.data.parsing import gcs_untestable, parse_numeric, plain_number
from sparge.data.plausible import quantity_of

OUT = "ICU mortality"


def _unit(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    died = rng.random(n) < 0.25
    fio2 = rng.uniform(0.21, 0.8, n)
    pao2 = rng.lognormal(np.log(11), 0.2, n)
    gcs = rng.integers(3, 16, n)
    df = pd.DataFrame({
        "Admission ID": [f"ICU{i:04d}" for i in range(n)],
        "Age": rng.integers(20, 90, n).astype(str),
        "APACHE II": [f"APACHE {a}" if i % 4 == 0 else str(a)
                      for i, a in enumerate(rng.integers(5, 35, n))],
        "RASS": [f"RASS {r:+d}" if i % 3 == 0 else str(r)
                 for i, r in enumerate(rng.integers(-4, 2, n))],
        "FiO2": [f"{100 * f:.0f}%" if i % 3 == 0 else f"{f:.2f}"
                 for i, f in enumerate(fio2)],
        "PaO2 (kPa)": [f"{p * 7.5:.0f}" if i % 10 == 0 else f"{p:.1f}"
                       for i, p in enumerate(pao2)],
        "Noradrenaline (mcg/kg/min)": [["off", "0", "0.1", "0.05", "nil", "0.2"][i % 6]
                                       for i in range(n)],
        "Vasopressin": [["0", "nil", "no", "0.03 U/min", "0.04", "0.04 units/min"][i % 6]
                        for i in range(n)],
        "GCS": [f"E1VTM{min(6, g % 6 + 1)}" if i % 4 == 0 else str(g)
                for i, g in enumerate(gcs)],
        "Comorbidities": [["COPD, IHD", "NKMH", "IHD", "CKD3, COPD", "NKMH", "HTN"][i % 6]
                          for i in range(n)],
        OUT: [(["Died", "D", "dead", "1"] if d else ["Alive", "A", "survived", "0"])[i % 4]
              for i, d in enumerate(died)]})
    df.loc[n - 1, df.columns[1:]] = df.loc[3, df.columns[1:]]  # re-entered, new ID
    df.loc[5, "FiO2"] = "0.4l"
    return df, died


def test_a_mortality_written_eight_ways_is_two_outcomes():
    df, died = _unit()
    enc = Encoder(id_column="Admission ID", label_column=OUT).fit(df)
    labels = pd.Series(enc.labels(df))
    dead = next(w for w in set(labels) if w != "Alive")
    assert set(labels) == {dead, "Alive"} and dead in ("Died", "Dead")  # the commonest
    assert (labels[:-1] == np.where(died, dead, "Alive")[:-1]).all()


def test_an_icus_scores_and_doses_are_read():
    assert plain_number("APACHE 20") == 20 and plain_number("APACHE II: 22") == 22
    assert plain_number("APACHE 2") == 2
    v, _ = parse_numeric(pd.Series(["RASS -2", "RASS +1", "-3"], name="RASS"))
    assert v.tolist() == [-2, 1, -3]
    assert all(gcs_untestable(c) for c in ("E1VTM4", "E2 VT M5", "GCS 6T", "8T"))
    assert not any(gcs_untestable(c) for c in ("E4V5M6", "15", "T2"))
    df, _ = _unit()
    enc = Encoder(id_column="Admission ID", label_column=OUT)
    X = pd.DataFrame(np.asarray(enc.fit_transform(df), float), columns=enc.feature_names_out_)
    apache = df["APACHE II"].str.replace("APACHE ", "").astype(float)
    assert (X["APACHE II"] == apache).all()
    assert X["RASS"].notna().all()
    # the intubated patients' scales are gaps, the column a number
    assert enc.roles_["GCS"] == "numeric"
    assert X["GCS"].isna().sum() == (df["GCS"].str.startswith("E1VT")).sum()
    assert any("Glasgow coma scale(s) without their verbal part" in n
               for n in enc.report_.notes)
    # "off" and "nil" are no infusion, 0; the vasopressin column is a dose, its "U/min"
    # and "units/min" one unit
    assert (X["Noradrenaline (mcg/kg/min)"][df["Noradrenaline (mcg/kg/min)"] == "off"]
            == 0).all()
    assert enc.roles_["Vasopressin"] == "numeric"
    assert sorted(X["Vasopressin"].unique()) == [0, 0.03, 0.04]
    # no past medical history is no comorbidity
    assert not any("NKMH" in f for f in enc.feature_names_out_)


def test_fio2_pao2_and_pf_ratios_in_two_units():
    assert quantity_of("FiO2")[0] == "inspired oxygen"
    assert quantity_of("PaO2 (kPa)")[0] == "arterial oxygen"
    assert quantity_of("P/F ratio")[0] == quantity_of("PaO2/FiO2")[0] == "P/F ratio"
    df, _ = _unit()
    enc = Encoder(id_column="Admission ID", label_column=OUT).fit(df)
    # one "0.4l" does not make a column of litres: its plain fractions are the most
    assert enc.units_["FiO2"] == "fraction"
    # ... and the cell is said once, by the warning on the unit not converted
    assert sum("0.4l" in line for line in str(enc.report_).splitlines()) == 1
    # a new patient's "0.4l" is said as text (no warning on units there)
    assert enc.transform_with_report(df.iloc[5:6])[1].stray_text
    listed = {v[1] for v in enc.report_.values_to_check
              if v[0] == "PaO2 (kPa)" and v[3] == "mmHg"}
    assert listed == set(range(0, len(df) - 1, 10))


def test_an_admission_re_entered_under_another_id_is_said():
    df, _ = _unit()
    enc = Encoder(id_column="Admission ID", label_column=OUT).fit(df)
    said = " ".join(enc.report_.warnings)
    assert (f"1 row repeats an earlier row in every feature the model uses under another "
            f"'Admission ID' (e.g. CSV lines 5 and {len(df) + 1}, 'ICU0003' and "
            f"'ICU{len(df) - 1:04d}')") in said


def test_an_icus_answers_written_every_way_are_offered():
    from sparge.data.levels import abbreviated_levels

    pairs = dict(abbreviated_levels(["ED", "A&E", "Emergency Dept", "Theatres", "post-op",
                                     "Recovery", "Ward 7B", "Ward", "OOH Transfer",
                                     "Ext transfer"], "Admission source"))
    assert pairs["A&E"] == pairs["Emergency Dept"] == "ED"
    assert pairs["post-op"] == pairs["Recovery"] == "Theatres"
    assert pairs["Ward 7B"] == "Ward" and pairs["OOH Transfer"] == "Ext transfer"
    pairs = dict(abbreviated_levels(["Respiratory failure", "T2RF", "OOHCA", "OHCA",
                                     "cardiac arrest", "DKA", "Diabetic ketoacidosis",
                                     "UGIB", "GI bleed", "Septic shock", "sepsis"],
                                    "Admission diagnosis"))
    assert pairs["T2RF"] == "Respiratory failure" and pairs["OHCA"] == "OOHCA"
    assert pairs["DKA"] == "Diabetic ketoacidosis" and pairs["UGIB"] == "GI bleed"
    assert not {"cardiac arrest", "Septic shock", "sepsis"} & set(pairs)
    pairs = dict(abbreviated_levels(["Yes", "No", "IPPV", "Intubated", "NIV", "BiPAP",
                                     "HFNO", "Optiflow", "none"], "Mechanical ventilation"))
    assert pairs["IPPV"] == pairs["Intubated"] == "Yes" and pairs["BiPAP"] == "NIV"
    assert pairs["Optiflow"] == "HFNO" and pairs["none"] == "No" and "NIV" not in pairs
    pairs = dict(abbreviated_levels(["no", "CRRT", "CVVH", "CVVHDF", "IHD"], "RRT"))
    assert {pairs["CVVH"], pairs.get("CVVHDF", "CRRT")} <= {"CRRT", "CVVHDF"}
    assert "IHD" not in pairs
    pairs = dict(abbreviated_levels(["Yes", "No", "DNAR in place", "For CPR",
                                     "Full escalation", "not discussed"], "DNACPR"))
    assert pairs["DNAR in place"] == "Yes" and pairs["For CPR"] == pairs["Full escalation"] \
        == "No" and "not discussed" not in pairs


def test_a_bare_t_is_a_coma_scale_only_in_a_column_named_so():
    """"3T" is a magnet's strength too: only a column of Glasgow coma scales reads a
    bare "8T" as one without its verbal part."""
    got, info = parse_numeric(pd.Series(["8T", "E1VTM4", "15"], name="GCS"))
    assert np.isnan(got[:2]).all() and got[2] == 15 and len(info["gcs_untestable"]) == 2
    _, info = parse_numeric(pd.Series(["3T", "E1VTM4", "1.5"], name="MRI field"))
    assert [c for _, c in info["bad"]] == ["3T"] and len(info["gcs_untestable"]) == 1
