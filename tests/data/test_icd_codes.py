"""Diagnoses written as ICD-10 codes: read by the classification's categories, blocks or
chapters (a column of 34 codes was left out as more than 30 text answers)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data import icd_codes
from sparge.data.icd_codes import icd_code, icd_group, icd_source, read_icd_codes
from sparge.data.reading import read_table

CODES = ["F20.0", "F20.9", "F25.0", "F25.1", "F31.1", "F31.3", "F31.6", "F32.1", "F32.2",
         "F33.1", "F33.2", "F41.1", "F41.2", "F43.1", "F43.2", "F60.3", "F60.31", "F10.2",
         "F10.3", "F11.2", "F90.0", "F84.0", "F50.0", "F42", "F40.1", "F06.3", "F23.0",
         "F22.0", "F32.0", "F33.0", "F31.0", "F29", "F39", "F48.0"]


def _ward(n: int = 500, seed: int = 0, codes=CODES) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    written = []
    for c in rng.choice(codes, n):  # with and without the dot, with a description
        r = rng.random()
        written.append(c if r < 0.4 else c.replace(".", "") if r < 0.6
                       else f"{c} - described")
    psychosis = np.array([w[:3] in ("F20", "F25", "F31") for w in written])
    y = np.where(psychosis, rng.random(n) < 0.7, rng.random(n) < 0.2)
    return pd.DataFrame({"ID": [f"P{i}" for i in range(n)],
                         "Age": rng.integers(18, 80, n).astype(str),
                         "Primary diagnosis": written,
                         "PHQ9": rng.integers(0, 27, n).astype(str),
                         "Readmitted": np.where(y, "Yes", "No")})


def test_the_tables_are_sorted_and_every_block_lies_in_one_chapter():
    for table in (icd_codes.CHAPTERS, icd_codes.BLOCKS):
        for (_, last, _), (first, _, _) in zip(table, table[1:]):
            assert last < first
    for first, last, _ in icd_codes.BLOCKS:
        assert icd_codes._find(icd_codes.CHAPTERS, icd_codes._CHAPTER_STARTS, first) == \
            icd_codes._find(icd_codes.CHAPTERS, icd_codes._CHAPTER_STARTS, last) is not None


@pytest.mark.parametrize("cell, code", [
    ("F32.1", "F32.1"), ("F321", "F32.1"), ("f32.1 Moderate depressive episode", "F32.1"),
    ("I21.4 - NSTEMI", "I21.4"), ("E11.65", "E11.65"), ("S72.001A", "S72.001A"),
    ("C50", "C50"), ("J18.9: pneumonia", "J18.9"), ("Pneumonia", None), ("B12a", None),
    ("T2N1M0", None), ("", None)])
def test_a_cell_starting_with_a_code(cell, code):
    assert icd_code(cell) == code


def test_a_code_is_grouped_by_its_category_block_and_chapter():
    assert icd_group("F31.1", "category") == "F31 (Mood [affective] disorders)"
    assert icd_group("F31.1", "block") == "F30–F39 Mood [affective] disorders"
    assert icd_group("F31.1", "chapter") == "F00–F99 Mental and behavioural disorders"
    assert icd_group("I21.4", "block") == "I20–I25 Ischaemic heart diseases"
    assert icd_group("C50.9", "block") == "C50 Breast cancer"
    assert icd_group("D50.0", "chapter").startswith("D50–D89")  # D splits at D48/D50
    assert icd_group("H66.9", "chapter").startswith("H60–H95")  # H at H59/H60
    assert icd_group("D49", "block") == "D49"  # ICD-10-CM's, in no WHO block
    assert icd_source("Dx (ICD-10 block)") == ("Dx", "block")
    assert icd_source("Diagnosis") is None


def test_a_column_of_many_codes_is_read_by_their_category_beside_the_codes():
    """34 codes written three ways: left out before; now 21 categories, unordered, and the
    column as written stays (left out) for the look-alike file."""
    df = read_table(io.BytesIO(_ward().to_csv(index=False).encode()))
    name = "Primary diagnosis (ICD-10 category)"
    assert list(df.columns[2:4]) == ["Primary diagnosis", name]
    assert any("holds ICD-10 codes" in n and "read by their category" in n
               for n in df.attrs["sparge_read_notes"])
    enc = Encoder(label_column="Readmitted", id_column="ID")
    X = enc.fit_transform(df)
    assert enc.roles_["Primary diagnosis"] == "ignore"
    assert name in enc.feature_names_out_
    levels = enc.table_.levels(name)
    assert len(levels) == 21 and "F31 (Mood [affective] disorders)" in levels
    assert not enc.table_.is_ordered(name) and name in enc.report_.unordered_columns
    # "F321", "F32.1" and "F32.1 - described" are one answer
    j = enc.feature_names_out_.index(name)
    rows = df["Primary diagnosis"].str.startswith(("F32.1", "F321"))
    assert len(set(X[rows.to_numpy(), j])) == 1
    # a new patient's one row: read at the model's level whatever its size
    one = pd.DataFrame({"ID": ["new"], "Age": ["40"], "PHQ9": ["5"],
                        "Primary diagnosis": ["F31.1 Bipolar affective disorder, manic"]})
    x = enc.transform(one)
    assert x[0, j] == levels["F31 (Mood [affective] disorders)"]


def test_more_categories_than_answers_allowed_read_by_block_or_chapter():
    rng = np.random.default_rng(5)
    many = [f"{letter}{k:02d}.{d}" for letter in "IJ" for k in range(0, 99, 2)
            for d in (0, 9)]
    df = _ward(600, codes=list(rng.choice(many, 150, replace=False)))
    out = read_icd_codes(df)
    added = [c for c in out.columns if icd_source(c) is not None]
    assert added == ["Primary diagnosis (ICD-10 block)"]
    assert out[added[0]].nunique() <= icd_codes.MAX_GROUPS
    assert "I20–I25 Ischaemic heart diseases" in set(out[added[0]])


@pytest.mark.parametrize("column, cells", [
    ("Ward", ["B12", "C14", "A21", "B10", "D11"] * 20),  # not named like a diagnosis
    ("Diagnosis", [f"F{k}.1" for k in range(20, 30)] * 10),  # few codes: kept as answers
    ("Comorbidities", [f"F{k}.1, I10" for k in range(20, 60)] * 3),  # lists of codes
    ("Referral code", [f"R{i}" for i in range(100, 200)]),  # one a patient: references
    ("Diagnosis", ["Pneumonia", "UTI", "Sepsis", "COPD"] * 25 + [f"J{k}" for k in range(20)]),
])
def test_columns_that_are_no_diagnosis_coded_one_per_patient_are_left_as_they_are(
        column, cells):
    df = pd.DataFrame({column: cells})
    assert list(read_icd_codes(df).columns) == [column]
