"""Right-skewed lab values compared by their logarithm: ``SparGE(log_scale="auto")``
(the default since DEFAULTS.md round 28) against ``"wide"`` (round 26's rule, the default
before) on the tuning cohorts' inner splits (training splits only).

``"wide"`` takes the logarithm of a feature only when its 1st and 99th percentiles are
three orders of magnitude apart (a viral load). ``"auto"`` also takes it for a feature of
positive values spanning one order of magnitude or more whose distribution is
right-skewed (skewness at least 1) and more symmetric in logarithms
(:func:`sparge.method.preprocess.skewed_columns`): a CRP, a bilirubin, a creatinine, an
NT-proBNP. Only the cohorts with such a feature are fitted (on the others the two are the
same model). On every inner split ``"wide"`` (``base``), ``"auto"`` (``skewed``) and a
null (``"wide"`` with another seed: what any change of the fit moves the scores by) are
fitted and scored with the model's own look-alike metric (``combined``).

    python -m bench.log_skewed OUT.csv [--max-rows N] [--cohorts ...]
"""

from __future__ import annotations

from bench.cohorts import BROAD_COHORTS, COHORTS, encoded
from bench.inner import (
    metric_parts,
    null_fields,
    other_seed,
    paired_row,
    print_null,
    tuning_args,
    tuning_splits,
    write_paired,
)
from sparge.method.preprocess import skewed_columns, wide_range_columns


def touched(cohorts: list[str]) -> list[str]:
    """The cohorts whose encoded table has a feature that ``"skewed"`` adds."""
    out = []
    for c in cohorts:
        X = encoded(c)[0]
        if len(skewed_columns(X)) > len(wide_range_columns(X)):
            out.append(c)
    return out


def main() -> None:
    args = tuning_args(__doc__)
    cohorts = touched(args.cohorts or COHORTS + BROAD_COHORTS)
    print("cohorts with a skewed feature:", ", ".join(cohorts), flush=True)
    rows = []
    for cohort, s, X, y, itr, iva in tuning_splits(args.max_rows, cohorts):
        base = metric_parts(X, y, itr, iva, {"log_scale": "wide"})
        skewed = metric_parts(X, y, itr, iva, {"log_scale": "auto"})
        null = metric_parts(X, y, itr, iva, {"log_scale": "wide"}, model=other_seed)
        n_logged = int(len(skewed_columns(X[itr])))
        rows.append(paired_row(cohort, s, base, skewed, "skewed", logged=n_logged,
                               **null_fields(null)))
    write_paired(rows, args.out, "skewed", ("emb", "forest", "combined"))
    print_null(rows)


if __name__ == "__main__":
    main()
