"""A paediatric emergency department's export (walk-through 50): infants' ages in months,
weeks and "16/12", saturations "on air", rates "HR 170" and "39/min", Manchester triage
colours, complaints and AVPU/GCS written several ways, an "Admitted" outcome written with
the ward, and the time in the department (a leak)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.levels import abbreviated_levels
from sparge.data.parsing import parse_numeric


@pytest.mark.parametrize("cell, years", [
    ("10m", 10 / 12), ("21 mths", 21 / 12), ("16/12", 16 / 12), ("7/52", 49 / 365.25),
    ("3/7", 3 / 365.25), ("6 wks", 42 / 365.25), ("4", 4.0)])
def test_an_infants_age_in_months_weeks_or_days_is_read_in_years(cell, years):
    """161 infants' ages ("10m", "21 mths", "16/12", "7/52") were set to missing."""
    got, info = parse_numeric(pd.Series([cell], name="Age"))
    assert got[0] == pytest.approx(years) and not info["bad"]
    months, _ = parse_numeric(pd.Series([cell], name="Age (months)"))
    assert cell == "4" or months[0] == pytest.approx(years * 12)
    # "10m" is no age outside an age column (metres, minutes)
    assert np.isnan(parse_numeric(pd.Series(["10m"], name="Height"))[0][0])


def test_saturations_on_air_and_rates_with_their_name_or_unit_are_read():
    """"98 on air", "97% in air", "HR 170", "bpm 165", "39/min" were set to missing."""
    spo2, info = parse_numeric(pd.Series(["98", "96 on air", "97% in air", "92% on 2L"],
                                         name="SpO2"))
    assert spo2.tolist() == [98, 96, 97, 92] and not info["bad"]
    hr, info = parse_numeric(pd.Series(["120", "HR 170", "bpm 165", "150 bpm"],
                                       name="Heart rate"))
    assert hr.tolist() == [120, 170, 165, 150] and not info["bad"]
    rr, info = parse_numeric(pd.Series(["30", "RR 39", "39/min", "58 breaths/min"],
                                       name="Resp rate"))
    assert rr.tolist() == [30, 39, 39, 58] and not info["bad"]
    # a rate's unit is read only in a rate's column
    assert np.isnan(parse_numeric(pd.Series(["39/min"], name="Creatinine"))[0][0])


def test_triage_colours_complaints_avpu_and_gcs_parts_are_offered_as_one():
    def joined(levels, column):
        target = dict(abbreviated_levels(levels, column))

        def end(x):
            seen = set()
            while x in target and x not in seen:
                seen.add(x)
                x = target[x]
            return x
        groups: dict[str, set] = {}
        for lv in levels:
            groups.setdefault(end(lv), set()).add(lv)
        return sorted(sorted(g) for g in groups.values())

    assert joined(["Orange", "2 - very urgent", "Yellow", "Cat 3", "3", "RED", "1",
                   "Blue", "5 - non-urgent"], "Triage category") == [
        ["1", "RED"], ["2 - very urgent", "Orange"], ["3", "Cat 3", "Yellow"],
        ["5 - non-urgent", "Blue"]]
    assert joined(["Fever", "pyrexia", "temp", "SOB", "Breathing difficulty", "D+V",
                   "diarrhoea and vomiting", "Fit", "seizure", "HI", "Head injury"],
                  "Complaint (coded)") == [
        ["Breathing difficulty", "SOB"], ["D+V", "diarrhoea and vomiting"],
        ["Fever", "pyrexia", "temp"], ["Fit", "seizure"], ["HI", "Head injury"]]
    assert joined(["Alert", "A", "GCS 15", "15", "E4V5M6", "V", "responds to voice",
                   "E3V4M6", "GCS 13"], "AVPU/GCS") == [
        ["15", "E4V5M6", "GCS 15"], ["A", "Alert"], ["E3V4M6", "GCS 13"],
        ["V", "responds to voice"]]
    assert joined(["nil PMH", "No PMH", "none", "asthma"], "Known conditions") == [
        ["No PMH", "nil PMH", "none"], ["asthma"]]


