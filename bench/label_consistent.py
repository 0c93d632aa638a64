"""Label-consistent K-SVD (LC-KSVD2, Jiang, Lin & Davis 2013): does a dictionary learned
with its codes' class consistency give better look-alikes? (issue 12's "discriminative
dictionaries"; DEFAULTS.md round 21).

SparGE's dictionary is already class-wise: one K-SVD per outcome, concatenated. LC-KSVD2
then runs K-SVD on the signals stacked with two label terms (codes should use the atoms of
their own class; codes should predict the class linearly), from that start. Only the
dictionary's start changes: the refinement, the codes (from the dictionary alone, for
training and new patients alike), the embedding and the forest part are as in the default.
On every inner split (training splits only), the default and each ``(alpha, beta)`` are
fitted with the same seed and scored on the same inner validation patients. ``0,0`` is
the null: the default's class-wise K-SVD from another random start (seed + 1), to tell a
gain of the method from the change that any other dictionary makes.

    python -m bench.label_consistent OUT.csv [--weights 1,1 4,2] [--max-rows 200] [--cohorts ...]
"""

from __future__ import annotations

import numpy as np

from bench.inner import metric_parts, paired_row, tuning_args, tuning_splits, write_paired
from sparge import SparGE
from sparge.method.dictionary import classwise_ksvd, ksvd, normalize_atoms, omp_codes


def label_consistent_ksvd(
    Z: np.ndarray,
    y_idx: np.ndarray,
    n_atoms: int,
    alpha: float = 1.0,
    beta: float = 1.0,
    n_nonzero: int = 3,
    n_iter: int = 10,
    random_state: int | None = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Label-consistent K-SVD (LC-KSVD2; Jiang, Lin & Davis, 2013).

    K-SVD on the signals stacked with two label terms, ``[Z, sqrt(alpha) s Q,
    sqrt(beta) s H]``: ``Q`` asks every signal to use the atoms of its own class (row ``i``
    spreads unit norm over the atoms learned from class ``y_i``) and ``H`` is the one-hot
    class. The dictionary is stacked with the linear maps from codes to both, started from
    :func:`classwise_ksvd` and least-squares maps, as the paper does. ``s`` is the signals'
    root mean square norm, so ``alpha`` and ``beta`` weigh the label terms against the
    reconstruction whatever the scale of ``Z``. The dictionary returned is the signal
    part, its columns brought to unit norm: codes are then found from it alone, for
    training and new patients alike.

    Returns
    -------
    D : ndarray of shape (m, n_atoms)
    atom_class : ndarray of shape (n_atoms,)
        The class each atom was started from.
    """
    Z = np.asarray(Z, dtype=float)
    y_idx = np.asarray(y_idx, dtype=int)
    D0, owner = classwise_ksvd(Z, y_idx, n_atoms, n_nonzero, n_iter, random_state)
    n_classes = int(y_idx.max()) + 1
    Q = (owner[None, :] == y_idx[:, None]).astype(float)
    Q /= np.maximum(np.linalg.norm(Q, axis=1, keepdims=True), 1e-12)
    H = np.eye(n_classes)[y_idx]
    Phi = omp_codes(Z, D0, n_nonzero)
    gram = Phi.T @ Phi + 1e-6 * np.eye(Phi.shape[1])
    maps = np.linalg.solve(gram, Phi.T @ np.hstack([Q, H]))  # (k, k + C)
    s = float(np.sqrt(np.mean(np.einsum("ij,ij->i", Z, Z)))) or 1.0
    wq, wh = np.sqrt(alpha) * s, np.sqrt(beta) * s
    k = D0.shape[1]
    Z_aug = np.hstack([Z, wq * Q, wh * H])
    D_aug = np.vstack([D0, wq * maps[:, :k].T, wh * maps[:, k:].T])
    D_aug, _ = ksvd(Z_aug, k, n_nonzero, n_iter, random_state, init=D_aug)
    return normalize_atoms(D_aug[: Z.shape[1]]), owner


class LabelConsistentSparGE(SparGE):
    """SparGE whose dictionary starts from LC-KSVD2 (``lc_alpha``, ``lc_beta`` set after
    construction, so ``get_params`` stays the estimator's own)."""

    lc_alpha: float = 1.0
    lc_beta: float = 1.0

    def _fit_dictionary(self, A: np.ndarray, y_idx: np.ndarray | None, seed: int
                        ) -> np.ndarray:
        if y_idx is None:
            return super()._fit_dictionary(A, y_idx, seed)
        k = self.n_atoms or int(np.clip(A.shape[0] // 10, 16, 64))
        k = int(max(k, 2 * self.classes_.size))
        if self.lc_alpha == 0 and self.lc_beta == 0:  # the null: another start, same method
            D, self.atom_class_ = classwise_ksvd(A, y_idx, k, self.n_nonzero,
                                                 self.ksvd_iter, random_state=seed + 1)
            return D
        D, self.atom_class_ = label_consistent_ksvd(
            A, y_idx, k, self.lc_alpha, self.lc_beta, self.n_nonzero, self.ksvd_iter,
            random_state=seed)
        return D


def main() -> None:
    args = tuning_args(__doc__, lambda ap: ap.add_argument(
        "--weights", nargs="*", default=["1,1", "4,2"], help="alpha,beta pairs"))
    weights = [tuple(float(v) for v in w.split(",")) for w in args.weights]
    rows = []
    for cohort, s, X, y, itr, iva in tuning_splits(args.max_rows, args.cohorts):
        base = metric_parts(X, y, itr, iva)
        extra = {}
        for a, b in weights:
            tag = f"lc{a:g}_{b:g}"

            def factory(random_state=0, a=a, b=b):
                m = LabelConsistentSparGE(random_state=random_state)
                m.lc_alpha, m.lc_beta = a, b
                return m

            parts = metric_parts(X, y, itr, iva, model=factory)
            extra.update({f"{tag}_{k}": v for k, v in parts.items()
                          if k in ("emb", "forest", "combined")})
        first = f"lc{weights[0][0]:g}_{weights[0][1]:g}"
        v0 = {k[len(first) + 1:]: v for k, v in extra.items() if k.startswith(first + "_")}
        rows.append(paired_row(cohort, s, base, v0, "v",
                               **{k: v for k, v in extra.items()
                                  if not k.startswith(first + "_")}))
    write_paired(rows, args.out, "v", ("emb", "forest", "combined"))


if __name__ == "__main__":
    main()
