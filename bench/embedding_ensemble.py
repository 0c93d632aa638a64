"""An ensemble of SparGE fits: does averaging the look-alike distances of several seeds
help? (issue 12's "an ensemble of embeddings"; DEFAULTS.md round 15).

Each fit's ``random_state`` changes the K-SVD start, the patients held out for the early
stop and the forest part's trees. On every inner split (training splits only) SparGE is
fitted with seeds ``0 .. B-1``; the variant's squared look-alike distance is the mean of
the fits' squared distances (embedding and forest part: an ensemble of the whole metric),
paired with seed 0 alone on the same inner split. ``emb_only`` averages the embeddings'
distances but keeps seed 0's forest part, to tell an embedding gain from a larger forest.
Sixteen tuning cohorts: 6 outer splits for the development cohorts (capped at 2,500
patients), 3 for the broad ones (3,000); ``--max-rows 200`` cuts every cohort to 200
patients with 6 outer splits.

    python -m bench.embedding_ensemble OUT.csv [--fits 3] [--max-rows 200] [--cohorts ...]
"""

from __future__ import annotations

import numpy as np

from bench.inner import inner_score, paired_row, tuning_args, tuning_splits, write_paired
from sparge import SparGE
from sparge.method.proximity import shared_leaf_share
from sparge.method.similarity import ensemble_sqdist


def fit_parts(X, y_text, itr, iva, seed: int) -> tuple[np.ndarray, np.ndarray | None]:
    """One fit's squared embedding distances and forest part (scaled ``1 - p``) of the
    inner validation patients to the inner training patients."""
    m = SparGE(random_state=seed).fit(X[itr], y_text[itr])
    Y_q, L_q = m.lookalike_parts(X[iva])
    d2 = ensemble_sqdist(Y_q, m.embedding_)
    if L_q is None:
        return d2, None
    p = shared_leaf_share(L_q, m.forest_leaves_, m.forest_.n_nodes,
                          trees_ref=getattr(m, "forest_counted_", None))
    return d2, m.forest_scale_ * (1 - p)


def scores(X, y_text, itr, iva, fits: int) -> tuple[dict, dict, float]:
    """Seed 0 alone, the mean over ``fits`` seeds, and the embeddings' mean with seed 0's
    forest part (inner scores of the embedding, the forest part and the combination)."""
    classes = np.unique(y_text[itr])
    y_tr, y_q = np.searchsorted(classes, y_text[itr]), np.searchsorted(classes, y_text[iva])
    parts = [fit_parts(X, y_text, itr, iva, seed) for seed in range(fits)]
    emb = [d2 for d2, _ in parts]
    forest = [f if f is not None else np.zeros_like(d2) for d2, f in parts]

    def rec(e, f):
        return {"emb": inner_score(e, y_tr, y_q), "forest": inner_score(f, y_tr, y_q),
                "combined": inner_score(e + f, y_tr, y_q)}

    mean_emb, mean_forest = np.mean(emb, axis=0), np.mean(forest, axis=0)
    return (rec(emb[0], forest[0]), rec(mean_emb, mean_forest),
            inner_score(mean_emb + forest[0], y_tr, y_q))


def main() -> None:
    args = tuning_args(__doc__, lambda ap: ap.add_argument("--fits", type=int, default=3))
    rows = []
    for cohort, s, X, y, itr, iva in tuning_splits(args.max_rows, args.cohorts):
        base, ens, emb_only = scores(X, y, itr, iva, args.fits)
        rows.append(paired_row(cohort, s, base, ens, "v", v_emb_only=emb_only))
    write_paired(rows, args.out, "v", ("emb", "forest", "combined"))


if __name__ == "__main__":
    main()
