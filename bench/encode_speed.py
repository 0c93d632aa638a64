"""How long a clinician waits for the Data page: reading a CSV and encoding it.

Every upload is read (:func:`sparge.read_table`, every column as text) and encoded as the
Data page does with its untouched form (:func:`sparge.services.workflow.encode_cohort`,
the default gap threshold). Wide tables are the slow ones: each reader of combined values
(heights in feet and inches, times in hours and minutes, TNM stages, ...) looks at each
column, and the bundled sample has 469. Timed here on the bundled samples, three generated
clinic exports (:mod:`bench.clinic_exports`) and a generated SingHEART-style cohort of
5,000 patients, each written to CSV first; the median of three runs after a warm-up (a
running server has imported everything). A new server also encodes the bundled sample
before its first page (``sparge.app.shell``).

    python -m bench.encode_speed            # all tables, written to encode_speed.md
    python -m bench.encode_speed --quick    # the small sample, once, printed only
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import pandas as pd

from bench.common import ROOT
from bench.report import publish, to_markdown

SAMPLES = ROOT / "data_samples"


def tables(work: Path, quick: bool) -> list[tuple[str, Path, str | None, str | None]]:
    """``(name, CSV, ID column, outcome column)`` of the tables timed."""
    out = [("singheart_small (bundled)", SAMPLES / "singheart_small.csv", "Subject ID",
            "Outcome")]
    if quick:
        return out
    from bench.clinic_exports import ed_export, export, hiv_export
    from sparge.data.synthetic import make_singheart_like

    out.insert(0, ("singheart_synthetic (bundled sample)",
                   SAMPLES / "singheart_synthetic.csv", "Subject ID", "Outcome"))
    for name, make in (("neonatal unit export", export), ("ED export", ed_export),
                       ("HIV clinic export", hiv_export)):
        df, _ = make(2000, 0)
        path = work / f"{name.split()[0]}.csv"
        df.to_csv(path, index=False)
        out.append((name, path, None, None))
    df, _ = make_singheart_like(5000, random_state=0)
    path = work / "singheart_5000.csv"
    df.to_csv(path, index=False)
    out.append(("SingHEART-style, 5,000 patients", path, "Subject ID", "Outcome"))
    return out


def time_one(path: Path, id_column: str | None, label: str | None, repeats: int) -> dict:
    from sparge import read_table
    from sparge.services.workflow import default_missing_threshold, encode_cohort

    read_s, encode_s = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        df = read_table(path)
        t1 = time.perf_counter()
        cohort = encode_cohort(df, id_column=id_column, label_column=label,
                               max_patient_missing=default_missing_threshold(df.shape[1])
                               / 100)
        t2 = time.perf_counter()
        read_s.append(t1 - t0)
        encode_s.append(t2 - t1)
    return {"patients": len(df), "columns": df.shape[1], "features": len(cohort.features),
            "read (s)": statistics.median(read_s), "encode (s)": statistics.median(encode_s)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="the small sample, once")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        found = tables(Path(tmp), args.quick)
        if not args.quick:  # a warm-up: the imports a running server has done
            time_one(found[-1][1], found[-1][2], found[-1][3], 1)
        for name, path, id_column, label in found:
            rows.append({"table": name, **time_one(path, id_column, label, repeats)})
            print(f"{name}: read {rows[-1]['read (s)']:.2f} s, encode "
                  f"{rows[-1]['encode (s)']:.2f} s", flush=True)
    text = (f"# Reading and encoding an upload ({time.strftime('%Y-%m-%d')}, 2 cores)\n\n"
            "Median of "
            f"{repeats} run(s) after a warm-up; `read_table` then `encode_cohort` with the "
            "Data page's untouched form.\n\n" + to_markdown(pd.DataFrame(rows)) + "\n")
    publish(text, "encode_speed.md", args.quick)


if __name__ == "__main__":
    main()
