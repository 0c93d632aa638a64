"""Walk-through 87: an atrial fibrillation and anticoagulation clinic's export, with a
stroke, TIA or major bleed within 12 months as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.answer_merging import same_answer
from sparge.data.drug_combinations import dose_key, same_regimen
from sparge.data.encoder import Encoder
from sparge.data.levels import shown_answer
from sparge.data.parsing import parse_numeric
from sparge.data.plausible import impossible_values
from sparge.services.display import answer_labels

N = 360
OUTCOME = "Stroke, TIA or major bleed within 12 months"
#: Warfarin first (its patients have an INR and a TTR), then 28 other spellings: more
#: answers than the gap search reads a column's answers for (it stops at 40 only now).
WARFARIN = ["warfarin", "Warfarin", "warfarin (INR 2-3)", "Coumadin"]
OTHERS = ["apixaban 5mg BD", "Apixaban 5 mg bd", "Eliquis 5mg bd", "apixaban 2.5mg BD",
          "Eliquis 2.5 bd", "apixaban", "rivaroxaban 20mg OD", "Xarelto 20mg OD",
          "rivaroxaban 15mg OD", "Xarelto 15mg", "edoxaban 60mg OD", "Lixiana 60mg",
          "edoxaban 30mg OD", "dabigatran 150 BD", "Pradaxa 150 BD", "dabigatran 110mg bd",
          "aspirin 75 od", "Aspirin 75mg", "aspirin only", "none", "Nil",
          "none - declined", "declined", "pt declined OAC", "Pradaxa 110 bd",
          "Lixiana 30", "Xarelto 20 od", "apixaban 5 bd"]
AF_TYPES = ["PAF", "paroxysmal AF", "Paroxysmal", "Persistent", "Persistent AF", "pers AF",
            "Long standing persistent", "long-standing persistent", "LSPAF", "permanent",
            "perm AF", "Permanent AF"]


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    rng = np.random.default_rng(87)
    on_warfarin = rng.random(N) < 0.25
    anticoagulant = np.where(on_warfarin, rng.choice(WARFARIN, N), rng.choice(OTHERS, N))
    inr = np.where(on_warfarin, rng.normal(2.5, 0.5, N).round(1).astype(str),
                   rng.choice(["n/a", "N/A", "-", ""], N)).astype(object)
    ttr = np.where(on_warfarin, rng.integers(30, 95, N).astype(str),
                   rng.choice(["n/a", ""], N)).astype(object)
    chads = rng.integers(0, 7, N).astype(object)
    chads[[14, 90]] = [19, -1]
    hasbled = rng.integers(0, 4, N).astype(object)
    hasbled[49] = 12
    ttr[np.flatnonzero(on_warfarin)[3]] = "140"
    platelets = rng.normal(240, 60, N).round(0).astype(object)
    platelets[200] = 0
    lvef = rng.integers(30, 65, N).astype(str).astype(object)
    lvef[:40] = rng.choice(["EF 55-60", "EF 35-40", "EF 45-50"], 40)
    return pd.DataFrame({
        "MRN": [f"RX{3000000 + i}" for i in range(N)],
        "Age": rng.integers(45, 92, N),
        "AF type": rng.choice(AF_TYPES, N),
        "CHA2DS2-VASc": chads,
        "HAS-BLED": hasbled,
        "Anticoagulant": anticoagulant,
        "INR (last)": inr,
        "TTR %": ttr,
        "Platelets": platelets,
        "LVEF": lvef,
        "Prior stroke/TIA": rng.choice(["Y", "yes", "N", "no", "stroke 2017", "TIA 2019"], N),
        "Vascular disease": rng.choice(["Y", "yes", "N", "0", "MI 2015", "PAD"], N),
        OUTCOME: rng.choice(["Yes", "No", "N", "no"], N),
    })


@pytest.fixture(scope="module")
def encoder(export) -> Encoder:
    return Encoder(label_column=OUTCOME, id_column="MRN").fit(export)


def _said(enc: Encoder) -> str:
    return " ".join(enc.report_.notes + enc.report_.warnings)


def test_inr_and_ttr_do_not_apply_to_patients_on_no_warfarin(encoder, export):
    """Untouched, "n/a" in INR and TTR for every patient on a DOAC counted as gaps: 272 of
    401 patients were left out of training (all but 71 of the 324 not on warfarin). The
    column naming who takes warfarin says whose INR does not apply, however many ways the
    other drugs are written."""
    assert encoder.drug_level_gaps_["INR (last)"] == ("Anticoagulant", "warfarin")
    assert encoder.drug_level_gaps_["TTR %"] == ("Anticoagulant", "warfarin")
    assert "names no warfarin" in _said(encoder)
    assert encoder.keep_patients_.mean() > 0.95
    X = encoder.transform(export)
    weights = encoder.patient_weights(X, export)
    j = encoder.feature_names_out_.index("INR (last)")
    not_on = ~export["Anticoagulant"].isin(WARFARIN).to_numpy()
    assert (weights[not_on, j] == 0).all() and (weights[~not_on, j] > 0).all()


def test_scores_past_their_scale_are_set_to_missing(export):
    """A CHA2DS2-VASc of 19 and of -1, a HAS-BLED of 12, a TTR of 140 % and a platelet
    count of 0 were used as given, with the report silent."""
    enc = Encoder(label_column=OUTCOME, id_column="MRN")
    X = enc.fit_transform(export)
    col = {f: X[:, j] for j, f in enumerate(enc.feature_names_out_)}
    assert np.isnan(col["CHA2DS2-VASc"][[14, 90]]).all()
    assert np.isnan(col["HAS-BLED"][49]) and np.isnan(col["Platelets"][200])
    assert np.nanmax(col["TTR %"]) <= 100 and np.nanmax(col["CHA2DS2-VASc"]) <= 9
    # a count of platelet transfusions may be 0
    assert not impossible_values("Platelet transfusions (units)", [2, 1, 3] * 30 + [0]).any()
    impossible = {tuple(p) for p in enc.report_.impossible}
    assert {("CHA2DS2-VASc", 14), ("CHA2DS2-VASc", 90), ("HAS-BLED", 49),
            ("Platelets", 200)} <= impossible


def test_an_anticoagulants_doses_are_kept_apart_and_its_names_merged(encoder):
    """"Eliquis 2.5 bd" was merged by default into "apixaban", and the one-click merge put
    dabigatran 150 into 110 and edoxaban 60 into 30: a reduced dose is a decision (renal
    function, age, weight). One dose by its brand and generic name is one answer."""
    codes = encoder.table_.levels("Anticoagulant")
    for same in (("apixaban 5mg BD", "Apixaban 5 mg bd", "Eliquis 5mg bd", "apixaban 5 bd"),
                 ("apixaban 2.5mg BD", "Eliquis 2.5 bd"), ("Lixiana 60mg", "edoxaban 60mg OD"),
                 ("dabigatran 150 BD", "Pradaxa 150 BD"), ("Aspirin 75mg", "aspirin 75 od")):
        assert len({codes[a] for a in same}) == 1, same
    for apart in (("apixaban 5mg BD", "apixaban 2.5mg BD", "apixaban"),
                  ("dabigatran 150 BD", "dabigatran 110mg bd"),
                  ("edoxaban 60mg OD", "edoxaban 30mg OD")):
        assert len({codes[a] for a in apart}) == len(apart), apart
    offered = [tuple(p) for p in encoder.report_.answers_two_ways.get("Anticoagulant", [])]
    assert not any({dose_key(a), dose_key(b)} >= {((150.0,), "2/d"), ((110.0,), "2/d")}
                   for a, b in offered)
    assert not same_regimen("dabigatran 150 BD", "dabigatran 110mg bd", "Anticoagulant")
    assert not same_regimen("Humira 40mg weekly", "adalimumab 40mg eow", "Biologic")
    # each dose is shown by its generic name with the dose: two were both "Apixaban"
    labels = answer_labels(encoder, "Anticoagulant", most=40)
    shown = [k.lower() for k in labels]
    assert len(shown) == len(set(shown))
    assert "apixaban 5mg bd" in shown or "apixaban 5 mg bd" in shown
    assert not any(k.startswith("eliquis") for k in shown)


def test_a_declined_anticoagulant_is_one_answer_apart_from_none(encoder):
    """"none - declined", "declined" and "pt declined OAC" stayed three answers: a patient
    with an indication who said no, written three ways. "None" (no reason given) and
    aspirin are not that answer."""
    codes = encoder.table_.levels("Anticoagulant")
    assert len({codes[a] for a in ("none - declined", "declined", "pt declined OAC")}) == 1
    assert codes["declined"] != codes["none"] == codes["Nil"]
    assert codes["declined"] != codes["aspirin only"]
    # only in an anticoagulant's column: elsewhere "declined" may be a test not done
    assert not same_answer("pt declined OAC", "declined", "Clinic")
    assert not same_answer("declined", "none", "Anticoagulant")
    assert same_answer("Patient refused anticoagulation", "Declined", "DOAC")
    assert not same_answer("declined", "pt declined", "Approach")


def test_a_switch_of_anticoagulant_is_shown_in_its_order():
    """"warfarin -> apixaban" merged with another spelling showed as "Apixaban +
    warfarin": a switch read as dual anticoagulation."""
    assert shown_answer(["warfarin -> apixaban", "Coumadin then Eliquis"],
                        "Anticoagulant") == "Warfarin → apixaban"
    assert not same_regimen("warfarin -> apixaban", "apixaban -> warfarin", "Anticoagulant")


