"""Non-linear features of the completed data inside the representation (DEFAULTS.md round 13).

The issue's second direction: the trace-ratio projection is linear in the representation
``[A, Phi]`` (completion scores, sparse codes). Here the representation becomes
``[A, N(A), Phi]``: ``N`` is a Nyström approximation (scikit-learn's ``Nystroem``) of an
RBF kernel on the completion scores, fitted on the first training patients the model
represents (the refinement's fitting part), its width the median squared distance between
them, and the block scaled to the total variance of ``A``. Everything else is the model's
(graphs, refinement, forest part). Inner validation on training splits only, paired with
the default on the same inner split (``bench.inner.metric_parts``), on the sixteen tuning
cohorts (6 outer splits for the development cohorts, capped at 2,500 patients; 3 for the
broad ones, capped at 3,000).

With ``--graphs default`` the block is kept out of the graphs: the MFA graphs are built
in the default representation, as the model builds them, and only the trace-ratio
projection sees the kernel block. That is the kernel trace ratio (KMFA) in a Nyström
approximation of the kernel's feature space (DEFAULTS.md round 22): the projection may
bend, the neighbourhoods it must keep are the default's.

    python -m bench.nonlinear_features OUT.csv [--components 64] [--graphs default]
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from sklearn.kernel_approximation import Nystroem

from bench.inner import metric_parts as parts
from bench.inner import paired_row, tuning_splits, write_paired
from sparge.estimator import steps


class NystromBlock:
    """``Pipeline.features`` with a Nyström block of ``A`` before the codes."""

    def __init__(self, n_components: int, block_in_graphs: bool = True):
        self.n_components = n_components
        self.block_in_graphs = block_in_graphs
        self.original = steps.Pipeline.features
        self.original_graphs = steps.Pipeline.graph_weights
        self.map: Nystroem | None = None
        self.scale = 1.0
        self.width = 0

    def reset(self) -> None:
        self.map = None

    def __call__(self, pipe, A: np.ndarray, Phi: np.ndarray) -> np.ndarray:
        if self.map is None:  # the first call of a fit: its training patients
            rng = np.random.default_rng(0)
            sample = A[rng.choice(len(A), min(len(A), 1000), replace=False)]
            d2 = np.sum((sample[:, None, :] - sample[None, :, :]) ** 2, axis=2)
            med = float(np.median(d2[np.triu_indices(len(sample), 1)]))
            self.map = Nystroem(kernel="rbf", gamma=1.0 / max(med, 1e-12),
                                n_components=min(self.n_components, len(A)),
                                random_state=0).fit(A)
            N = self.map.transform(A)
            self.scale = np.sqrt(A.var(axis=0).sum() / max(N.var(axis=0).sum(), 1e-12))
        N = self.map.transform(A) * self.scale
        base = self.original(pipe, A, Phi)
        self.width = N.shape[1]
        if not self.block_in_graphs:  # first, where graph_weights drops it
            return np.hstack([N, base])
        # codes last (the refinement's gradient reads them there)
        return np.hstack([base[:, :-Phi.shape[1]], N, Phi]) if base.shape[1] > Phi.shape[1] \
            else np.hstack([N, Phi])

    def graph_weights(self, pipe, F: np.ndarray, y_idx, seed: int):
        """The default's graphs: built without the block (``block_in_graphs=False``)."""
        return self.original_graphs(pipe, F[:, self.width:], y_idx, seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out")
    ap.add_argument("--components", type=int, default=64)
    ap.add_argument("--cohorts", nargs="*", default=None)
    ap.add_argument("--graphs", choices=("representation", "default"),
                    default="representation")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    block = NystromBlock(args.components, block_in_graphs=args.graphs == "representation")
    rows = []
    for cohort, s, X, y, itr, iva in tuning_splits(cohorts=args.cohorts):
        base = parts(X, y, itr, iva)
        # a function (bound as a method), not the callable object itself
        steps.Pipeline.features = lambda pipe, A, Phi: block(pipe, A, Phi)
        if not block.block_in_graphs:
            steps.Pipeline.graph_weights = \
                lambda pipe, F, y_idx, seed: block.graph_weights(pipe, F, y_idx, seed)
        block.reset()
        try:
            nl = parts(X, y, itr, iva)
        finally:
            steps.Pipeline.features = block.original
            steps.Pipeline.graph_weights = block.original_graphs
        rows.append(paired_row(cohort, s, base, nl, "nys"))
    write_paired(rows, args.out, "nys", ("emb", "combined"))

if __name__ == "__main__":
    main()
