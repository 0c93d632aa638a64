"""Command-line interface: ``python -m sparge {validate,encode,train,similar,compare,embed}``.

``embed`` and ``similar --cohort`` run on Dask (``requirements-scale.txt``): a LocalCluster
by default, or the cluster at ``--scheduler ADDRESS``.

Exit codes: 0 success, 2 bad input or not enough resources (a clear message on stderr),
1 an unexpected bug. Everything printed that came from the user (column names, IDs, cell
values) has its control characters removed (no terminal escape codes); every CSV written is
formula-safe (:func:`sparge.data.safe_text.to_csv`). Long steps print progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
import pandas as pd

from sparge.data.column_guess import guess_columns
from sparge.data.reading import read_table
from sparge.data.safe_text import plain_frame, plain_text, to_csv
from sparge.errors import DataError
from sparge.method.preprocess import PAPER_MAX_MISSING
from sparge.services.persistence import load_model, save_model, validate_params
from sparge.services.resources import Limits, estimate_fit, estimate_read
from sparge.services.workflow import (
    encode_cohort,
    encode_new_patients,
    lookalike_table,
    starting_threshold,
    train,
)

#: Longest line printed from a report or message (a 5 MB cell is not echoed whole).
_MAX_LINE = 2000
#: Query patients per progress line of ``similar``.
_QUERY_BATCH = 200
#: Query patients whose outcome shares ``similar --cohort`` prints (on stderr).
_SHARES_SHOWN = 20


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _say(text: object, file=None) -> None:
    """Print text with control characters removed from every line."""
    lines = str(text).split("\n")
    print("\n".join(plain_text(line, _MAX_LINE) for line in lines),
          file=file or sys.stdout, flush=True)


def _step(message: str) -> None:
    """One progress line on stderr (the message may hold user text: it is made plain)."""
    _say(f"  [{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr)


def _progress(stage: str, info: dict) -> None:
    p = info.get("progress")
    extra = "" if p is None else f" {100 * p:3.0f}%"
    _step(f"{stage}{extra}")


def _read(path: str, force: bool = False) -> pd.DataFrame:
    """Read a CSV, refusing one whose reading would exceed the memory limit."""
    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0  # read_table names the problem
    limit = Limits().max_bytes
    if estimate_read(size) > limit and not force:
        raise DataError(f"Reading {path} ({size / 1e6:,.0f} MB) would take about "
                        f"{estimate_read(size) / 1e9:.1f} GB of memory, above the limit of "
                        f"{limit / 1e9:.1f} GB. Keep fewer rows or columns (e.g. a random "
                        "sample of patients), or add --force on a machine with more memory.")
    _step(f"reading {path} ({size / 1e6:,.1f} MB)")
    df = read_table(path, max_memory=None)  # the guard above decides; --force lifts it
    _step(f"read {len(df):,} rows x {df.shape[1]:,} columns")
    return df


def _cohort(args):
    df = _read(args.data, getattr(args, "force", False))
    _step("encoding")
    max_missing = args.max_missing
    if max_missing is None:  # the app's starting threshold: one gap never leaves a patient out
        max_missing = starting_threshold(df, args.id, args.label) / 100
    cohort = encode_cohort(df, id_column=args.id, label_column=args.label,
                           max_patient_missing=max_missing)
    _step(f"encoded {len(cohort.features):,} features")
    guessed = guess_columns(df)[1] if args.label is None else None
    if guessed is not None and cohort.encoder.roles_.get(guessed) in ("numeric",
                                                                      "categorical"):
        # a library review: `train` without --label used 'Outcome' as an input feature
        _say(f"Warning: no --label was given, and column '{plain_text(guessed, 80)}' looks "
             "like the outcome: it is used as an input feature. Add --label "
             f"'{plain_text(guessed, 80)}' to learn from it.", file=sys.stderr)
    return cohort


def _emit(df: pd.DataFrame, fmt: str, out: str | None) -> None:
    """Write ``df`` to ``out`` (or print it): CSV formula-safe, printed text made plain."""
    if fmt == "csv":
        text = to_csv(plain_frame(df, max_len=10**6) if out is None else df)
    elif fmt == "json":
        text = df.to_json(orient="records", indent=2)  # control characters are escaped
    else:
        text = "\n".join(plain_text(line, 10**6) for line in
                         plain_frame(df).to_string(index=False).split("\n"))
    if out:
        with open(out, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        _step(f"wrote {out}")
    else:
        print(text)  # plain already (table and csv), escaped by JSON


def cmd_validate(args) -> int:
    cohort = _cohort(args)
    rep = cohort.encoder.report_
    if args.json:
        print(json.dumps(rep.to_dict(), indent=2, default=str))  # escapes control chars
    else:
        _say(rep)
    return 0 if rep.ok else 2


def cmd_encode(args) -> int:
    cohort = _cohort(args)
    out = cohort.frame()
    out.insert(0, args.id or "row", cohort.ids)
    _emit(out, "csv", args.output)
    if args.table:
        with open(args.table, "w", encoding="utf-8", newline="") as fh:
            fh.write(to_csv(cohort.encoder.table_.to_frame()))
        _step(f"wrote {args.table}")
    rep = cohort.encoder.report_
    _say(rep, file=sys.stderr)
    if not rep.ok:
        _say("error: the report lists a PROBLEM; the encoded table was written but cannot "
             "train a model as it is.", file=sys.stderr)
        return 2
    return 0


def cmd_train(args) -> int:
    try:
        params = json.loads(args.params) if args.params else {}
    except json.JSONDecodeError as exc:
        raise DataError(f"--params is not valid JSON ({exc.msg} at character {exc.pos}).") \
            from exc
    if not isinstance(params, dict):
        raise DataError("--params must be a JSON object, e.g. '{\"n_components\": 8}'.")
    validate_params(params)  # before the (long) reading
    folder = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise DataError(f"Cannot save the model to {args.output}: the folder does not exist "
                        "or is not writable (checked before training, so no work is lost).")
    if args.unsupervised:
        params["supervised"] = False
    cohort = _cohort(args)
    _say(cohort.encoder.report_, file=sys.stderr)
    est = estimate_fit(len(cohort.train_rows), len(cohort.features))
    _step(f"estimate: {est.summary()}")
    if est.too_big:
        if not args.force:
            raise DataError(est.message() + " Add --force to train anyway.")
        _step("over the limits, training anyway (--force)")
    _step("training")
    model = train(cohort, params, callback=_progress)
    _step(f"saving {args.output}")
    save_model(args.output, model, encoder=cohort.encoder)
    _say(f"Trained on {len(cohort.train_rows)} patients in {model.fit_time_:.1f} s; "
         f"saved {args.output}", file=sys.stderr)
    return 0


def _cluster(args) -> dict:
    """Where ``embed`` and ``similar --cohort`` run: a scheduler or LocalCluster options."""
    if args.scheduler and args.workers:
        raise DataError("--workers sizes the local cluster; with --scheduler the cluster "
                        "has its own workers.")
    return {"client": args.scheduler or None,
            "local_cluster": {"n_workers": args.workers} if args.workers else None}


def _quiet_dask() -> None:
    """Keep Dask's own log lines off the terminal: its task-failure lines carry tracebacks
    and the failing task's message, which may quote cells. The CLI reports errors itself.
    The environment variable reaches the local cluster's worker processes."""
    import logging

    os.environ["DASK_LOGGING__DISTRIBUTED"] = "critical"
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def cmd_embed(args) -> int:
    from sparge.services.distributed import embed_cohort

    _quiet_dask()
    where = args.scheduler or "a local Dask cluster"
    _step(f"embedding {args.source} with {args.model} on {where}")

    def progress(done: int, total: int, patients: int) -> None:
        _step(f"partition {done} of {total} done ({patients:,} patients embedded)")

    summary = embed_cohort(args.model, args.source, args.output, id_column=args.id,
                           label_column=args.label, overwrite=args.overwrite,
                           progress=progress, **_cluster(args))
    for note in summary.notes:
        _say(f"note: {note}", file=sys.stderr)
    man = summary.manifest
    _say(f"Embedded {man.n_patients:,} patients in {len(man.files)} file(s) in "
         f"{summary.seconds:.1f} s ({summary.patients_per_second:,.0f} patients/s); "
         f"wrote {summary.out_dir}" + ("" if man.has_outcome else
                                       " (no outcome column: no outcome shares)"),
         file=sys.stderr)
    return 0


