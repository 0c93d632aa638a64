"""An inflammatory bowel disease clinic's export (walk-through 68): three diagnoses
written twenty ways with a typo among them, perianal disease by its fistulas, a
biologic's anti-drug antibodies as words and titres, and the smoking words of a clinic
letter."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd

from sparge import Encoder
from sparge.data.answer_merging import chosen_pairs, merge_answers
from sparge.data.levels import shown_answer

OUTCOME = "Hospitalisation or surgery within 12 months"


def _clinic(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "Hospital No": [f"RX{3140000 + i}" for i in range(n)],
        "Diagnosis": rng.choice(
            ["Crohn's disease", "CD", "Ulcerative colitis", "UC", "Crohn's", "Crohns",
             "ulcerative colitis", "crohns disease", "Crohn’s", "Chrons", "U.C.",
             "proctitis (UC)", "Crohn's disease (ileal)", "IBD-U", "Ulcerative colitits",
             "IBDU", "IBD unclassified"], n,
            p=[.16, .12, .13, .1, .07, .07, .05, .04, .04, .03, .03, .02, .02, .02, .04,
               .03, .03]),
        "Smoking": rng.choice(["Never", "Current", "Former", "ex (quit 10y ago)", "smokes",
                               "Ex-smoker", "non smoker"], n),
        "Perianal disease": rng.choice(["yes", "no", "N", "fistula", "previous abscess",
                                        "active fistula + seton", "nil"], n),
        "Anti-drug antibodies": rng.choice(["Negative", "neg", "<10", "not detected",
                                            "Positive", "positive (113)", "pos", ""], n),
        "CRP": rng.integers(1, 80, n),
        OUTCOME: rng.choice(["Yes", "No"], n)})


def _merged(df: pd.DataFrame) -> tuple[Encoder, dict[str, dict[str, list[str]]]]:
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(df)
    table = merge_answers(enc.table_, chosen_pairs(enc.report_.answers_two_ways, []))
    shown = {}
    for col in ("Diagnosis", "Smoking", "Perianal disease"):
        codes = defaultdict(list)
        for level, code in table.levels(col).items():
            codes[code].append(level)
        shown[col] = {shown_answer(v, col): sorted(v) for v in codes.values()}
    return enc, shown


def test_the_three_ibd_diagnoses_merge_into_three_shown_by_their_right_spelling():
    """Walk-through 68: after the merge 11 labels stayed for 3 diagnoses, and 105
    patients' "Ulcerative colitis" were shown as the typo "Ulcerative colitits"."""
    _, shown = _merged(_clinic())
    assert set(shown["Diagnosis"]) == {"Crohn's disease", "Ulcerative colitis", "IBD-U"}
    assert "Ulcerative colitits" in shown["Diagnosis"]["Ulcerative colitis"]
    assert {"CD", "Chrons", "Crohn’s"} <= set(shown["Diagnosis"]["Crohn's disease"])


def test_smoking_perianal_disease_and_anti_drug_antibodies_written_as_clinics_write():
    """Walk-through 68: "ex (quit 10y ago)" and "smokes" stayed apart; a fistula, a seton
    and an abscess were not a perianal disease's yes; anti-drug antibodies "<10", "not
    detected" and "positive (113)" were answers of their own."""
    enc, shown = _merged(_clinic())
    assert set(shown["Smoking"]) == {"Never", "Current", "Former"}
    assert "ex (quit 10y ago)" in shown["Smoking"]["Former"]
    assert "smokes" in shown["Smoking"]["Current"]
    assert set(shown["Perianal disease"]) == {"Yes", "No"}
    assert {"fistula", "previous abscess", "active fistula + seton"} <= set(
        shown["Perianal disease"]["Yes"])
    assert set(enc.table_.levels("Anti-drug antibodies")) == {"Positive", "Negative"}
    assert enc.cut_offs_ == {"Anti-drug antibodies": 10.0}


