"""A rheumatology clinic's export (walk-through 66): csDMARD lists by abbreviation with
routes and rates ("MTX 15mg/wk s/c + HCQ 200mg"), biologics by brand and biosimilar,
an ESR in "mm/h" beside "mm/hr", a CRP in mg/dL beside mg/L, morning stiffness in "25m"
among minutes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder

OUTCOME = "Flare within 6 months"


def _clinic(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    flare = rng.random(n) < 0.3
    return pd.DataFrame({
        "NHS Number": [f"{8000000000 + 11 * i}" for i in range(n)],
        "ESR (mm/hr)": [f"{v}mm/h" if i % 4 == 0 else (f"{v} mm/hr" if i % 4 == 1
                                                         else str(v))
                        for i, v in enumerate(rng.integers(2, 60, n))],
        "CRP": [f"{v / 10:.1f} mg/dL" if i % 15 == 0 else (f"{v} mg/L" if i % 3 == 0
                                                           else str(v))
                for i, v in enumerate(rng.integers(3, 40, n))],
        "Morning stiffness": [f"{v}m" if i % 5 == 0 else (f"{v} mins" if i % 5 == 1
                                                          else str(v))
                              for i, v in enumerate(rng.choice([10, 15, 20, 30, 45, 60],
                                                               n))],
        "csDMARDs": rng.choice(["MTX 15mg/wk s/c + HCQ 200mg", "methotrexate 20mg weekly",
                                "SSZ 1g bd", "HCQ 200mg od", "none", "MTX 10mg, SSZ 1g bd",
                                "LEF 10mg", "Plaquenil; metoject 17.5mg",
                                "Methotrexate and hydroxychloroquine and "
                                "Sulphasalazine 2g/day", "leflunomide, HCQ",
                                "SSZ + HCQ", "MTX 25mg; SSZ", ""], n),
        "Biologic/targeted therapy": rng.choice(
            ["Humira", "Amgevita", "adalimumab", "biosimilar adalimumab",
             "Adalimumab 40mg EOW", "Enbrel", "Benepali", "ETN 50mg weekly", "none",
             "RoActemra", "TCZ 162mg s/c weekly", "tocilizumab"], n),
        OUTCOME: np.where(flare, rng.choice(["Y", "Yes"], n), rng.choice(["N", "No"], n))})


def test_an_esr_a_crp_and_a_stiffness_in_two_spellings_or_units_are_read():
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(_clinic())
    df = _clinic()
    X = enc.transform(df)
    col = enc.feature_names_out_.index
    for name in ("ESR (mm/hr)", "CRP", "Morning stiffness"):
        assert np.isfinite(X[:, col(name)]).all(), name
    assert X[0, col("ESR (mm/hr)")] == float(df["ESR (mm/hr)"][0].removesuffix("mm/h"))
    assert X[0, col("CRP")] == pytest.approx(10 * float(df["CRP"][0].split()[0]))
    assert X[0, col("Morning stiffness")] == float(df["Morning stiffness"][0][:-1])
    said = " ".join(enc.report_.notes + enc.report_.warnings)
    assert "1 mg/dL = 10 mg/L" in said and "in a column of minutes" in said


def test_a_dmard_list_and_biologic_brands_are_read_by_drug():
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    names = enc.feature_names_out_
    drugs = {n.removeprefix("csDMARDs: ").lower() for n in names
             if n.startswith("csDMARDs: ")}
    assert drugs == {"methotrexate", "hydroxychloroquine", "sulfasalazine", "leflunomide"}
    X = enc.transform(df)
    mtx = X[:, names.index(next(n for n in names if n.lower() == "csdmards: methotrexate"))]
    got = dict(zip(df["csDMARDs"], mtx, strict=True))
    yes = enc.table_.levels(next(n for n in names if n.lower() == "csdmards: methotrexate"))
    assert got["MTX 15mg/wk s/c + HCQ 200mg"] == got["Plaquenil; metoject 17.5mg"] == \
        yes["Yes"] and got["SSZ 1g bd"] == got["none"] == yes["No"]
    # a brand and its generic name are one answer by default (walk-through 85); a dose
    # is offered into it, not merged
    pairs = dict(enc.report_.answers_two_ways["Biologic/targeted therapy"])
    codes = enc.table_.levels("Biologic/targeted therapy")

    def code(answer):
        return codes[pairs.get(answer, answer)]
    for same in (("Humira", "Amgevita", "biosimilar adalimumab", "Adalimumab 40mg EOW",
                  "adalimumab"), ("Enbrel", "Benepali", "ETN 50mg weekly"),
                 ("RoActemra", "TCZ 162mg s/c weekly", "tocilizumab")):
        assert len({code(a) for a in same}) == 1, same
        assert len({codes[a] for a in same}) == 2, same  # the dose apart until merged
    assert set(pairs) == {"Adalimumab 40mg EOW", "ETN 50mg weekly", "TCZ 162mg s/c weekly"}


@pytest.mark.parametrize(("cell", "count"), [
    ("TJC 4", "4"), ("4/28", "4"), ("4 (28 jt)", "4"), ("SJC: 0", "0"), ("12 of 28", "12"),
    ("4", None), ("many", None), ("4/10", None)])
def test_a_joint_count_with_its_name_or_the_joints_examined(cell, count):
    from sparge.data.scales_written import joint_count

    assert joint_count(cell) == count


@pytest.mark.parametrize(("cell", "top", "mark"), [
    ("4.5/10", 100, "45.0"), ("45/100", 100, "45.0"), ("45mm", 100, "45.0"),
    ("4.5 cm", 100, "45.0"), ("60mm", 10, "6.0"), ("6/10", 10, "6.0"), ("45", 100, None),
    ("11/10", 10, None)])
def test_a_mark_on_an_analogue_scale_is_read_on_the_columns_scale(cell, top, mark):
    from sparge.data.scales_written import scale_mark

    assert scale_mark(cell, top) == mark


def test_joint_counts_and_analogue_scales_written_several_ways_are_numbers():
    """Walk-through 66: TJC28 and both VAS columns were left out as more than 30 text
    answers; SJC28 was 47 unordered answers."""
    rng = np.random.default_rng(1)
    n = 400
    tjc = rng.integers(0, 12, n)
    vas = rng.integers(0, 100, n)
    df = _clinic().assign(**{
        "TJC28": [(str(t), f"TJC {t}", f"{t}/28", f"{t} (28 jt)")[i % 4]
                  for i, t in enumerate(tjc)],
        "Patient global VAS (mm)": [(str(v), f"{v}mm", f"{v / 10:g}/10", f"{v}/100")[i % 4]
                                    for i, v in enumerate(vas)],
        "Fatigue (0-10)": [(str(v // 10), f"{v // 10}/10", f"{v}mm")[i % 3]
                           for i, v in enumerate(vas)]})
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    X = enc.transform(df)
    col = enc.feature_names_out_.index
    np.testing.assert_array_equal(X[:, col("TJC28")], tjc)
    np.testing.assert_allclose(X[:, col("Patient global VAS (mm)")], vas)
    fatigue = np.where(np.arange(n) % 3 == 2, vas / 10, vas // 10)
    np.testing.assert_allclose(X[:, col("Fatigue (0-10)")], fatigue)


def test_a_rheumatology_clinics_answers_written_several_ways_are_offered_as_one():
    """Walk-through 66: 19 answers for 5 diagnoses; erosions, the TB screen, the clinic
    type and an autoantibody's result written several ways were not offered."""
    from sparge.data.levels import abbreviated_levels

    dx = dict(abbreviated_levels(["RA", "Seropositive rheumatoid arthritis", "RA - seroneg",
                                  "PsA", "PsA (oligo)", "psoriatic arthritis", "axSpA",
                                  "nr-axSpA", "Ankylosing spondylitis", "AS", "Gout",
                                  "Tophaceous gout", "UIA", "undifferentiated IA"],
                                 "Diagnosis"))
    assert dx["Seropositive rheumatoid arthritis"] == dx["RA - seroneg"] == "RA"
    assert dx["PsA (oligo)"] == dx["psoriatic arthritis"] == "PsA"
    assert dx["nr-axSpA"] == dx["Ankylosing spondylitis"] == "axSpA"
    # "AS" joins by the acronym of the answer spelled out beside it, not by the group
    # (an aortic stenosis in another clinic's diagnoses)
    assert dx["AS"] == "Ankylosing spondylitis"
    assert "AS" not in dict(abbreviated_levels(["axSpA", "AS", "nr-axSpA"], "Diagnosis"))
    assert dx["Tophaceous gout"] == "Gout" and dx["undifferentiated IA"] == "UIA"
    ero = dict(abbreviated_levels(["Yes", "No", "erosive", "non-erosive", "no erosions",
                                   "erosive changes MCPs"], "Erosions (XR)"))
    assert ero == {"erosive": "Yes", "erosive changes MCPs": "Yes", "non-erosive": "No",
                   "no erosions": "No"}
    tb = dict(abbreviated_levels(["Negative", "neg", "QFT negative", "QFT positive", "pos",
                                  "QFT indeterminate", "indeterminate"], "TB screen (IGRA)"))
    assert tb["QFT negative"] == "Negative" and tb["QFT positive"] == "pos"
    assert tb["QFT indeterminate"] == "indeterminate"
    rf = dict(abbreviated_levels(["Negative", "-ve", "neg", "Negative (<14)", "Positive",
                                  "+ve", "pos"], "RF"))
    assert rf == {"-ve": "Negative", "neg": "Negative", "Negative (<14)": "Negative",
                  "+ve": "Positive", "pos": "Positive"}
    visit = dict(abbreviated_levels(["Follow up", "FU", "f/u", "New patient", "NEW",
                                     "Nurse-led", "CNS"], "Clinic type"))
    assert visit == {"FU": "Follow up", "f/u": "Follow up", "NEW": "New patient",
                     "CNS": "Nurse-led"}


