"""Data: upload a CSV (or use the sample), set it up, column roles, encoding table, report.

The setup (ID column, outcome column, threshold) always stays on the page for the current
table and re-encodes it; a new upload (also the same file again) is set up from the guessed
ID and outcome columns, shown for confirmation with a preview of its first rows.
"""

import re

import pandas as pd
import streamlit as st

from sparge import EncodingTable, read_table
from sparge.app.lookalikes import session_cache
from sparge.app.plots import (
    SMALL_CHART,
    missing_bars,
    missingness_heatmap,
    patient_missing_hist,
)
from sparge.app.shell import (
    RELOAD_NOTE,
    flash,
    guard,
    init_state,
    role_edits,
    samples,
    set_cohort,
    show_flashes,
)
from sparge.data.answer_merging import (
    chosen_pairs,
    merged_summary,
    pair_label,
    pairs_table,
    type_losing_pairs,
)
from sparge.data.column_guess import (
    guess_columns,
    id_guess_note,
    ids_repeat_only_in_copies,
    repeated_ids,
    separate_records,
    single_value_outcome,
)
from sparge.data.combined_cells import source_columns
from sparge.data.encoder import ROLES
from sparge.data.encoding_notes import FAR_VALUES_CLEARED, far_values_click
from sparge.data.for_age import age_column
from sparge.data.number_format import format_number
from sparge.data.report import folded_notes, report_lines
from sparge.data.safe_text import cut_between, md_escape, plain_frame, quoted_names, to_csv
from sparge.services.ages import (
    AGREE_YEARS,
    age_choices,
    age_left_out_why,
    age_name,
    default_ages,
    replaces_table_age,
    sparse_date_caution,
    table_ages,
    with_age,
    without_age,
)
from sparge.services.workflow import (
    also_outcome_message,
    at_birth_button,
    blank_as_no_button,
    encode_again,
    encode_cohort,
    keep_apart_changes,
    kept_change,
    leave_out_button,
    left_out_lines,
    offered_merge_changes,
    outcome_answers_note,
    outcome_cut,
    outcome_from_cut,
    patients_count,
    roles_frame,
    starting_threshold,
    table_as_read,
    table_choices,
    threshold_button,
)

NONE = "(none)"
#: Outcomes with fewer patients can be set aside (``Encoder.min_outcome_patients``).
RARE_OUTCOME = 3
init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
st.title("Data")
show_flashes()
st.caption("Upload a patient table (CSV: one row per patient; numbers, text answers and gaps "
           "are fine) or keep the bundled synthetic sample. " + RELOAD_NOTE)

# ---------------------------------------------------------------- a new table
# After a table is encoded the uploader starts afresh (a new key): the browser keeps no old
# file in it, so choosing the same file again is a new upload that is set up again.
gen = ss.get("upload_generation", 0)
up = st.file_uploader("Patient table (CSV)", type=["csv", "txt", "tsv"],
                      key="data_upload" if gen == 0 else f"data_upload_{gen}")
if st.button("Use the bundled sample", key="use_sample"):
    with guard("Reading the sample"):
        ss.pending = {"name": "bundled sample", "df": read_table(samples().cohort_csv.read_bytes()),
                      "token": "sample"}
if up is not None and ss.get("upload_seen") != up.file_id:  # a new upload, same file or not
    ss.upload_seen = up.file_id
    with guard(f"Reading {md_escape(up.name)}"):
        ss.pending = {"name": up.name, "df": read_table(up.getvalue()), "token": up.file_id}

# ---------------------------------------------------------------- setup (always editable)
cohort = ss.cohort
enc = cohort.encoder
pending = ss.get("pending")
if pending is not None:
    df, name, token = pending["df"], pending["name"], pending["token"]
    # once per upload: reading every column on each click was seconds on a wide table
    def _guesses(df=df):
        guesses = guess_columns(df)
        return (*guesses, starting_threshold(df, *guesses))

    # the columns the encoder will use, not every other one (follow-up, dates and notes
    # are left out: counted, they made one gap exceed the threshold)
    id_guess, label_guess, threshold = session_cache("upload_guesses", (df,), _guesses)
    # a yes/no outcome made from a measurement: its setup as the user left it
    if "label" in pending:
        id_guess, label_guess = pending["id"], pending["label"]
        threshold = pending["missing"]
    # the same table again (a re-upload)? The threshold chosen for it is kept (it was
    # silently reset to the default), and the choices made for it can be (walk-through
    # 25's were silently undone)
    again = [str(c) for c in df.columns] == [str(c) for c in cohort.df.columns]
    if again:
        threshold = 100 if enc.max_patient_missing is None else \
            round(100 * enc.max_patient_missing)
        # ... and so are its ID and outcome columns where none is guessed (walk-through
        # 37's re-upload of the full table set the outcome to "(none)" without a word)
        # ... unless that ID repeats in the new file (walk-through 73's next upload
        # inherited "Patient ID", re-entered patients and all, and encoding stopped)
        kept_id = enc.id_column if enc.id_column in df.columns and not repeated_ids(
            df, enc.id_column) else None
        id_guess, label_guess = id_guess or kept_id, label_guess or enc.label_column
