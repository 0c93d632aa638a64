"""A stroke unit's export (walk-through 39): scores after their name, "lost to follow-up"
outcomes, "not applicable" gaps, and clock times in a one-row file."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge import Encoder


def test_a_stroke_scale_after_its_name_is_read_as_its_total():
    """Walk-through 39 lost the NIHSS, the strongest predictor of a stroke's outcome: "NIHSS
    14" was not among the scale names, so the column was left out as free text."""
    from sparge.data.parsing import plain_number

    said = {"NIHSS 14": 14, "NIHSS: 7": 7, "nihss=22": 22, "NIH SS 3": 3, "mRS 2": 2,
            "MRS 3": 3, "modified Rankin 4": 4, "EDSS 3.5": 3.5, "CHA2DS2-VASc 4": 4,
            "APACHE II 18": 18, "CURB-65 2": 2, "ECOG 1": 1, "GCS 14/15": 14,
            # with its severity after it (walk-through 39's leftover)
            "NIHSS 14 (moderate)": 14, "mRS 2 (slight disability)": 2}
    assert {c: plain_number(c) for c in said} == said
    assert plain_number("Metformin 500") is None and plain_number("mRS") is None
    assert plain_number("NIHSS 14 (7 mg)") is None
    rng = np.random.default_rng(0)
    v = rng.integers(0, 42, 300)
    cells = [f"NIHSS {x}" if i % 3 == 0 else f"{x}/42" if i % 3 == 1 else str(x)
             for i, x in enumerate(v)]
    mrs = rng.integers(0, 6, 300)
    df = pd.DataFrame({"NIHSS admission": cells,
                       "Pre-stroke mRS": [f"mRS {x}" if i % 2 else str(x)
                                          for i, x in enumerate(mrs)],
                       "Outcome": rng.choice(["good", "poor"], 300)})
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    assert enc.roles_["NIHSS admission"] == enc.roles_["Pre-stroke mRS"] == "numeric"
    np.testing.assert_array_equal(X[:, 0], v)
    np.testing.assert_array_equal(X[:, 1], mrs)


def test_a_hostile_cell_after_a_scale_name_is_refused_at_once():
    """The scale pattern had three adjacent unbounded whitespace runs: "GCS", 2,000 spaces
    and a letter took 22 s (40,000 would take days). Its runs are bounded now, and no
    cell longer than 60 characters is tried as a plain number."""
    from sparge.data.parsing import _SCALE_TOTAL, _SEVERITY_AFTER, plain_number

    for cell in ("GCS" + " " * 40_000 + "x", "NIHSS" + "\t" * 40_000 + "=",
                 "mRS " * 10_000 + "2", "NIHSS " + "1 " * 20_000 + "(a",
                 "1" * 40_000 + " (mild"):
        assert _SCALE_TOTAL.fullmatch(cell) is None
        assert _SEVERITY_AFTER.fullmatch(cell) is None
        assert plain_number(cell) is None


def test_lost_to_follow_up_is_no_outcome_and_not_applicable_is_a_gap():
    """Walk-through 39: 20 "lost to follow-up" outcomes became a third class (its own
    cluster on the map, "chance: 33 %", a row in every confusion matrix), and TOAST read
    "N/A" as a gap but "not applicable" as an answer."""
    rng = np.random.default_rng(0)
    y = list(rng.choice(["Good (mRS 0-2)", "Poor (mRS 3-6)"], 200))
    y[:10] = ["lost to follow-up"] * 10
    y[10:13] = ["LTFU", "Lost to follow up", "lost to f/u"]
    df = pd.DataFrame({"Age": rng.normal(70, 10, 200),
                       "TOAST": rng.choice(["LAA", "CE", "N/A", "not applicable"], 200),
                       "90-day outcome": y})
    enc = Encoder(label_column="90-day outcome")
    X = enc.fit_transform(df)
    labels = pd.Series(enc.labels(df))
    assert set(labels.dropna()) == {"Good (mRS 0-2)", "Poor (mRS 3-6)"}
    assert labels.isna().sum() == 13
    assert set(enc.table_.levels("TOAST")) == {"LAA", "CE"}
    gaps = df["TOAST"].isin(["N/A", "not applicable"]).to_numpy()
    assert np.isnan(X[gaps, 1]).all() and not np.isnan(X[~gaps, 1]).any()


