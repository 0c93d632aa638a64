"""Text leaving the program: Markdown, terminals and CSV files (issue 10, points 3, 4, 12)."""

import io
import re

import numpy as np
import pandas as pd
import pytest

from sparge.data.safe_text import (
    csv_cell,
    csv_safe,
    label_text,
    md_escape,
    plain_frame,
    plain_text,
    to_csv,
)

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize("value", ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3*A1",
                                   "@SUM(A1:A9)", "\t=1", "\r=1", "=", "-", "\uff1d1+1"])
def test_formula_cells_get_a_quote(value):
    assert csv_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["-1", "+2.5", "-3e-4", "-.5", "12", "abc", "", "a=b",
                                   " =not-at-start"])
def test_numbers_and_plain_text_are_kept(value):
    assert csv_cell(value) == value


def test_non_strings_untouched():
    assert csv_cell(-1.5) == -1.5 and csv_cell(None) is None and np.isnan(csv_cell(np.nan))


def test_to_csv_neutralises_cells_names_categoricals_and_index():
    df = pd.DataFrame({"=cmd|' /C calc'!A0": ["=1+1", "ok"], "n": [-1.0, 2.0],
                       "c": pd.Categorical(["@x", "y"])}, index=["+i", "j"])
    text = to_csv(df, index=True)
    back = pd.read_csv(io.StringIO(text), index_col=0, dtype=str, keep_default_na=False)
    cells = [str(c) for c in back.columns] + list(back.index) + back.to_numpy().ravel().tolist()
    formula = [c for c in cells if c and c[0] in "=+@\t\r" or (c.startswith("-") and
                                                               not _is_number(c))]
    assert formula == []
    assert "'=1+1" in text and "'@x" in text and "'+i" in text and ",-1.0," in text
    assert df.iloc[0, 0] == "=1+1"  # the caller's frame is not changed


def _is_number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


def test_csv_safe_handles_duplicate_column_names():
    df = pd.DataFrame([["=a", "=b"]], columns=["x", "x"])
    assert csv_safe(df).iloc[0].tolist() == ["'=a", "'=b"]


def test_plain_text_strips_terminal_escapes_and_bidi_overrides():
    s = "\x1b[31mred\x1b[0m\x07 \x9b2J id\u202egnp.exe\x00"
    out = plain_text(s)
    assert CONTROL.search(out) is None
    assert out == "[31mred[0m 2J idgnp.exe"
    assert plain_text("a\nb\tc") == "a b c"
    assert plain_text("x" * 500, max_len=10) == "x" * 9 + "…"


def test_plain_frame_cleans_names_cells_and_index():
    df = pd.DataFrame({"\x1b]0;title\x07name": ["\x1b[2Jv", 3]}, index=["\x1bi", "j"])
    out = plain_frame(df)
    text = out.to_string()
    assert CONTROL.search(text) is None
    assert out.iloc[1, 0] == 3  # numbers untouched
    # the reading's notes and rewritten positions stay with the table, not its display copy
    df.attrs["sparge_read_notes"] = ["Column 'x': 2 times (e.g. '1h 20m')"]
    df.attrs["sparge_rewritten"] = {"x": "2:wA=="}
    assert plain_frame(df).attrs == {} and df.attrs["sparge_rewritten"] == {"x": "2:wA=="}


def test_md_escape_disarms_images_links_and_html():
    s = md_escape("![x](http://127.0.0.1:9/leak) <img src=x> **b**")
    assert re.search(r"(?<!\\)[!\[\]()<>*]", s) is None  # every special is escaped


def test_md_escape_leaves_nothing_for_the_autolinker():
    """A bare URL, www. address or e-mail in user text must not become a clickable link."""
    from sparge.data.safe_text import md_escape

    out = md_escape("see http://127.0.0.1:9/leak, HTTPS://x.org, www.example.org, a@b.com")
    for pattern in ("://", "www.", "@b"):
        assert pattern not in out.lower().replace("\\", "")
    visible = out.replace("\u2060", "").replace("\\", "")
    assert visible == "see http://127.0.0.1:9/leak, HTTPS://x.org, www.example.org, a@b.com"


@pytest.mark.parametrize("name", ["Birth weight (g)", "Na+ (mmol/L)", "IL-6 (pg/mL)",
                                  "Hb A1c. (%)", "O2 sat. = 90!", "Comorbidities: DM",
                                  # walk-through 75's "FEV1\\_L": an underscore inside a
                                  # word starts no emphasis
                                  "FEV1_L (L)", "MRC_grade"])
def test_a_label_keeps_what_its_markdown_cannot_use(name):
    """A widget's accessible name is its label as written: "Birth weight \\(g\\)" was read
    aloud with its escapes (a walk-through's screen-reader check)."""
    assert label_text(name) == name


def test_a_label_disarms_links_images_html_and_streamlit_directives():
    s = label_text("![x](http://127.0.0.1:9/leak) <img src=x> **b** :red[x] $x$ ~y~ `c`")
    assert re.search(r"(?<!\\)[\[\]<>*:$~`]", s) is None
    assert "://" not in s.replace("\\", "")
    assert "@b" not in label_text("a@b.com") and "www." not in label_text("www.x.org")
    # an underscore that can start or end emphasis stays escaped
    assert label_text("_x_ y_ _z") == "\\_x\\_ y\\_ \\_z"


@pytest.mark.parametrize("name, shown", [("# of visits", "\\# of visits"),
                                         ("- Sodium", "\\- Sodium"),
                                         ("+ Potassium", "\\+ Potassium"),
                                         ("1. Age", "1\\. Age"), ("12) Weight", "12\\) Weight")])
def test_a_label_keeps_its_leading_marker(name, shown):
    """A block marker at a label's start would be dropped ("# of visits" read "of visits")."""
    assert label_text(name) == shown


def test_a_long_sentence_is_cut_between_words_a_cell_where_it_ends():
    """Walk-through 90's held-out verdict ended "on this cohort the loo…"."""
    from sparge.data.safe_text import plain_text
    sentence = "On this cohort the look-alikes share the outcome. " * 20
    cut = plain_text(sentence, 600)
    assert len(cut) <= 600 and cut.endswith("…")
    assert cut[:-1].split(" ")[-1] in sentence.split(" ")  # a whole word
    assert plain_text("abcdefghij" * 5, 20) == "abcdefghij" * 1 + "abcdefghi…"
