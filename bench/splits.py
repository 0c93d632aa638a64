"""The benchmarks' split protocol: repeated stratified 70/30 splits (the paper's).

Every script draws its splits here, with the same seeds, so its numbers reproduce and the
splits of one script are the splits of another (split ``s`` of ``quality`` is split ``s``
of ``robustness``, ``weight_vote`` and the outer splits of ``tune``).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit, train_test_split

TEST_SIZE = 0.3
"""Share of the patients held out as test patients."""


def stratified_splits(y: np.ndarray, n_splits: int, seed: int = 0
                      ) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """Repeated stratified 70/30 splits of the patients.

    Splits are drawn one after the other, so the first ``s`` splits do not depend on
    ``n_splits`` (a loop may stop early).

    Parameters
    ----------
    y : ndarray of shape (n,)
        Outcome of every patient (the strata).
    n_splits : int
        Number of splits.
    seed : int
        Seed of the splitter.

    Yields
    ------
    split : int
        Split number, from 0.
    train, test : ndarray of int
        Row indices of the training and test patients.
    """
    splitter = StratifiedShuffleSplit(n_splits=n_splits, test_size=TEST_SIZE,
                                      random_state=seed)
    for s, (train, test) in enumerate(splitter.split(np.zeros((len(y), 1)), y)):
        yield s, train, test


def inner_split(train: np.ndarray, y: np.ndarray, seed: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """Stratified 70/30 split of training rows (validation inside a training split).

    Parameters
    ----------
    train : ndarray of int
        Row indices of one training split.
    y : ndarray of shape (n,)
        Outcome of every patient (indexed by ``train``).
    seed : int
        Seed (the outer split number in ``tune``).

    Returns
    -------
    fit_rows, validation_rows : ndarray of int
        Row indices (into the full cohort) to fit on and to score on.
    """
    fit_rows, validation_rows = train_test_split(train, test_size=TEST_SIZE,
                                                 stratify=y[train], random_state=seed)
    return fit_rows, validation_rows
