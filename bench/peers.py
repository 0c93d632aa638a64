"""The representations SparGE is compared with, each fitted on the training split only.

Every factory returns ``fit_transform(X_train, y_train, X_test) -> (Z_train, Z_test)``.
Inputs carry NaN for gaps; peers get the raw features median-imputed and standardised
(what a data scientist would do: the library's ``raw_representation``, the one the app's
Classifiers page compares with), SparGE gets the gaps.
"""

from __future__ import annotations

import functools
import multiprocessing as mp
import warnings

import numpy as np
from sklearn.decomposition import PCA, MiniBatchDictionaryLearning
from sklearn.exceptions import ConvergenceWarning
from sklearn.neighbors import NeighborhoodComponentsAnalysis

from sparge import SparGE
from sparge.method.lowrank import project_observed, soft_impute
from sparge.method.proximity import ForestProximity, leaf_codes
from sparge.services.compare import raw_representation


def _patch_metric_learn() -> None:
    """metric-learn 0.7.0 passes ``force_all_finite``, renamed ``ensure_all_finite`` in
    scikit-learn 1.6+; translate the keyword (benchmark-only shim)."""
    import metric_learn._util as util

    if getattr(util, "_sparge_patched", False):
        return

    def wrap(f):
        @functools.wraps(f)
        def g(*a, **k):
            if "force_all_finite" in k:
                k["ensure_all_finite"] = k.pop("force_all_finite")
            return f(*a, **k)
        return g

    util.check_X_y = wrap(util.check_X_y)
    util.check_array = wrap(util.check_array)
    util._sparge_patched = True