else:
    again = False
    df, name, token = cohort.df, ss.cohort_name, f"cohort-{id(cohort)}"
    id_guess, label_guess = enc.id_column, enc.label_column
    threshold = 100 if enc.max_patient_missing is None else round(100 * enc.max_patient_missing)
cols = [str(c) for c in df.columns]
SETUP_KEYS = ("setup_id", "setup_label", "setup_missing", "setup_rare")
if ss.get("setup_for") != token:  # a new source: start the controls from its guesses
    ss.setup_for = token
    ss.setup_kept = {"setup_id": id_guess if id_guess in cols else NONE,
                     "setup_label": label_guess if label_guess in cols else NONE,
                     "setup_missing": int(threshold),
                     # a new table sets rare outcomes aside; the current one shows its own
                     "setup_rare": pending is not None or enc.min_outcome_patients > 1}
    for key in SETUP_KEYS:
        ss.pop(key, None)
for key in SETUP_KEYS:
    # Streamlit drops a widget's state when its page is left: back on this page the
    # controls show the last choices for this source (kept outside the widgets), never
    # "(none)" -- encoding again would then have made the outcome an input feature
    if key not in ss:
        ss[key] = ss.setup_kept[key]
for key in ("setup_id", "setup_label"):  # a stale choice (another table's column)
    if ss.get(key) not in [NONE, *cols]:
        ss[key] = NONE

if pending is not None:
    st.subheader(f"Set up the new table: {md_escape(name)}")
    st.caption(f"{len(df):,} rows × {source_columns(df):,} columns. The ID and outcome "
               "columns below are guesses" + (" (or the current table's, where none is "
                                              "guessed)" if again else "")
               + ": check them, then encode; or cancel to keep the current table.")
    # removing the file from the uploader cannot cancel (Streamlit forgets the uploader
    # whenever the page is left): a walk-through's wrong upload stayed pending for good
    if st.button("Cancel: keep the current table", key="setup_cancel"):
        ss.pending = None
        ss.upload_generation = gen + 1  # an empty uploader
        flash("info", f"{md_escape(name)} was not encoded; the current table "
                      f"({md_escape(ss.cohort_name)}) stays in use.")
        st.rerun()
else:
    st.subheader("Set up the current table")
    st.caption("Change the ID column, the outcome column or the threshold and encode again.")
a, b = st.columns(2)  # two: a long outcome name was cut in a third of 800 px
id_col = a.selectbox("Patient ID column", [NONE, *cols], key="setup_id",
                     help="A column with a unique value per patient (guessed).")
label_col = b.selectbox("Outcome column", [NONE, *cols], key="setup_label",
                        help="The outcome to learn from (guessed); '(none)': unsupervised.")
if label_col != NONE:  # its name in full (cut in the box at 800 px) and its answers
    # ... as read once the current table is encoded with it (Y and Yes one answer)
    read = ss.cohort.labels if pending is None and \
        ss.cohort.encoder.label_column == label_col else None
    st.caption(md_escape(session_cache("outcome_answers", (token, label_col, read is None),
                                       lambda: outcome_answers_note(df, label_col,
                                                                    labels=read)),
                         max_len=800))
cut = session_cache("outcome_cut", (token, label_col), lambda: outcome_cut(df, label_col)) \
    if label_col != NONE else None
if cut is not None:  # walk-through 100 trained on "Donor Age" as 61 outcomes
    st.warning(f"'{md_escape(label_col)}' is a measurement with many values, not an outcome "
               "look-alikes can share: encoding it as the outcome stops. Make a yes/no "
               "outcome from it, or choose another column.")
    c1, c2 = st.columns([1, 2], vertical_alignment="bottom")
    at = c1.number_input(f"Yes from (≥), in '{md_escape(label_col, 40)}'", value=cut,
                         key=f"outcome_cut_{token}_{label_col}",
                         help="Patients at or above it have the outcome 'Yes', those below "
                              "'No'; the median is the starting value.")
    if c2.button(f"Use '{md_escape(label_col, 40)} ≥ {format_number(at)}' as the outcome",
                 key="outcome_cut_use"):
        new_label, cut_df = outcome_from_cut(df, label_col, float(at))
        ss.pending = {"name": re.sub(r" \([\d,]+ patients\)$", "", name), "df": cut_df,
                      "token": f"{token}-cut-{at}",
                      "id": None if id_col == NONE else id_col, "label": new_label,
                      # the measurement defines the outcome: no leak to find, a role
                      "roles": {str(label_col): "ignore"},
                      "missing": ss.get("setup_missing", threshold)}
        flash("info", f"'{md_escape(new_label)}' was added to the table (Yes from "
                      f"{format_number(at)}, No below, empty where '{md_escape(label_col)}' "
                      "is) and chosen as the outcome; '" + md_escape(label_col) + "', which "
                      "defines it, is left out of the model (the Column roles tab can "
                      "give it a role). Check the setup and encode.")
        st.rerun()
max_missing = st.slider("Leave out patients missing more than (%)", 0, 100,
                        key="setup_missing",
                        help="The SparGE paper leaves out patients missing more than 10 % of "
                             "their values; on a table with few columns it starts just above "
                             "one gap, so that a single gap never leaves a patient out. "
                             "Patients left out can still be looked up on the map.")
