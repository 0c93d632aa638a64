"""Command-line interface: ``python -m sparge {validate,encode,train,similar,compare}``.

Exit codes: 0 success, 2 bad input (a clear message on stderr), 1 an unexpected bug.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
import pandas as pd

from .encoding import read_table
from .errors import DataError
from .persistence import load_model
from .workflow import encode_cohort, encode_new_patients, lookalike_table, train


def _progress(stage: str, info: dict) -> None:
    p = info.get("progress")
    extra = "" if p is None else f" {100 * p:3.0f}%"
    print(f"  [{time.strftime('%H:%M:%S')}] {stage}{extra}", file=sys.stderr, flush=True)


def _cohort(args):
    df = read_table(args.data)
    return encode_cohort(df, id_column=args.id, label_column=args.label,
                         max_patient_missing=args.max_missing)


def _emit(df: pd.DataFrame, fmt: str, out: str | None) -> None:
    text = (df.to_csv(index=False) if fmt == "csv" else
            df.to_json(orient="records", indent=2) if fmt == "json" else
            df.to_string(index=False))
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        print(text)


def cmd_validate(args) -> int:
    cohort = _cohort(args)
    rep = cohort.encoder.report_
    print(json.dumps(rep.to_dict(), indent=2, default=str) if args.json else str(rep))
    return 0 if rep.ok else 2


def cmd_encode(args) -> int:
    cohort = _cohort(args)
    out = cohort.frame()
    out.insert(0, args.id or "row", cohort.ids)
    _emit(out, "csv", args.output)
    if args.table:
        with open(args.table, "w", encoding="utf-8") as fh:
            fh.write(cohort.encoder.table_.to_csv())
    print(str(cohort.encoder.report_), file=sys.stderr)
    return 0


def cmd_train(args) -> int:
    cohort = _cohort(args)
    print(str(cohort.encoder.report_), file=sys.stderr)
    params = json.loads(args.params) if args.params else {}
    if args.unsupervised:
        params["supervised"] = False
    model = train(cohort, params, callback=_progress)
    model.save(args.output, encoder=cohort.encoder)
    print(f"Trained on {len(cohort.train_rows)} patients in {model.fit_time_:.1f} s; "
          f"saved {args.output}", file=sys.stderr)
    return 0


def cmd_similar(args) -> int:
    model, encoder = load_model(args.model)
    if encoder is None:
        raise DataError("This model file has no encoder; train it with `python -m sparge "
                        "train` to query CSV files.")
    df = read_table(args.patients)
    X, msgs = encode_new_patients(model, encoder, df)
    for m in msgs:
        print(f"note: {m}", file=sys.stderr)
    ids = encoder.ids(df)
    tables = []
    for i in range(len(X)):
        t = lookalike_table(model, X.iloc[[i]], n_neighbors=args.k)
        t.insert(0, "query", ids[i])
        tables.append(t)
    _emit(pd.concat(tables, ignore_index=True), args.format, args.output)
    return 0


def cmd_compare(args) -> int:
    from .compare import compare_classifiers, summarize, time_table

    cohort = _cohort(args)
    if cohort.labels is None:
        raise DataError("compare needs the outcome column (--label).")
    rows = cohort.train_rows
    res, _ = compare_classifiers(cohort.X[rows], cohort.labels[rows].astype(str),
                                 n_splits=args.splits,
                                 callback=lambda p, msg: _progress(msg, {"progress": p}))
    summary = summarize(res)
    _emit(summary.round(4), args.format, args.output)
    print("\nMean fit+predict time (s):\n" + time_table(res).round(4).to_string(),
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
        sp.add_argument("--max-missing", type=float, default=0.1,
                        help="leave out patients missing more than this share (default 0.1)")

    sp = sub.add_parser("validate", help="check a table and print the validation report")
    data_args(sp)
    sp.add_argument("--json", action="store_true", help="report as JSON")
    sp.set_defaults(func=cmd_validate)

    sp = sub.add_parser("encode", help="write the encoded numeric table")
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

    sp = sub.add_parser("similar", help="look-alikes of the patients in a CSV")
    sp.add_argument("model", help="model file (.sparge)")
    sp.add_argument("patients", help="CSV with one or more patients")
    sp.add_argument("-k", type=int, default=10, help="number of look-alikes")
    sp.add_argument("--format", choices=["table", "csv", "json"], default="table")
    sp.add_argument("-o", "--output")
    sp.set_defaults(func=cmd_similar)

    sp = sub.add_parser("compare", help="classifiers on raw vs SparGE features")
    data_args(sp, label_required=True)
    sp.add_argument("--splits", type=int, default=10)
    sp.add_argument("--format", choices=["table", "csv", "json"], default="table")
    sp.add_argument("-o", "--output")
    sp.set_defaults(func=cmd_compare)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: say so, with the type, not the patient data
        print(f"internal error ({type(exc).__name__}): {exc}. Please report it.",
              file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    np.seterr(all="ignore")
    sys.exit(main())