def test_a_score_outside_its_fixed_range_is_a_value_to_check():
    """Walk-through 66's HAQ-DI of 10, 16.25 and 20 (lost decimal points on a 0-3 index,
    1.7 % of the column) were used as given and shown among look-alikes."""
    from sparge.data.plausible import impossible_values

    haq = np.r_[np.tile([0.0, 0.5, 1.25, 1.875, 2.5, 3.0], 20), [10.0, 16.25]]
    assert impossible_values("HAQ-DI", haq).nonzero()[0].tolist() == [120, 121]
    assert impossible_values("GCS", [15, 14, 3, 8, 15, 13] * 20 + [1]).sum() == 1
    # a column mostly outside the range is another scale: nothing is judged
    assert not impossible_values("HAQ-DI", np.tile([10.0, 20.0, 1.0], 20)).any()
    df = _clinic().assign(**{"HAQ-DI": np.r_[np.tile([0.5, 1.25, 1.875], 133), [16.25]]})
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    assert ["HAQ-DI", 399, 16.25] in [v[:3] for v in enc.report_.values_to_check]
    # the lost decimal point is said: 1.625 (one place) rather than 0.1625 (two)
    said = " ".join(enc.report_.warnings)
    assert "a misplaced decimal point? 1.625" in said, said


def test_a_das28_band_a_duration_in_mths_and_not_asked_are_read():
    """Walk-through 66: DAS28 "remission" (12 cells), a disease duration of "23 mths" and
    a fatigue score "not asked" (read as text) were set to missing or questioned."""
    from sparge.data.scales_written import das28_band
    from sparge.data.tables import DEFAULT_MISSING_TOKENS

    assert das28_band("In remission") == "<2.6" and das28_band("HDA") == ">5.1"
    assert das28_band("low") == "2.9" and das28_band("4.2") is None
    assert "not asked" in DEFAULT_MISSING_TOKENS
    df = _clinic().assign(**{"DAS28-CRP": ["Remission", "3.4", "5.6", "2.2"] * 100,
                             "Disease duration (yrs)": ["2", "23 mths", "10", "4"] * 100})
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    X = enc.transform(df)
    assert X[0, enc.feature_names_out_.index("DAS28-CRP")] == 2.6  # read as the limit
    assert X[1, enc.feature_names_out_.index("Disease duration (yrs)")] == \
        pytest.approx(23 / 12)


