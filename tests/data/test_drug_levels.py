"""A drug's level measured only for the patients on the drug (a mental health team's
lithium, clozapine and valproate levels): values that do not apply to the others, told by
a free-text medication column too many answers wide to be a feature."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.drug_levels import (
    drug_level_mask,
    drug_names_said,
    find_drug_level_gaps,
    level_drug,
    names_drug,
)
from sparge.method.preprocess import missing_fraction_per_row

DRUGS = ["lithium 400mg", "Priadel 800mg nocte", "Lithium carbonate 600 mg", "sertraline 50mg",
         "Sertraline 100mg od", "fluoxetine 20mg", "mirtazapine 15mg ON", "quetiapine 100mg",
         "Quetiapine MR 300mg", "olanzapine 10mg", "Olanzapine 5 mg", "aripiprazole 10mg",
         "clozapine 300mg", "Clozaril 200mg bd", "clozapine 450mg", "sodium valproate 500mg bd",
         "Depakote 750mg", "Epilim 1g", "risperidone 2mg", "venlafaxine 75mg",
         "citalopram 20mg", "escitalopram 10mg", "lamotrigine 100mg", "haloperidol 5mg",
         "paliperidone depot", "zopiclone 7.5mg", "promethazine 25mg", "pregabalin 75mg",
         "duloxetine 60mg", "amitriptyline 10mg", "trazodone 50mg", "none",
         # free text no drug table merges: the column stays more than 30 answers
         *(f"study medication {k} (see notes)" for k in range(20))]


def _caseload(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    med = rng.choice(DRUGS, n)
    low = pd.Series(med).str.lower()
    on = {d: low.str.contains(p).to_numpy() for d, p in
          {"li": "lith|priadel", "cl": "cloz", "va": "valpro|depakote|epilim"}.items()}
    df = pd.DataFrame({
        "ID": [f"MH{i:04d}" for i in range(n)],
        "Age": rng.integers(18, 80, n).astype(float),
        "Sex": rng.choice(["M", "F"], n),
        "Medication": med,
        "Lithium level (mmol/L)": np.where(on["li"], rng.normal(0.7, 0.15, n).round(2), np.nan),
        "Clozapine level (ng/mL)": np.where(on["cl"], rng.normal(450, 150, n).round(), np.nan),
        "Valproate level (mg/L)": np.where(on["va"], rng.normal(70, 15, n).round(), np.nan),
        "PHQ9": rng.integers(0, 27, n).astype(float),
        "GAD7": rng.integers(0, 21, n).astype(float),
        "BMI": rng.normal(27, 5, n).round(1),
        "Readmitted": rng.choice(["Yes", "No"], n)})
    for c in ("PHQ9", "GAD7", "BMI", "Age"):
        df.loc[rng.random(n) < 0.03, c] = np.nan
    return df


@pytest.mark.parametrize("column, drug", [
    ("Lithium level (mmol/L)", "lithium"), ("Li level", "lithium"),
    ("Serum clozapine conc", "clozapine"), ("Vanc trough", "vancomycin"),
    ("Tacrolimus (ug/L)", "tacrolimus"), ("Sodium valproate level", "valproate"),
    ("Sodium (mmol/L)", None), ("Li", None), ("Level of care", None), ("Age", None),
    ("Lipase level", None)])
def test_the_drug_a_column_is_named_for(column, drug):
    assert level_drug(column) == drug


def test_a_cell_names_a_drug_by_its_generic_or_brand_name():
    cells = pd.Series(["Priadel 800mg nocte", "LITHIUM carbonate", "sertraline", None,
                       "olanzapine, lithium 400mg", "Li-Liquid 10 mL"])
    assert names_drug(cells, "lithium").tolist() == [True, True, False, False, True, True]
    assert drug_names_said("lithium") == "lithium (nor Priadel, Camcolit or Liskonum)"
    assert drug_names_said("amikacin") == "amikacin"


def test_levels_of_the_drugs_a_free_text_medication_names_do_not_apply_to_the_others():
    """Counted as gaps, three drugs' levels left none of 400 patients for training."""
    df = _caseload()
    enc = Encoder(label_column="Readmitted", id_column="ID")
    X = enc.fit_transform(df)
    assert enc.roles_["Medication"] == "ignore"  # free text: too many answers
    assert enc.drug_level_gaps_ == {
        "Lithium level (mmol/L)": ("Medication", "lithium"),
        "Clozapine level (ng/mL)": ("Medication", "clozapine"),
        "Valproate level (mg/L)": ("Medication", "valproate")}
    assert enc.keep_patients_.sum() > 0.7 * len(df)
    # every patient's own weights: 0 exactly where a level of a drug not taken is empty
    w = enc.patient_weights(X, df)
    j = enc.feature_names_out_.index("Lithium level (mmol/L)")
    on_lithium = names_drug(df["Medication"], "lithium")
    assert (w[~on_lithium, j] == 0).all() and (w[on_lithium, j] > 0).all()
    miss = missing_fraction_per_row(X, w)
    assert np.allclose(miss[enc.keep_patients_], miss[enc.keep_patients_].clip(0, 0.1))
    rep = enc.report_
    assert rep.not_applicable["Lithium level (mmol/L)"] == int((~on_lithium).sum())
    assert rep.missing_pct["Lithium level (mmol/L)"] == 0.0
    note = next(n for n in rep.notes if n.startswith("Column 'Clozapine level"))
    assert "whose 'Medication' names no clozapine (nor Clozaril" in note
    assert not rep.blocking
    # without the table (a loaded model's weights of another table), the gaps count
    assert (enc.patient_weights(X) > 0).all()


def test_a_level_missing_for_patients_on_the_drug_too_is_a_gap():
    """A lithium level missing at random (measured for half the patients on lithium and
    none of the others... and half of the others) is no design: its gaps count."""
    df = _caseload(seed=1)
    rng = np.random.default_rng(2)
    on = names_drug(df["Medication"], "lithium")
    df["Lithium level (mmol/L)"] = np.where(rng.random(len(df)) < 0.5,
                                            rng.normal(0.7, 0.1, len(df)).round(2), np.nan)
    found = find_drug_level_gaps(df, {"Lithium level (mmol/L)":
                                      df["Lithium level (mmol/L)"].to_numpy()},
                                 ["Medication", "Sex"])
    assert found == {}
    # measured for those on lithium only, but named in no text column: no rule either
    df["Lithium level (mmol/L)"] = np.where(on, 0.7, np.nan)
    assert find_drug_level_gaps(df, {"Lithium level (mmol/L)": df["Lithium level (mmol/L)"]
                                     .to_numpy()}, ["Sex"]) == {}
    # an empty medication cell says nothing: the level is a gap there
    cells = pd.DataFrame({"Medication": ["sertraline", None, " ", "lithium"]})
    assert drug_level_mask(cells, "Medication", "lithium").tolist() == [True, False, False,
                                                                         False]


def test_a_list_of_drugs_split_into_yes_no_columns_still_names_the_drug():
    """"olanzapine, lithium 400mg": the list's column as written names lithium."""
    df = _caseload(seed=3)
    rng = np.random.default_rng(4)
    extra = rng.choice(["olanzapine", "sertraline", "zopiclone", ""], len(df))
    df["Medication"] = [f"{m}, {e}" if e else m for m, e in zip(df["Medication"], extra)]
    enc = Encoder(label_column="Readmitted", id_column="ID")
    enc.fit_transform(df)
    assert enc.drug_level_gaps_["Lithium level (mmol/L)"] == ("Medication", "lithium")
    assert enc.keep_patients_.sum() > 0.7 * len(df)