def _times(n: int = 200, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    m = rng.integers(20, 300, n)
    cells = [f"{x // 60}h {x % 60}m" if i % 3 == 0 else f"{x} min" if i % 3 == 1
             else f"{x // 60:02d}:{x % 60:02d}" for i, x in enumerate(m)]
    needle = [f"0:{x % 60:02d}" if i % 4 == 0 else f"{x % 60} min" for i, x in enumerate(m)]
    return pd.DataFrame({"Onset to door": cells, "Door to needle (min)": needle,
                         "Outcome": rng.choice(["good", "poor"], n)}), m


def test_a_new_patients_clock_time_is_read_as_the_training_column_reads_it():
    """Walk-through 39: "02:15" and "0:52" were read in the training table (a column of
    times) and set to missing in a one-row New patient file, where one cell cannot show
    that the column holds durations; the model's column does."""
    df, m = _times()
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    np.testing.assert_array_equal(X[:, 0], m)
    np.testing.assert_array_equal(X[:, 1], m % 60)
    new, report = enc.transform_with_report(pd.DataFrame(
        {"Onset to door": ["02:15"], "Door to needle (min)": ["0:52"]}))
    assert new.tolist() == [[135.0, 52.0]]
    assert not report.stray_text


def test_times_rewritten_in_minutes_are_not_counted_as_written_with_the_unit():
    """Walk-through 39's report read "528 cell(s) written with the unit 'min'" where the
    export wrote 195: the times in hours and minutes, rewritten as "135 min", were counted
    again, and a New patient's "1h 30m" was quoted as "e.g. '90 min'"."""
    df, _ = _times()
    enc = Encoder(label_column="Outcome").fit(df)
    onset = [n for n in enc.report_.notes if n.startswith("Column 'Onset to door'")]
    written = sum(c.endswith(" min") for c in df["Onset to door"])
    assert any(f"{len(df) - written} time(s) written in hours and minutes" in n
               for n in onset)
    assert any(f"{written} cell(s) written with the unit 'min'" in n for n in onset)
    _, report = enc.transform_with_report(pd.DataFrame({"Onset to door": ["1h 30m"]}))
    assert not [n for n in report.notes if "written with the unit" in n]
    assert any("'1h 30m'" in n for n in report.notes)


def test_a_new_patients_columns_read_apart_or_into_an_age_are_not_called_unused():
    """Walk-through 39: New patient said "'BP on arrival' (not a column of the table the
    model was trained on)" and listed "DOB" and "Admission date" as not read, above the
    diastolic 96 and the age 79.1 it had read from them."""
    from sparge.services.workflow import encode_cohort, encode_new_patients, train

    rng = np.random.default_rng(1)
    n = 120
    born = pd.Timestamp("1940-01-01") + pd.to_timedelta(rng.integers(0, 15000, n), "D")
    df = pd.DataFrame({
        "MRN": [f"M{i}" for i in range(n)],
        "DOB": born.strftime("%d/%m/%Y"),
        "Admission date": "2024-03-01",
        "BP on arrival": [f"{s}/{d}" for s, d in zip(rng.integers(120, 200, n),
                                                      rng.integers(60, 110, n),
                                                      strict=True)],
        "Glucose": rng.normal(7, 2, n).round(1),
        "Outcome": rng.choice(["good", "poor"], n)})
    ages = {"Age at Admission date": {"born": "DOB", "at": "Admission date"}}
    cohort = encode_cohort(df, id_column="MRN", label_column="Outcome", ages=ages)
    assert {"BP on arrival systolic", "Age at Admission date"} <= set(cohort.features)
    model = train(cohort, {"max_iter": 0, "random_state": 0})
    row = df.iloc[:1].copy()
    row["Discharge note"] = "home"
    X, _, msgs = encode_new_patients(model, cohort.encoder, row, split=True)
    note = next(m for m in msgs if m.startswith("Values not used by the model"))
    assert "'Discharge note'" in note
    assert "BP on arrival" not in note and "DOB" not in note and "Admission" not in note
    assert np.isfinite(np.asarray(X, dtype=float)).all()


def test_an_abbreviation_is_shown_as_written():
    """Walk-through 39: "mRS 0" showed as "MRS 0" (in the merge message and on the New
    patient form) and "TIA" / "tia" as "Tia"."""
    from sparge.data.levels import shown_answer

    assert shown_answer(["mRS 0", "0"]) == "mRS 0"
    assert shown_answer(["tia", "TIA"]) == shown_answer(["TIA", "tia"]) == "TIA"
    assert shown_answer(["eGFR low"]) == "eGFR low"
    # as before: a first letter in capitals, Roman numerals in capitals
    assert (shown_answer(["ischaemic"]), shown_answer(["nyha iv"])) == ("Ischaemic", "NYHA IV")
    assert shown_answer(["tia"]) == "TIA"  # clinical initials in capitals


def _stroke(n: int = 400, seed: int = 0) -> pd.DataFrame:
    """Door-to-needle times exist for thrombolysed patients only; TOAST for ischaemic
    strokes only; every column also has 8 % random gaps."""
    rng = np.random.default_rng(seed)
    lysed = rng.random(n) < 0.3
    bleed = rng.random(n) < 0.2
    df = pd.DataFrame({
        "Age": rng.normal(72, 12, n).round(),
        "NIHSS": rng.integers(0, 30, n).astype(float),
        "Glucose": rng.normal(7, 2, n).round(1),
        "Stroke type": np.where(bleed, "Haemorrhagic", "Ischaemic"),
        "TOAST": np.where(bleed, "not applicable", rng.choice(["LAA", "CE", "SVD"], n)),
        "Thrombolysis": np.where(lysed & ~bleed, "Yes", "No"),
        "Door to needle (min)": np.where(lysed & ~bleed, rng.integers(20, 90, n), np.nan),
        "Sex": rng.choice(["F", "M"], n),
        "Outcome": rng.choice(["good", "poor"], n)})
    for col in ("Age", "NIHSS", "Glucose", "Sex", "Stroke type", "Thrombolysis"):
        df.loc[rng.random(n) < 0.08, col] = None
    return df


def test_gaps_another_column_explains_are_found_and_random_gaps_are_not():
    from sparge.data.structural_gaps import find_structural_gaps, structural_mask

    df = _stroke()
    enc = Encoder(label_column="Outcome", max_patient_missing=None)
    X = enc.fit_transform(df)
    names = enc.feature_names_out_
    cat = [enc.roles_.get(f) == "categorical" for f in names]
    found = find_structural_gaps(X, cat)
    j = {f: i for i, f in enumerate(names)}
    assert set(found) == {j["Door to needle (min)"], j["TOAST"]}
    d, kind, codes = found[j["Door to needle (min)"]]
    assert (d, kind) == (j["Thrombolysis"], "in")
    assert codes == (float(enc.table_.levels("Thrombolysis")["No"]),)
    assert found[j["TOAST"]][0] == j["Stroke type"]
    mask = structural_mask(X, found)
    no = (df["Thrombolysis"] == "No").to_numpy()
    np.testing.assert_array_equal(mask[:, j["Door to needle (min)"]], no)
    # a gap where the explaining answer is itself missing is an ordinary gap
    unknown = df["Thrombolysis"].isna().to_numpy()
    assert not mask[unknown, j["Door to needle (min)"]].any()
    # random gaps, however many, are explained by nothing
    rng = np.random.default_rng(1)
    R = rng.normal(size=(500, 12))
    R[:, 6:] = rng.integers(0, 3, size=(500, 6))
    R[rng.random(R.shape) < 0.3] = np.nan
    assert find_structural_gaps(R, [False] * 6 + [True] * 6) == {}


def test_gaps_by_design_do_not_leave_patients_out_of_training():
    """Walk-through 39: door-to-needle times (thrombolysed patients only) left 502 of 726
    patients out of training at the paper's 10 %, and the Data page offered to leave the
    column out, throwing away its 157 real values."""
    from sparge.method.preprocess import missing_fraction_per_row

    df = _stroke()
    enc = Encoder(label_column="Outcome", max_patient_missing=0.15)
    X = enc.fit_transform(df)
    names = enc.feature_names_out_
    assert set(enc.structural_gaps_) == {"Door to needle (min)", "TOAST"}
    note = next(n for n in enc.report_.notes if n.startswith("Column 'Door to needle"))
    assert f"empty for the {(df['Thrombolysis'] == 'No').sum()} patients whose " \
           "'Thrombolysis' is 'No'" in note
    assert "Door to needle (min)" not in enc.report_.columns_losing_patients
    # a patient's share counts only the values that apply to them
    W = enc.patient_weights(X)
    share = missing_fraction_per_row(X, W)
    np.testing.assert_array_equal(enc.keep_patients_, share <= 0.15 + 1e-12)
    by_hand = []
    for i in range(len(df)):
        applies = [f for f in names if not (
            (f == "Door to needle (min)" and df["Thrombolysis"].iloc[i] == "No")
            or (f == "TOAST" and df["Stroke type"].iloc[i] == "Haemorrhagic"))]
        gaps = sum(np.isnan(X[i, names.index(f)]) for f in applies)
        by_hand.append(gaps / len(applies))
    np.testing.assert_allclose(share, by_hand)
    plain = missing_fraction_per_row(X, enc.feature_weights())
    assert enc.keep_patients_.sum() > (plain <= 0.15 + 1e-12).sum() + 0.2 * len(df)


def test_a_stroke_units_answers_written_several_ways_are_offered_as_one():
    """Walk-through 39: anticoagulants by brand, generic and dose; AF as "known AF" /
    "sinus rhythm"; stroke types, TOAST classes, thrombolysis by its drug, "EVT" and
    discharge destinations each stayed apart, and "Why are they alike?" called "No AF"
    and "No" different."""
    from sparge.data.drug_combinations import combination_pairs, drug_set
    from sparge.data.levels import abbreviated_levels

    assert dict(combination_pairs(
        ["Eliquis", "Apixaban", "apixaban 5mg bd", "Coumadin", "warfarin", "none", "nil",
         "No", "DAPT", "aspirin + clopidogrel"], "Anticoagulant")) == {
        "Eliquis": "Apixaban", "apixaban 5mg bd": "Apixaban", "Coumadin": "warfarin",
        "none": "No", "nil": "No", "DAPT": "aspirin + clopidogrel"}
    assert drug_set("enoxaparin 40 mg sc daily") == frozenset({"enoxaparin"})
    assert drug_set("apixaban " + "5" * 40_000 + "mg") is None  # bounded, and refused
    assert combination_pairs(["Eliquis", "Apixaban"], "Ward") == []

    def merged(column: str, answers: list[str]) -> dict[str, str]:
        """Each answer's group once the offered pairs are merged."""
        target = dict(abbreviated_levels(answers, column))
        return {a: target.get(a, a) for a in answers}

    af = merged("Atrial fibrillation", ["Yes", "No", "AF", "known AF", "paroxysmal AF",
                                        "no AF", "sinus rhythm"])
    assert af["known AF"] == af["Yes"] and af["sinus rhythm"] == af["no AF"] == af["No"]
    assert af["Yes"] != af["No"]
    kind = merged("Stroke type", ["Ischaemic", "infarct", "ICH", "Haemorrhage", "TIA"])
    assert kind["infarct"] == kind["Ischaemic"] and kind["ICH"] == kind["Haemorrhage"]
    assert len(set(kind.values())) == 3
    toast = merged("TOAST", ["LAA", "large-artery atherosclerosis", "CE", "Cardioembolic",
                             "lacunar", "SVD", "cryptogenic", "Undetermined"])
    assert len(set(toast.values())) == 4
    lysis = merged("Thrombolysis", ["Yes", "No", "alteplase", "TNK", "not given"])
    assert lysis["TNK"] == lysis["alteplase"] == lysis["Yes"] != lysis["not given"]
    where = merged("Discharge destination", ["Home", "NH", "Nursing home", "Deceased",
                                             "Died", "Rehab"])
    assert len(set(where.values())) == 4


def test_a_merged_drug_is_shown_by_its_generic_name_and_more_spellings_merge():
    """Walk-through 40: the merged apixaban answers were shown as "Apixaban 5mg bd", the
    warfarin ones as "Coumadin"; AF "none", TOAST "other", "999 ambulance" and "IHT"
    stayed apart."""
    from sparge.data.drug_combinations import brand_or_dose
    from sparge.data.levels import abbreviated_levels, shown_answer

    assert shown_answer(["Apixaban", "apixaban 5mg bd", "Eliquis"]) == "Apixaban"
    assert shown_answer(["Coumadin", "warfarin"]) == "Warfarin"
    assert [brand_or_dose(a) for a in ("Eliquis", "apixaban 5 mg od", "apixaban",
                                       "Aggrenox", "5mg", "Ward 5")] == \
        [True, True, False, False, False, False]
    assert dict(abbreviated_levels(["Yes", "No", "none"], "Atrial fibrillation")) == \
        {"none": "No"}
    assert dict(abbreviated_levels(["Other determined", "other"], "TOAST")) == \
        {"other": "Other determined"}
    assert dict(abbreviated_levels(["Ambulance", "999 ambulance", "IHT",
                                    "Inter-hospital transfer", "Transfer"],
                                   "Arrival mode")) == {
        "999 ambulance": "Ambulance", "IHT": "Transfer",
        "Inter-hospital transfer": "Transfer"}


def test_a_new_patients_list_of_answers_is_not_called_unused():
    """Walk-through 41: "Allergies" (egg, peanut) was read as one yes/no column per
    allergen and listed as "not a column of the table the model was trained on"."""
    from sparge.services.workflow import encode_cohort, encode_new_patients, train

    rng = np.random.default_rng(2)
    n = 120
    foods = ["egg", "peanut", "milk", "nil known"]
    df = pd.DataFrame({
        "Age": rng.integers(1, 10, n).astype(float),
        "Allergies": [", ".join(rng.choice(foods, rng.integers(1, 3), replace=False))
                      for _ in range(n)],
        "Outcome": rng.choice(["Yes", "No"], n)})
    cohort = encode_cohort(df, label_column="Outcome")
    assert "Allergies" in getattr(cohort.encoder, "answer_lists_", {})
    model = train(cohort, {"max_iter": 0, "random_state": 0})
    row = df.iloc[:1].drop(columns="Outcome").assign(Note="x")
    _, _, msgs = encode_new_patients(model, cohort.encoder, row, split=True)
    note = next(m for m in msgs if m.startswith("Values not used by the model"))
    assert "'Note'" in note and "Allergies" not in note


def test_the_rewritten_rows_are_kept_as_one_text():
    """pandas copies a frame's attrs on every operation: the rows the reading rewrote are
    one short text (a bit per row), not a list of row numbers (100,000 of them made each
    operation on the table 100 times slower)."""
    from sparge.data.compound_units import pack_rows, read_compound_units, unpack_rows

    rng = np.random.default_rng(0)
    mask = rng.random(1001) < 0.3
    packed = pack_rows(mask)
    assert isinstance(packed, str) and len(packed) < 200
    np.testing.assert_array_equal(unpack_rows(packed, 1001), mask)
    assert not unpack_rows(packed, 1000).any() and not unpack_rows(None, 3).any()
    df = pd.DataFrame({"Onset to door": ["1h 20m", "80 min", "02:15", "95 min"] * 50})
    out = read_compound_units(df)
    kept = out.attrs["sparge_rewritten"]["Onset to door"]
    assert isinstance(kept, str)
    np.testing.assert_array_equal(unpack_rows(kept, len(df)),
                                  np.tile([True, False, True, False], 50))
