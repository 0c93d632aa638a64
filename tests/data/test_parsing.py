"""Parsing cells: numbers in every accepted form, missing tokens, levels of text columns
(recognised scales, yes/no, natural order)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparge import Encoder, read_table
from sparge.data.levels import infer_levels
from sparge.data.parsing import (
    _SMALL_COLUMN,
    CATEGORY_MIN_SHARE,
    cell_keys,
    cell_text,
    min_category_count,
    numeric_share,
    parse_numeric,
    token_counts,
)
from sparge.data.tables import DEFAULT_MISSING_TOKENS


# ---------------------------------------------------------------- cells as text and keys
def test_cell_text_strips_blanks_and_resets_the_index():
    values = pd.Series([" a ", None, np.nan, 3, "  "], index=[5, 6, 7, 8, 9], dtype=object)
    text = cell_text(values)
    assert text.tolist() == ["a", "", "", "3", ""]
    assert text.index.tolist() == [0, 1, 2, 3, 4]
    arrow = cell_text(pd.Series([" a ", None], dtype="string", index=[3, 4]))
    assert arrow.tolist() == ["a", ""] and arrow.index.tolist() == [0, 1]


def test_cell_keys_ignore_case_and_inner_space():
    keys = cell_keys(pd.Series(["A  B", "a b", " X", ""], index=[2, 3, 4, 5]))
    assert keys.tolist() == ["a b", "a b", "x", ""]
    assert keys.index.tolist() == [2, 3, 4, 5]


def test_token_counts_group_spellings_under_the_first_written():
    counts = token_counts(pd.Series(["NA", "na", " NA", "not  done", "Not done"]))
    assert counts == {"NA": 3, "not  done": 2}
    assert sum(counts.values()) == 5
    long = token_counts(pd.Series(["x" * 500]))
    assert all(len(k) <= 40 for k in long) and list(long.values()) == [1]


def test_min_category_count_is_one_percent_and_at_least_two():
    assert [min_category_count(n) for n in (0, 10, 200, 201, 1000)] == [2, 2, 2, 3, 10]
    for n in range(0, 2000, 37):
        assert min_category_count(n) >= max(2, CATEGORY_MIN_SHARE * n)


# ---------------------------------------------------------------- numbers
def test_parse_numeric_reads_every_accepted_form_and_says_what_it_did():
    cells = pd.Series(["1", "2,5", "<0.1", "high", "NA", "na", "", "inf", "1 234,5"])
    out, info = parse_numeric(cells)
    np.testing.assert_array_equal(out, [1, 2.5, 0.1, np.nan, np.nan, np.nan, np.nan,
                                        np.nan, 1234.5])  # "<0.1": its limit
    assert info["bad"] == [(3, "high")]
    assert info["censored"] == [(2, "<0.1")]
    assert info["infinite"] == [(7, "inf")]
    assert info["decimal_comma"] == 1 and info["thousands"] == 1
    assert info["missing_tokens"] == {"NA": 2}


def test_limits_with_a_decimal_comma_or_a_single_sign_are_read_as_limits():
    """Walk-through 25: "<5" was read as its limit, "<0,5", "<1,0" and "≤1" set to
    missing (48 CEA values, 5 % of the column)."""
    from sparge.data.parsing import limit_text

    cells = pd.Series(["<0,5", "≤1", "≥ 90", "<1,0", "3,2", ">=7", "< 2.5"] * 10)
    out, info = parse_numeric(cells)
    np.testing.assert_array_equal(out[:7], [0.5, 1, 90, 1, 3.2, 7, 2.5])
    assert info["bad"] == [] and len(info["censored"]) == 60
    assert [limit_text(c) for c in ("<0,5", "≤1", ">= 90", "7")] == ["<0,5", "≤1", "≥90",
                                                                      None]
    # the small path a new patient takes reads them alike
    np.testing.assert_array_equal(parse_numeric(pd.Series(["≤5", "<0,5"]))[0], [5, 0.5])


def test_parse_numeric_of_a_numeric_dtype_only_drops_infinities():
    out, info = parse_numeric(pd.Series([1.0, np.inf, np.nan, -np.inf]))
    np.testing.assert_array_equal(out, [1.0, np.nan, np.nan, np.nan])
    assert [row for row, _ in info["infinite"]] == [1, 3]
    assert info["bad"] == [] and info["missing_tokens"] == {}


def test_parse_numeric_does_not_take_booleans_for_numbers():
    out, info = parse_numeric(pd.Series([True, False]))
    assert np.isnan(out).all() and len(info["bad"]) == 2


def test_parse_numeric_follows_the_given_tokens():
    cells = pd.Series(["1", "not done", "NA"])
    _, info = parse_numeric(cells, missing_tokens=frozenset({"", "not done"}))
    assert info["missing_tokens"] == {"not done": 1} and info["bad"] == [(2, "NA")]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False, width=32),
                          st.integers(-10**9, 10**9)), min_size=1, max_size=80))
def test_plain_numbers_written_as_text_read_back_exactly(numbers):
    out, info = parse_numeric(pd.Series([repr(float(x)) for x in numbers], dtype=object))
    np.testing.assert_array_equal(out, np.asarray(numbers, dtype=float))
    assert info["bad"] == [] and info["censored"] == [] and info["infinite"] == []


def test_numeric_share_leaves_out_empty_cells_and_tokens():
    assert numeric_share(pd.Series(["1", "NA", "x", "2,5", ""])) == pytest.approx(2 / 3)
    assert numeric_share(pd.Series(["1", "<0.1", "1.234,5", "inf"])) == 1.0
    assert numeric_share(pd.Series(["", "NA"])) == 0.0
    assert numeric_share(pd.Series([1, 2])) == 1.0
    assert numeric_share(pd.Series([True, False])) == 0.0
    assert numeric_share(pd.Series(["1", "x"]), frozenset({"x"})) == 1.0


# ---------------------------------------------------------------- levels of text columns
def test_infer_levels_codes_a_recognised_scale_by_rank():
    levels, ordered, scale = infer_levels(pd.Series(["None", "Micro", "macro", "None", "",
                                                     "N/A"]))
    assert levels == {"None": 1, "Micro": 2, "macro": 3}
    assert ordered and scale == "albuminuria"


def test_infer_levels_yes_no_direction_then_natural_order():
    levels, ordered, scale = infer_levels(pd.Series(["Yes", "No", "Maybe", "Yes"]))
    assert levels == {"Yes": 1, "No": 2, "Maybe": 3}
    assert not ordered and scale is None
    levels, ordered, _ = infer_levels(pd.Series(["B", "a", "10", "9", "Stage 10", "Stage 2"]))
    assert levels == {"9": 1, "10": 2, "a": 3, "B": 4, "Stage 2": 5, "Stage 10": 6}
    assert not ordered


def test_a_token_word_is_a_level_only_when_common_or_on_the_scale():
    rare = pd.Series(["A", "B"] * 150 + ["Unknown"])
    assert "Unknown" not in infer_levels(rare)[0]
    common = pd.Series(["A", "B"] * 150 + ["Unknown"] * 4)
    assert "Unknown" in infer_levels(common)[0]
    on_scale = pd.Series(["Mild", "Severe"] * 150 + ["None"])
    assert infer_levels(on_scale) == ({"None": 1, "Mild": 2, "Severe": 4}, True, "severity")
    assert infer_levels(rare, missing_keys=DEFAULT_MISSING_TOKENS - {"unknown"})[0] \
        ["Unknown"] > 0


def test_infer_levels_codes_are_distinct_and_cover_every_value():
    cells = pd.Series(["x", "X ", "y", "", "z", "NA"])
    levels, _, _ = infer_levels(cells)
    assert len(set(levels.values())) == len(levels) == 3
    assert {k.strip().lower() for k in levels} == {"x", "y", "z"}


# ---------------------------------------------------------------- numbers through the Encoder
def test_mostly_text_column_with_numbers_codes_numbers_numerically():
    vals = ["10", "2", "1", "none seen", "few", "many", "20"] * 10
    df = pd.DataFrame({"Count": vals, "Age": np.arange(len(vals))})
    enc = Encoder(max_patient_missing=None)
    enc.fit(df)
    assert enc.roles_["Count"] == "categorical"
    levels = enc.table_.levels("Count")
    assert levels["1"] < levels["2"] < levels["10"] < levels["20"]


def test_thousands_dot_decimal_comma_column_reads_as_numbers():
    vals = ["1.234,5", "987,25", "12.345,0", "1.000", "3,5"]
    df = read_table(("id;Cost\n" + "\n".join(f"P{i};{v}" for i, v in enumerate(vals))
                     + "\n").encode())
    enc = Encoder(id_column="id", max_patient_missing=None)
    X = enc.fit_transform(df)
    assert enc.roles_["Cost"] == "numeric"
    np.testing.assert_allclose(X[:, 0], [1234.5, 987.25, 12345.0, 1000.0, 3.5])
    assert any("thousands" in n and "Cost" in n for n in enc.report_.notes)


def test_space_thousands_separator():
    vals = ["1 234,5", "2 000", "12", "1 000 000,25"]
    df = pd.DataFrame({"Cost": vals, "Age": [1, 2, 3, 4]})
    X = Encoder(max_patient_missing=None).fit_transform(df)
    np.testing.assert_allclose(X[:, 0], [1234.5, 2000, 12, 1000000.25])


def test_dot_decimals_are_not_taken_for_thousands():
    df = pd.DataFrame({"x": ["1.234", "2.5", "1.234,5", "3"], "y": [1, 2, 3, 4]})
    X = Encoder(max_patient_missing=None).fit_transform(df)
    assert X[0, 0] == 1.234 and X[1, 0] == 2.5 and np.isnan(X[2, 0])


def test_short_and_long_columns_parse_the_same():
    """A one-patient query takes the plain-Python path; it must read cells exactly as the
    pandas path does for a whole cohort."""
    cells = ["12", " 3.5 ", "", "NA", "1e3", "-2", "+.5", "12,5", "<0.1", "inf", "abc",
             "1.234,5", "1 234,5", "1e999", "None", "7.", "nan", "?"]
    short = pd.Series(cells, dtype=object)
    long = pd.Series(cells * (_SMALL_COLUMN // len(cells) + 2), dtype=object)
    assert len(short) <= _SMALL_COLUMN < len(long)
    a, ia = parse_numeric(short)
    b, ib = parse_numeric(long)
    np.testing.assert_array_equal(a, b[: len(cells)])
    for key in ("bad", "censored", "infinite"):
        assert [c for c in ia[key]] == [c for c in ib[key] if c[0] < len(cells)]


def test_levels_that_start_with_their_number_are_ordered():
    ecog = pd.Series(["1 - restricted", "0 - fully active", "3 - limited self-care",
                      "2 - ambulatory, no work", "1 - restricted"])
    levels, ordered, scale = infer_levels(ecog)
    assert ordered and scale is None
    assert sorted(levels, key=levels.get) == ["0 - fully active", "1 - restricted",
                                              "2 - ambulatory, no work",
                                              "3 - limited self-care"]
    assert infer_levels(pd.Series(["Grade 10", "Grade 2", "Grade 1"]))[1]
    # names, a repeated number, two different words: not an order
    assert not infer_levels(pd.Series(["placebo", "5.0 mg estrogen", "1.0 mg estrogen"]))[1]
    assert not infer_levels(pd.Series(["Stage 3 left", "Stage 3 right"]))[1]
    # a sub-stage letter makes another, later level (CKD stages 3a and 3b)
    assert infer_levels(pd.Series(["Stage 3b", "Stage 3a", "Stage 4"])) == (
        {"Stage 3a": 1, "Stage 3b": 2, "Stage 4": 3}, True, None)
    assert not infer_levels(pd.Series(["Grade 1", "Stage 2"]))[1]


def test_cells_written_with_the_columns_unit_read_as_numbers():
    """A NICU export wrote '1420 g' in 'Birth weight (g)': 28 birth weights were lost."""
    from sparge.data.parsing import header_unit, numeric_share, parse_numeric, with_unit

    assert header_unit("Birth weight (g)") == "g"
    assert header_unit("Platelets [x10^9 / L]") == "x10^9/l"
    assert header_unit("Age") is None and header_unit("Ratio (a (b))") is None
    assert with_unit("1420 g", "g") == 1420 and with_unit("980G", "g") == 980
    assert with_unit("7,2 mmol/L", "mmol/l") == 7.2
    assert with_unit("1.4 kg", "g") is None and with_unit("1420 g", None) is None
    # a unit's short spelling: "39 y" in "Age (years)" (15 ages of an ACTG export were lost)
    years = header_unit("Age (years)")
    assert with_unit("39 y", years) == 39 and with_unit("39 yrs", years) == 39
    assert with_unit("18 mo", header_unit("Follow-up (months)")) == 18
    assert with_unit("39 d", years) is None  # days are not years
    # a power written three ways is one unit (walk-through 18: 65 BMIs "kg/m2" in a
    # "BMI (kg/m²)" column were set to missing as another unit)
    bmi = header_unit("BMI (kg/m²)")
    assert bmi == header_unit("BMI (kg/m2)") == header_unit("BMI [kg/m^2]")
    assert with_unit("24.1 kg/m2", bmi) == 24.1 and with_unit("31 kg/m²", bmi) == 31
    assert with_unit("31 kg/m^2", header_unit("BMI (kg/m2)")) == 31
    assert header_unit("Platelets (x10^9/L)") != header_unit("Platelets (x109/L)")
    cells = pd.Series(["1420 g", "1200", "1.4 kg", "n/a", " 990 g "] + ["1000"] * 70)
    out, info = parse_numeric(cells, unit="g")
    assert out[0] == 1420 and out[4] == 990 and np.isnan(out[2]) and np.isnan(out[3])
    assert [r for r, _ in info["unit"]] == [0, 4] and [t for _, t in info["bad"]] == ["1.4 kg"]
    small, _ = parse_numeric(cells[:5], unit="g")  # the few-cell path (a new patient)
    np.testing.assert_array_equal(small, out[:5])
    # every cell with its unit: still a numeric column (was free text, > 30 answers)
    every = pd.Series([f"{v} kg" for v in range(50, 90)])
    assert numeric_share(every) == 0.0 and numeric_share(every, unit="kg") == 1.0


def test_column_units_finds_one_unit_in_its_spellings():
    """A heart-failure export wrote '140 mmHg', '82 bpm', '35 %', '170 µmol/l' and '5,2 %'
    beside plain numbers: the unit is read from the cells, spellings merged."""
    from sparge.data.parsing import column_units

    sbp = pd.Series(["140 mmHg", "120", "", "NA", "135 mm Hg", "118 MMHG", "150"])
    units = column_units(sbp, "Systolic BP")
    assert units.unit == "mmHg" and units.from_cells == "mmHg" and not units.mixed
    assert list(units.written) == ["mmhg"] and units.written["mmhg"].count == 3
    assert units.written["mmhg"].rows == (0, 4, 5)
    assert (units.n_numbers, units.n_cells) == (2, 5)
    assert units.share_read() == numeric_share(sbp, unit=units.unit) == 1.0
    creat = column_units(pd.Series(["170 µmol/l", "80 umol/L", "90 μmol/l", "75"]))
    assert list(creat.written) == ["umol/l"] and creat.written["umol/l"].count == 3
    hba1c = column_units(pd.Series(["5,2 %", "6,1%", "5,9", "7 percent"]))
    assert hba1c.unit == "%" and hba1c.written["%"].count == 3
    out, info = parse_numeric(pd.Series(["5,2 %", "6,1%", "5,9", "7 percent"]),
                              unit=hba1c.unit)
    np.testing.assert_allclose(out, [5.2, 6.1, 5.9, 7.0])
    assert len(info["unit"]) == 3


def test_column_units_tells_two_units_from_levels_written_with_numbers():
    from sparge.data.parsing import column_units

    mixed = column_units(pd.Series(["1,2 mg/dl", "106 µmol/l", "0,9 mg/dl", "88 µmol/l"]))
    assert mixed.mixed and mixed.unit is None and set(mixed.keys) == {"mg/dl", "umol/l"}
    assert mixed.share_with_units() == 1.0
    # the name's unit and another one in the cells: mixed too
    named = column_units(pd.Series(["70", "154 lb", "180 lb"]), "Weight (kg)")
    assert named.mixed and named.unit == "kg" and named.keys == ["kg", "lb"]
    assert not column_units(pd.Series(["70", "71 kg"]), "Weight (kg)").mixed
    # a scale's levels ("0 none"), stages ("3a") and ordinals are not units
    for levels in (["0 none", "1 mild", "2 severe"], ["1", "2", "3a", "3b", "4"],
                   ["1st", "2nd", "3rd"], ["0 - fully active", "1 - restricted"]):
        assert column_units(pd.Series(levels * 10)).written == {}
    assert column_units(pd.Series([1.5, 2.0])).written == {}


def test_dots_as_thousands_separators_in_a_table_with_decimal_commas():
    """Walk-through 15 wrote NT-proBNP 1527 as '1.527' in a table of '5,2': read as 1.527."""
    from sparge.data.parsing import decimal_marks, thousands_dot_column, writes_decimal_commas

    bnp = pd.Series(["1.527", "735", "", "NA", "12.345", "35000", "2.100.000"])
    assert thousands_dot_column(bnp)
    for other in (["1.527", "2.5"], ["1.527", "0.527"], ["1.52", "735"], ["735", "812"],
                  ["1.527", "<0.1"]):
        assert not thousands_dot_column(pd.Series(other))
    assert not thousands_dot_column(pd.Series([1.527, 2.0]))  # numbers, not text
    assert decimal_marks(pd.Series(["5,2", "6"])) == (True, False)
    assert decimal_marks(pd.Series(["5,2 %", "1.527"])) == (True, False)
    assert decimal_marks(pd.Series(["2.5 mg", "3"])) == (False, True)
    eu = pd.DataFrame({"BMI": ["25,8", "30"], "BNP": ["1.527", "735"], "Date": ["01.12.2022"] * 2})
    assert writes_decimal_commas(eu)
    assert not writes_decimal_commas(eu.assign(K=["4.5", "3.9"]))  # a decimal point too
    assert not writes_decimal_commas(eu[["BNP", "Date"]])  # no decimal comma at all

    out, info = parse_numeric(bnp, thousands_dot=True)
    np.testing.assert_array_equal(out, [1527, 735, np.nan, np.nan, 12345, 35000, 2100000])
    assert [(r, t, v) for r, t, v in info["thousands_dot"]] == [
        (0, "1.527", 1527.0), (4, "12.345", 12345.0), (6, "2.100.000", 2100000.0)]
    small, _ = parse_numeric(bnp[:3], thousands_dot=True)  # the few-cell path
    np.testing.assert_array_equal(small, [1527, 735, np.nan])
    assert parse_numeric(bnp)[0][0] == 1.527  # without the table's word: as before
    # never a decimal written with a leading 0, and a unit may follow
    out, info = parse_numeric(pd.Series(["0.527", "1.527 pg/ml", "8.400"]), unit="pg/ml",
                              thousands_dot=True)
    np.testing.assert_array_equal(out, [0.527, 1527, 8400])
    huge = "1" + ".000" * 110  # 1e330: infinite, set to missing like '1e999'
    out, info = parse_numeric(pd.Series([huge, "1.527"]), thousands_dot=True)
    assert np.isnan(out[0]) and out[1] == 1527 and info["infinite"] == [(0, huge)]
    # the few-cell path reads as the whole column's path does
    cells = ["1.527", "0.527", "12.345.678", "1.527 pg/ml", "2,5", "735", "NA", "1.52"]
    long = pd.Series(cells * (_SMALL_COLUMN // len(cells) + 2), dtype=object)
    a, ia = parse_numeric(pd.Series(cells), unit="pg/ml", thousands_dot=True)
    b, ib = parse_numeric(long, unit="pg/ml", thousands_dot=True)
    np.testing.assert_array_equal(a, b[: len(cells)])
    assert ia["thousands_dot"] == [c for c in ib["thousands_dot"] if c[0] < len(cells)]


def test_gestational_ages_in_weeks_and_days_read_in_weeks():
    """Walk-through 31: "38+4" (weeks+days) left 670 of 700 gestations out as free text,
    and "40w 5d" was read as a number with the unit "w 5d"."""
    cells = pd.Series(["38+4", "40w 5d", "38 weeks 4 days", "37+2/7", "39", "NA", "2+1",
                       "19+3", "38+7"] * 10)
    out, info = parse_numeric(cells)
    np.testing.assert_allclose(out[:5], [38 + 4 / 7, 40 + 5 / 7, 38 + 4 / 7, 37 + 2 / 7, 39])
    assert np.isnan(out[5:9]).all()  # a gap, a parity, too early, not a day of the week
    assert len(info["gestation"]) == 40 and info["gestation"][0][:2] == (0, "38+4")
    assert numeric_share(cells.iloc[:5]) == 1.0
