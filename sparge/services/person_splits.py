"""Train/test splits that hold a person's rows out together (two eyes, two admissions of
one patient): the Model page's held-out check and the Classifiers page both split so."""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit


def grouped_splits(y: np.ndarray, groups=None, n_splits: int = 3, test_size: float = 0.3,
                   random_state: int = 0):
    """Stratified train/test splits (indices) that hold each person's rows out together.

    Without ``groups``, or when no person has two rows, these are scikit-learn's
    :class:`~sklearn.model_selection.StratifiedShuffleSplit` of the rows. Otherwise the
    people are split, stratified by their first row's outcome; when an outcome has fewer
    than 2 people the rows are split as without groups.

    Examples
    --------
    >>> y = np.array(list("aabbaabbab" * 3))
    >>> g = np.repeat(np.arange(15), 2)  # two rows a person
    >>> all(set(g[tr]).isdisjoint(g[te]) for tr, te in grouped_splits(y, g, 3))
    True
    """
    y = np.asarray(y)
    splitter = StratifiedShuffleSplit(n_splits=n_splits, test_size=test_size,
                                      random_state=random_state)
    if groups is not None:
        keys, first, inverse = np.unique(np.asarray(groups).astype(str), return_index=True,
                                         return_inverse=True)
        if keys.size < len(y) and np.unique(y[first], return_counts=True)[1].min() >= 2:
            for _, held in splitter.split(np.zeros((keys.size, 1)), y[first]):
                test = np.isin(inverse, held)
                yield np.flatnonzero(~test), np.flatnonzero(test)
            return
    yield from splitter.split(np.zeros((len(y), 1)), y)


__all__ = ["grouped_splits"]
