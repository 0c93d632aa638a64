"""The synthetic SingHEART-style cohorts: the bundled samples' generator, and the cohort
stream of any size written as partitioned files."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest
from helpers import SAMPLES

from sparge.data.synthetic import (
    BLOCK_ROWS,
    cohort_columns,
    core_columns,
    make_cohort_rows,
    make_singheart_like,
    write_partitioned_cohort,
)


@pytest.mark.parametrize("n, seed, name", [(683, 0, "singheart_synthetic.csv"),
                                           (60, 1, "singheart_small.csv")])
def test_samples_are_what_the_generator_writes(n, seed, name):
    df, groups = make_singheart_like(n, random_state=seed)
    buf = io.StringIO()
    df.to_csv(buf, index=False)
    assert buf.getvalue() == (SAMPLES / name).read_text()
    assert groups == json.loads((SAMPLES / "biomarker_groups.json").read_text())


def test_columns():
    groups = cohort_columns()
    assert sum(map(len, groups.values())) == 467
    core = core_columns()
    assert len(core) == 60 and set(core) <= {c for cols in groups.values() for c in cols}
    assert "Diabetes" in core and "Age (years)" in core


def test_any_range_of_the_stream_is_the_same_patients():
    whole = make_cohort_rows(0, BLOCK_ROWS + 500, random_state=3, columns=core_columns())
    part = make_cohort_rows(BLOCK_ROWS - 200, BLOCK_ROWS + 300, random_state=3,
                            columns=core_columns())
    pd.testing.assert_frame_equal(part, whole.iloc[BLOCK_ROWS - 200:BLOCK_ROWS + 300])
    assert list(part.index[[0, -1]]) == [BLOCK_ROWS - 200, BLOCK_ROWS + 299]
    assert part["Subject ID"].iloc[0] == f"SH{BLOCK_ROWS - 199:07d}"
    # fewer columns: the kept ones do not change
    few = make_cohort_rows(0, 300, random_state=3, columns=["Diabetes", "Age (years)"])
    assert list(few.columns) == ["Subject ID", "Outcome", "Diabetes", "Age (years)"]  # cohort order
    pd.testing.assert_frame_equal(few, whole.iloc[:300][list(few.columns)])
    other = make_cohort_rows(0, 300, random_state=4, columns=["Age (years)"])
    assert not other["Age (years)"].equals(few["Age (years)"])


def test_stream_looks_like_the_sample_cohort():
    df = make_cohort_rows(0, 20_000, random_state=0)
    assert df.shape == (20_000, 469)
    shares = df["Outcome"].value_counts(normalize=True)
    assert abs(shares["low"] - 0.5) < 0.02 and abs(shares["high"] - 0.18) < 0.02
    sample, _ = make_singheart_like(683, random_state=0)
    assert list(df.columns[2:]) == list(sample.columns[2:])
    assert abs(df.isna().to_numpy().mean() - sample.isna().to_numpy().mean()) < 0.03
    assert df["Smoking"].dropna().str.strip().str.lower().isin(["yes", "no", "previously"]).all()
    for col in ("Age (years)", "HbA1c (%)"):  # same ranges as the sample
        assert abs(df[col].median() - sample[col].median()) < 0.1 * abs(sample[col].median())


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_partitioned_files_hold_the_stream(tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    cols = core_columns()[:12]
    paths = write_partitioned_cohort(tmp_path / "c", 2_500, 1_000, fmt=fmt, random_state=5,
                                     columns=cols)
    assert [p.name for p in paths] == [f"part-0000{i}.{fmt}" for i in range(3)]
    read = pd.read_parquet if fmt == "parquet" else pd.read_csv
    got = pd.concat([read(p) for p in paths], ignore_index=True)
    want = make_cohort_rows(0, 2_500, random_state=5, columns=cols).reset_index(drop=True)
    assert got.shape == want.shape and list(got.columns) == list(want.columns)
    num = want.columns[want.dtypes.map(lambda d: d.kind == "f")]
    np.testing.assert_array_equal(got[num].to_numpy(), want[num].to_numpy())
    text = [c for c in want.columns if c not in num]
    assert got[text].fillna("").astype(str).equals(want[text].fillna("").astype(str))


def test_partitioned_writer_refuses_bad_arguments(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("x")
    with pytest.raises(FileExistsError):
        write_partitioned_cohort(tmp_path / "full", 10, 5)
    with pytest.raises(ValueError, match="fmt"):
        write_partitioned_cohort(tmp_path / "a", 10, 5, fmt="xlsx")
    with pytest.raises(ValueError, match="Not columns"):
        write_partitioned_cohort(tmp_path / "b", 10, 5, columns=["nope"])
    with pytest.raises(ValueError, match=">= 1"):
        write_partitioned_cohort(tmp_path / "c", 0, 5)


#: Values a laboratory or a scanner can report for an adult (wide, not reference ranges):
#: the bundled sample once had sodium near 10 mmol/L and native T1 near 76 ms.
_ADULT_LIMITS = {
    "Sodium (mmol/L)": (120, 160), "Potassium (mmol/L)": (2.5, 7.0),
    "Chloride (mmol/L)": (85, 120), "Urea (mmol/L)": (1, 40),
    "Albumin (g/L)": (20, 60), "Total protein (g/L)": (45, 100),
    "Bilirubin (umol/L)": (1, 100), "ALP (U/L)": (20, 500),
    "White cell count (10^9/L)": (1, 30), "Platelets (10^9/L)": (50, 800),
    "Haematocrit (%)": (20, 60), "MCV (fL)": (60, 120), "Free T4 (pmol/L)": (5, 40),
    "Calcium (mmol/L)": (1.8, 3.0), "Phosphate (mmol/L)": (0.4, 2.5),
    "Magnesium (mmol/L)": (0.4, 1.5), "Native T1 (ms)": (850, 1300),
    "RV ejection fraction (%)": (20, 85), "Cardiac index (L/min/m2)": (1.2, 6),
    "Global longitudinal strain (%)": (-35, -5), "Pulse wave velocity (m/s)": (2, 20),
    "APB Heart rate (sd)": (0, 20), "APB Steps (night)": (0, 2000),
}


def test_bundled_sample_values_are_ones_a_clinic_could_report():
    df = pd.read_csv(SAMPLES / "singheart_synthetic.csv")
    for col, (lo, hi) in _ADULT_LIMITS.items():
        v = df[col].dropna()
        assert len(v) > 50, col
        assert lo <= v.min() and v.max() <= hi, (col, v.min(), v.max())
    shares = [c for c in df.columns
              if ("(%)" in c and "strain" not in c) or c.startswith("APB SpO2")]
    assert len(shares) >= 10
    assert (df[shares].max() <= 100).all(), df[shares].max().idxmax()
    wearable = df.filter(like="APB").drop(columns=df.filter(like="(sd)").columns)
    assert (wearable.min() > 0).all(), wearable.min().idxmin()
    # a questionnaire item stays within the range its name gives (walk-through 71: 719
    # cells of "(score 1-5)" items held 6 or 7)
    for lo, hi in ((1, 5), (0, 10)):
        items = df.filter(like=f"(score {lo}-{hi})")
        assert items.shape[1] >= 10
        assert items.min().min() >= lo and items.max().max() <= hi
