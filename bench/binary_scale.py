"""Yes/no features on one scale: a rare binary's two answers standardised apart by as much
as a balanced one's, against today's standard deviation (training splits only).

Standardising divides a feature by its standard deviation. For a yes/no feature with
share ``p`` of yes that puts its two answers ``1 / sqrt(p (1 - p))`` apart: 2 standard
units for a balanced one, 3.5 for 9 % (walk-through 75's chronic kidney disease, which
drew every look-alike of a patient with it from the others with it, though it had no part
in the outcome), 10 for 1 %. The variant (``balanced``) divides every feature of exactly
two values by half the distance between them, so its two answers are 2 units apart
whatever ``p``, as a balanced yes/no is today; other features are unchanged.

On every inner split of the tuning cohorts the default (``base``), the variant and a null
(the default with another seed: what any change of the fit moves the scores by) are
fitted and scored with the model's own look-alike metric (``combined``), as
``bench.log_skewed`` does. Only cohorts with a yes/no feature are fitted.

    python -m bench.binary_scale OUT.csv [--max-rows N] [--cohorts ...]
"""

from __future__ import annotations

import contextlib

import numpy as np

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
from sparge import SparGE
from sparge.estimator import completion
from sparge.method.preprocess import fit_standardizer


def binary_columns(X: np.ndarray) -> np.ndarray:
    """The columns of exactly two observed values."""
    return np.asarray([j for j in range(X.shape[1])
                       if len(np.unique(X[np.isfinite(X[:, j]), j])) == 2], dtype=int)


def balanced_standardizer(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fit_standardizer`, with every two-valued column scaled by half the distance
    between its values (its two answers 2 units apart)."""
    mean, scale = fit_standardizer(X)
    for j in binary_columns(np.asarray(X, dtype=float)):
        lo, hi = np.unique(X[np.isfinite(X[:, j]), j])
        scale[j] = (hi - lo) / 2
    return mean, scale


@contextlib.contextmanager
def balanced_binaries():
    """The completion's standardiser replaced by :func:`balanced_standardizer`."""
    original = completion.fit_standardizer
    completion.fit_standardizer = balanced_standardizer
    try:
        yield
    finally:
        completion.fit_standardizer = original


class BalancedBinaries(SparGE):
    """SparGE fitted with :func:`balanced_standardizer` (the scale is stored in
    ``scale_``, so new patients are read the same way)."""

    def fit(self, X, y=None, **kw):  # noqa: D102
        with balanced_binaries():
            return super().fit(X, y, **kw)


def main() -> None:
    args = tuning_args(__doc__)
    cohorts = [c for c in (args.cohorts or COHORTS + BROAD_COHORTS)
               if len(binary_columns(encoded(c)[0]))]
    print("cohorts with a yes/no feature:", ", ".join(cohorts), flush=True)
    rows = []
    for cohort, s, X, y, itr, iva in tuning_splits(args.max_rows, cohorts):
        base = metric_parts(X, y, itr, iva)
        variant = metric_parts(X, y, itr, iva, model=BalancedBinaries)
        null = metric_parts(X, y, itr, iva, model=other_seed)
        Xt = X[itr]
        cols = binary_columns(Xt)
        shares = [np.nanmean(Xt[:, j] == np.nanmax(Xt[:, j])) for j in cols]
        rows.append(paired_row(cohort, s, base, variant, "balanced", binaries=len(cols),
                               rare=int(sum(min(p, 1 - p) < 0.2 for p in shares)),
                               **null_fields(null)))
    write_paired(rows, args.out, "balanced", ("emb", "forest", "combined"))
    print_null(rows)


if __name__ == "__main__":
    main()