def test_the_af_type_is_one_ordered_answer_per_type(encoder):
    """Twelve spellings of the four types were coded alphabetically, none offered to
    merge: paroxysmal < persistent < long-standing persistent < permanent."""
    codes = encoder.table_.levels("AF type")
    assert encoder.table_.is_ordered("AF type")
    assert codes["PAF"] == codes["Paroxysmal"] == codes["paroxysmal AF"] == 1
    assert codes["pers AF"] == codes["Persistent"] == 2
    assert codes["LSPAF"] == codes["long-standing persistent"] == 3
    assert codes["perm AF"] == codes["permanent"] == 4


def test_a_yes_merged_with_a_dated_event_is_shown_as_yes(encoder):
    """After the merge, every patient with a stroke or a TIA was "Stroke 2017" (and every
    vascular disease "MI 2015"), a new patient's "TIA 2019" too. A peripheral artery
    disease is offered as the vascular disease's yes."""
    assert shown_answer(["Y", "yes", "stroke 2017", "TIA 2019"], "Prior stroke/TIA") == "Yes"
    assert shown_answer(["Y", "yes", "MI 2015", "PAD"], "Vascular disease") == "Yes"
    offered = dict(encoder.report_.answers_two_ways["Vascular disease"])
    assert offered.get("PAD") in ("yes", "Y") and offered.get("MI 2015") in ("yes", "Y")


def test_an_ejection_fraction_after_its_name_and_an_inr_not_applicable_are_read():
    """"EF 55-60" in "LVEF" was set to missing (and said to be no number on the New patient
    page); a new patient's "INR n/a" was questioned as text."""
    lvef = pd.Series(["55", "60", "EF 55-60", "EF 35-40", "Cr 120"], name="LVEF", dtype=object)
    assert parse_numeric(lvef)[0][:4].tolist() == [55, 60, 57.5, 37.5]
    assert np.isnan(parse_numeric(lvef)[0][4])  # not the column's own name
    inr = pd.Series(["2.3", "INR n/a", "INR 2.5"], name="INR (last)", dtype=object)
    values, info = parse_numeric(inr)
    assert np.isnan(values[1]) and values[2] == 2.5
    assert info["missing_tokens"] and not info["bad"]