def test_an_autoantibody_written_as_words_and_titres_is_positive_or_negative():
    """Walk-through 66's RF and anti-CCP ("+ve", "neg", "Negative (<14)", "86 IU/mL",
    "<14", ">340 IU/mL") were left out as more than 30 answers."""
    from sparge.data.serology import cut_off, read_serology

    assert cut_off(["neg", "Negative (<14)", "86", "<7"]) == 14  # the word's bracket
    assert cut_off(["neg"] * 3 + ["<7 U/mL"] * 6 + ["3"]) == 7  # a limit most written
    assert cut_off(["neg", "pos", "86"]) is None
    rng = np.random.default_rng(3)
    cells = ["+ve", "-ve", "POS", "neg", "Negative (<14)", "86 IU/mL", ">340 IU/mL", "<14",
             "9 IU/mL", "Positive", "8", "", "not done"]
    df = pd.DataFrame({"RF": rng.choice(cells, 300), "Milk": rng.choice(cells, 300)})
    out = read_serology(df)
    got = dict(zip(df["RF"], out["RF"], strict=True))
    assert got == {"+ve": "Positive", "-ve": "Negative", "POS": "Positive",
                   "neg": "Negative", "Negative (<14)": "Negative",
                   "86 IU/mL": "Positive", ">340 IU/mL": "Positive", "<14": "Negative",
                   "9 IU/mL": "Negative", "Positive": "Positive", "8": "Negative",
                   "": "", "not done": "not done"}
    assert out["Milk"].equals(df["Milk"])  # a column not named for an antibody
    assert "cut-off the column names (14" in out.attrs["sparge_read_notes"][0]
    # titres alone, no cut-off named: as written
    titres = pd.DataFrame({"Anti-CCP": ["3", "86", "12", "neg"] * 20})
    assert read_serology(titres)["Anti-CCP"].equals(titres["Anti-CCP"])
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(
        _clinic().assign(RF=rng.choice(cells, 400)))
    assert set(enc.table_.levels("RF")) == {"Positive", "Negative"}
    # a new patient's titre is read by the training table's cut-off, which a one-row
    # table does not name (it was left unread), and the cut-off is saved with the model
    assert enc.cut_offs_ == {"RF": 14.0}
    rf = enc.table_.levels("RF")
    col = enc.feature_names_out_.index("RF")
    again = Encoder.from_dict(enc.to_dict())
    assert again.cut_offs_ == enc.cut_offs_
    for model in (enc, again):
        for cell, word in (("86 IU/mL", "Positive"), ("9", "Negative"), ("<14", "Negative"),
                           ("neg", "Negative"), (">340", "Positive")):
            one, said = model.transform_with_report(pd.DataFrame({"RF": [cell]}))
            assert one[0, col] == rf[word], cell
            assert not said.unknown_values and not said.stray_text, cell


