"""Where K-SVD starts: signals drawn at random (the default) or principal-direction groups
(Boley's PDDP), a start that depends on the training patients alone (DEFAULTS.md round 25).

Round 24 found that a patient's look-alikes change with the fit's seed, and that the
K-SVD start is the main source. PDDP splits each class's signals again and again along
the principal direction of the group with the largest scatter, at its mean, until there
are as many groups as atoms; every atom starts as its group's normalised mean. Only the
dictionary's start changes. On every inner split (training splits only) the default,
PDDP and the null (the default's random start from seed + 1: the change that any other
start makes) are fitted and scored on the same inner validation patients.

    python -m bench.dictionary_start OUT.csv [--max-rows 200] [--cohorts ...]
"""

from __future__ import annotations

import numpy as np

from bench.inner import metric_parts, paired_row, tuning_args, tuning_splits, write_paired
from sparge import SparGE
from sparge.method.dictionary import classwise_ksvd, ksvd


def principal_direction_atoms(Z: np.ndarray, n_atoms: int) -> np.ndarray:
    """Atoms started from Boley's principal-direction divisive partitioning of the rows
    of ``Z``: the group with the largest scatter is split at its mean along its first
    principal direction until there are ``n_atoms`` groups (or no group can be split);
    atom ``j`` is group ``j``'s mean (a signal of the group where the mean is ~0; signals
    repeated when the groups run out). Returns ``(m, n_atoms)``, not yet normalised."""
    Z = np.asarray(Z, dtype=float)
    n = Z.shape[0]

    def scatter(g: np.ndarray) -> float:
        return float(((Z[g] - Z[g].mean(axis=0)) ** 2).sum()) if g.size >= 2 else -1.0

    groups, spread = [np.arange(n)], [scatter(np.arange(n))]
    while len(groups) < n_atoms:
        j = int(np.argmax(spread))
        if spread[j] <= 0:
            break
        g = groups[j]
        centred = Z[g] - Z[g].mean(axis=0)
        side = centred @ np.linalg.svd(centred, full_matrices=False)[2][0] > 0
        if side.all() or not side.any():
            spread[j] = -1.0
            continue
        groups[j], spread[j] = g[~side], scatter(g[~side])
        groups.append(g[side])
        spread.append(scatter(g[side]))
    tiny = 1e-8 * (float(np.abs(Z).max()) + 1e-12)
    atoms = [Z[g].mean(axis=0) if np.linalg.norm(Z[g].mean(axis=0)) > tiny else Z[g[0]]
             for g in groups]
    atoms += [Z[i % n] for i in range(len(atoms), n_atoms)]
    return np.asarray(atoms).T


class PrincipalStartSparGE(SparGE):
    """SparGE whose class-wise K-SVD starts from principal-direction groups."""

    def _fit_dictionary(self, A: np.ndarray, y_idx: np.ndarray | None, seed: int
                        ) -> np.ndarray:
        import sparge.method.dictionary as dictionary

        def started(Z, n_atoms, n_nonzero=3, n_iter=10, random_state=0, init=None):
            if init is None:
                init = principal_direction_atoms(Z, n_atoms)
            return ksvd(Z, n_atoms, n_nonzero, n_iter, random_state, init)

        dictionary.ksvd = started
        try:
            return super()._fit_dictionary(A, y_idx, seed)
        finally:
            dictionary.ksvd = ksvd


class OtherStartSparGE(SparGE):
    """The null: the default's random start, drawn from seed + 1."""

    def _fit_dictionary(self, A: np.ndarray, y_idx: np.ndarray | None, seed: int
                        ) -> np.ndarray:
        k = self.n_atoms or int(np.clip(A.shape[0] // 10, 16, 64))
        k = int(max(k, 2 * (1 if y_idx is None else self.classes_.size)))
        D, self.atom_class_ = classwise_ksvd(A, y_idx, k, self.n_nonzero, self.ksvd_iter,
                                             random_state=seed + 1)
        return D


def main() -> None:
    args = tuning_args(__doc__)
    rows = []
    for cohort, s, X, y, itr, iva in tuning_splits(args.max_rows, args.cohorts):
        base = metric_parts(X, y, itr, iva)
        pddp = metric_parts(X, y, itr, iva, model=PrincipalStartSparGE)
        null = metric_parts(X, y, itr, iva, model=OtherStartSparGE)
        rows.append(paired_row(cohort, s, base, pddp, "pddp",
                               **{f"null_{k}": null.get(k)
                                  for k in ("emb", "forest", "combined")}))
    write_paired(rows, args.out, "pddp", ("emb", "forest", "combined"))
    import pandas as pd

    df = pd.DataFrame(rows)
    for k in ("emb", "combined"):
        d = df[f"null_{k}"] - df[f"base_{k}"]
        print(f"null {k} paired: {d.mean():+.4f} ± {d.std() / np.sqrt(len(d)):.4f}")


if __name__ == "__main__":
    main()