def _similar_in_cohort(args, model, encoder, df, X) -> int:
    from sparge.services.distributed import cohort_lookalikes

    _quiet_dask()
    ids = encoder.ids(df)
    own_ids = encoder.id_column is not None and encoder.id_column in df.columns
    _step(f"searching the embedded cohort {args.cohort} for {len(X)} patient(s)")
    res = cohort_lookalikes(model, X, args.cohort, n_neighbors=args.k, query_ids=ids,
                            exclude_self=own_ids, **_cluster(args))
    if args.k > res.n_patients:
        _say(f"note: the cohort has {res.n_patients} patients; listing them all.",
             file=sys.stderr)
    _step(f"searched {res.n_patients:,} patients in {res.seconds:.1f} s")
    _emit(res.table, args.format, args.output)
    if len(res.outcome_shares.columns):
        shown = res.outcome_shares.head(_SHARES_SHOWN)
        for qid, row in shown.iterrows():
            _say("outcome among the look-alikes of " + str(qid) + ": " +
                 ", ".join(f"{k} {100 * v:.0f}%" for k, v in row.items()), file=sys.stderr)
        if len(res.outcome_shares) > len(shown):
            _say(f"(outcome shares of the first {_SHARES_SHOWN} patients shown)",
                 file=sys.stderr)
    return 0