rare_aside = st.checkbox(
    f"Set aside outcomes with fewer than {RARE_OUTCOME} patients", key="setup_rare",
    disabled=label_col == NONE,
    help="Their patients are read as having no outcome and left out of training (shown on "
         "the map as such). One or two patients cannot teach or check an outcome: the "
         "model's forest part needs 2 per outcome, the held-out check and the classifier "
         "comparison 3.")
ss.setup_kept = {"setup_id": id_col, "setup_label": label_col, "setup_missing": max_missing,
                 "setup_rare": rare_aside}
no_id = id_guess_note(df, id_guess) if pending is not None and id_col == NONE else None
if no_id:
    st.warning(md_escape(no_id, max_len=1500))  # 600 cut the advice mid-word
repeats = repeated_ids(df, id_col) if id_col != NONE else ""
if repeats and ids_repeat_only_in_copies(df, id_col):  # walk-through 33's "Visit ID"
    st.info(md_escape(f"'{id_col}' repeats only on rows copied in every column: {repeats}. "
                      "The copies " + ("will be" if pending is not None else "are")
                      + " left out of training.", max_len=800))
elif repeats:  # said before encoding refuses it (walk-through 26 learned it from the refusal)
    # walk-through 99's second pregnancies, 104's two eyes
    episodes = separate_records(df, id_col)
    st.warning(md_escape(f"'{id_col}' cannot be the patient ID: {repeats}. Encoding will "
                         "stop; " + (f"{episodes}." if episodes else
                                     "fix the file, or choose no ID column."), max_len=1200))
if label_col == NONE and label_guess in cols and label_guess != id_col:
    st.warning(f"Column '{md_escape(label_guess)}' looks like an outcome. With the outcome "
               "column at '(none)' it is used as an input feature: choose it as the outcome, "
               "or set its role to 'ignore' after encoding.")
elif label_col != NONE:
    also = also_outcome_message(df, id_col, label_col)
    one = single_value_outcome(df) if pending is not None else None
    if one and one[0] != label_col:  # walk-through 73: "Status" guessed without a word
        st.warning(f"'{md_escape(one[0])}' looks like the outcome but holds one answer "
                   f"('{md_escape(one[1], 40)}') for every patient: nothing can be learned "
                   f"from it, so the outcome guessed is '{md_escape(label_col)}'. Check "
                   "that it is the outcome you mean, and that the export holds every "
                   "patient.")
    if also:  # a wrong guess made the real outcome an input feature, silently
        st.info(md_escape(also, max_len=1200))
choices = table_choices(enc, ss.cohort.clear_far) if again else ""
keep_choices = bool(choices) and st.checkbox(
    "Keep the choices made for the current table, which has the same columns: "
    + md_escape(choices, max_len=300),
    value=True, key=f"setup_keep_{token}",
    help="Untick to encode the new file as it is, without them. A model trained with them "
         "places this file's patients correctly only when they are kept.")
with st.expander("Preview: the first rows, as written", expanded=pending is not None):
    # walk-through 41 read "40 in" where its file wrote 3'4": the reading has run; and
    # walk-through 59 read "as read" over cells as written ("APACHE 20", "NA")
    st.caption("The cells as written, except that a value written in two units at once "
               "is shown in one (a height 3'4\" as 40 in, a time 1h 20m as 80 min; a value "
               "in another unit than its column's, \"2.7 cm\" among mm, is converted in "
               "the table as read, not here), a date of birth "
               "in a column of ages as the age, a blood pressure or TNM stage in one "
               "cell as its parts, a visual acuity (6/12, CF) as its logMAR, and a cell "
               "that repeats its column's name before a number (\"Ward 12\" in a column "
               "Ward, \"Na 134\" in a column Na) as the number. The table as the model "
               "reads it is the download below (Download the table as read).")
    st.dataframe(session_cache("preview", (df,), lambda: plain_frame(df.head(10))),
                 hide_index=True)
