"""Classifiers on raw features vs SparGE features (the paper's protocol, DESIGN.md §5).

Repeated stratified 70/30 splits; on every split the raw pipeline (median imputation +
standardisation) and SparGE are fitted on the training part only, then the paper's six
classifiers (KNN, LR, RF, DT, SVM, GBDT) are trained on each representation and scored on
the test part: accuracy, average per-class recall (balanced accuracy), macro F1, ROC AUC,
fit and predict time (the paper's "mean time" table).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    confusion_matrix,
    f1_score,
    roc_auc_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.validation import has_fit_parameter

from sparge.errors import DataError
from sparge.estimator.model import SparGE
from sparge.services.display import ordered_outcomes
from sparge.services.person_splits import grouped_splits
from sparge.services.resources import duration, estimate_fit
from sparge.services.split_errors import (
    few_test_patients,
    noise_margin,
    paired_difference,
    split_test_fraction,
)


def paper_classifiers(random_state: int = 0, calibration_folds: int = 5,
                      weighted: bool = False) -> dict[str, object]:
    """The paper's six baseline classifiers (Table "Baseline classifiers").

    Parameters
    ----------
    random_state : int
        Seed of the randomised classifiers.
    calibration_folds : int
        The SVM's Platt-scaling folds (fewer for a rare outcome, whose stratified folds
        otherwise logged scikit-learn's "least populated class" warning).
    weighted : bool
        Weight the outcomes inversely to their sizes (``class_weight="balanced"``) in the
        classifiers that take class weights; :func:`compare_classifiers` gives the
        calibrated SVM (its SVC and its Platt scaling) and gradient boosting the same
        weights per patient. k-nearest neighbours cannot be weighted.
    """
    weight = "balanced" if weighted else None
    return {
        "KNN": KNeighborsClassifier(n_neighbors=5),
        "LR": LogisticRegression(max_iter=2000, class_weight=weight),
        "RF": RandomForestClassifier(n_estimators=100, random_state=random_state, n_jobs=1,
                                     class_weight=weight),
        "DT": DecisionTreeClassifier(random_state=random_state, class_weight=weight),
        # probabilities for ROC AUC by Platt scaling (SVC(probability=True) is deprecated)
        # weighted per patient in compare_classifiers: the weights then reach the Platt
        # scaling too (class weights in the SVC alone were undone by an unweighted
        # calibration, which predicted the rare outcome no more often)
        "SVM": CalibratedClassifierCV(SVC(random_state=random_state), ensemble=False,
                                      cv=calibration_folds),
        "GBDT": GradientBoostingClassifier(random_state=random_state),
    }


#: The classifiers that cannot weight the outcomes (no class or sample weights).
UNWEIGHTED = ("KNN",)


#: Full names of the paper's classifiers (the results keep the short keys).
CLASSIFIER_NAMES = {
    "KNN": "k-nearest neighbours",
    "LR": "logistic regression",
    "RF": "random forest",
    "DT": "decision tree",
    "SVM": "support vector machine",
    "GBDT": "gradient boosting",
}
#: Plain names of the measures.
MEASURE_NAMES = {
    "balanced_accuracy": "balanced accuracy (average per-class recall)",
    "accuracy": "accuracy",
    "f1_macro": "macro F1",
    "roc_auc": "ROC AUC",
}
#: Column headers of the measures.
MEASURE_HEADERS = {"balanced_accuracy": "Balanced accuracy", "accuracy": "Accuracy",
                   "f1_macro": "Macro F1", "roc_auc": "ROC AUC"}
#: Plain names of the representations.
REPRESENTATION_NAMES = {"raw": "raw data", "SparGE": "SparGE"}
#: Model parameters that are not settings of the representation.
_NOT_SETTINGS = ("callback", "verbose", "random_state")


def sparge_settings(model: SparGE) -> dict:
    """The parameters of a model that define its representation, for ``sparge_params``.

    A model saved before ``n_components`` had a number as default (``None``) gets the
    dimension it was fitted with.
    """
    out = {k: v for k, v in model.get_params().items() if k not in _NOT_SETTINGS}
    if out.get("n_components") is None and hasattr(model, "embedding_"):
        out["n_components"] = int(model.embedding_.shape[1])
    return out


def describe_settings(params: dict) -> str:
    """One line naming the settings of a SparGE representation."""
    p = {**SparGE().get_params(), **params}
    atoms = "automatic number of atoms" if p["n_atoms"] is None else f"{p['n_atoms']} atoms"
    # "rank all" beside the Model page's "completion rank 25" read as a contradiction
    # (walk-through 21): the rank is what the nuclear norm leaves, up to its cap
    rank = {None: f"set by the nuclear norm (at most {p['max_rank']})",
            "auto": "above the noise level"}.get(p["rank"], p["rank"])
    return (f"{p['n_components']}-D embedding of {p['representation']}, {atoms}, completion "
            f"rank {rank}, k1 = {p['k1']}, k2 = {p['k2']}, {p['max_iter']} refinement "
            "iterations")


def chance_level(measure: str, y) -> float:
    """The score of a classifier that ignores the features.

    Balanced accuracy: ``1 / n_classes``; ROC AUC: 0.5; accuracy: the share of the largest
    class (always predicting it); macro F1: guessing uniformly at random, where class ``c``
    with share ``p`` gets precision ``p`` and recall ``1 / n_classes``.
    """
    _, counts = np.unique(np.asarray(y), return_counts=True)
    share = counts / counts.sum()
    k = len(share)
    if measure == "balanced_accuracy":
        return 1.0 / k
    if measure == "roc_auc":
        return 0.5
    if measure == "accuracy":
        return float(share.max())
    if measure == "f1_macro":
        return float(np.mean(2 * share / k / (share + 1 / k)))
    raise ValueError(f"unknown measure {measure!r}; one of {list(MEASURE_NAMES)}")


#: The rarest outcome's share of patients under which the classifiers are trained with
#: the outcomes weighted equally by default (walk-through 47: with 14 % events, k-nearest
#: neighbours on the raw data predicted "No" for 99 % of the "Yes" patients).
RARE_OUTCOME_SHARE = 0.25


def weight_by_default(y) -> bool:
    """Whether the comparison should weight the outcomes equally unless told otherwise:
    when the rarest outcome is under :data:`RARE_OUTCOME_SHARE` of the patients.

    Parameters
    ----------
    y : array-like
        The outcomes (missing ones left out beforehand).

    Returns
    -------
    bool
    """
    _, counts = np.unique(np.asarray(y).astype(str), return_counts=True)
    return len(counts) >= 2 and counts.min() / counts.sum() < RARE_OUTCOME_SHARE


#: The six classifiers' fit + predict seconds per split on one feature set: a fixed part
#: (forests of 100 trees, boosting, the SVM's calibration folds), a part that grows with
#: the training patients alone (the SVM's kernel, about n^2) and one with patients x
#: features (trees, boosting), times a factor per outcome beyond two (gradient boosting
#: grows a tree per outcome). Fitted to ``bench.compare_estimate`` (13 cohorts of 94 to
#: 4,014 training patients and 6 to 467 features, raw and SparGE's 16, on 2 cores; each
#: within 0.74-1.34 of the fit). The factor per outcome rests on one 3-outcome cohort.
#: The earlier law (session 7, 3.7 s x (n / 2000)^1.27 x (m / 30)^0.77, at least 0.4 s)
#: said 8 s for walk-through 79's 400 patients, which took 12 s alone and 25 s beside a
#: browser; and 82 s for rhc, which took 68 s.
_CLF_FIXED, _CLF_SVM, _CLF_SVM_POWER = 0.34, 0.92, 2.12
_CLF_TREES, _CLF_TREES_POWER, _CLF_PER_OUTCOME = 1.41, 0.97, 1.02


def _classifier_seconds(n: int, m: int, n_classes: int = 2) -> float:
    r = max(n, 1) / 2000
    grown = _CLF_FIXED + _CLF_SVM * r ** _CLF_SVM_POWER \
        + _CLF_TREES * r ** _CLF_TREES_POWER * max(m, 1) / 30
    return grown * (1 + _CLF_PER_OUTCOME * max(n_classes - 2, 0))


def estimate_comparison(n_patients: int, n_features: int, n_splits: int, *,
                        test_size: float = 0.3, n_components: int = 16,
                        n_classes: int = 2) -> float:
    """Rough seconds for :func:`compare_classifiers` (2 cores): per split, SparGE's fit
    (:func:`sparge.services.resources.estimate_fit`) and the six classifiers on the raw
    and on the SparGE features, for ``n_classes`` outcomes. The page shows it before the
    run; the progress bar then gives the time left measured on the first split
    (``bench.compare_estimate`` checks it on real cohorts)."""
    n_train = int(round((1 - test_size) * n_patients))
    per_split = (estimate_fit(n_train, n_features).seconds
                 + _classifier_seconds(n_train, n_features, n_classes)
                 + _classifier_seconds(n_train, n_components, n_classes))
    return n_splits * per_split


def normalize_confusion(cm: np.ndarray) -> np.ndarray:
    """Rows divided by their sums (each true class sums to 1; an empty row stays 0)."""
    cm = np.asarray(cm, dtype=float)
    totals = cm.sum(axis=1, keepdims=True)
    return np.divide(cm, totals, out=np.zeros_like(cm), where=totals > 0)


def raw_representation():
    """Raw features as a data scientist would use them: median-imputed, standardised."""
    return make_pipeline(SimpleImputer(strategy="median", keep_empty_features=True),
                         StandardScaler())


def _auc(clf, Z, y, classes) -> float:
    if not hasattr(clf, "predict_proba") or len(classes) < 2:
        return np.nan
    try:
        P = clf.predict_proba(Z)
        if len(classes) == 2:
            return float(roc_auc_score(y, P[:, 1]))
        return float(roc_auc_score(y, P, multi_class="ovr", labels=clf.classes_))
    except ValueError:
        return np.nan


def compare_classifiers(
    X: np.ndarray,
    y: np.ndarray,
    *,
    n_splits: int = 10,
    test_size: float = 0.3,
    sparge_params: dict | None = None,
    classifiers: dict[str, object] | None = None,
    random_state: int = 0,
    callback: Callable[[float, str], None] | None = None,
    weighted: bool = False,
    groups: np.ndarray | None = None,
) -> tuple[pd.DataFrame, dict]:
    """Run the comparison.

    ``groups``: the person each row is (:func:`~sparge.services.workflow.people`): a
    person's rows (two eyes, two admissions) are held out together, as the Model page's
    held-out check does (walk-through 104: one eye trained on, the other tested, flatters
    both representations).

    With ``weighted``, every outcome weighs as much as the others in the training of the
    classifiers that can be weighted (:func:`paper_classifiers`; a classifier without
    ``class_weight`` whose ``fit`` takes ``sample_weight`` gets balanced weights per
    patient): unweighted, a classifier seldom predicts a rare outcome and its balanced
    accuracy sits near chance even when it ranks the patients well. ``classifiers``, when
    given, are used as they are, except for those per-patient weights.

    Returns
    -------
    results : DataFrame
        One row per split × representation × classifier with the measures and times.
    confusion : dict
        ``{(representation, classifier): confusion matrix summed over the splits}`` (counts;
        :func:`normalize_confusion` gives shares per true class), with the class order in
        ``confusion["classes"]``.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    classes, counts = np.unique(y, return_counts=True)
    # the classifiers learn the outcomes' indices: scikit-learn 1.9's forests with
    # class_weight="balanced" refused the outcomes "0" and "1" as text (walk-through 58:
    # "The classes, [0, 1], are not in class_weight"); predictions are read back
    sorted_classes, y_code = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise DataError("The comparison needs an outcome with at least 2 classes.")
    n_test = int(np.ceil(test_size * len(y)))
    if counts.min() < 2 or n_test < classes.size or len(y) - n_test < classes.size:
        small, c = classes[np.argmin(counts)], int(counts.min())
        raise DataError(f"Too few patients per outcome for {test_size:.0%} test splits: "
                        f"the outcome '{small}' has {c} patient{'s' if c != 1 else ''}. Set "
                        "such outcomes aside on the Data page ('Set aside outcomes with "
                        "fewer than 3 patients'), encode again and train again.")
    # the rarest outcome's patients in a training split: at most that many folds
    rarest = int(np.floor(counts.min() * (1 - test_size)))
    clfs = classifiers or paper_classifiers(random_state, max(2, min(5, rarest)), weighted)
    splits = grouped_splits(y, groups, n_splits=n_splits, test_size=test_size,
                            random_state=random_state)
    rows = []
    # a scale's outcomes in its order ("low, medium, high", not alphabetical)
    order = {name: i for i, name in enumerate(ordered_outcomes(classes))}
    classes = classes[np.argsort([order[str(c)] for c in classes], kind="stable")]
    confusion: dict = {"classes": classes}
    # progress: each split is one step for SparGE's fit and one per classifier and
    # representation; the time left is measured once a split is done
    steps_per_split = 1 + 2 * len(clfs)
    total = n_splits * steps_per_split
    done = 0
    start = split_start = time.perf_counter()

    def report(split: int, what: str) -> None:
        if callback is None:
            return
        left = ""
        if split > 0:  # the mean of the finished splits, less the current one's progress
            now = time.perf_counter()
            per_split = (split_start - start) / split
            seconds = max(per_split * (n_splits - split) - (now - split_start), 1.0)
            left = f" · about {duration(seconds)} left"
        callback(done / total, f"split {split + 1}/{n_splits}: {what}{left}")

    for split, (tr, te) in enumerate(splits):
        done, split_start = split * steps_per_split, time.perf_counter()
        report(split, f"fitting SparGE on {len(tr):,} training patients")
        reps = {}
        t0 = time.perf_counter()
        raw = raw_representation().fit(X[tr])
        reps["raw"] = (raw.transform(X[tr]), raw.transform(X[te]), time.perf_counter() - t0)
        t0 = time.perf_counter()
        sg = SparGE(**(sparge_params or {}), random_state=random_state + split).fit(X[tr], y[tr])
        done += 1
        reps["SparGE"] = (sg.embedding_, sg.transform(X[te]), time.perf_counter() - t0)
        for rep, (Ztr, Zte, rep_time) in reps.items():
            for name, proto in clfs.items():
                clf = clone(proto)
                fit_params = ({"sample_weight": compute_sample_weight("balanced",
                                                                      y_code[tr])}
                              if weighted and _weights_per_patient(clf) else {})
                t0 = time.perf_counter()
                clf.fit(Ztr, y_code[tr], **fit_params)
                fit_t = time.perf_counter() - t0
                t0 = time.perf_counter()
                pred = sorted_classes[np.asarray(clf.predict(Zte), dtype=int)]
                pred_t = time.perf_counter() - t0
                rows.append({
                    "split": split, "representation": rep, "classifier": name,
                    "accuracy": accuracy_score(y[te], pred),
                    "balanced_accuracy": balanced_accuracy_score(y[te], pred),
                    "f1_macro": f1_score(y[te], pred, average="macro"),
                    "roc_auc": _auc(clf, Zte, y_code[te], classes),
                    "fit_time": fit_t, "predict_time": pred_t,
                    "representation_time": rep_time})
                cm = confusion_matrix(y[te], pred, labels=classes)
                key = (rep, name)
                confusion[key] = confusion.get(key, 0) + cm
                done += 1
                report(split, f"{CLASSIFIER_NAMES.get(name, name)} on the "
                              f"{'raw data' if rep == 'raw' else 'SparGE features'}")
    out = pd.DataFrame(rows)
    out.attrs["test_size"] = test_size  # the verdicts' standard errors depend on it
    out.attrs["n_test"] = len(te)  # and whether they can say anything
    return out, confusion


