import numpy as np
from conftest import planted_classes

from sparge.compare import compare_classifiers, summarize, time_table


def test_compare_on_a_small_cohort():
    X, y = planted_classes(n=120, missing=0.1)
    res, conf = compare_classifiers(X, y, n_splits=2, sparge_params={"max_iter": 1})
    assert set(res.representation) == {"raw", "SparGE"}
    assert set(res.classifier) == {"KNN", "LR", "RF", "DT", "SVM", "GBDT"}
    assert len(res) == 2 * 2 * 6
    assert res[["accuracy", "balanced_accuracy", "f1_macro", "roc_auc"]].stack().between(0, 1).all()
    cm = conf[("SparGE", "KNN")]
    assert cm.shape == (3, 3) and cm.sum() == 2 * 36
    summary = summarize(res)
    assert {"accuracy_mean", "balanced_accuracy_std"} <= set(summary.columns)
    tt = time_table(res)
    assert list(tt.columns) == ["raw", "SparGE"] or set(tt.columns) == {"raw", "SparGE"}
    # on planted structure the learned space helps the distance-based classifier
    knn = res[res.classifier == "KNN"].groupby("representation").balanced_accuracy.mean()
    assert knn["SparGE"] > knn["raw"]
    assert np.isfinite(res.fit_time).all()