# the current table is encoded: encoding it again is no pending step (walk-through 56 read
# a red button above the encoded table as work still to do)
if st.button("Encode this table", type="primary" if pending is not None else "secondary",
             key="setup_go"):
    with guard("Encoding"):
        id_arg = None if id_col == NONE else id_col
        label_arg = None if label_col == NONE else label_col
        same = pending is None
        keep = same or keep_choices
        roles = {k: v for k, v in (enc.roles or {}).items()
                 if keep and k not in (id_arg, label_arg)}
        roles.update((pending or {}).get("roles", {}))  # a measurement made the outcome
        new = encode_cohort(df, id_column=id_arg, label_column=label_arg,
                            roles=roles or None,
                            encoding_table=enc.encoding_table if keep else None,
                            max_patient_missing=max_missing / 100,
                            min_outcome_patients=RARE_OUTCOME if rare_aside else 1,
                            clear_far=keep and ss.cohort.clear_far,
                            ages=enc.ages if keep else default_ages(df, id_arg, label_arg),
                            leave_out_copies=keep and enc.leave_out_copies,
                            blank_as_no=enc.blank_as_no if keep else None,
                            convert_slips=enc.convert_slips or not keep,
                            merge_spellings=enc.merge_spellings or not keep,
                            merge_pairs=getattr(enc, "merge_pairs", None) if keep else None)
        # "432 rows of 400 patients" where the file repeats a person (walk-through 106's
        # sidebar said "432 patients" beside the Model page's "397 patients")
        set_cohort(new, ss.cohort_name if same else
                   f"{name} ({patients_count(len(df), new.ids)})")
        if not same:
            ss.upload_generation = gen + 1
        ss.pending = None
        added = "" if keep else "".join(
            f" '{md_escape(a)}' was added from '{md_escape(spec['born'])}' (the table has "
            "no age; remove it under 'Add an age from a date of birth')."
            for a, spec in (getattr(new.encoder, "ages_", None) or {}).items())
        if new.encoder.report_.ok:
            flash("success", "Table encoded: its report is below. Train a model on the "
                  "Model page." + added)
        else:  # walk-through 78 read "Train a model" above what blocks training
            flash("warning", "Table encoded, but training cannot start yet: the report "
                  "below says why (PROBLEM) and how to proceed." + added)
        if not same and keep_choices:  # walk-through 44 saw them only in the ticked box
            # the choices end with their own full stop (walk-through 77 read "..")
            flash("info", "The choices made for the previous table were kept: "
                  + md_escape(choices.rstrip("."), max_len=300) + ". To read this file "
                  "without them, "
                  "upload it again and untick \"Keep the choices\".")
        st.rerun()

def _again(said: str, **changes) -> None:
    """Encode the current table again with ``changes`` (a one-click repair), say
    ``said`` and open the page afresh."""
    with guard("Encoding again"):
        before = len(ss.cohort.train_rows)
        new = encode_again(ss.cohort, **changes)
        set_cohort(new, ss.cohort_name)
        fewer = {"fewer": "the copies left out"} if changes.get("leave_out_copies") else {}
        flash("success", said + kept_change(before, len(new.train_rows), **fewer)
              + " Train a model on the Model page.")
        st.rerun()


ONE_DATE = "one date for every patient"
ORDERS = {"as the dates tell (day first when none does)": None, "day/month/year": True,
          "month/day/year": False}


def _age_form(cohort, choices) -> None:
    """Add an age from a date of birth (the Encoder's ``ages``), or remove one."""
    enc = cohort.encoder
    added = dict(getattr(enc, "ages_", {}) or {})
    own = table_ages(cohort.features, enc.roles_, added)
    title = "Add an age from a date of birth" + (
        f" ('{md_escape(choices.born)}')" if choices.born and not added else "") + (
        # walk-through 82 read the offer as a missing age beside its "Age (yrs)"
        f": the table has {md_escape(quoted_names(own))} already" if own and not added
        else "")
    with st.expander(title):
        for name, spec in added.items():
            a, b = st.columns([4, 1])
            what = (f"the age in {spec.get('unit', 'years')} from '{md_escape(spec['born'])}' "
                    f"at '{md_escape(spec['at'])}'")
            why = age_left_out_why(enc, name)
            # the newborns' hint only for ages that are all one value (0 years), not for
            # an age left out as giving the outcome away (walk-through 65)
            newborns = why is not None and why.startswith("the same value") and \
                spec.get("unit", "years") == "years"
            a.caption(f"'{md_escape(name)}' is in the model: {what}." if why is None else
                      f"'{md_escape(name)}', {what}, was added but left out of the model: "
                      f"{md_escape(why)}." + (" Newborns' ages in years are all 0: add it "
                                              "in days." if newborns else ""))
            if b.button("Remove", key=f"age_remove_{name}"):
                _again(f"'{md_escape(name)}' removed; the table was encoded again.",
                       ages=without_age(enc.ages, name))
        a, b = st.columns(2)
        # no column named as a date of birth: none is guessed (walk-through 43's only date
        # column, the delivery date, gave every mother an "age" of 0 to 1 year)
        born = a.selectbox("Date of birth", choices.dates, key="age_born",
                           index=choices.dates.index(choices.born) if choices.born else None,
                           placeholder="Choose the column of dates of birth")
        if born is None:
            st.caption("No column is named as a date of birth (DOB, born, birth): choose "
                       "the one that holds them, if any.")
            return
        others = [c for c in choices.dates if c != born]
        at_options = [*others, ONE_DATE]
        at_pick = b.selectbox("Age at", at_options, key="age_at",
                              index=at_options.index(choices.at if choices.at in others
                                                     else ONE_DATE),
                              help="Another date of the same patient (an admission, a "
                                   "visit), or one date for every patient (the export's).")
        if at_pick == ONE_DATE:
            first, last = pd.Timestamp(1900, 1, 1), pd.Timestamp(2100, 12, 31)
            # a typo's year 2901 in the file is no date the picker can show
            start = min(max(choices.latest or pd.Timestamp.today(), first), last)
            when = st.date_input("The date", key="age_day", value=start.date(),
                                 min_value=first.date(), max_value=last.date())
            at = when.isoformat()
        else:
            at = at_pick
            if caution := sparse_date_caution(cohort.df, at):
                st.warning(md_escape(caution, max_len=600))
        order = st.radio("Dates written", list(ORDERS), horizontal=True, key="age_order",
                         help="03/04/1960: the 3rd of April (day/month/year) or the 4th of "
                              "March (month/day/year). A date such as 25/04/1960 tells; "
                              "when none does, the report says how they were read.")
        unit = st.radio("Age in", ["years", "months", "days"], horizontal=True,
                        key="age_unit", help="Years with one decimal; a newborn's or an "
                                             "infant's age is better in days or months.")
        name = st.text_input("Name of the new column", key=f"age_name_{at}_{unit}",
                             value=age_name(at, [str(c) for c in cohort.df.columns], unit))
        # once per table and date of birth: reading every date on each rerun was slow
        by_default, has = session_cache(
            "age_replaces", (cohort, born, tuple(own), at, ORDERS[order]),
            lambda: replaces_table_age(cohort.df, born, cohort.X, cohort.features, own,
                                       at, ORDERS[order]))
        replace = bool(own) and st.checkbox(
            f"Leave out the table's own {md_escape(quoted_names(own))}: the new age "
            "replaces it",
            value=by_default, key=f"age_replace_{born}",
            help="Both would be features, and the look-alikes would weigh age twice. "
                 f"Ticked when the date of birth gives at least as many ages as the "
                 f"table's own ({has:,} patients have one) and the two agree (within "
                 f"{AGREE_YEARS:g} years for most patients with both). Any column's role "
                 "can be changed back on the Column roles tab.")
        if st.button("Add the age and encode again", key="age_add"):
            with guard("Adding the age"):
                name = name.strip() or age_name(at, [str(c) for c in cohort.df.columns],
                                                unit)
                roles = {**(enc.roles or {}), **dict.fromkeys(own, "ignore")} \
                    if replace else enc.roles
                new = encode_again(cohort, ages=with_age(enc.ages, name, born, at,
                                                         ORDERS[order], unit), roles=roles)
                set_cohort(new, ss.cohort_name)
                said = next((n for n in new.encoder.report_.notes
                             if n.startswith(f"'{name}'")), "")
                flash("success", md_escape(said, max_len=600) + " The table was encoded "
                      "again. Train a model on the Model page.")
                st.rerun()