def raw_features(Xtr: np.ndarray, Xte: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Training and test patients in :func:`raw_representation` fitted on the training
    patients (median-imputed, standardised)."""
    pre = raw_representation().fit(Xtr)
    return pre.transform(Xtr), pre.transform(Xte)


def raw(Xtr, ytr, Xte, **_):
    """The raw features (median-imputed, standardised): the baseline."""
    return raw_features(Xtr, Xte)


def pca(Xtr, ytr, Xte, n_components=16, **_):
    """Principal components of the raw features."""
    A, B = raw_features(Xtr, Xte)
    p = PCA(min(n_components, A.shape[1]), random_state=0).fit(A)
    return p.transform(A), p.transform(B)


def soft_impute_raw(Xtr, ytr, Xte, **_):
    """Raw features with gaps filled by our soft-impute instead of medians."""
    mean, std = np.nanmean(Xtr, axis=0), np.nanstd(Xtr, axis=0)
    mean, std = np.nan_to_num(mean), np.where(std > 0, std, 1.0)
    Str, Ste = (Xtr - mean) / std, (Xte - mean) / std
    lam = 0.05 * np.linalg.norm(np.nan_to_num(Str), 2)
    res = soft_impute(Str, lam, max_rank=50)
    fill = lambda S: np.where(np.isnan(S), project_observed(S, res.components)  # noqa: E731
                              @ res.components, S)
    return fill(Str), fill(Ste)


def nca(Xtr, ytr, Xte, n_components=16, max_iter=50, **_):
    """Neighbourhood components analysis (scikit-learn) on the raw features."""
    A, B = raw_features(Xtr, Xte)
    m = NeighborhoodComponentsAnalysis(n_components=min(n_components, A.shape[1]),
                                       max_iter=max_iter, random_state=0).fit(A, ytr)
    return m.transform(A), m.transform(B)


def _metric_learn(name: str, Xtr, ytr, Xte, **params):
    """A metric-learn transformer fitted on the raw training features (warnings muted)."""
    _patch_metric_learn()
    import metric_learn

    A, B = raw_features(Xtr, Xte)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = getattr(metric_learn, name)(**params).fit(A, ytr)
    return m.transform(A), m.transform(B)


def lfda(Xtr, ytr, Xte, n_components=16, **_):
    """Local Fisher discriminant analysis (metric-learn)."""
    return _metric_learn("LFDA", Xtr, ytr, Xte, k=7,
                         n_components=min(n_components, Xtr.shape[1]))


def lmnn(Xtr, ytr, Xte, n_components=16, **_):
    """Large-margin nearest neighbours (metric-learn)."""
    return _metric_learn("LMNN", Xtr, ytr, Xte, n_neighbors=3, max_iter=100,
                         random_state=0, n_components=min(n_components, Xtr.shape[1]))


def umap_supervised(Xtr, ytr, Xte, n_components=16, **_):
    """Supervised UMAP of the raw features."""
    import umap

    A, B = raw_features(Xtr, Xte)
    _, yi = np.unique(ytr, return_inverse=True)
    m = umap.UMAP(n_components=n_components, n_neighbors=15, random_state=0,
                  n_jobs=1).fit(A, yi)
    return m.embedding_, m.transform(B)


def dict_codes(Xtr, ytr, Xte, n_components=32, **_):
    """Sparse codes of a dictionary learned on the raw features (scikit-learn)."""
    A, B = raw_features(Xtr, Xte)
    # fit_algorithm="cd": the same lasso subproblem as the default "lars", ~20x faster;
    # its per-batch convergence warnings would bury the tables.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        d = MiniBatchDictionaryLearning(n_components=n_components, alpha=0.5, max_iter=10,
                                        batch_size=256, fit_algorithm="cd",
                                        random_state=0).fit(A)
    return d.transform(A), d.transform(B)


def forest_proximity(Xtr, ytr, Xte, **_):
    """Random-forest proximity (Breiman), the library's :class:`ForestProximity`: 300 trees,
    ``class_weight="balanced_subsample"``, gaps left to the trees, ``min_samples_leaf`` from
    {1, 5, 20} chosen on an inner 30 % of the training split; leaf codes whose Euclidean
    distance is sqrt(1 - proximity)."""
    f = ForestProximity(random_state=0, n_jobs=2).fit(Xtr, ytr)
    return f.codes_, f.transform(Xte)


def forest_proximity_balanced(Xtr, ytr, Xte, **_):
    """Forest proximity grown as SparGE's forest part grows its trees since round 14
    (``class_weight="balanced"``: the outcomes weighed once, from all training patients);
    otherwise :func:`forest_proximity`. The strongest forest peer we know of."""
    f = ForestProximity(random_state=0, n_jobs=2, class_weight="balanced").fit(Xtr, ytr)
    return f.codes_, f.transform(Xte)


def boosting_proximity(Xtr, ytr, Xte, n_estimators=200, max_depth=3, **_):
    """Leaf proximity of gradient boosting: every boosting iteration's tree counts as one
    tree of a forest (200 depth-3 iterations; raw features median-imputed)."""
    from sklearn.ensemble import GradientBoostingClassifier

    A, B = raw_features(Xtr, Xte)
    gb = GradientBoostingClassifier(n_estimators=n_estimators, max_depth=max_depth,
                                    random_state=0).fit(A, ytr)
    widths = np.asarray([t.tree_.node_count for t in gb.estimators_.ravel()])
    return leaf_codes(gb.apply(A).astype(int), widths), leaf_codes(gb.apply(B).astype(int),
                                                                   widths)


def sparge_peer(Xtr, ytr, Xte, params=None, **_):
    """SparGE's look-alike space (its embedding, next to the forest part when it has one)."""
    m = SparGE(random_state=0, **(params or {})).fit(Xtr, ytr)
    return m.lookalike_space(), m.lookalike_space(Xte)


PEERS = {"raw": raw, "PCA": pca, "NCA": nca, "LFDA": lfda, "LMNN": lmnn,
         "UMAP (supervised)": umap_supervised, "dictionary codes": dict_codes,
         "forest proximity": forest_proximity,
         "forest proximity (balanced)": forest_proximity_balanced,
         "boosting proximity": boosting_proximity,
         "SparGE": sparge_peer}


def _child(fn, args, kwargs, q):
    try:
        q.put(("ok", fn(*args, **kwargs)))
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        q.put(("error", f"{type(exc).__name__}: {exc}"))


def run_with_timeout(fn, args, kwargs, timeout: float):
    """Run ``fn`` in a forked process; ``("timeout", None)`` when it does not finish."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(fn, args, kwargs, q))
    p.start()
    try:
        status, out = q.get(timeout=timeout)
    except Exception:  # noqa: BLE001 - queue.Empty
        p.kill()
        p.join()
        return "timeout", None
    p.join()
    return status, out