def test_values_written_with_their_name_unit_times_or_short_year_are_read():
    """Walk-through 68 lost "pMayo 2" and "PMS 4", "FCP 432", platelets "284x10*9",
    steroid courses "x2", years of diagnosis "'21" and "2016 (age 10)", and every drug
    level in ug/mL (its name's "(trough)" read as a unit); the IBD nurse went to the model
    as a feature, and a partial Mayo of 17 (its top is 9) went unremarked."""
    rng = np.random.default_rng(1)
    n = 300
    df = _clinic(n).assign(**{
        "Partial Mayo": [f"pMayo {v}" if i % 7 == 0 else (f"PMS {v}" if i % 7 == 1
                                                          else str(v))
                         for i, v in enumerate(rng.integers(0, 9, n))],
        "Faecal calprotectin": [f"FCP {v}" if i % 6 == 0 else str(v)
                                for i, v in enumerate(rng.integers(20, 1500, n))],
        "Platelets": [f"{v}x10*9" if i % 9 == 0 else str(v)
                      for i, v in enumerate(rng.integers(150, 450, n))],
        "Steroid courses (12m)": [f"x{v}" if i % 4 == 0 else str(v)
                                  for i, v in enumerate(rng.integers(0, 4, n))],
        "Year of diagnosis": [f"'{v % 100:02d}" if i % 5 == 0 else
                              (f"{v} (age 10)" if i % 11 == 0 else str(v))
                              for i, v in enumerate(rng.integers(1995, 2024, n))],
        "Drug level (trough)": [f"{v / 10:.1f} ug/mL" if i % 3 == 0 else f"{v / 10:.1f}"
                                for i, v in enumerate(rng.integers(5, 120, n))],
        "IBD nurse": rng.choice(["Sarah B", "Jo Harris", "J. Harris", "Tom W"], n)})
    df.loc[7, "Partial Mayo"] = "17"
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(df)
    X = enc.transform(df)
    col = enc.feature_names_out_.index
    for name in ("Partial Mayo", "Faecal calprotectin", "Platelets", "Steroid courses (12m)",
                 "Year of diagnosis", "Drug level (trough)"):
        assert np.isfinite(X[:, col(name)]).all(), name
    assert X[0, col("Partial Mayo")] == float(df["Partial Mayo"][0].split()[1])
    assert X[0, col("Steroid courses (12m)")] == float(df["Steroid courses (12m)"][0][1:])
    assert X[0, col("Year of diagnosis")] == 2000 + int(df["Year of diagnosis"][0][1:]) \
        or X[0, col("Year of diagnosis")] == 1900 + int(df["Year of diagnosis"][0][1:])
    assert X[11, col("Year of diagnosis")] == float(df["Year of diagnosis"][11][:4])
    assert X[0, col("Drug level (trough)")] == float(df["Drug level (trough)"][0].split()[0])
    assert enc.roles_["IBD nurse"] == "ignore"
    assert ["Partial Mayo", 7, 17.0] in [v[:3] for v in enc.report_.values_to_check]
    said = " ".join(enc.report_.warnings)
    assert "decimal point? 1.7" not in said  # whole scores: no lost decimal point


def test_an_ibd_medication_list_is_read_by_drug_and_a_trough_level_applies_to_anti_tnf():
    """Walk-through 68's "Current medications" ("Pentasa 2g bd\\nImuran 125mg", "vedo SC
    108mg and Imuran 125mg", "Prednisolone 20mg and infliximab 5mg/kg 8-weekly", "No IBD
    meds") was left out as free text, with it who was on steroids; its "Drug level
    (trough)", written for the patients on infliximab or adalimumab ("IFX trough 3.2",
    "ADA 8.1"), counted 75 % of gaps against the others."""
    rng = np.random.default_rng(4)
    n = 400
    anti_tnf = ["IFX (Remsima) 5mg/kg q8w", "Humira 40mg EOW", "ADA 40mg fortnightly",
                "Prednisolone 20mg and infliximab 5mg/kg 8-weekly", "Amgevita 40mg eow"]
    other = ["Pentasa 2g bd\nImuran 125mg", "vedo SC 108mg and Imuran 125mg",
             "mesalazine 2.4g od", "No IBD meds", "6-MP 75mg od", "budesonide 9mg",
             "Octasa 800mg 3 tabs tds", "pred 40mg reducing", "Entyvio 300mg 8 wkly"]
    on = rng.random(n) < 0.3
    seps = [", ", "; ", "\n", " + "]
    meds = np.array([(rng.choice(anti_tnf) if o else rng.choice(other))
                     for o in on], dtype=object)
    paired = (rng.random(n) < 0.4) & (meds != "No IBD meds")
    meds[paired] = [m + rng.choice(seps) + rng.choice(other[:3] + other[4:])
                    for m in meds[paired]]
    level = [(f"IFX trough {v / 10:.1f}" if i % 4 == 0 else f"{v / 10:.1f}") if o else ""
             for i, (o, v) in enumerate(zip(on, rng.integers(5, 120, n), strict=True))]
    df = _clinic(n).assign(**{"Current medications": meds, "Drug level (trough)": level})
    df["Anti-drug antibodies"] = [rng.choice(["Negative", "<10", "positive (113)"]) if o
                                  else "" for o in on]
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(df)
    # the antibodies to the drug are measured with its level: no gap for the others
    assert enc.report_.not_applicable["Anti-drug antibodies"] == int((~on).sum())
    drugs = {f.removeprefix("Current medications: ") for f in enc.feature_names_out_
             if f.startswith("Current medications: ")}
    assert {"mesalazine", "azathioprine", "vedolizumab", "mercaptopurine", "budesonide",
            "prednisolone", "infliximab", "adalimumab"} <= drugs, drugs
    X = enc.transform(df)
    col = enc.feature_names_out_.index
    yes = enc.table_.levels("Current medications: prednisolone")["Yes"]
    pred = X[:, col("Current medications: prednisolone")]
    row = int(np.flatnonzero(meds == "Prednisolone 20mg and infliximab 5mg/kg 8-weekly")[0])
    none = int(np.flatnonzero(meds == "No IBD meds")[0])
    assert X[none, col("Current medications: mesalazine")] != yes
    assert pred[row] == yes
    assert X[row, col("Current medications: infliximab")] == yes
    assert np.isfinite(X[on, col("Drug level (trough)")]).all()
    assert enc.drug_level_gaps_ == {
        "Drug level (trough)": ("Current medications", "anti-TNF"),
        "Anti-drug antibodies": ("Current medications", "anti-TNF")}
    assert enc.report_.not_applicable["Drug level (trough)"] == int((~on).sum())


