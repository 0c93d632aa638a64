"""Walk-through 93: a psoriasis biologics clinic's export (PASI, IGA, DLQI, biologics and
previous systemic treatments), with a PASI 75 response at week 16 as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.data.encoder import Encoder
from sparge.services.display import answers_by_code, column_is_scale

OUTCOME = "PASI 75 at week 16"


def _clinic(n: int = 300, seed: int = 93) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    pasi = rng.gamma(6, 2.3, n).round(1)
    cells = np.array([f"PASI {v}" if i % 4 == 0 else str(v) for i, v in enumerate(pasi)],
                     dtype=object)
    cells[7::40] = "17-19"
    cells[19] = "124"
    dlqi = rng.integers(2, 26, n).astype(object)
    dlqi[135] = 41
    bsa = rng.integers(3, 40, n).astype(str).astype(object)
    bsa[207] = "150"
    iga = rng.choice(["moderate", "3", "mild", "severe", "4", "2", "Moderate", "Severe",
                      "Mild", "almost clear", "1"], n)
    return pd.DataFrame({
        "Hospital No": [f"RX{700000 + i}" for i in range(n)],
        "Age": rng.integers(20, 80, n).astype(str), "Baseline PASI": cells,
        "BSA %": bsa, "DLQI": dlqi.astype(str), "IGA": iga,
        "Previous systemic treatments": rng.choice(
            ["PUVA, MTX", "methotrexate; acitretin", "MTX", "methotrexate",
             "MTX, ciclosporin", "ciclosporin", "NBUVB x2 courses",
             "acitretin, MTX, ciclosporin", "MTX, NBUVB", "apremilast", "dimethyl fumarate",
             "fumaderm; MTX"], n),
        "Dermatologist": rng.choice(["Dr Nguyen", "Dr Patel", "Dr Smith", "Dr Okafor"], n),
        OUTCOME: rng.choice(["Yes", "No", "Y", "yes", "N", "no"], n)})


def test_a_score_after_its_name_keeps_the_column_numeric_and_impossible_scores_are_named():
    """Walk-through 93: "PASI 12.8" among numbers (read by the parser) left Baseline PASI
    out of the model as more than 30 text answers; a PASI of 124 (its top is 72), a DLQI
    of 41 (0-30) and a body surface area of 150 % went into training unremarked."""
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.roles_["Baseline PASI"] == "numeric"
    X = enc.transform(df)
    pasi = X[:, enc.feature_names_out_.index("Baseline PASI")]
    assert pasi[0] == float(df["Baseline PASI"][0].removeprefix("PASI ")) and pasi[7] == 18
    said = " ".join(enc.report_.warnings)
    for name, line, value in (("Baseline PASI", 21, "124"), ("DLQI", 137, "41"),
                              ("BSA %", 209, "150")):
        assert f"'{name}' {value} (CSV line {line})" in said, name
    assert "'Baseline PASI' 124 (CSV line 21); most patients" in said


def test_an_iga_is_one_ordered_scale_in_digits_and_words():
    """Walk-through 93: IGA "1"-"4" were coded 1-4 and "mild" to "severe" 5-8, unordered:
    the map showed no gradient and "IGA 2" met "Mild" as another answer."""
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(_clinic())
    levels = enc.table_.levels("IGA")
    levels = {k.lower(): v for k, v in levels.items()}  # as the file spells them
    assert levels["2"] == levels["mild"] and levels["3"] == levels["moderate"]
    assert levels["1"] < levels["2"] < levels["3"] < levels["4"]
    assert enc.table_.is_ordered("IGA") and column_is_scale("IGA", enc)
    assert list(answers_by_code(enc, "IGA").values()) == ["Almost clear", "Mild", "Moderate",
                                                          "Severe"]
    # an immunoglobulin IgA is no such scale
    from sparge.data.tables import scale_of
    assert scale_of({"1", "2", "3", "4"}, "IgA (g/L)") != "iga"


def test_previous_treatments_are_read_drug_by_drug_and_a_specialist_is_staff():
    """Walk-through 93: "PUVA, MTX", "fumaderm; MTX" and "NBUVB x2 courses" were 12
    unordered answers, and "Dermatologist" went to the model and the form."""
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(_clinic())
    drugs = [f.split(": ", 1)[1] for f in enc.feature_names_out_
             if f.startswith("Previous systemic treatments: ")]
    assert set(drugs) == {"methotrexate", "ciclosporin", "acitretin", "NB-UVB", "PUVA",
                          "apremilast", "dimethyl fumarate", "fumaric acid esters"}
    assert enc.roles_["Dermatologist"] == "ignore"


def test_a_response_at_a_week_is_guessed_as_the_outcome():
    """Walk-through 93: "PASI 75 at week 16" (Yes / Y / yes / No / N / no) was not
    guessed."""
    from sparge.data.column_guess import guess_columns

    assert guess_columns(_clinic()) == ("Hospital No", OUTCOME)


def test_a_biologics_merged_spellings_are_shown_by_the_generic_name_and_dose():
    """Walk-through 93: Humira and Amgevita 40mg were shown as "Adalimumab (Imraldi)
    40mg 2-weekly", naming a biosimilar the patients were not on."""
    from sparge.data.levels import shown_answer

    assert shown_answer(["adalimumab 40mg", "adalimumab (Imraldi) 40mg 2-weekly",
                         "Amgevita 40mg EOW", "Humira 40mg EOW"], "Current biologic") == \
        "Adalimumab 40mg"


def test_how_a_column_left_out_was_read_is_not_said():
    """Walk-through 93: "117 cell(s) that write drinks read as UK units a week" stood
    beside "Left out of the model: 'Alcohol (units/wk)', with more than 30 different text
    answers"."""
    df = _clinic()
    rng = np.random.default_rng(1)
    drinks = np.array([f"{k} units" for k in rng.integers(1, 40, len(df))], dtype=object)
    drinks[rng.random(len(df)) < 0.35] = "social"
    df["Alcohol (units/wk)"] = drinks
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.roles_["Alcohol (units/wk)"] == "ignore"
    said = [n for n in enc.report_.notes if "Alcohol" in n]
    assert said and all("Left out of the model" in n for n in said), said


def test_an_adults_weight_under_20_kg_is_impossible():
    """Walk-through 93: an adult weighing 8.45 kg (a lost digit: 84.5) was used as given;
    a child's weight in a cohort of all ages is not judged so."""
    df = _clinic()
    rng = np.random.default_rng(3)
    weight = rng.normal(85, 15, len(df)).round(1).astype(object)
    weight[90] = 8.45
    df["Weight"] = weight.astype(str)
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No")
    X = enc.fit_transform(df)
    assert ["Weight", 90] in [list(v) for v in enc.report_.impossible]
    assert np.isnan(X[90, enc.feature_names_out_.index("Weight")])  # missing for training
    assert "'Weight' 8.45 (CSV line 92)" in " ".join(enc.report_.warnings)
    # a child among adults is no adult: not judged by it
    df.loc[5, "Age"], df.loc[5, "Weight"] = "4", "15.2"
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert ["Weight", 5] not in [list(v) for v in enc.report_.impossible]