def test_an_admission_outcome_written_with_its_ward_is_yes_and_the_time_in_ed_a_leak():
    """"admitted to ward" and "PICU" beside "Yes" were two more outcomes (chance 25 %), and
    "Time in department" (300 min for the admitted, 170 for the others) was a feature."""
    rng = np.random.default_rng(50)
    n = 300
    admitted = rng.random(n) < 0.25
    outcome = np.where(admitted, rng.choice(["Yes", "admitted to ward", "PICU", "Y"], n),
                       rng.choice(["No", "discharged", "N"], n))
    df = pd.DataFrame({"Attendance ID": range(n), "Age": rng.integers(0, 16, n),
                       "Heart rate": rng.integers(80, 180, n),
                       "Time in department (min)": np.where(admitted, 300, 170)
                       + rng.integers(-60, 60, n), "Admitted": outcome})
    enc = Encoder(id_column="Attendance ID", label_column="Admitted").fit(df)
    assert set(enc.report_.label_balance) == {"Yes", "No"}
    assert enc.report_.label_balance["Yes"] == admitted.sum()
    assert "Time in department (min)" not in enc.feature_names_out_


def test_a_merged_answer_takes_the_spellings_that_shared_its_code():
    """Walk-through 50: "yes" merged into "up to date" left its "Y" (the same code) behind,
    and the page offered a second round of merges ("Y" / "yes", "N" / "No")."""
    from sparge.data.answer_merging import merge_answers

    rng = np.random.default_rng(51)
    n = 300
    df = pd.DataFrame({"ID": range(n), "Immunisations up to date": rng.choice(
        ["yes", "Y", "UTD", "up to date", "No", "N", "not immunised", "partial", "behind",
         "incomplete"], n), "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    merged = merge_answers(enc.table_, enc.report_.answers_two_ways)
    codes = merged.levels("Immunisations up to date")
    assert codes["Y"] == codes["yes"] == codes["UTD"] == codes["up to date"]
    assert codes["N"] == codes["No"] == codes["not immunised"]
    again = Encoder(id_column="ID", label_column="y", encoding_table=merged).fit(df)
    assert again.report_.answers_two_ways == {}


def test_a_normal_capillary_refill_is_read_as_its_limit():
    """Walk-through 50: 90 capillary refills written "normal" were set to missing beside
    "<2s", read as 2 (a limit is read as the limit)."""
    got, info = parse_numeric(pd.Series(["normal", "Brisk", "2", "3"], name="Capillary refill"))
    assert got.tolist() == [2, 2, 2, 3] and not info["bad"]
    assert np.isnan(parse_numeric(pd.Series(["normal"], name="Heart rate"))[0][0])


def test_an_answer_is_never_paired_both_ways():
    """Walk-through 51: "Injury - limb" into "Limb injury" (a synonym group) and "Limb
    injury" into "Injury - limb" (word order) made a loop no merge resolved; the button
    came back after every click."""
    pairs = abbreviated_levels(["Limb injury", "Injury - limb", "limb inj"],
                               "Complaint (coded)")
    assert pairs == [("Injury - limb", "Limb injury"), ("limb inj", "Limb injury")]


def test_acronyms_and_a_letter_left_out_are_offered_as_one_answer():
    """Walk-through 50's past medical history wrote "CP" and "Cerebral palsy", "T1DM" and
    "Type 1 diabetes", "breathing diffculty" and "Breathing difficulty": four answers
    that were two."""
    pairs = abbreviated_levels(
        ["None", "CP", "Cerebral palsy", "T1DM", "Type 1 diabetes", "breathing diffculty",
         "Breathing difficulty", "UTI", "urinary tract infection", "SOB",
         "Shortness of breath"], "PMH")
    assert sorted(pairs) == sorted([
        ("CP", "Cerebral palsy"), ("T1DM", "Type 1 diabetes"),
        ("breathing diffculty", "Breathing difficulty"), ("UTI", "urinary tract infection"),
        ("SOB", "Shortness of breath")])


def test_an_acronym_two_answers_spell_and_words_a_letter_apart_stay_apart():
    """"MS" may be multiple sclerosis or mitral stenosis; answers a letter apart that are
    other words stay apart, and so do short ones."""
    assert abbreviated_levels(["MS", "Multiple sclerosis", "Mitral stenosis"], "PMH") == []
    assert abbreviated_levels(["Hypertension", "Hypotension"], "Diagnosis") == []
    # a letter dropped in an answer of fewer than 8 letters is not read as a typo
    assert abbreviated_levels(["Asthma", "Astma", "Cardiac", "Cardic"], "Diagnosis") == []