# ---------------------------------------------------------------- the current table
cohort = ss.cohort
enc = cohort.encoder
rep = enc.report_
if pending is not None:
    # the report below is the old table's until the new one is encoded: folded away and
    # named as such (a walk-through read the old table's warnings as the new one's)
    current = st.expander(f"The table in use until the new one is encoded: "
                          f"{md_escape(ss.cohort_name)}", expanded=False)
else:
    st.subheader("Current table")
    current = st.container()
with current:
    # the cohort's name ends with its number of patients ("colon.csv (929 patients)")
    st.caption(f"{md_escape(ss.cohort_name)} · {rep.n_columns:,} columns · {rep.n_features:,} "
               f"features · {len(cohort.train_rows):,} patients kept for training")
    # walk-through 37 rebuilt the app's reading with the library to check it against the
    # export: every value as read, in the column's unit, and why a row does not train
    st.download_button(
        "Download the table as read (CSV)",
        # 12 significant digits: a converted 950 mL read "0.9500000000000001" (walk-through 46)
        lambda: to_csv(table_as_read(cohort), float_format="%.12g"), "table_as_read.csv",
        "text/csv",
        key="data_as_read",
        help="One row per patient: every value as the model reads it (numbers in the unit "
             "named in the header, answers as merged), the outcome, and why a row does not "
             "train. Compare it with your file.")

    # keyed: the first edit of a role after encoding re-ran the page and the tabs came back
    # on the report, the edit hidden behind them
    tab_rep, tab_roles, tab_table, tab_miss = st.tabs(
        ["Validation report", "Column roles", "Encoding table", "Missing values"],
        key="data_tabs", on_change="rerun")
    with tab_rep:
        guessed_label = session_cache("cohort_guesses", (cohort,),
                                      lambda: guess_columns(cohort.df))[1]
        if enc.label_column is None and enc.roles_.get(guessed_label) in ("numeric", "categorical"):
            st.warning(f"No outcome column is set, and '{md_escape(guessed_label)}' looks like an "
                       "outcome: it is used as an input feature. Choose it as the outcome above, "
                       "or give it the role 'ignore'.")
        one = single_value_outcome(cohort.df) if enc.label_column is None else None
        if one:
            st.warning(f"'{md_escape(one[0])}' looks like the outcome but holds one answer "
                       f"('{md_escape(one[1], 40)}') for every patient: there is nothing to "
                       "learn from it, so the table is used without an outcome (the model "
                       "learns unsupervised, and look-alikes are not checked against an "
                       "outcome). Does the export hold every patient?")
        # the one-click repairs first, the report that explains them below: at the end of
        # a 40-line report they were 4,400 px down the page (walk-through 25)
        copies = rep.copied_rows
        # an ID repeated only on the copies leaves them out already (walk-through 34:
        # the button toggled nothing and said it had)
        forced = bool(copies) and rep.copies_left_out and not enc.leave_out_copies
        merged = getattr(enc, "merged_spellings_", None) or {}
        if rep.values_to_check or rep.answers_two_ways or rep.columns_losing_patients \
                or (copies and not forced) or merged:
            st.caption("One click repairs what the report below finds (each button's "
                       "warning says what it does):")
        if rep.values_to_check:  # the warning below lists them; one click clears them
            label, changes, done = far_values_click(
                rep.values_to_check, cohort.clear_far, enc.convert_slips,
                len(rep.impossible))
            if st.button(label, key="far_values",
                         help="A typo or a value in another unit pulls its patient's "
                              "look-alikes and shrinks how much the column counts for "
                              "everyone. Set to missing, the model completes it from the "
                              "patient's other values; a value in a probable other unit "
                              "(named in the warning) is converted from it. Train again "
                              "afterwards."):
                _again(done + "; the table was encoded again.", **changes)
        if merged:  # merged by default (walk-through 78: "F" and "Female" split look-alikes)
            n_merged = sum(len(p) for p in merged.values())
            if st.button(f"Keep apart the {n_merged:,} pair"
                         f"{'s' if n_merged != 1 else ''} read as one answer by default "
                         f"(in {quoted_names(list(merged))})",
                         key="keep_spellings_apart",
                         help="The same answer written two ways ('F' and 'Female' in a Sex "
                              "column, 'Ex' and 'ex-smoker', 'Type II' and 'type 2') is one "
                              "answer by default; the report's note lists each pair. Kept "
                              "apart, they are offered for merging one pair at a time. Train "
                              "again afterwards."):
                _again(f"Answers kept apart in {quoted_names(list(merged))}; the table was "
                       "encoded again.", **keep_apart_changes(enc))
        if rep.answers_two_ways:  # the warning below lists them; one click merges them
            n_all = sum(len(p) for p in rep.answers_two_ways.values())
            # pairs the user keeps apart (chosen in the list below, read before it is
            # drawn): walk-through 48 could merge all 55 pairs or none
            apart_key = f"merge_apart_{id(cohort)}"
            labels = [pair_label(c, a, b) for c, ps in rep.answers_two_ways.items()
                      for a, b in ps]
            # a condition's types that would become one answer ("Type 1" and "Type 2"
            # into "Yes") start kept apart: walk-throughs 90 and 91 lost the type in one
            # click; merged when the user takes them off the list
            losing = type_losing_pairs(rep.answers_two_ways)
            if apart_key not in ss:  # kept apart before a merge: still (walk-through 49)
                remembered = ss.get("merge_kept_apart", {}).get(ss.cohort_name)
                ss[apart_key] = losing if remembered is None else \
                    [lb for lb in remembered if lb in labels]
            pairs = chosen_pairs(rep.answers_two_ways, ss[apart_key])
            n_pairs = sum(len(p) for p in pairs.values())
            # "more": not the pairs merged by default, which the button above keeps
            # apart (walk-through 91 read two "6 pairs" buttons as one list)
            if st.button(f"Merge {n_pairs:,}{' more' if merged else ''} "
                         f"pair{'s' if n_pairs != 1 else ''} that may be one answer "
                         "written two ways"
                         + (f" ({n_all - n_pairs:,} kept apart)" if n_pairs < n_all
                            else "") if n_pairs else
                         f"No pair left to merge ({n_all:,} kept apart: take one off the "
                         "list below to merge it)",
                         key="merge_two_ways", disabled=not n_pairs,
                         help="Each pair listed below takes the code of its second answer "
                              "('f' that of 'Female'), and the table is encoded again. "
                              "Keep any pair apart in the list below. To undo, give them "
                              "different codes on the Encoding table tab."):
                with guard("Merging the answers"):
                    ss.setdefault("merge_kept_apart", {})[ss.cohort_name] = list(ss[apart_key])
                    changes, merged = offered_merge_changes(enc, pairs)
                    new = encode_again(cohort, **changes)
                    set_cohort(new, ss.cohort_name)
                    flash("success", merged_summary(pairs, merged)
                          + " The table was encoded again.")
                    st.rerun()
            with st.expander(f"The {n_all:,} pair{'s' if n_all != 1 else ''} offered"
                             + (f" ({n_pairs:,} to merge, {n_all - n_pairs:,} kept apart)"
                                if n_pairs < n_all else "")):
                if losing:
                    st.caption("Kept apart until you take them off the list: "
                               + md_escape("; ".join(losing), 600) + ". Merged, answers "
                               "naming different types of a condition would become one "
                               "answer, and the model could no longer tell the types "
                               "apart.")
                st.multiselect(
                    "Keep apart (not merged)", labels, key=apart_key,
                    help="Pairs that are not one answer written two ways: they keep their "
                         "own codes when the others are merged.")
                st.dataframe(plain_frame(pairs_table(cohort.df, pairs, enc.table_)),
                             hide_index=True)
        candidates = list(rep.blank_no_candidates)
        if candidates:  # walk-through 48: a GP register writes nothing for "no"
            # in an expander: a gap is the likelier reading of most tables' empty cells
            # ... open, with what it keeps, where those cells leave many patients out
            # (walk-through 92: 256 of 501 left out, 229 of them for such cells)
            keeps = int(getattr(rep, "blank_no_keeps", 0))
            box = st.expander(f"Empty cells in {len(candidates)} yes/no "
                              f"column{'s' if len(candidates) != 1 else ''}: "
                              "gaps, or 'not on the register'?"
                              + (f" (read as No, about {keeps:,} more patients are kept "
                                 "for training)" if keeps else ""),
                              expanded=keeps >= 0.1 * len(cohort.df))
            box.caption("They are read as gaps (the model completes them). A register "
                        "export leaves a cell empty for a patient not on the register: "
                        "only then read them as No.")
            # one column at a time (walk-through 67: a psoriasis column went with four
            # drug columns whose empty cells did mean No)
            chosen = box.multiselect("Columns whose empty cells mean No", candidates,
                                     default=candidates,
                                     key=f"blank_as_no_cols_{hash(tuple(candidates))}")
            blank = blank_as_no_button(enc, rep, chosen)
        else:
            blank = None
        if blank is not None:
            label, cols = blank
            if box.button(label, key="blank_as_no",
                         help="A register export (a GP practice's asthma, COPD or "
                              "hypertension columns) often writes nothing for a patient not "
                              "on the register. Only if yours does: an empty cell that means "
                              "'not known' would become a No. Cells such as 'not recorded' "
                              "stay gaps. New patients' empty cells in these columns read as "
                              "No too. Train again afterwards."):
                _again(f"Empty cells read as No in {quoted_names(cols)}; the table was "
                       "encoded again.", blank_as_no=cols)
        if rep.columns_losing_patients:  # walk-through 27: a 97 %-empty column left 227 out
            label, new_roles = leave_out_button(enc, rep)
            if st.button(label, key="leave_out_empty",
                         help="A column missing for nearly every patient gives each of them "
                              "a gap, and the threshold then leaves them out of training. "
                              "Its role becomes 'ignore' (the Column roles tab sets it back)."
                              " Train again afterwards."):
                _again(f"Left out {quoted_names(rep.columns_losing_patients)}; the table "
                       "was encoded again.", roles=new_roles)
        birth = at_birth_button(enc, rep)
        if birth is not None:  # walk-through 99: labour, delivery and baby beside a PPH
            label, new_roles = birth
            if st.button(label, key="leave_out_at_birth",
                         help="Columns written at the birth or after it (labour, delivery, "
                              "the baby, blood lost or given) describe patients who have "
                              "given birth. Beside an outcome that happens at the birth, "
                              "they make look-alikes at booking look better than they are. "
                              "Their role becomes 'ignore' (the Column roles tab sets it "
                              "back). Train again afterwards."):
                _again(f"Left out {quoted_names(rep.at_birth)}; the table was encoded "
                       "again.", roles=new_roles)
        raise_to = threshold_button(rep)
        if raise_to is not None:  # walk-through 60: 3 of 602 kept at the paper's 10 %
            label, share = raise_to
            if st.button(label, key="raise_threshold",
                         help="The SparGE paper leaves out patients missing more than 10 % "
                              "of their values; an export with many gaps keeps few at that "
                              "threshold. Raised, the patients are kept and the model "
                              "completes their gaps. The slider above sets any other "
                              "threshold. Train again afterwards."):
                _again(f"Threshold on missing values raised to {round(100 * share)}%; the "
                       "table was encoded again.", max_patient_missing=share)
        # once per encoded table, not on every rerun (it reads every date column)
        ages_at = session_cache("age_choices", (cohort,),
                                lambda: age_choices(cohort.df, enc.roles_))
        # walk-through 29: a date of birth, and no age in the model; not offered beside
        # an age already in the model without one (walk-through 73's "Date of diagnosis")
        if ages_at.dates and (ages_at.born or getattr(enc, "ages_", None)
                              or age_column(enc.feature_names_out_) is None):
            _age_form(cohort, ages_at)
        if copies and not forced:  # walk-through 31: eight infants exported twice
            n = len(copies)
            label = (f"Train on the {n:,} copied row{'s' if n != 1 else ''} again"
                     if enc.leave_out_copies else
                     f"Leave the {n:,} copied row{'s' if n != 1 else ''} out of training")
            if st.button(label, key="leave_out_copies",
                         help="Rows that repeat an earlier row in every column (a record "
                              "exported twice): each copy is the other's look-alike at "
                              "similarity 1.00. Left out, the first of each is kept; the "
                              "copies stay on the map. Train again afterwards."):
                _again(("Copies trained on again" if enc.leave_out_copies else
                        "Copies left out of training") + "; the table was encoded again.",
                       leave_out_copies=not enc.leave_out_copies)
        # the report after the outcome's warnings above: they decide what the model learns
        # (the one-answer outcome's stood below "Nothing blocks training"; walk-through 18)
        # ... its problems and warnings before its notes (walk-through 86 read the leak,
        # the impossible values and the patients left out after some 20 notes)
        shown_lines, folded = folded_notes(report_lines(str(rep)))
        for line in shown_lines:
            if line.startswith("PROBLEM"):
                st.error(md_escape(line, max_len=2000))
            elif line.startswith("Warning") and FAR_VALUES_CLEARED in line:
                # the far values, set to missing: no longer a warning, and not "used as given"
                st.info(md_escape(line.removeprefix("Warning: "), max_len=2000))
            elif line.startswith("Warning"):
                st.warning(md_escape(cut_between(line, 2000), max_len=2100))
            else:
                st.text(line)
        if folded:  # how cells were read, once the losses above are said
            with st.expander(f"How the other cells were read ({len(folded):,} notes)"):
                for line in folded:
                    st.text(line)
        if rep.patients_dropped:
            # one threshold control (the setup's, above); the report already says how many
            st.caption("The threshold is **Leave out patients missing more than (%)** above; "
                       "change it and encode again.")
    with tab_roles:
        st.caption("Change a column's role and apply: 'label' makes it the outcome column, 'id' "
                   "the patient ID, 'ignore' leaves it out.")
        roles = roles_frame(enc)
        edited = st.data_editor(roles, key="roles_editor", hide_index=True,
                                disabled=["column", "why"],
                                column_config={"role": st.column_config.SelectboxColumn(
                                    "role", options=list(ROLES), required=True,
                                    width="small"),
                                    "why": st.column_config.TextColumn(
                                        "why", width="large", help="Why the column has "
                                        "this role (as encoded; the report says more)")})
        if left := left_out_lines(roles):
            # the grid cuts a long reason at a narrow width (walk-through 63, 800 px)
            with st.expander(f"Why {len(left)} column(s) are left out", expanded=False):
                st.markdown("\n".join(f"- {md_escape(line, max_len=400)}" for line in left))
        if st.button("Apply roles", key="apply_roles"):
            with guard("Re-encoding"):
                new_id, new_label, overrides, notes = role_edits(
                    dict(zip(edited["column"], edited["role"])), enc.id_column, enc.label_column,
                    fitted=enc.roles_, user_roles=enc.roles)
                new = encode_again(cohort, id_column=new_id, label_column=new_label,
                                   roles=overrides)
                set_cohort(new, ss.cohort_name)
                ss.pop("setup_for", None)  # the setup controls follow the new roles
                for note in notes:
                    flash("warning", md_escape(note, max_len=500))
                flash("success", "Roles applied and the table encoded again.")
                st.rerun()
    with tab_table:
        st.caption("How text answers become numbers (the paper's table plus inferred levels). "
                   "To reorder a column's levels, edit their codes (1 < 2 < 3 …) and apply; "
                   "'ordered' says whether the codes follow a clinical order. Rows with an empty "
                   "code are missing tokens ('*' = every column). Matching ignores case and "
                   "spaces.")
        tframe = enc.table_.to_frame()
        unordered = rep.unordered_columns  # the report's list: the two always agree
        if unordered:
            st.caption("Unordered, with 3 or more levels (codes are labels, not a scale; a "
                       "two-level column needs no order): " +
                       ", ".join(md_escape(col) for col in unordered[:30]) +
                       (f" … (+{len(unordered) - 30})" if len(unordered) > 30 else ""))
        edited_t = st.data_editor(
            tframe, key="table_editor", num_rows="dynamic", hide_index=True,
            column_config={
                "code": st.column_config.NumberColumn(
                    "code", help="The number the model sees; edit to reorder the levels."),
                "ordered": st.column_config.CheckboxColumn(
                    "ordered", help="Ticked: the codes follow an order (e.g. None < Micro < "
                                    "Macro). Unticked: the categories have no order.")})
        d1, d2, d3 = st.columns(3)
        d1.download_button("Download CSV", to_csv(tframe), "encoding_table.csv", "text/csv",
                           help="Download the encoding table as CSV")
        d2.download_button("Download JSON", enc.table_.to_json(), "encoding_table.json",
                           "application/json", help="Download the encoding table as JSON")
        if d3.button("Apply edited table", key="apply_table"):
            with guard("Applying the table"):
                table = EncodingTable.from_frame(edited_t.dropna(how="all"))
                # the edited codes hold the merged pairs: a pair split here stays apart
                new = encode_again(cohort, encoding_table=table, merge_pairs=None)
                set_cohort(new, ss.cohort_name)
                flash("success", "Encoding table applied and the table encoded again.")
                st.rerun()
    # drawn only while open (a map of up to 400 x 300 cells and two charts, redrawn on
    # every click on this page while another tab was shown)
    if tab_miss.open:
        with tab_miss, guard("Drawing the missing values"):
            st.plotly_chart(missingness_heatmap(cohort.X, cohort.features, cohort.ids,
                                                weights=enc.patient_weights(cohort.X, cohort.df)),
                            width="stretch", config=SMALL_CHART)
            # one above the other: side by side, half of an 800 px page cut the columns'
            # names ("lean blood pressure (mm…")
            st.plotly_chart(missing_bars(rep.missing_pct), width="stretch", config=SMALL_CHART)
            st.plotly_chart(patient_missing_hist(cohort.X, enc.max_patient_missing,
                                                 enc.patient_weights(cohort.X, cohort.df)),
                            width="stretch", config=SMALL_CHART)