def test_a_comorbidity_list_separated_by_spaced_slashes_is_read_as_lists():
    """Walk-through 66's "hypertension / Osteoporosis (on AA)", "HTN", "High BP": left out
    as more than 30 answers; a slash with spaces separates a list's answers in a column
    named for conditions or drugs (not in an ethnicity's "White / Caucasian")."""
    from sparge.data.answer_lists import list_vocabulary

    rng = np.random.default_rng(4)
    cells = ["hypertension", "HTN", "High BP", "osteoporosis", "OP", "low mood",
             "depression", "hypertension / osteoporosis", "HTN / low mood",
             "High BP, depression", "OP / depression", "T2DM", "type 2 diabetes",
             "hypertension / T2DM", "DM2, OP", "none", ""]
    col = pd.Series(rng.choice(cells, 400))
    words = list_vocabulary(col, "Comorbidities")
    assert len(words) == 4  # hypertension, osteoporosis, depression, diabetes
    assert list_vocabulary(col, "Ethnicity") is None


def test_a_new_patients_mark_is_read_on_the_training_patients_scale():
    """Walk-through 67: a new patient's Pain VAS "45mm" was read on a 0-10 scale from its
    one cell (4.5), beside training values on 0-100; the scale is kept, and saved."""
    from sparge.data.encoder import Encoder as Enc

    rng = np.random.default_rng(2)
    vas = rng.integers(0, 100, 400)
    df = _clinic().assign(**{"Pain VAS": [str(v) if i % 3 else f"{v}mm"
                                          for i, v in enumerate(vas)],
                             "Fatigue": [str(v // 10) for v in vas]})
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    assert enc.scales_ == {"Pain VAS": 100.0, "Fatigue": 10.0}
    col = enc.feature_names_out_.index
    for cell in ("45mm", "4.5/10", "45/100", "45"):
        one = enc.transform(pd.DataFrame({"Pain VAS": [cell]}))
        assert one[0, col("Pain VAS")] == 45, cell
    assert enc.transform(pd.DataFrame({"Fatigue": ["60mm"]}))[0, col("Fatigue")] == 6
    again = Enc.from_dict(enc.to_dict())
    assert again.scales_ == enc.scales_
    assert again.transform(pd.DataFrame({"Pain VAS": ["45mm"]}))[0, col("Pain VAS")] == 45


def test_a_drug_list_with_and_and_a_rate_keeps_its_second_drug():
    """Walk-through 67: "mtx 25 mg po weekly and Sulphasalazine 2g/day" read as
    methotrexate alone (the rate's slash ended the answer as one dose)."""
    from sparge.data.drug_combinations import drug_set

    assert drug_set("mtx 25 mg po weekly and Sulphasalazine 2g/day") == {
        "methotrexate", "sulfasalazine"}
    assert drug_set("epoetin alfa 4000u 3x/wk") == {"epoetin"}