def test_list_names_and_a_class_drug_not_taken_match_whole_words():
    """Their patterns held backspaces where word boundaries were meant: a "Meds" column's
    " / " never separated answers, and "simvastatin - no" in a statin column read yes."""
    from sparge.data.answer_lists import _LISTS_NAME
    from sparge.data.levels import _NOT_ON_DRUG

    assert _LISTS_NAME.search("Meds") and _LISTS_NAME.search("PMH")
    assert not _LISTS_NAME.search("Timeds")
    assert _NOT_ON_DRUG.search("simvastatin no") and not _NOT_ON_DRUG.search("atorvastatin")


def test_a_montreal_classification_is_read_as_its_parts_for_the_table_and_a_new_patient():
    """Walk-through 68's "Montreal" ("A2 L3 B2p", "A2L3B1", "E2 left-sided", "Extensive
    (E3), S2", "proctitis") was left out as free text, with the behaviour that predicts
    surgery."""
    from sparge.data.montreal import montreal_parts

    assert montreal_parts("A2 L3+L4 B3p") == {"age": "A2", "location": "ileocolonic",
                                              "upper GI": "Yes", "behaviour": "B3",
                                              "perianal": "Yes"}
    assert montreal_parts("proctitis") == {"extent": "E1"}
    assert montreal_parts("E2 left-sided S0") == {"extent": "E2", "severity": "S0"}
    assert montreal_parts("A2 L3 B2 see letter") is None
    rng = np.random.default_rng(5)
    n = 300
    crohns = ["A2 L3 B1", "A2L3B1", "A3 L1 B1", "A2 L3 B2p", "A1 L2 B3", "L3+L4 B2",
              "A2, L1, B1", "A3 L3 B2 p"]
    uc = ["E2", "E3 extensive", "left sided", "Extensive (E3), S2", "proctitis", "E2 S1",
          "pancolitis S1"]
    cd = rng.random(n) < 0.5
    df = _clinic(n).assign(
        Diagnosis=np.where(cd, "Crohn's disease", "Ulcerative colitis"),
        Montreal=np.where(cd, rng.choice(crohns, n), rng.choice(uc, n)))
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(df)
    names = [f for f in enc.feature_names_out_ if f.startswith("Montreal ")]
    assert names == ["Montreal age", "Montreal location", "Montreal upper GI",
                     "Montreal behaviour", "Montreal perianal", "Montreal extent",
                     "Montreal severity"]
    assert enc.table_.is_ordered("Montreal behaviour")
    assert not enc.table_.is_ordered("Montreal location")
    # a part of the other diagnosis does not apply, and is no gap
    assert enc.report_.not_applicable["Montreal behaviour"] == int((~cd).sum())
    # ... nor a register's No: empty cells as No is not offered for them
    assert not {"Montreal perianal", "Montreal upper GI"} & set(
        enc.report_.blank_no_candidates)
    one = enc.transform(pd.DataFrame({"Montreal": ["A2 L3 B3p"]}))
    col = enc.feature_names_out_.index
    assert one[0, col("Montreal behaviour")] == enc.table_.levels("Montreal behaviour")["B3"]
    assert one[0, col("Montreal perianal")] == enc.table_.levels("Montreal perianal")["Yes"]
    assert np.isnan(one[0, col("Montreal extent")])


