"""Data: upload a CSV (or use the sample), column roles, encoding table, missingness, report."""

import pandas as pd
import streamlit as st

from sparge import EncodingTable, read_table
from sparge.encoding import ROLES
from sparge.plots import missing_bars, missingness_heatmap, patient_missing_hist
from sparge.ui import SAMPLE_CSV, guard, init_state, set_cohort
from sparge.workflow import encode_cohort

init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
st.title("Data")
st.caption("Upload a patient table (CSV: one row per patient; numbers, text answers and gaps "
           "are fine) or keep the bundled synthetic sample.")

up = st.file_uploader("Patient table (CSV)", type=["csv", "txt", "tsv"], key="data_upload")
c1, c2 = st.columns(2)
if c2.button("Use the bundled sample", key="use_sample"):
    ss.pending_raw = ("sample", SAMPLE_CSV.read_bytes())
    ss.pending_df = None
    ss.pending_cols = ("Subject ID", "Outcome")
if up is not None and ss.get("upload_seen") != (up.name, up.size):
    with guard("Reading the file"):
        df_new = read_table(up.getvalue())
        ss.upload_seen = (up.name, up.size)
        ss.pending_raw = (up.name, up.getvalue())
        ss.pending_df = df_new
        ss.pending_cols = (None, None)

raw_name, raw_bytes = ss.get("pending_raw", (None, None))
if raw_bytes is not None:
    with guard("Reading the file"):
        df = ss.get("pending_df") if ss.get("pending_df") is not None else read_table(raw_bytes)
        ss.pending_df = df
        st.subheader(f"Set up '{raw_name}'")
        cols = list(df.columns)
        id_guess, label_guess = ss.get("pending_cols", (None, None))
        a, b, c = st.columns(3)
        id_col = a.selectbox("Patient ID column", ["(none)"] + cols, key="setup_id",
                             index=(cols.index(id_guess) + 1) if id_guess in cols else 0)
        label_col = b.selectbox("Outcome column", ["(none)"] + cols, key="setup_label",
                                index=(cols.index(label_guess) + 1) if label_guess in cols
                                else 0)
        max_missing = c.slider("Leave out patients missing more than (%)", 0, 100, 10,
                               key="setup_missing",
                               help="The paper leaves out patients missing more than 10 % "
                                    "of their values.")
        if st.button("Encode this table", type="primary", key="setup_go"):
            cohort = encode_cohort(df, id_column=None if id_col == "(none)" else id_col,
                                   label_column=None if label_col == "(none)" else label_col,
                                   max_patient_missing=max_missing / 100)
            set_cohort(cohort, f"{raw_name} ({len(df)} patients)")
            ss.pending_raw = (None, None)
            ss.pending_df = None
            st.success("Table encoded. Train a model on the Model page.")
            st.rerun()

cohort = ss.cohort
enc = cohort.encoder
rep = enc.report_
st.subheader(f"Current table: {ss.cohort_name}")
st.caption(f"{rep.n_rows} patients · {rep.n_columns} columns · {rep.n_features} features · "
           f"{len(cohort.train_rows)} patients kept for training")

tab_rep, tab_roles, tab_table, tab_miss = st.tabs(
    ["Validation report", "Column roles", "Encoding table", "Missing values"])
with tab_rep:
    for line in str(rep).splitlines():
        if line.startswith("PROBLEM"):
            st.error(line)
        elif line.startswith("Warning"):
            st.warning(line)
        else:
            st.write(line)
with tab_roles:
    roles = pd.DataFrame({"column": list(enc.roles_), "role": list(enc.roles_.values())})
    edited = st.data_editor(roles, key="roles_editor", hide_index=True, disabled=["column"],
                            column_config={"role": st.column_config.SelectboxColumn(
                                "role", options=list(ROLES), required=True)})
    if st.button("Apply roles", key="apply_roles"):
        with guard("Re-encoding"):
            overrides = {r.column: r.role for r in edited.itertuples()
                         if r.role not in ("id", "label")}
            new = encode_cohort(cohort.df, id_column=enc.id_column,
                                label_column=enc.label_column, roles=overrides,
                                encoding_table=enc.table_,
                                max_patient_missing=enc.max_patient_missing)
            set_cohort(new, ss.cohort_name)
            st.rerun()
with tab_table:
    st.caption("How text answers become numbers (the paper's table plus inferred levels). "
               "Edit a code and apply; matching ignores case and spaces.")
    tframe = enc.table_.to_frame()
    edited_t = st.data_editor(tframe, key="table_editor", num_rows="dynamic", hide_index=True)
    d1, d2, d3 = st.columns(3)
    d1.download_button("Download table (CSV)", enc.table_.to_csv(), "encoding_table.csv",
                       "text/csv")
    d2.download_button("Download table (JSON)", enc.table_.to_json(), "encoding_table.json",
                       "application/json")
    if d3.button("Apply edited table", key="apply_table"):
        with guard("Applying the table"):
            table = EncodingTable.from_frame(edited_t.dropna(how="all"))
            new = encode_cohort(cohort.df, id_column=enc.id_column,
                                label_column=enc.label_column, encoding_table=table,
                                max_patient_missing=enc.max_patient_missing)
            set_cohort(new, ss.cohort_name)
            st.rerun()
with tab_miss:
    st.plotly_chart(missingness_heatmap(cohort.X, cohort.features, cohort.ids),
                    width="stretch")
    m1, m2 = st.columns(2)
    m1.plotly_chart(missing_bars(rep.missing_pct), width="stretch")
    m2.plotly_chart(patient_missing_hist(cohort.X, enc.max_patient_missing), width="stretch")
