"""The SparGE estimator: Algorithm 1 of the paper end to end, as corrected in DESIGN.md §4.

Pipeline for every patient (training or new): standardise -> low-rank completion on the
learned basis -> (unit-norm rows) -> elastic-net sparse codes over the dictionary ->
representation ``F`` (codes, optionally next to the completed data) -> ``Y = F U``.

All computation after the completion happens in the coordinates of the rank-r completion
basis: since the dictionary atoms lie in the span of the completed data, this is exactly the
same geometry as the full m-dimensional space, and much cheaper for wide tables.
``dictionary_`` is reported in feature space (m × k).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils.validation import check_array, check_is_fitted

from sparge.errors import DataError
from sparge.estimator.completion import fit_completion
from sparge.estimator.explain import explain_pair
from sparge.estimator.forest_part import ForestPart, fit_forest_part
from sparge.estimator.params import check_params
from sparge.estimator.refinement import RefinementResult, refine_dictionary
from sparge.estimator.state import FLOAT_ARRAYS, ModelState
from sparge.estimator.steps import Pipeline
from sparge.method.anchoring import anchor_levers, anchor_scale, given_sqdist
from sparge.method.dictionary import classwise_ksvd
from sparge.method.embedding import graph_trace_ratio
from sparge.method.lowrank import (
    column_bounds,
    completion_scores,
    fill_gaps,
    gap_fill_ridge,
    noise_variance,
    posterior_ridge,
    ppca_misfit,
    project_observed,
)
from sparge.method.neighbors import LookalikeIndex
from sparge.method.preprocess import (
    fit_standardizer,
    log_columns,
    skewed_columns,
    standardize,
    wide_range_columns,
)
from sparge.method.proximity import PackedForest, onehot_leaves, reference_leaves
from sparge.method.similarity import (
    ensemble_sqdist,
    precision_at_k,
    self_expressive_weights,
    similarity_from_distance,
)
from sparge.method.sparse_coding import gram_lipschitz

Callback = Callable[[str, dict], None]


def _forest_part_from_state(a: dict[str, np.ndarray], forest: dict | None,
                            n_features: int) -> ForestPart:
    """The forest part of a state, every node id and leaf checked before use."""
    if forest is None:
        return ForestPart()
    packed = PackedForest.from_arrays(a)
    internal = packed.left >= 0
    if np.any(packed.feature[internal] < 0) or np.any(packed.feature[internal] >= n_features):
        raise ValueError("the forest splits on features the model does not have")
    leaves = np.asarray(a["forest_leaves_"]).astype(np.int64)
    bounds = np.append(packed.offsets, packed.n_nodes)
    if leaves.ndim != 2 or leaves.shape[1] != packed.offsets.size or \
            np.any(np.diff(bounds) <= 0) or np.any(leaves < bounds[:-1][None, :]) or \
            np.any(leaves >= bounds[1:][None, :]) or np.any(packed.left[leaves] >= 0):
        raise ValueError("array 'forest_leaves_' does not point at leaves of its own trees")
    proximity = forest.get("proximity", "shared-leaf")  # older files: every tree
    counted = a.get("forest_counted_")
    if (counted is not None) != (proximity == "in-bag"):
        raise ValueError("in-bag proximity and the array 'forest_counted_' go together")
    if counted is not None:
        counted = np.asarray(counted)
        if counted.shape != leaves.shape or np.any((counted != 0) & (counted != 1)):
            raise ValueError(f"array 'forest_counted_' must hold 0 or 1 for each of the "
                             f"{leaves.shape} leaves")
        counted = counted.astype(bool)
    return ForestPart(forest=packed, leaves=leaves.astype(np.int32),
                      weight=float(forest["weight"]), scale=float(forest["scale"]),
                      selection=list(forest["selection"]), min_leaf=forest.get("min_leaf"),
                      counted=counted, proximity=proximity)


_QUIET_NAN = np.array(np.nan).view(np.uint64)


def _as_float_array(X, n_features: int | None = None) -> tuple[np.ndarray, list[str] | None]:
    """Validate a patient table as a float array (NaN allowed, no infinities)."""
    names = None
    if isinstance(X, pd.DataFrame):
        names = [str(c) for c in X.columns]
        bad = [c for c, dt in X.dtypes.items()  # dtypes: no per-column Series (slow)
               if not (pd.api.types.is_numeric_dtype(dt) or pd.api.types.is_bool_dtype(dt))]
        if bad:
            raise DataError(
                f"SparGE needs numbers; column(s) {[str(c) for c in bad[:5]]} hold text. "
                "Encode the table with sparge.Encoder first.")
        if X.shape[1] and X.shape[0]:  # one conversion; check_array's per-column dtype
            X = X.to_numpy(dtype=np.float64, na_value=np.nan)  # walk is slow on wide tables
    try:
        arr = check_array(X, dtype=np.float64, ensure_all_finite=False, accept_sparse=False,
                          ensure_min_samples=1)
    except ValueError as exc:  # TypeError (e.g. objects in cells) propagates unchanged
        raise DataError(f"{exc}") from exc
    gaps = np.isnan(arr)
    if gaps.any() and np.any(arr.view(np.uint64)[gaps] != _QUIET_NAN):
        # one NaN for every gap: other payloads (R's NA is a signalling NaN) raise
        # floating-point 'invalid' warnings in every later subtraction and cast
        arr = arr.copy()
        arr[gaps] = np.nan
    if np.isinf(arr).any():
        r, c = np.argwhere(np.isinf(arr))[0]
        raise DataError(f"Infinite value at row {r}, column {c}: use a finite number or "
                        "leave the cell empty (missing).")
    if n_features is not None and arr.shape[1] != n_features:
        raise DataError(f"X has {arr.shape[1]} features, but SparGE is expecting "
                        f"{n_features} features as input (the model was trained on "
                        f"{n_features}).")
    return arr, names


class SparGE(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Sparse coding + graph embedding patient similarity (SparGE).

    Parameters
    ----------
    n_atoms : int, optional
        Dictionary size ``k``. Default: ``clip(n_train // 10, 16, 64)``, at least two
        atoms per class.
    n_components : int
        Embedding dimension ``l`` (capped by the representation size). 10-20 works best in
        our benchmarks; 2 can lose look-alike quality where outcomes or subgroups need
        more directions (with two outcomes it may not).
    supervised : bool
        Use the outcome ``y`` (MFA graphs, class-wise K-SVD). ``False``: the unsupervised
        local / non-local graphs.
    representation : {"codes+completed", "codes"}
        What is embedded: the sparse codes alone (the paper) or the codes next to the
        completed patient vector.
    completion_lambda : float or "auto"
        Nuclear-norm weight as a fraction of the largest singular value, or "auto" to pick
        it by error on held-out observed entries.
    max_rank : int
        Cap on the completion rank during soft-impute.
    rank : int, "auto" or None
        Rank of the completion basis kept for the representation: None (default) keeps
        all that the nuclear norm left (up to ``max_rank``); "auto" keeps only the
        components above the Gavish-Donoho noise threshold (less discriminative in our
        benchmarks: bench/results/DEFAULTS.md); an int caps it.
    completion_ridge : float or "posterior"
        Ridge weight of the completion of every patient from its observed entries: a
        number shared by all components, or "posterior" for the probabilistic-PCA
        posterior mean (``noise variance / component variance`` per component, see
        :func:`sparge.method.lowrank.posterior_ridge`).
    completion_fill : {"posterior", "none"}
        How a patient's gaps are filled before that projection. "posterior" (default,
        round 16): with the probabilistic-PCA posterior reconstruction
        (:func:`sparge.method.lowrank.fill_gaps`), so the cohort's correlations predict
        them; "none": the shared-ridge projection alone, which puts every gap at the mean
        once the completion keeps all components (a narrow table). A patient without gaps
        is completed the same way by both. On sixteen cohorts' training splits, new
        patients with 50 % of their values hidden found better look-alikes (+0.015 +-
        0.003, 13 cohorts of 16; 70 %: +0.010 +- 0.003), patients with their own gaps
        alike (-0.002 +- 0.002).
    normalize_rows : bool
        Scale every completed patient vector to unit norm (the paper's normalisation).
    log_scale : {"auto", "wide", "none"}
        "auto" (default, round 28): a feature of positive values spanning at least three
        orders of magnitude (a viral load, a titre), or spanning one or more and
        right-skewed, more symmetric in logarithms (a CRP, a bilirubin, an NT-proBNP;
        :func:`sparge.method.preprocess.skewed_columns`), is standardised as its base-10
        logarithm, so that 50 and 7,673 copies/mL are far apart and a CRP of 5 is not
        next to one of 60 because both are far below 300; every value shown stays in its
        own units. "wide" (the default of round 26): only the features spanning three
        orders of magnitude (:func:`sparge.method.preprocess.wide_range_columns`). "none":
        every feature on its own scale (the paper's).
    r1, r2 : float
        Elastic-net weights of the sparse codes.
    n_nonzero : int
        OMP sparsity of the K-SVD initialisation.
    ksvd_iter : int
        K-SVD iterations.
    k1, k2 : int
        Same-class / other-class neighbours of the MFA graphs (unsupervised: ``k1`` is the
        local neighbourhood).
    graph_weight : {"heat", "binary"}
    neighbor_search : {"auto", "exact", "approximate"}
        kNN search of the graphs and of look-alike queries: exact, or approximate
        (NN-descent, :mod:`pynndescent`, recall@10 >= 0.95 measured in bench.scale).
        "auto": exact below :data:`sparge.method.neighbors.GRAPH_THRESHOLD` patients for
        the graphs and :data:`~sparge.method.neighbors.LOOKALIKE_THRESHOLD` for queries.
    anchor_weight : float or "auto"
        How much the look-alikes of a new patient with more gaps than a typical training
        patient must share the values given (:mod:`sparge.method.anchoring`): the
        distance adds ``c * e / (1 - e)`` times a partial distance on the given values,
        ``e`` the patient's missing share beyond the training patients' median one; a
        patient missing no more keeps the learned metric exactly. "auto" (default,
        round 16): ``c = 0.5`` for a model that learned from the outcome (on sixteen
        cohorts' training splits, with 70 % of a patient's values hidden, the look-alikes'
        gap on the given values fell from 0.61 to 0.30 SD and on the hidden ones from
        0.74 to 0.69, at -0.003 +- 0.003 in outcome score) and ``c = 2`` without one
        (0.88 to 0.29 SD, 0.83 to 0.70; +0.041 in outcome score). 0: off. It acts at
        query time (``set_params`` after ``fit`` needs no refit). Training patients' own
        look-alikes and :meth:`lookalike_space` are not anchored.
    class_balance : bool
        Weight graph edges so every outcome class counts the same.
    trace_ratio_reg : float
        Ridge on the within-class scatter, as a fraction of its mean eigenvalue.
    metric_weighting : {"ratio", "none"}
        "none": distance ``||U^T (f_i - f_j)||`` (the paper's ``P = U U^T``). "ratio":
        ``P = U W U^T`` with each direction weighted by ``1/sqrt`` of its own trace ratio
        (normalised to mean square 1), so the most discriminative directions count most.
    forest_weight : float or "auto"
        Supervised only. Weight ``g`` of random-forest proximity in the look-alike
        metric: ``d^2 = ||y_q - y_i||^2 + g^2 s^2 (1 - p_qi)``, the learned embedding next
        to the share ``p`` of trees in which two patients share a leaf (an ensemble of
        the two; the embedding, map and codes are unchanged; ``p`` is set by
        ``forest_proximity``). Default 1.5 (round 9:
        tied best with 2 on the training splits of sixteen cohorts, and it loses less
        where the embedding is the better part; 1 in rounds 6-8). "auto" moves ``g``
        from 1.5 to one of 0, 0.5, 1, 2, 4 only when the held-out training patients
        (out-of-bag proximities) are better with it by more than a standard error of the
        paired difference (round 8); 0 turns the forest off.
    forest_trees : int
        Trees of that class-balanced forest (outcomes weighed once on all the training
        patients, round 14). Default 100 (round 10: as good as 200 on
        the training splits of sixteen cohorts, 0.0004 apart, and half the forest's
        time).
    forest_min_leaf : int or "auto"
        Their smallest leaf. "auto" (default, round 8) tries 1, 5 and 20 (50 trees
        each) on 30 % of at most 2,000 training patients and keeps the best
        class-balanced precision@10 of the forest's look-alikes: fully grown trees (1,
        as in Breiman's forests) on most cohorts, larger leaves where an outcome is rare.
    forest_proximity : {"in-bag", "shared-leaf"}
        How the forest part measures ``p_qi``. "in-bag" (default, round 12): the share of
        the trees grown with training patient ``i`` (drawn into their bootstrap sample)
        in which ``q`` falls in ``i``'s leaf, the patients a forest's own vote for ``q``
        comes from; better look-alikes on 12 of 16 cohorts' training splits (+0.004,
        3 standard errors). "shared-leaf": Breiman's share of every tree. Above 20,000
        training patients the trees grow on capped samples and "in-bag" counts every
        tree (``forest_proximity_`` says which was used).
    forest_inputs : {"features+completion", "features"}
        What the trees split on. "features+completion" (default, round 9): the
        standardised biomarkers (gaps routed by the trees) and the low-rank completion's
        scores of the patient, unsupervised oblique directions (as in rotation forests)
        that no outcome was fitted to. "features": the biomarkers alone (rounds 6-8).
    max_iter : int
        Joint refinement iterations (0: no refinement).
    step_size : float
        Relative step on the dictionary: ``||step|| = step_size * ||D||``, halved by
        backtracking until the trace ratio decreases.
    early_stopping : bool
        Hold out ``validation_fraction`` of the training patients and keep the refinement
        iterate with the best held-out class-balanced precision@10 (unsupervised: lowest
        held-out trace ratio).
    validation_fraction : float
    n_iter_no_change : int
        Stop after this many iterations without a better held-out score.
    max_fit_samples : int or None
        Learn from at most this many patients: a larger cohort is learned from a
        stratified random sample of this size (recorded as ``fit_sample_rows_``), and
        every other patient is embedded with :meth:`transform` like any new patient.
        10,000 keeps a 100,000-patient fit (and embedding everyone) under a minute on 2
        cores (bench.scale_train); ``None``: always all patients.
    random_state : int, numpy RandomState or Generator, or None
        An integer gives the same model on every fit. A ``RandomState`` or ``Generator``
        (scikit-learn's convention) gives one integer seed per fit, drawn from it; a
        saved model keeps that integer, so it loads as fitted.
    callback : callable, optional
        ``callback(stage, info)`` called at every stage and iteration (progress bars).
    verbose : int

    Attributes
    ----------
    mean_, scale_ : ndarray of shape (m,)
        Standardisation learned on the training patients (of the logarithm, for the
        features in ``log_columns_``).
    log_columns_ : ndarray of int
        The features standardised as their base-10 logarithm (``log_scale``).
    value_mean_, value_scale_ : ndarray of shape (m,)
        Mean and standard deviation of every feature in its own units (the precision
        values are shown at): ``mean_`` and ``scale_`` but for ``log_columns_``. The
        pages' SD cue ("+1.2 SD") uses ``mean_``, ``scale_`` and :meth:`log_floors`, the
        scale the model compares on.
    completion_components_ : ndarray of shape (r, m)
        Orthonormal right basis of the low-rank completion.
    completion_lambda_ : float
        Nuclear-norm weight used.
    completion_fill_ridge_ : ndarray of shape (r,) or None
        The ridge that fills gaps (``completion_fill="posterior"``); ``None``: no fill
        (also model files written before round 16, which keep their look-alikes).
    dictionary_ : ndarray of shape (m, k)
        Unit-norm atoms in feature space.
    codes_ : ndarray of shape (n_train, k)
        Sparse codes of the training patients.
    projection_ : ndarray of shape (d, l)
        ``U`` with orthonormal columns (``d = k`` for "codes", ``r + k`` otherwise).
    component_weights_ : ndarray of shape (l,)
        Weight of every embedding direction (all ones with ``metric_weighting="none"``).
    embedding_ : ndarray of shape (n_train, l)
        Training patients in the learned space, ``(F U) * component_weights_``.
    history_ : list of dict
        Per refinement iteration: objective ``J``, reconstruction error, sparsity, gradient
        norm, step, held-out score.
    classes_ : ndarray
        Outcome classes (supervised).
    y_ : ndarray
        Training outcomes (supervised), used to report look-alike outcomes.
    forest_weight_, forest_scale_ : float
        The forest part's weight ``g`` and the factor ``g^2 s^2`` of ``1 - p`` (0: none).
    forest_inputs_ : str or None
        What its trees split on (``None`` without a forest part; model files written
        before round 9: "features").
    forest_min_leaf_ : int or None
        Smallest leaf of its trees (chosen with ``forest_min_leaf="auto"``; ``None``
        without a forest part, or from a model file that did not record it).
    forest_selection_ : list of dict
        Held-out scores of the weights ``forest_weight="auto"`` tried.
    forest_proximity_ : str or None
        "in-bag" or "shared-leaf" (``None`` without a forest part; model files written
        before round 12: "shared-leaf").
    forest_counted_ : bool ndarray of shape (n_train, n_trees) or None
        Which trees count for which training patient as a look-alike (in-bag
        proximity: the trees grown with it); ``None``: every tree.
    typical_missing_ : float
        The training patients' median share of missing features (anchoring's ``f0``).
    anchor_scale_ : float
        Median learned squared look-alike distance over median squared given-value
        distance, between training patients (anchoring's unit).
    n_samples_seen_ : int
        Patients given to ``fit``.
    fit_sample_rows_ : ndarray of int or None
        Rows of ``X`` the model learned from when ``n_samples_seen_`` exceeded
        ``max_fit_samples`` (sorted); ``None`` when it learned from all of them. The
        training patients (``embedding_``, ``train_ids_``, ``y_``) are those rows. Not
        saved in model files (``n_samples_seen_`` is).
    n_features_in_ : int
    feature_names_in_ : ndarray of str (when fitted on a DataFrame)
    """

    def __init__(
        self,
        n_atoms: int | None = None,
        n_components: int = 16,
        supervised: bool = True,
        representation: str = "codes+completed",
        completion_lambda: float | str = "auto",
        max_rank: int = 50,
        rank: int | str | None = None,
        completion_ridge: float = 1.0,
        completion_fill: str = "posterior",
        normalize_rows: bool = True,
        log_scale: str = "auto",
        r1: float = 0.15,
        r2: float = 0.01,
        n_nonzero: int = 3,
        ksvd_iter: int = 8,
        k1: int = 20,
        k2: int = 20,
        graph_weight: str = "heat",
        neighbor_search: str = "auto",
        anchor_weight: float | str = "auto",
        class_balance: bool = True,
        trace_ratio_reg: float = 0.01,
        metric_weighting: str = "ratio",
        forest_weight: float | str = 1.5,
        forest_trees: int = 100,
        forest_min_leaf: int | str = "auto",
        forest_proximity: str = "in-bag",
        forest_inputs: str = "features+completion",
        max_iter: int = 8,
        step_size: float = 0.05,
        early_stopping: bool = True,
        validation_fraction: float = 0.2,
        n_iter_no_change: int = 3,
        max_fit_samples: int | None = 10_000,
        random_state: int | None = 0,
        callback: Callback | None = None,
        verbose: int = 0,
    ):
        self.n_atoms = n_atoms
        self.n_components = n_components
        self.supervised = supervised
        self.representation = representation
        self.completion_lambda = completion_lambda
        self.max_rank = max_rank
        self.rank = rank
        self.completion_ridge = completion_ridge
        self.completion_fill = completion_fill
        self.normalize_rows = normalize_rows
        self.log_scale = log_scale
        self.r1 = r1
        self.r2 = r2
        self.n_nonzero = n_nonzero
        self.ksvd_iter = ksvd_iter
        self.k1 = k1
        self.k2 = k2
        self.graph_weight = graph_weight
        self.neighbor_search = neighbor_search
        self.anchor_weight = anchor_weight
        self.class_balance = class_balance
        self.trace_ratio_reg = trace_ratio_reg
        self.metric_weighting = metric_weighting
        self.forest_weight = forest_weight
        self.forest_trees = forest_trees
        self.forest_min_leaf = forest_min_leaf
        self.forest_proximity = forest_proximity
        self.forest_inputs = forest_inputs
        self.max_iter = max_iter
        self.step_size = step_size
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.max_fit_samples = max_fit_samples
        self.random_state = random_state
        self.callback = callback
        self.verbose = verbose

    # ------------------------------------------------------------------ helpers
    def _notify(self, stage: str, **info: Any) -> None:
        if self.callback is not None:
            self.callback(stage, info)
        if self.verbose:
            print(f"[SparGE] {stage}: {info}")

    def _entropy(self) -> int | None:
        """What the random steps of this fit derive from: ``random_state`` itself when
        an integer or ``None``, else one integer drawn from the given generator (fixed
        for the whole fit, and the saved model's ``random_state``)."""
        drawn = getattr(self, "_drawn_state", None)
        if drawn is not None and drawn[0] is self.random_state:
            return drawn[1]
        return self.random_state

    def _draw_state(self) -> None:
        """Draw this fit's integer from a ``RandomState`` or ``Generator``."""
        rs = self.random_state
        if isinstance(rs, np.random.RandomState):
            self._drawn_state = (rs, int(rs.randint(0, 2**31 - 1)))
        elif isinstance(rs, np.random.Generator):
            self._drawn_state = (rs, int(rs.integers(2**31 - 1)))
        else:
            self._drawn_state = None

    def _seed(self) -> int:
        """The integer seed every random step of ``fit`` derives from ``random_state``."""
        return int(np.random.default_rng(self._entropy()).integers(2**31 - 1))

    @property
    def _n_features_out(self) -> int:
        """The embedding's dimensions (``get_feature_names_out`` names them ``sparge0``,
        ``sparge1``, …; ``set_output(transform="pandas")`` uses those names)."""
        return int(self.embedding_.shape[1])

    def _pipeline(self) -> Pipeline:
        """The representation steps with this estimator's settings."""
        return Pipeline.from_params(self.get_params())

    # ------------------------------------------------------------------ fit
    def fit(self, X, y=None, ids=None) -> SparGE:
        """Learn completion, dictionary, codes and embedding from training patients.

        Every parameter is checked before any work is done.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n, m)
            Numeric features, ``NaN`` for missing.
        y : array-like of shape (n,), optional
            Outcomes; required when ``supervised=True`` (unsupervised: kept only to
            report the outcomes of look-alikes).
        ids : array-like of shape (n,), optional
            Patient identifiers, kept as ``train_ids_`` (strings) to name look-alikes.

        Returns
        -------
        self
        """
        t0 = time.perf_counter()
        X, names = _as_float_array(X)
        self.validate_params(X.shape[0])
        self._draw_state()
        X, y, ids = self._fit_sample(X, y, ids)
        y_idx = self._set_targets(X, names, y, ids)
        rng = np.random.default_rng(self._entropy())
        seed = self._seed()
        rng.integers(2**31 - 1)  # keep the generator's stream as before (reproducibility)
        self.log_columns_ = (skewed_columns(X) if self.log_scale == "auto" else
                             wide_range_columns(X) if self.log_scale == "wide"
                             else np.zeros(0, dtype=np.int64))
        Xs, A = self._fit_completion(log_columns(X, self.log_columns_), seed, rng)
        self._set_value_stats(X)
        Dr = self._fit_dictionary(A, y_idx, seed)
        d = Dr.shape[1] if self.representation == "codes" else A.shape[1] + Dr.shape[1]
        l = int(min(self.n_components or 16, d))
        refined = refine_dictionary(
            A, y_idx, Dr, self._pipeline(), n_components=l, max_iter=self.max_iter,
            step_size=self.step_size, early_stopping=self.early_stopping,
            validation_fraction=self.validation_fraction,
            n_iter_no_change=self.n_iter_no_change, seed=seed, notify=self._notify)
        self.history_, self.n_iter_ = refined.history, refined.n_iter
        self.best_iteration_ = refined.best_iteration
        self._fit_embedding(A, y_idx, refined, seed)
        self.forest_inputs_ = self.forest_inputs
        self._set_forest(fit_forest_part(
            self._forest_features(Xs, A), y_idx, self.embedding_,
            forest_weight=self.forest_weight, n_trees=self.forest_trees,
            min_leaf=self.forest_min_leaf, seed=seed, heldout=refined.heldout_embedding,
            train_rows=refined.train_rows, heldout_rows=refined.heldout_rows,
            proximity=self.forest_proximity, notify=self._notify))
        self._finish_fit()
        self.fit_time_ = time.perf_counter() - t0
        self._notify("embedding", progress=1.0, seconds=self.fit_time_)
        return self

    def _fit_sample(self, X: np.ndarray, y, ids):
        """The patients to learn from: all of them, or a stratified sample of
        ``max_fit_samples`` (by outcome when every class has two patients or more)."""
        n = X.shape[0]
        self.n_samples_seen_, self.fit_sample_rows_ = n, None
        cap = self.max_fit_samples
        if cap is None or n <= cap:
            return X, y, ids
        strat = None
        if y is not None and self.supervised:
            labels = pd.Series(np.asarray(y)).astype(str).to_numpy()
            counts = np.unique(labels, return_counts=True)[1]
            strat = labels if counts.min() >= 2 and counts.size <= cap else None
        rows, _ = train_test_split(np.arange(n), train_size=int(cap), stratify=strat,
                                   random_state=self._seed())
        rows = np.sort(rows)
        self.fit_sample_rows_ = rows
        return (X[rows], None if y is None else np.asarray(y)[rows],
                None if ids is None else np.asarray(ids)[rows])

    def _set_targets(self, X: np.ndarray, names: list[str] | None, y, ids
                     ) -> np.ndarray | None:
        """Record the features, outcomes and IDs of the training patients; the outcome
        class index of every patient (supervised) or ``None``."""
        n, m = X.shape
        if names is not None:
            self.feature_names_in_ = np.asarray(names, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.n_features_in_ = m
        if ids is not None:
            ids = np.asarray([str(i) for i in np.asarray(ids).ravel()], dtype=object)
            if ids.shape[0] != n:
                raise DataError(f"ids must name every patient ({n}); got {ids.shape[0]}.")
            self.train_ids_ = ids
        elif hasattr(self, "train_ids_"):
            del self.train_ids_
        if not self.supervised:
            self.y_ = None if y is None else np.asarray(y)
            return None
        if y is None:
            raise ValueError("SparGE(supervised=True) needs the outcome y; pass y or "
                             "use supervised=False.")
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != n:
            raise DataError(f"y must hold one outcome per patient ({n}); got shape "
                            f"{y.shape}.")
        if pd.isna(pd.Series(y)).any():
            bad = int(np.flatnonzero(pd.isna(pd.Series(y)))[0])
            raise DataError(f"The outcome is missing for patient row {bad}; every "
                            "training patient needs an outcome.")
        if y.dtype.kind == "f" and len(np.unique(y)) > 0.5 * n and \
                np.any(y != np.round(y)):
            # a library review: a continuous y became 183 "classes" without a word
            raise DataError(f"The outcome looks continuous ({len(np.unique(y)):,} different "
                            "numbers): SparGE learns look-alikes for outcome classes. Group "
                            "it into classes first (pandas.cut), or fit with "
                            "supervised=False.")
        try:
            self.classes_, y_idx = np.unique(y, return_inverse=True)
        except TypeError:  # numbers beside text: np.unique cannot order them
            raise DataError("The outcome mixes numbers and text (e.g. 1 and 'a'); write "
                            "every outcome one way (as text: y.astype(str)).") from None
        if self.classes_.size < 2:
            raise DataError(f"The outcome has a single class ({self.classes_[0]!r}); "
                            "supervised training needs at least 2.")
        self.y_ = y
        return y_idx

    def _fit_completion(self, X: np.ndarray, seed: int, rng: np.random.Generator
                        ) -> tuple[np.ndarray, np.ndarray]:
        """Step 1: standardisation and low-rank completion; the standardised and the
        completed patients."""
        self._notify("completion", progress=0.0)
        c = fit_completion(X, completion_lambda=self.completion_lambda,
                           max_rank=self.max_rank, rank=self.rank,
                           completion_ridge=self.completion_ridge, seed=seed, rng=rng,
                           completion_fill=self.completion_fill)
        self.mean_, self.scale_ = c.mean, c.scale
        self.completion_lambda_, self.completion_path_ = c.lam, c.path
        self.filled_singular_values_ = c.filled_singular_values
        self.completion_singular_values_ = c.singular_values
        self.completion_components_, self.completion_ridge_ = c.components, c.ridge
        self.completion_fill_ridge_ = c.fill_ridge
        self.training_data_ = c.standardized.astype(np.float32)
        self._fill_bounds = column_bounds(self.training_data_)
        A = self._pipeline().complete(c.standardized, c.components, c.ridge, c.fill_ridge,
                                      self._fill_bounds)
        self._notify("completion", progress=1.0, rank=c.found_rank)
        return c.standardized, A

    def _fit_dictionary(self, A: np.ndarray, y_idx: np.ndarray | None, seed: int
                        ) -> np.ndarray:
        """Step 2: the K-SVD dictionary (class-wise when supervised)."""
        n_classes = 1 if y_idx is None else self.classes_.size
        k = self.n_atoms or int(np.clip(A.shape[0] // 10, 16, 64))
        k = int(max(k, 2 * n_classes))
        self._notify("dictionary", progress=0.0, n_atoms=k)
        Dr, self.atom_class_ = classwise_ksvd(A, y_idx, k, self.n_nonzero, self.ksvd_iter,
                                              random_state=seed)
        self._notify("dictionary", progress=1.0)
        return Dr

    def _fit_embedding(self, A: np.ndarray, y_idx: np.ndarray | None,
                       refined: RefinementResult, seed: int) -> None:
        """Final model on all training patients with the refinement's best dictionary."""
        pipe = self._pipeline()
        self._dictionary_r = refined.dictionary
        l = refined.projection.shape[1]
        self.codes_ = pipe.codes(A, self._dictionary_r)
        F = pipe.features(A, self.codes_)
        Lp, Ln = pipe.graphs(F, y_idx, seed)
        self.projection_ = pipe.projection(F, Lp, Ln, l, init=refined.projection)
        self.objective_ = float(graph_trace_ratio(F, self.projection_, Lp, Ln)[0])
        self.component_weights_ = pipe.direction_weights(F, Lp, Ln, self.projection_)
        self.completed_ = A
        self.embedding_ = (F @ self.projection_) * self.component_weights_

    def _set_forest(self, part: ForestPart) -> None:
        self.forest_, self.forest_leaves_ = part.forest, part.leaves
        self.forest_weight_, self.forest_scale_ = part.weight, part.scale
        self.forest_selection_ = part.selection
        self.forest_min_leaf_ = part.min_leaf
        self.forest_counted_, self.forest_proximity_ = part.counted, part.proximity
        if part.forest is None:
            self.forest_inputs_ = None

    def _forest_features(self, Xs: np.ndarray, A: np.ndarray) -> np.ndarray:
        """What the forest part's trees split on: standardised patients ``Xs`` (gaps as
        ``NaN``), next to their completion scores ``A`` with
        ``forest_inputs_="features+completion"``."""
        if getattr(self, "forest_inputs_", None) == "features+completion":
            return np.hstack([Xs, A])
        return Xs

    def _query(self, X) -> tuple[np.ndarray, np.ndarray | None]:
        """Embedding of new patients and, with a forest part, their leaves."""
        return self._query_standardized(self.standardize(X))

    def _query_standardized(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        A, _, Y = self._embed(Xs)
        if getattr(self, "forest_", None) is None:
            return Y, None
        return Y, self.forest_.apply(self._forest_features(Xs, A))

    def validate_params(self, n_samples: int) -> None:
        """Check every parameter (and that ``n_samples`` can be learned from).

        Raises ValueError (DataError for too few patients); what ``fit`` checks first, and
        what a model file's parameters must pass before the model is rebuilt.
        """
        check_params(self.get_params(), int(n_samples))

    # ------------------------------------------------------------------ state
    def get_state(self) -> ModelState:
        """The fitted model as plain arrays and values (see :mod:`sparge.estimator.state`).

        Returns
        -------
        ModelState
            What :meth:`from_state` rebuilds the same model from (persistence writes it).
        """
        check_is_fitted(self, "embedding_")
        arrays = {name: np.asarray(getattr(self, name)) for name in FLOAT_ARRAYS
                  if name != "dictionary_r"}
        arrays["dictionary_r"] = np.asarray(self._dictionary_r)
        arrays["atom_class_"] = np.asarray(self.atom_class_, dtype=np.int64)
        arrays["completion_ridge_"] = np.asarray(self.completion_ridge_, dtype=float)
        if getattr(self, "completion_fill_ridge_", None) is not None:
            arrays["completion_fill_ridge_"] = np.asarray(self.completion_fill_ridge_,
                                                          dtype=float)
        if self.y_ is not None:
            arrays["y_"] = np.asarray(self.y_)
        if hasattr(self, "classes_"):
            arrays["classes_"] = np.asarray(self.classes_)
        forest = None
        if getattr(self, "forest_", None) is not None:
            arrays.update(self.forest_.to_arrays())
            arrays["forest_leaves_"] = np.asarray(self.forest_leaves_, dtype=np.int32)
            if self.forest_counted_ is not None:
                arrays["forest_counted_"] = np.asarray(self.forest_counted_, dtype=np.uint8)
            forest = {"weight": float(self.forest_weight_), "scale": float(self.forest_scale_),
                      "selection": [{k: float(v) for k, v in r.items()}
                                    for r in self.forest_selection_],
                      "min_leaf": getattr(self, "forest_min_leaf_", None),
                      "inputs": getattr(self, "forest_inputs_", None) or "features",
                      "proximity": self.forest_proximity_}
        values = {
            "n_features_in": int(self.n_features_in_),
            "feature_names": self.feature_names() if hasattr(self, "feature_names_in_")
            else None,
            "completion_lambda": self.completion_lambda_,
            "best_iteration": self.best_iteration_,
            "objective": self.objective_,
            "fit_time": getattr(self, "fit_time_", None),
            "history": self.history_,
            "train_ids": [str(i) for i in self.train_ids_] if hasattr(self, "train_ids_")
            else None,
            "forest": forest,
            "n_samples_seen": int(getattr(self, "n_samples_seen_", len(self.embedding_))),
            "log_columns": [int(j) for j in getattr(self, "log_columns_", [])],
        }
        params = {k: v for k, v in self.get_params().items() if k != "callback"}
        params["random_state"] = self._entropy()
        return ModelState(params=params, arrays=arrays, values=values)

    @classmethod
    def from_state(cls, state: ModelState) -> SparGE:
        """Rebuild a fitted model from :meth:`get_state`'s arrays and values.

        The parameters are validated first; the derived search state (similarity scale,
        the forest's reference leaves) is recomputed, never read.

        Raises
        ------
        ValueError
            Naming the parameter, array or value that does not fit.
        """
        return cls(**state.params)._restore(state)

    def _restore(self, state: ModelState) -> SparGE:
        """Set the fitted attributes of ``state`` on this (unfitted) estimator."""
        a, v = state.arrays, state.values
        self.validate_params(a["embedding_"].shape[0])
        for name in FLOAT_ARRAYS:
            if name == "dictionary_r":
                self._dictionary_r = np.asarray(a[name], dtype=np.float64)
            elif name == "training_data_":
                self.training_data_ = a[name]
            else:
                setattr(self, name, np.asarray(a[name], dtype=np.float64))
        self.atom_class_ = np.asarray(a["atom_class_"], dtype=np.int64)
        r = self.completion_components_.shape[0]
        ridge = a.get("completion_ridge_")
        if ridge is None:  # older files: the one shared number of the parameters
            shared = state.params.get("completion_ridge", 1.0)
            ridge = np.full(r, float(shared) if not isinstance(shared, str) else 1.0)
        ridge = np.asarray(ridge, dtype=np.float64)
        if ridge.shape != (r,) or not np.all(np.isfinite(ridge)) or np.any(ridge < 0):
            raise ValueError(f"the completion ridge must hold one finite, non-negative "
                             f"number per component ({r})")
        self.completion_ridge_ = ridge
        fill = a.get("completion_fill_ridge_")
        if fill is not None:
            fill = np.asarray(fill, dtype=np.float64)
            if fill.shape != (r,) or not np.all(np.isfinite(fill)) or np.any(fill < 0):
                raise ValueError(f"the completion's fill ridge must hold one finite, "
                                 f"non-negative number per component ({r})")
        self.completion_fill_ridge_ = fill
        self.n_features_in_ = int(v["n_features_in"])
        if v.get("feature_names") is not None:
            self.feature_names_in_ = np.asarray(v["feature_names"], dtype=object)
        self.y_ = a.get("y_")
        if a.get("classes_") is not None:
            self.classes_ = a["classes_"]
        self.completion_lambda_ = v.get("completion_lambda")
        self.best_iteration_ = v.get("best_iteration")
        self.objective_ = v.get("objective")
        self.fit_time_ = v.get("fit_time")
        self.history_ = v.get("history") or []
        self.n_samples_seen_ = int(v.get("n_samples_seen") or len(self.embedding_))
        logs = v.get("log_columns") or []  # older files: every feature on its own scale
        if not all(isinstance(j, (int, np.integer)) and not isinstance(j, bool)
                   and 0 <= j < self.n_features_in_ for j in logs) or \
                len(set(logs)) != len(logs):
            raise ValueError(f"log_columns must hold distinct feature indices below "
                             f"{self.n_features_in_}")
        self.log_columns_ = np.asarray(sorted(int(j) for j in logs), dtype=np.int64)
        self._set_value_stats()
        self.fit_sample_rows_ = None  # which rows is not saved, only how many were seen
        if v.get("train_ids") is not None:
            self.train_ids_ = np.asarray(v["train_ids"], dtype=object)
        forest = v.get("forest")
        self.forest_inputs_ = None if forest is None else forest.get("inputs", "features")
        n_split = self.n_features_in_ + (self.completion_components_.shape[0]
                                         if self.forest_inputs_ == "features+completion" else 0)
        self._set_forest(_forest_part_from_state(a, forest, n_split))
        self._finish_fit()
        return self

    def _finish_fit(self) -> None:
        """Derived state (neighbour search, similarity scale); rebuilt after loading."""
        self._index = LookalikeIndex(method=self.neighbor_search, random_state=self._seed()
                                     ).fit(self.embedding_, self._reference_leaves(),
                                           self.forest_scale_)
        self._code_lipschitz = gram_lipschitz(self._dictionary_r.T @ self._dictionary_r) \
            + self.r2
        n = self.embedding_.shape[0]
        k = min(11, n)
        # The quantile needs a sample, not an n x n search: at most 1,500 evenly spaced rows
        # (15,000 distances; the 90th percentile moves by about 1 % between samples).
        rows = np.unique(np.linspace(0, n - 1, min(n, 1500)).round().astype(int))
        d = self._search(self.embedding_[rows], k, self._training_leaves(rows))[0][:, 1:]
        # Scale: the 90th percentile of 10-NN distances, so a typical look-alike scores
        # about 0.6 or more and a far one tends to 0.
        self.similarity_scale_ = float(2 * np.quantile(d, 0.9) ** 2) if d.size else 1.0
        self._set_anchoring()

    def _set_anchoring(self) -> None:
        """Anchoring's constants (derived from the learned state, rebuilt after loading):
        the training patients' typical missing share, their rows with gaps filled by the
        completion, and the unit from pairs of at most 500 of them."""
        data = np.asarray(self.training_data_, dtype=float)
        gaps = ~np.isfinite(data)
        self.typical_missing_ = float(np.median(gaps.mean(axis=1))) if data.size else 0.0
        V = self.completion_components_
        fill = getattr(self, "completion_fill_ridge_", None)
        # a filled value stays within its column's measured range (round 17)
        self._fill_bounds = column_bounds(data)
        if fill is None:  # a file written before round 16: today's fill, for the values
            own = project_observed(data, V, 1e-6)  # shown (its look-alikes stay as trained)
            first = fill_gaps(data, V, posterior_ridge(data, own, V), self._fill_bounds)
            fill = gap_fill_ridge(data, V, first, own)[0]
        self._fill_ridge = np.asarray(fill, dtype=float)
        self._fill_noise = None  # computed when first needed (:meth:`misfit`)
        # their gaps filled in standardised units (``completed_`` holds unit-norm scores)
        self._anchor_rows = fill_gaps(data, V, self._fill_ridge,
                                      self._fill_bounds).astype(np.float32)
        n = len(data)
        rows = np.unique(np.linspace(0, n - 1, min(n, 500)).round().astype(int))
        Y, L = self.lookalike_parts(rows=rows)
        d2 = ensemble_sqdist(Y, Y, L, self._reference_leaves(rows), self.forest_scale_)
        self.anchor_scale_ = anchor_scale(d2, self._anchor_rows[rows])

    def _search(self, Yq: np.ndarray, k: int, leaves_q: np.ndarray | None = None,
                allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The model's look-alike search (exact below its size threshold, else NN-descent;
        an exact scan of the ``allowed`` training patients when given)."""
        return self._index.query(Yq, k, leaves_q, allowed=allowed)

    def _candidates(self, candidates) -> np.ndarray | None:
        """``candidates`` (a mask or indices of training patients) as sorted indices."""
        return None if candidates is None else self._index.allowed_indices(candidates)

    def _training_leaves(self, rows) -> np.ndarray | None:
        """Training patients' leaves in every tree (as queries)."""
        L = getattr(self, "forest_leaves_", None)
        return None if L is None or getattr(self, "forest_", None) is None else L[rows]

    def _reference_leaves(self, rows=slice(None)) -> np.ndarray | None:
        """Training patients' leaves as look-alikes: ``NOT_COUNTED`` where a tree does not
        count for them (in-bag proximity)."""
        L = self._training_leaves(rows)
        counted = getattr(self, "forest_counted_", None)
        return L if L is None or counted is None else reference_leaves(L, counted[rows])

    def training_neighbors(self, n_neighbors: int = 10, rows=None, candidates=None
                           ) -> tuple[np.ndarray, np.ndarray]:
        """Look-alikes of training patients among the training patients, each without itself.

        Parameters
        ----------
        n_neighbors : int
            Capped at ``n_train - 1`` (at the number of ``candidates`` less one).
        rows : array-like of int, optional
            Training indices to query (default: all).
        candidates : array-like, optional
            The training patients that may be look-alikes (a boolean mask or indices), as
            in :meth:`lookalikes`.

        Returns
        -------
        dist, idx : ndarray of shape (n_rows, n_neighbors)
        """
        check_is_fitted(self, "embedding_")
        n = self.embedding_.shape[0]
        allowed = self._candidates(candidates)
        k = int(max(min(n_neighbors, (n if allowed is None else allowed.size) - 1), 0))
        rows = np.arange(n) if rows is None else np.atleast_1d(np.asarray(rows, dtype=int))
        if rows.size and (rows.min() < 0 or rows.max() >= n):
            raise IndexError(f"training rows must lie in [0, {n}); got {rows.min()}.."
                             f"{rows.max()}")
        d, idx = self._search(self.embedding_[rows], k + 1, self._training_leaves(rows),
                              allowed)
        if idx.shape[1] == 0:  # no candidate at all
            return d, idx
        keep = idx != rows[:, None]
        # drop the patient itself (or the farthest when duplicates hide it)
        drop_last = keep.all(axis=1)
        keep[drop_last, -1] = False
        return (d[keep].reshape(len(rows), k), idx[keep].reshape(len(rows), k))

    @property
    def n_atoms_(self) -> int:
        """Number of dictionary atoms ``k``."""
        check_is_fitted(self, "_dictionary_r")
        return int(self._dictionary_r.shape[1])

    @property
    def rank_(self) -> int:
        """Rank of the completion basis kept for the representation."""
        check_is_fitted(self, "completion_components_")
        return int(self.completion_components_.shape[0])

    def training_representation(self) -> np.ndarray:
        """What the embedding projects for the training patients, shape (n_train, d).

        The sparse codes (``representation="codes"``) or the completed scores next to them.
        """
        check_is_fitted(self, "codes_")
        return self._pipeline().features(self.completed_, self.codes_)

    def training_graphs(self) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """The intrinsic and penalty graphs of the final fit, on the training patients.

        Built exactly as ``fit`` built them (the model's ``k1``, ``k2``, edge weights and
        class balance; unsupervised: local / sampled non-local graphs).

        Returns
        -------
        W_plus, W_minus : csr_matrix of shape (n_train, n_train)
        """
        F = self.training_representation()
        y_idx = None
        if self.supervised and getattr(self, "classes_", None) is not None:
            y_idx = np.searchsorted(self.classes_, np.asarray(self.y_))
        return self._pipeline().graph_weights(F, y_idx, self._seed())

    def training_values(self) -> pd.DataFrame:
        """Training patients' features in original units (``NaN`` where missing)."""
        check_is_fitted(self, "training_data_")
        data = self._original_units(np.asarray(self.training_data_, dtype=float))
        return pd.DataFrame(data, columns=self.feature_names())

    def feature_importance(self, n_patients: int = 200, eps: float = 1e-3) -> np.ndarray:
        """Weight of every feature in the learned metric, shape (m,), summing to 1.

        For a sample of training patients, the local Jacobian of the embedding with
        respect to the completed scores is taken by finite differences (the codes are
        re-solved, so their non-linearity counts) and chained with the linear completion
        map from standardised features to scores. A feature's importance is the mean norm
        of its row of ``d y / d x``: how far one standard deviation of it moves a patient
        in the learned space. Pure: nothing is stored on the model (it may be shared).
        """
        check_is_fitted(self, "embedding_")
        n = self.embedding_.shape[0]
        rows = np.unique(np.linspace(0, n - 1, min(n, n_patients)).round().astype(int))
        V = self.completion_components_  # (r, m)
        r = V.shape[0]
        # scores of the sample before the row normalisation
        S = self._completion_scores(np.asarray(self.training_data_[rows], dtype=float))
        base = self._embed_scores(S)
        P = (S[:, None, :] + eps * np.eye(r)[None]).reshape(-1, r)  # (p*r, r)
        J = (self._embed_scores(P).reshape(len(rows), r, -1) - base[:, None, :]) / eps
        # d scores / d x for a fully observed patient: V^T diag(1 / (1 + ridge))
        dS_dx = V.T / (1.0 + np.asarray(self.completion_ridge_))[None, :]  # (m, r)
        G = np.einsum("mr,prl->pml", dS_dx, J)  # (p, m, l)
        imp = np.sqrt(np.einsum("pml,pml->pm", G, G)).mean(axis=0)
        total = imp.sum()
        return imp / total if total > 0 else np.full_like(imp, 1.0 / max(len(imp), 1))

    def _completion_scores(self, Xs: np.ndarray) -> np.ndarray:
        """Completion scores of standardised patients before the row normalisation."""
        return completion_scores(Xs, self.completion_components_, self.completion_ridge_,
                                 getattr(self, "completion_fill_ridge_", None),
                                 self._fill_bounds)

    def _embed_scores(self, S: np.ndarray) -> np.ndarray:
        """Embedding of completion scores (before the unit-norm step)."""
        pipe = self._pipeline()
        A = pipe.normalize(S)
        Phi = pipe.codes(A, self._dictionary_r, lipschitz=self._code_lipschitz)
        return (pipe.features(A, Phi) @ self.projection_) * self.component_weights_

    @property
    def dictionary_(self) -> np.ndarray:
        """Unit-norm atoms in (standardised) feature space, shape (m, k)."""
        check_is_fitted(self, "_dictionary_r")
        return self.completion_components_.T @ self._dictionary_r

    # ------------------------------------------------------------------ transform
    def standardize(self, X) -> np.ndarray:
        """Patients in standardised units (training mean 0, SD 1); ``NaN`` stays ``NaN``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n, m)
            Encoded features in original units, ``NaN`` for missing.
        """
        check_is_fitted(self, "projection_")
        if isinstance(X, pd.DataFrame) and hasattr(self, "feature_names_in_"):
            names = [str(c) for c in X.columns]
            expected = list(self.feature_names_in_)
            if names != expected and sorted(names) == sorted(expected) \
                    and len(set(names)) == len(names):
                X = X[expected]  # the same columns in another order: taken by name
            elif names != expected:
                missing = [c for c in expected if c not in names]
                extra = [c for c in names if c not in expected]
                raise DataError(
                    f"The columns do not match the trained model: missing {missing[:5]}, "
                    f"unexpected {extra[:5]}. Use Encoder.transform to align a table.")
        Xa, _ = _as_float_array(X, self.n_features_in_)
        return self._standardize_array(Xa)

    def _standardize_array(self, Xa: np.ndarray) -> np.ndarray:
        """Encoded features in original units to the model's standardised units (the
        logarithm first for ``log_columns_``; a value <= 0 there is floored at the
        smallest training patient's)."""
        cols = getattr(self, "log_columns_", None)
        if cols is None or not len(cols):
            return standardize(Xa, self.mean_, self.scale_)
        Z = standardize(log_columns(Xa, cols), self.mean_, self.scale_)
        floor = self._log_floor  # once per fit: a query does not scan the training data
        Z[:, cols] = np.where(Z[:, cols] < floor, floor, Z[:, cols])
        return Z

    def log_floors(self) -> dict[int, float]:
        """The features compared by their base-10 logarithm (``log_columns_``), each with
        the smallest training value in its own units: a value below it is compared as it.
        Empty for a model that compares every feature on its own scale. With ``mean_`` and
        ``scale_``, what a page needs to say how far apart two values are as the model
        sees them (:func:`sparge.services.display.standardize`)."""
        check_is_fitted(self, "projection_")
        cols = getattr(self, "log_columns_", None)
        if cols is None or not len(cols):
            return {}
        floors = 10.0 ** (np.asarray(self._log_floor, dtype=float) * self.scale_[cols]
                          + self.mean_[cols])
        return {int(j): float(v) for j, v in zip(cols, floors, strict=True)}

    def _original_units(self, Z: np.ndarray) -> np.ndarray:
        """The model's standardised units back to each feature's own units."""
        X = np.asarray(Z, dtype=float) * self.scale_ + self.mean_
        cols = getattr(self, "log_columns_", None)
        if cols is not None and len(cols):
            X[:, cols] = 10.0 ** X[:, cols]
        return X

    def _set_value_stats(self, X: np.ndarray | None = None) -> None:
        """``value_mean_`` and ``value_scale_``: the standardisation for the features on
        their own scale; for ``log_columns_``, from ``X`` (the training patients in their
        units; by default as :meth:`training_values` gives them). Also the floor of the
        ``log_columns_`` in standardised units (the smallest training patient's)."""
        self.value_mean_ = np.array(self.mean_, dtype=float, copy=True)
        self.value_scale_ = np.array(self.scale_, dtype=float, copy=True)
        cols = getattr(self, "log_columns_", None)
        if cols is None or not len(cols):
            return
        self._log_floor = np.nanmin(np.asarray(self.training_data_[:, cols], dtype=float),
                                    axis=0)
        raw = self.training_values().to_numpy(dtype=float) if X is None else X
        mean, scale = fit_standardizer(np.asarray(raw, dtype=float)[:, cols])
        self.value_mean_[cols], self.value_scale_[cols] = mean, scale

    def _embed(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Completed scores, codes and embedding of standardised patients."""
        pipe = self._pipeline()
        A = pipe.complete(Xs, self.completion_components_, self.completion_ridge_,
                          getattr(self, "completion_fill_ridge_", None), self._fill_bounds)
        Phi = pipe.codes(A, self._dictionary_r, lipschitz=self._code_lipschitz)
        Y = (pipe.features(A, Phi) @ self.projection_) * self.component_weights_
        return A, Phi, Y

    def transform_parts(self, X) -> dict[str, np.ndarray]:
        """Every intermediate of the pipeline for ``X``: completed, codes, embedding."""
        Xs = self.standardize(X)
        A, Phi, Y = self._embed(Xs)
        return {"standardized": Xs, "completed": A @ self.completion_components_,
                "completed_scores": A, "codes": Phi, "embedding": Y}

    def transform(self, X) -> np.ndarray:
        """Embed patients (``NaN`` allowed): shape (n_new, n_components).

        The graph embedding alone: with a forest part, :meth:`kneighbors` ranks
        look-alikes by more than the Euclidean distance between these vectors
        (:meth:`lookalike_space` gives vectors whose distances rank as it does).
        """
        return self._embed(self.standardize(X))[2]

    def complete(self, X, units: str = "original") -> np.ndarray:
        """Patients with their gaps filled, shape (n, m): the values given stay as they
        are, a gap takes the value the model's representation is built from
        (``completion_fill``: the probabilistic-PCA posterior reconstruction, kept within
        the range measured in its column).

        Parameters
        ----------
        X : array-like of shape (n, m)
            Encoded features in original units, ``NaN`` for missing.
        units : {"original", "standardized"}
            Units of the result.
        """
        Xs = self._standardized(X, units)
        Z = fill_gaps(Xs, self.completion_components_, self._fill_ridge, self._fill_bounds)
        return Z if units == "standardized" else self._original_units(Z)

    def reconstruct(self, X, units: str = "original") -> np.ndarray:
        """The low-rank (denoised) reconstruction of every value, shape (n, m).

        A patient's scores on the completion basis are the posterior mean of a
        probabilistic PCA model given the values measured (the ridge of
        ``completion_fill``, ``noise / component variance`` per component): the cohort's
        strong patterns are followed and its weak directions shrunk; a gap's reconstruction
        is the value :meth:`complete` fills in. (The model's representation projects with
        the shared ``completion_ridge`` and scales every patient to unit length: its
        scores are not values.) ``X`` and ``units`` as in :meth:`complete`.
        """
        Xs = self._standardized(X, units)
        V = self.completion_components_
        Z = np.clip(project_observed(Xs, V, self._fill_ridge) @ V, *self._fill_bounds)
        return Z if units == "standardized" else self._original_units(Z)

    def misfit(self, X) -> np.ndarray:
        """How badly each patient's measured values fit the completion's patterns: the
        squared Mahalanobis distance under its probabilistic PCA model, per measured value
        (:func:`sparge.method.lowrank.ppca_misfit` divided by the model's noise variance;
        about 1 for a patient of the cohort). ``NaN`` for a patient with no value.

        Parameters
        ----------
        X : array-like of shape (n, m)
            Encoded features in original units, ``NaN`` for missing.
        """
        Xs = self._standardized(X, "standardized")
        V = self.completion_components_
        if self._fill_noise is None:
            data = np.asarray(self.training_data_, dtype=float)
            self._fill_noise = noise_variance(data, project_observed(data, V, 1e-6), V)
        return ppca_misfit(Xs, V, self._fill_ridge) / self._fill_noise

    def _standardized(self, X, units: str) -> np.ndarray:
        if units not in ("original", "standardized"):
            raise ValueError(f"units must be 'original' or 'standardized', got {units!r}")
        check_is_fitted(self, "embedding_")
        return self.standardize(X)

    # ------------------------------------------------------------------ queries
    def kneighbors(self, X=None, n_neighbors: int = 10, candidates=None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Look-alikes among the training patients.

        ``X=None`` queries the training patients themselves, each excluding itself.

        Parameters
        ----------
        X : array-like of shape (n_query, n_features), optional
            New patients in original units (``NaN`` for a gap); ``None``: the training
            patients.
        n_neighbors : int
            Look-alikes per patient.
        candidates : array-like, optional
            The training patients that may be look-alikes, as in :meth:`lookalikes`.

        Returns
        -------
        dist, idx : ndarray of shape (n_query, n_neighbors)
            The model's look-alike distances and training-patient indices, nearest first.
            With a forest part (``forest_weight > 0``, the default of a supervised model)
            the distance adds the forest's dissimilarity to the embedding's Euclidean
            distance, so it is not the distance between :meth:`transform` outputs; an
            external kNN sees the model's metric in :meth:`lookalike_space`. Patients with
            more gaps than a typical training patient are anchored on their given values
            (``anchor_weight``).
        """
        check_is_fitted(self, "embedding_")
        if X is None:
            return self.training_neighbors(n_neighbors, candidates=candidates)
        return self._lookup(X, n_neighbors, self._candidates(candidates))[2:]

    def _lookup(self, X, k: int, allowed: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray]:
        """New patients' embedding, leaves and ``k`` look-alikes (distances, indices;
        among the ``allowed`` training indices when given, ``k`` capped at their number);
        those with more gaps than a typical training patient anchored on their given
        values (:mod:`sparge.method.anchoring`)."""
        k = int(min(k, self.embedding_.shape[0] if allowed is None else allowed.size))
        Xs = self.standardize(X)
        Yq, leaves = self._query_standardized(Xs)
        dist, idx = self._search(Yq, k, leaves, allowed)
        c = self.anchor_weight
        if c == "auto":
            c = 0.5 if self.supervised and getattr(self, "y_", None) is not None else 2.0
        lever = anchor_levers(Xs, self.typical_missing_, float(c))
        rows = np.flatnonzero(lever > 0)
        if rows.size:
            w = lever[rows] * self.anchor_scale_

            def extra(queries: slice, refs: slice) -> np.ndarray:
                return w[queries, None] * given_sqdist(Xs[rows[queries]],
                                                       self._anchor_rows[refs])

            dist[rows], idx[rows] = self._index.query(
                Yq[rows], k, None if leaves is None else leaves[rows], extra_d2=extra,
                allowed=allowed)
        return Yq, leaves, dist, idx

    def similarity(self, dist: np.ndarray) -> np.ndarray:
        """Similarity in (0, 1] for distances in the learned space."""
        return similarity_from_distance(dist, self.similarity_scale_)

    def sparse_weights(self, X=None, n_neighbors: int = 10, rows=None) -> sp.csr_matrix:
        """Self-expressive weights of queries over their look-alikes (paper, Section 2).

        Each query's embedding is reconstructed as a sparse, non-negative, affine (sums to
        one) combination of its ``n_neighbors`` look-alikes; see :meth:`lookalikes`.

        Returns
        -------
        W : csr_matrix of shape (n_query, n_train)
        """
        return self.lookalikes(X, n_neighbors=n_neighbors, rows=rows)[2]

    def lookalikes(self, X=None, n_neighbors: int = 10, rows=None, candidates=None
                   ) -> tuple[np.ndarray, np.ndarray, sp.csr_matrix]:
        """Look-alikes of patients with their distances and sparse weights.

        Parameters
        ----------
        X : array-like of shape (q, m), optional
            New patients (encoded features, ``NaN`` allowed). ``None``: the training
            patients ``rows`` (default all), each excluding itself.
        n_neighbors : int
        rows : array-like of int, optional
            Training indices, with ``X=None``.
        candidates : array-like, optional
            The training patients that may be look-alikes: a boolean mask over the
            training patients or their indices (the patients of the same sex and age band,
            say). The metric is unchanged; the search is an exact scan of these patients
            and ``n_neighbors`` is capped at their number (less one for a training
            patient, who is never its own look-alike).

        Returns
        -------
        dist, idx : ndarray of shape (q, n_neighbors)
            Distances in the learned space and training-patient indices, nearest first.
        W : csr_matrix of shape (q, n_train)
            Row i holds the weights of query i's listed look-alikes (non-zeros only in
            ``idx[i]``): the sparse, non-negative, affine reconstruction of the query from
            them (every row sums to 1). A zero weight means the other look-alikes
            together already rebuild the query without that one (even the closest can get
            a zero); the locality term favours closer ones.
        """
        check_is_fitted(self, "embedding_")
        if X is None:
            rows_a = (np.arange(self.embedding_.shape[0]) if rows is None
                      else np.atleast_1d(np.asarray(rows, dtype=int)))
            dist, idx = self.training_neighbors(n_neighbors, rows=rows_a,
                                                candidates=candidates)
            Yq = self.embedding_[rows_a]
        else:
            if rows is not None:
                raise ValueError("give X (new patients) or rows (training patients), not both")
            Yq, _, dist, idx = self._lookup(X, n_neighbors, self._candidates(candidates))
        # The weights express the query in the learned embedding (the paper's self-
        # expressive model). The forest part of the metric chooses the list but is left
        # out here: in its leaf-code space every look-alike is unique, so the weights
        # would spread over the whole list and no longer single out the few that matter.
        W = self_expressive_weights(Yq, self.embedding_, idx)
        return dist, idx, W

    def lookalike_parts(self, X=None, rows=None, reference: bool = False
                        ) -> tuple[np.ndarray, np.ndarray | None]:
        """What the look-alike distance of patients is computed from.

        Parameters
        ----------
        X : array-like of shape (n, m), optional
            New patients (encoded features, ``NaN`` allowed); ``None``: training patients.
        rows : array-like of int, optional
            Training indices, with ``X=None`` (default all).
        reference : bool
            Training patients as look-alikes rather than as queries: their leaves hold
            :data:`~sparge.method.proximity.NOT_COUNTED` in the trees that do not count
            for them (in-bag proximity: the trees not grown with them).

        Returns
        -------
        Y : ndarray of shape (n, n_components)
            The embedding.
        leaves : int ndarray of shape (n, n_trees) or None
            Leaf ids per tree of the forest part (``None`` without one).
            :func:`sparge.method.similarity.ensemble_sqdist` with ``forest_scale_`` turns
            queries' and reference patients' pairs into the squared look-alike distances
            of :meth:`lookalikes`.
        """
        check_is_fitted(self, "embedding_")
        if X is None:
            r = slice(None) if rows is None else np.atleast_1d(np.asarray(rows, dtype=int))
            return self.embedding_[r], (self._reference_leaves(r) if reference
                                        else self._training_leaves(r))
        if rows is not None or reference:
            raise ValueError("give X (new patients) or rows (training patients), not both")
        return self._query(X)

    def lookalike_space(self, X=None):
        """Patients as vectors whose Euclidean distances rank look-alikes as the model does.

        Without a forest part this is the embedding. With one, the embedding next to the
        forest's scaled leaf codes: for new patients ``X`` (queries) a one-hot block per
        tree, for the training patients (``X=None``, the look-alikes) the trees that count
        for each, weighted by one over their number, and one coordinate that evens out
        the norms. Then ``||v_q - v_i||^2 = ||y_q - y_i||^2 + scale (1 - p_qi) + c``
        exactly, with one constant ``c = scale (sqrt(T / n_min) - 1)`` per model
        (``n_min`` the fewest trees counted for a training patient; ``c = 0`` with
        shared-leaf proximity): the same look-alikes in the same order, which is what any
        external kNN (benchmarks, a classifier) needs to see the model's own metric.
        Distances between two training patients' vectors are not look-alike distances;
        query a training patient with its features.

        Parameters
        ----------
        X : array-like of shape (n, m), optional
            New patients (queries); ``None``: the training patients (look-alikes).

        Returns
        -------
        ndarray, or csr_matrix when the model has a forest part.
        """
        check_is_fitted(self, "embedding_")
        if X is None:
            Y, leaves = self.embedding_, self._training_leaves(slice(None))
        else:
            Y, leaves = self._query(X)
        if leaves is None:
            return Y
        T = leaves.shape[1]
        counted = getattr(self, "forest_counted_", None)
        n_i = np.full(len(self.embedding_), T) if counted is None else np.maximum(
            counted.sum(axis=1), 1)  # trees counted for each training patient
        n_min = int(n_i.min())
        # query a * onehot, look-alike b * onehot / n_i: 2ab = scale, a^2 T = b^2 / n_min
        half = 0.5 * self.forest_scale_
        if X is not None:
            codes = onehot_leaves(leaves, self.forest_.n_nodes) * np.sqrt(
                half / np.sqrt(T * n_min))
            return sp.hstack([sp.csr_matrix(Y), codes, sp.csr_matrix((len(Y), 1))]).tocsr()
        b2 = half * np.sqrt(T * n_min)
        codes = sp.diags(np.sqrt(b2) / n_i) @ onehot_leaves(leaves, self.forest_.n_nodes,
                                                            counted)
        even = np.sqrt(np.maximum(b2 / n_min - b2 / n_i, 0.0))[:, None]
        return sp.hstack([sp.csr_matrix(Y), codes, sp.csr_matrix(even)]).tocsr()

    def explain(self, query_row, neighbor_index: int, feature_names=None,
                n_features: int = 5) -> pd.DataFrame:
        """Features where a query and training patient ``neighbor_index`` agree / differ.

        Parameters
        ----------
        query_row : array-like of shape (n_features,) or int
            One patient's features in original units (a row of the encoded table), or an
            int: a training patient's index (the order of the training rows, as
            :meth:`kneighbors` returns them; not a row of the table).
        neighbor_index : int
            A training patient's index (``idx`` of :meth:`kneighbors`).
        feature_names : list of str, optional
            Names to show (default: the training DataFrame's, else ``x0, x1, ...``).
        n_features : int
            Features listed on each side.

        Returns
        -------
        DataFrame
            ``n_features`` rows where the two agree most and ``n_features`` where they
            differ most, with the values in standardised units (0 = cohort mean, 1 = one
            standard deviation).
        """
        check_is_fitted(self, "training_data_")
        n_train = self.training_data_.shape[0]
        for what, i in (("neighbor_index", neighbor_index), ("query_row", query_row)):
            if isinstance(i, (int, np.integer)) and not 0 <= int(i) < n_train:
                raise DataError(f"{what} must be a training patient's index, 0 to "
                                f"{n_train - 1}; got {int(i)}.")
        if isinstance(query_row, (int, np.integer)):
            q = self.training_data_[int(query_row)].astype(float)
        else:
            q = self.standardize(np.atleast_2d(np.asarray(query_row, dtype=float)))[0]
        names = list(feature_names) if feature_names is not None else self.feature_names()
        return explain_pair(q, self.training_data_[neighbor_index].astype(float), names,
                            n_features)

    def feature_names(self) -> list[str]:
        """Feature names (from the training DataFrame, else ``x0, x1, ...``)."""
        if hasattr(self, "feature_names_in_"):
            return [str(c) for c in self.feature_names_in_]
        return [f"x{j}" for j in range(self.n_features_in_)]

    def score(self, X, y) -> float:
        """Class-balanced precision@10 of the look-alikes of ``X`` among training patients."""
        check_is_fitted(self, "embedding_")
        if self.y_ is None:
            raise ValueError("score needs a model fitted with outcomes y")
        _, idx = self.kneighbors(X, n_neighbors=10)
        return precision_at_k(np.asarray(self.y_)[idx], np.asarray(y), balanced=True)

    def knn_balanced_accuracy(self, X, y, n_neighbors: int = 5) -> float:
        """Balanced accuracy of a kNN classifier on the learned space (training patients)."""
        clf = KNeighborsClassifier(n_neighbors=n_neighbors).fit(self.embedding_, self.y_)
        return float(balanced_accuracy_score(y, clf.predict(self.transform(X))))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.target_tags.required = False
        return tags