def test_a_stool_frequency_written_as_clinics_write_it_is_a_count_a_day():
    """Walk-through 68's "Stool frequency" ("6/day", "x6 daily", "BO 5x/day", "10+ per
    day", "three times a day", "6-7") was left out as more than 30 answers."""
    rng = np.random.default_rng(6)
    n = 300
    forms = ["{}", "{}/day", "x{} daily", "BO {}x/day", "{} per day", "{}-{}"]
    counts = rng.integers(1, 9, n)
    cells = [forms[i % len(forms)].format(*([v] if i % len(forms) < 5 else [v, v + 1]))
             for i, v in enumerate(counts)]
    cells[0], cells[1] = "10+ per day", "three times a day"
    df = _clinic(n).assign(**{"Stool frequency": cells})
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(df)
    X = enc.transform(df)
    got = X[:, enc.feature_names_out_.index("Stool frequency")]
    want = np.array([v + 0.5 if i % len(forms) == 5 else v for i, v in enumerate(counts)],
                    dtype=float)
    want[:2] = [10, 3]
    assert np.allclose(got, want)


def test_an_endoscopy_column_of_two_scores_is_read_as_one_column_per_score():
    """Walk-through 68's "Endoscopy (latest)" wrote the SES-CD of a Crohn's disease and
    the Mayo endoscopic subscore of an ulcerative colitis ("SES-CD 8", "MES 2", "moderate
    (Mayo 2)", "UCEIS 3 / Mayo 1") and was left out as free text."""
    rng = np.random.default_rng(7)
    n = 300
    cd = rng.random(n) < 0.5
    ses, mayo = rng.integers(0, 20, n), rng.integers(0, 4, n)
    forms = ["Mayo {}", "MES {}", "Mayo endoscopic {}", "moderate (Mayo {})"]
    cells = [(f"SES-CD {s}" if i % 2 else f"SESCD: {s}") if c else forms[i % 4].format(m)
             for i, (c, s, m) in enumerate(zip(cd, ses, mayo, strict=True))]
    # a score a handful write is no column of its own: 98 % gaps (its Mayo is read)
    uceis = np.flatnonzero(~cd)[:12]
    for i in uceis:
        cells[i] = f"UCEIS {mayo[i] + 2} / Mayo {mayo[i]}"
    df = _clinic(n).assign(**{"Endoscopy (latest)": cells})
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(df)
    names = [f for f in enc.feature_names_out_ if f.startswith("Endoscopy")]
    assert names == ["Endoscopy (latest) SES-CD", "Endoscopy (latest) Mayo endoscopic"]
    X = enc.transform(df)
    col = enc.feature_names_out_.index
    assert np.array_equal(X[cd, col("Endoscopy (latest) SES-CD")], ses[cd])
    assert np.array_equal(X[~cd, col("Endoscopy (latest) Mayo endoscopic")], mayo[~cd])
    one = enc.transform(pd.DataFrame({"Endoscopy (latest)": ["MES 3"]}))
    assert one[0, col("Endoscopy (latest) Mayo endoscopic")] == 3
    assert np.isnan(one[0, col("Endoscopy (latest) SES-CD")])


def test_not_known_written_n_k_is_a_gap_however_often():
    """Walk-through 68's TPMT kept 40 "n/k" (7 %) as an answer "N/k"; "Unknown" in a
    column where it is common stays an answer (a registry's race)."""
    rng = np.random.default_rng(8)
    n = 300
    df = _clinic(n).assign(
        TPMT=rng.choice(["Normal", "Intermediate", "n/k", "NK"], n, p=[.7, .2, .07, .03]),
        Ethnicity=rng.choice(["White", "Asian", "Unknown"], n, p=[.6, .3, .1]))
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(df)
    assert set(enc.table_.levels("TPMT")) == {"Normal", "Intermediate"}
    assert "Unknown" in enc.table_.levels("Ethnicity")