def _weights_per_patient(clf) -> bool:
    """Whether ``clf`` takes the outcomes' weights per patient (``sample_weight`` in its
    ``fit``, no ``class_weight`` of its own): gradient boosting and the calibrated SVM."""
    return ("class_weight" not in clf.get_params(deep=False)
            and has_fit_parameter(clf, "sample_weight"))


def summarize(results: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard deviation per representation × classifier."""
    measures = ["accuracy", "balanced_accuracy", "f1_macro", "roc_auc", "fit_time",
                "predict_time"]
    g = results.groupby(["classifier", "representation"], sort=False)[measures]
    out = g.mean().add_suffix("_mean").join(g.std().add_suffix("_std"))
    return out.reset_index()


def time_table(results: pd.DataFrame) -> pd.DataFrame:
    """The paper's "mean time" table: fit + predict seconds per classifier, raw vs SparGE."""
    t = results.assign(seconds=results["fit_time"] + results["predict_time"])
    return t.pivot_table(index="classifier", columns="representation", values="seconds",
                         aggfunc="mean", sort=False)


def readable_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """:func:`summarize` with full classifier names, plain headers and one "mean ± SD"
    text per measure (four columns instead of eight: the table fits a laptop screen)."""
    out = pd.DataFrame({
        "Classifier": summary["classifier"].map(lambda c: CLASSIFIER_NAMES.get(c, c)),
        "Features": summary["representation"].map(lambda r: REPRESENTATION_NAMES.get(r, r))})
    for m, header in MEASURE_HEADERS.items():
        sd = summary[f"{m}_std"].fillna(0.0)
        out[f"{header} (mean ± SD)"] = [
            "—" if pd.isna(v) else f"{v:.3f} ± {d:.3f}"
            for v, d in zip(summary[f"{m}_mean"], sd, strict=True)]
    return out


def measure_table(results: pd.DataFrame, measure: str) -> pd.DataFrame:
    """One measure, classifier by classifier: raw data and SparGE side by side ("mean ±
    SD" over the splits) and SparGE's paired difference (mean over the splits of SparGE −
    raw on the same split ± its standard error, corrected for the splits' shared patients:
    :func:`~sparge.services.split_errors.paired_difference`). Four columns: it fits a
    narrow screen.

    Parameters
    ----------
    results : DataFrame from :func:`compare_classifiers` (one row per split × classifier ×
        representation).
    measure : one of :data:`MEASURE_NAMES`.
    """
    fraction = split_test_fraction(results)
    wide = results.pivot_table(index=["classifier", "split"], columns="representation",
                               values=measure, aggfunc="mean", sort=False)
    rows = []
    for clf, part in wide.groupby(level="classifier", sort=False):
        row = {"Classifier": CLASSIFIER_NAMES.get(clf, clf)}
        for rep in ("raw", "SparGE"):
            v = part[rep].dropna() if rep in part else pd.Series(dtype=float)
            row[REPRESENTATION_NAMES[rep]] = (
                "—" if v.empty else f"{v.mean():.3f} ± {v.std(ddof=1) if len(v) > 1 else 0:.3f}")
        mean, se, n = (paired_difference(part["SparGE"], part["raw"], fraction)
                       if {"raw", "SparGE"} <= set(part) else (np.nan, np.nan, 0))
        row["SparGE − raw"] = ("—" if n == 0 else f"{mean:+.3f}"
                               + (f" ± {se:.3f}" if np.isfinite(se) else ""))
        rows.append(row)
    return pd.DataFrame(rows, columns=["Classifier", "raw data", "SparGE", "SparGE − raw"])


#: How far above chance (in the measure's units, 0-1) every score must be for the verdict
#: not to say that nothing predicts the outcome well; the Model page's look-alike check
#: uses the same rule.
NEAR_CHANCE = 0.10


def comparison_verdict(results: pd.DataFrame, measure: str,
                       chance: float | None = None, weighted: bool = False) -> str:
    """The classifier comparison in one plain sentence, and what it does not measure.

    Counts the classifiers where SparGE's features beat the raw data (paired mean over
    the splits above zero), how many of those are beyond
    :func:`~sparge.services.split_errors.noise_margin` standard errors of the paired
    difference (Student's t for the splits), and names the largest gap; with ``chance``
    (the measure's chance level) it says when every score is within :data:`NEAR_CHANCE`
    of it. A walk-through read "beat the raw data with 3 of 6 classifiers" where all
    three gains were noise and every score sat within 6 points of chance. Another read
    "raw data ahead for 4 of 6 classifiers" here and "SparGE 73 %, raw 61 %" on the
    Model page's look-alike check as a contradiction: the two pages answer different
    questions. ``weighted``: the classifiers were trained with the outcomes weighted
    (:func:`compare_classifiers`).
    """
    fraction = split_test_fraction(results)
    wide = results.pivot_table(index=["classifier", "split"], columns="representation",
                               values=measure, aggfunc="mean", sort=False)
    if not {"raw", "SparGE"} <= set(wide.columns):
        return ""
    stats = {clf: paired_difference(part["SparGE"], part["raw"], fraction)
             for clf, part in wide.groupby(level="classifier", sort=False)}
    diff = pd.Series({clf: m for clf, (m, _, _) in stats.items()}, dtype=float).dropna()
    if diff.empty:
        return ""
    ahead = int((diff > 0).sum())

    def beyond_noise(sign: int) -> int:
        return sum(1 for clf in diff.index if np.isfinite(stats[clf][1])
                   and np.isfinite(noise_margin(stats[clf][2]))
                   and sign * diff[clf] > 0
                   and sign * diff[clf] >= noise_margin(stats[clf][2]) * stats[clf][1])

    few = few_test_patients(results)
    clear, behind = (0, 0) if few else (beyond_noise(1), beyond_noise(-1))

    def named(clf) -> str:
        return f"{CLASSIFIER_NAMES.get(clf, clf)} {diff[clf]:+.3f}"

    ends = (f"best: {named(diff.idxmax())}; worst: {named(diff.idxmin())}" if len(diff) > 1
            else named(diff.index[0]))
    head = (f"SparGE's features beat the raw data with {ahead} of {len(diff)} classifiers "
            f"({ends})")
    n_splits = max((n for _, _, n in stats.values()), default=0)
    margin = noise_margin(n_splits)
    beyond = ("by more than " + (f"{margin:.1f} times" if np.isfinite(margin) else "twice")
              + " the standard error of the difference")
    if few:
        head += "." + few[:-1]
    elif ahead == 1:
        head += f"; {beyond}" if clear else f"; not {beyond}, so the gain may be noise"
    elif ahead > 1:
        head += (f"; {clear} of them {beyond}" if clear else
                 f"; none of them {beyond}, so the gains may be noise")
    if behind:  # walk-through 18: two clear losses went unsaid beside the gains
        # ... named (walk-through 96: "with 1 of the 6 classifiers", not which)
        losers = [CLASSIFIER_NAMES.get(c, c) for c in diff.index
                  if np.isfinite(stats[c][1]) and np.isfinite(noise_margin(stats[c][2]))
                  and -diff[c] >= noise_margin(stats[c][2]) * stats[c][1] and diff[c] < 0]
        head += (f". The raw data is ahead {beyond} with {behind} of the {len(diff)} "
                 "classifiers (" + ", ".join(losers[:6]) + ")")
    head += "."
    if chance is not None and np.isfinite(chance):
        scores = wide[["raw", "SparGE"]].groupby(level="classifier", sort=False).mean()
        if float(np.nanmax(scores.to_numpy())) - chance < NEAR_CHANCE:
            head += (f" Every score is within {100 * NEAR_CHANCE:.0f} points of chance "
                     f"({chance:.2f})")
            ranked = _best_auc(results) if measure != "roc_auc" else None
            if ranked is not None and ranked[1] - 0.5 >= NEAR_CHANCE:
                # walk-through 29: a 15 % outcome, balanced accuracy 0.55 and "neither
                # feature set predicts the outcome" where the ROC AUC was 0.76
                head += (f", yet the {CLASSIFIER_NAMES.get(ranked[0], ranked[0])} ranks the "
                         f"patients well (ROC AUC {ranked[1]:.2f})")
                head += (": the classifiers rank the patients better than they classify "
                         "them. Read the ROC AUC (choose it above), or the confusion "
                         "matrices below." if weighted else
                         ": trained without weights for the outcomes' sizes, the classifiers "
                         "seldom predict the rarer outcome. Read the ROC AUC (choose it "
                         "above) or the confusion matrices below, or run the comparison "
                         "again with the outcomes weighted.")
            else:
                head += ": on this cohort neither feature set predicts the outcome well."
    return (head + " This page asks how well a classifier predicts the outcome from each "
            "feature set; SparGE's embedding is built for look-alikes, and flexible "
            "classifiers such as forests often do better on the raw data. How good the "
            "look-alikes are is the Model page's held-out check.")


def _best_auc(results: pd.DataFrame) -> tuple[str, float] | None:
    """The classifier with the highest mean ROC AUC on either feature set, and that AUC
    (``None`` without ROC AUCs)."""
    if "roc_auc" not in results or results["roc_auc"].isna().all():
        return None
    auc = results.groupby(["classifier", "representation"], sort=False)["roc_auc"].mean()
    (clf, _), best = auc.idxmax(), float(auc.max())
    return str(clf), best


#: The first row of :func:`readable_times`: building each representation once per split.
FEATURES_ROW = "building the features"  # raw: imputation + scaling; SparGE: fit + embedding


def readable_times(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`time_table` with full names: seconds per split to build each representation
    (SparGE's fit included), then to fit and predict each classifier on it."""
    t = time_table(results)
    t.index = [CLASSIFIER_NAMES.get(c, c) for c in t.index]
    build = (results.drop_duplicates(["split", "representation"])
             .groupby("representation")["representation_time"].mean())
    t = pd.concat([pd.DataFrame([build.reindex(t.columns).to_numpy()], columns=t.columns,
                                index=[FEATURES_ROW]), t])
    t.index.name = "Step"
    t.columns = [f"{REPRESENTATION_NAMES.get(c, c)} (s)" for c in t.columns]
    return t
