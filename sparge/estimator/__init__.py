"""The SparGE estimator: composes the method core behind scikit-learn's fit/transform."""