def cmd_similar(args) -> int:
    if (args.scheduler or args.workers) and not args.cohort:
        raise DataError("--scheduler and --workers go with --cohort (a search among an "
                        "embedded cohort).")
    _step(f"loading {args.model}")
    model, encoder = load_model(args.model)
    if encoder is None:
        raise DataError("This model file has no encoder; train it with `python -m sparge "
                        "train` to query CSV files.")
    df = _read(args.patients)
    X, msgs = encode_new_patients(model, encoder, df)
    for m in msgs:
        _say(f"note: {m}", file=sys.stderr)
    if args.cohort:
        return _similar_in_cohort(args, model, encoder, df, X)
    ids = encoder.ids(df)
    tables = []
    for i in range(len(X)):
        if i % _QUERY_BATCH == 0 and len(X) > 1:
            _step(f"look-alikes of patients {i + 1}-{min(i + _QUERY_BATCH, len(X))} "
                  f"of {len(X)}")
        t = lookalike_table(model, X.iloc[[i]], n_neighbors=args.k)
        t.insert(0, "query", ids[i])
        tables.append(t)
    _emit(pd.concat(tables, ignore_index=True), args.format, args.output)
    return 0


def cmd_compare(args) -> int:
    from sparge.services.compare import compare_classifiers, summarize, time_table

    cohort = _cohort(args)
    if cohort.labels is None:
        raise DataError("compare needs the outcome column (--label).")
    rows = cohort.train_rows
    one = estimate_fit(int(0.8 * len(rows)), len(cohort.features))
    total = estimate_fit(len(rows), len(cohort.features))
    seconds = one.seconds * args.splits
    _step(f"estimate: {args.splits} SparGE fits of about {one.seconds:.0f} s each "
          f"({seconds / 60:.1f} min in all) and {one.peak_bytes / 1e9:.1f} GB")
    if (seconds > total.limits.max_seconds or one.over_memory) and not args.force:
        raise DataError(f"compare would fit SparGE {args.splits} times, about "
                        f"{seconds / 60:.0f} min in all (limit "
                        f"{total.limits.max_seconds / 60:.0f} min) and "
                        f"{one.peak_bytes / 1e9:.1f} GB each (limit "
                        f"{total.limits.max_bytes / 1e9:.1f} GB). Use fewer --splits, a random "
                        "sample of patients or fewer columns, or add --force.")
    res, _ = compare_classifiers(cohort.X[rows], cohort.labels[rows].astype(str),
                                 n_splits=args.splits, weighted=args.weighted,
                                 callback=lambda p, msg: _progress(msg, {"progress": p}))
    summary = summarize(res)
    _emit(summary.round(4), args.format, args.output)
    _say("\nMean fit+predict time (s):\n" + time_table(res).round(4).to_string(),
         file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m sparge",
                                description="SparGE Explorer: similar patients from the "
                                            "command line.")
    sub = p.add_subparsers(dest="command", required=True)

    def data_args(sp, label_required=False):
        sp.add_argument("data", help="patient table (CSV; , ; or tab separated)")
        sp.add_argument("--id", help="patient ID column")
        sp.add_argument("--label", required=label_required, help="outcome column")
        sp.add_argument("--max-missing", type=float, default=None,
                        help="leave out patients missing more than this share (default: "
                             f"the paper's {PAPER_MAX_MISSING:g}, raised just above one "
                             "gap on a table with fewer than 10 feature columns, as in "
                             "the app)")
        sp.add_argument("--force", action="store_true",
                        help="go past the memory and time limits (reading, training)")

    sp = sub.add_parser("validate", help="check a table and print the validation report")
    data_args(sp)
    sp.add_argument("--json", action="store_true", help="report as JSON")
    sp.set_defaults(func=cmd_validate)

    sp = sub.add_parser("encode", help="write the encoded numeric table (exit 2 when the "
                                       "report lists a PROBLEM)")
    data_args(sp)
    sp.add_argument("-o", "--output", help="CSV output (default: stdout)")
    sp.add_argument("--table", help="also write the encoding table (CSV) here")
    sp.set_defaults(func=cmd_encode)

    sp = sub.add_parser("train", help="train a model and save it")
    data_args(sp)
    sp.add_argument("-o", "--output", required=True, help="model file (.sparge)")
    sp.add_argument("--unsupervised", action="store_true", help="ignore the outcome")
    sp.add_argument("--params", help='SparGE parameters as JSON, e.g. \'{"n_components": 8}\'')
    sp.set_defaults(func=cmd_train)

    def cluster_args(sp):
        sp.add_argument("--scheduler", metavar="ADDRESS",
                        help="Dask scheduler of a running cluster, e.g. tcp://10.0.0.5:8786 "
                             "(default: a local cluster on this machine)")
        sp.add_argument("--workers", type=_positive_int,
                        help="worker processes of the local cluster (default: one per CPU)")

    sp = sub.add_parser("similar", help="look-alikes of the patients in a CSV")
    sp.add_argument("model", help="model file (.sparge)")
    sp.add_argument("patients", help="CSV with one or more patients")
    sp.add_argument("-k", type=_positive_int, default=10, help="number of look-alikes")
    sp.add_argument("--format", choices=["table", "csv", "json"], default="table")
    sp.add_argument("-o", "--output")
    sp.add_argument("--cohort", metavar="FOLDER",
                    help="search every patient of an embedded cohort (`embed`) instead of "
                         "the model's training patients; a patient whose ID is the query's "
                         "is not its own look-alike")
    cluster_args(sp)
    sp.set_defaults(func=cmd_similar)

    sp = sub.add_parser("embed", help="embed every patient of a partitioned CSV or Parquet "
                                      "cohort (on Dask) for `similar --cohort`")
    sp.add_argument("model", help="model file (.sparge) saved with its encoder")
    sp.add_argument("source", help="folder of .parquet or .csv files, one file, or a "
                                   "pattern such as 'extract/part-*.csv'")
    sp.add_argument("-o", "--output", required=True, metavar="OUT_DIR",
                    help="new folder for the embedded cohort (Parquet files and a manifest)")
    sp.add_argument("--id", help="patient ID column (default: the model's)")
    sp.add_argument("--label", help="outcome column to carry (default: the model's, when "
                                    "the cohort has it)")
    sp.add_argument("--overwrite", action="store_true",
                    help="replace an embedded cohort already in OUT_DIR")
    cluster_args(sp)
    sp.set_defaults(func=cmd_embed)

    sp = sub.add_parser("compare", help="classifiers on raw vs SparGE features")
    data_args(sp, label_required=True)
    sp.add_argument("--splits", type=_positive_int, default=10)
    sp.add_argument("--weighted", action="store_true",
                    help="weight the outcomes equally in the classifiers that take weights "
                         "(all but k-nearest neighbours)")
    sp.add_argument("--format", choices=["table", "csv", "json"], default="table")
    sp.add_argument("-o", "--output")
    sp.set_defaults(func=cmd_compare)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except DataError as exc:
        _say(f"error: {exc}", file=sys.stderr)
        return 2
    except MemoryError:
        _say("error: not enough memory for this step. Train on a random sample of patients, "
             "keep fewer columns, or run it on a machine with more memory "
             "(see `python -m sparge train --help`).", file=sys.stderr)
        return 2
    except OSError as exc:
        _say(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: say so, with the type, not the patient data
        _say(f"internal error ({type(exc).__name__}): {exc}. Please report it.",
             file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    np.seterr(all="ignore")
    sys.exit(main())
