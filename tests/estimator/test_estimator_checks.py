"""scikit-learn's estimator checks, one test each (``parametrize_with_checks``).

Every check applies to SparGE and none is expected to fail; a check that cannot apply
would be listed in ``expected_failed_checks`` with the reason (none at present).
"""

from __future__ import annotations

import warnings

from sklearn.utils.estimator_checks import parametrize_with_checks

from sparge import SparGE

#: check name -> why it cannot apply (none at present).
EXPECTED_FAILED_CHECKS: dict[str, str] = {}


@parametrize_with_checks([SparGE(max_iter=2, ksvd_iter=2, forest_trees=20)],
                         expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS)
def test_sklearn_compatible_estimator(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(estimator)
