"""Resource guard: how long a fit will take and how much memory it needs, from the shape.

The estimate is calibrated on the measured fits of ``bench/results/scale.md`` and
``bench/results/core_speed.md`` (2 cores, OpenBLAS, default parameters):

=================  =======  ========  ===========================================
patients           features  fit (s)   peak memory
=================  =======  ========  ===========================================
1,000              50        1.2       0.22 GB
6,000              50        4.7       --
10,000             50        14.3      0.61 GB
21,142             50        35.6      1.07 GB
100,000 (no refn)  50        126.8     4.21 GB
3,000              383       7.0       0.34 GB
3,000              3,648     30.6      1.02 GB
21,142             3,648     70.2      4.35 GB
=================  =======  ========  ===========================================

Time (seconds), ``n`` patients and ``m`` features::

    seconds = 5.1e-4 * n ** 1.12  +  0.011 * n ** 0.113 * (m ** 0.845 - 50 ** 0.845)

The first term is the 50-feature fit (growth exponent 1.12 measured in ``scale.md``;
21,142 x 50 -> 35.6 s, 1,000 x 50 -> 1.2 s, 100,000 x 50 -> 202 s with refinement); the
second is the extra cost of wide tables, fitted on the three wide fits (3,000 x 383 ->
7.0 s, 3,000 x 3,648 -> 30 s, 21,142 x 3,648 -> 70 s). It is a guide within a factor of
about 1.5 on the measured shapes, not a promise (other machines and busy cores differ).

Peak memory (bytes)::

    peak_bytes = 0.2e9  +  40e3 * n  +  50 * n * max(m - 50, 0)

a fixed 0.2 GB (interpreter, numpy, scikit-learn), ~40 kB per patient at 50 features
(neighbour graphs, codes, completion; 100,000 x 50 -> 4.2 GB measured, 4.2 GB estimated)
and ~50 bytes per extra cell for wide tables (21,142 x 3,648 -> 4.35 GB measured,
4.85 GB estimated: the estimate errs on the safe side).

Reading a CSV takes about ten times its size in memory (``estimate_read``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from sparge.estimator.model import SparGE

#: Time model coefficients (see the module docstring).
_T_BASE, _T_EXP = 5.1e-4, 1.12
_T_WIDE, _T_WIDE_N, _T_WIDE_M = 0.011, 0.113, 0.845
#: Memory model coefficients (bytes).
_M_FIXED, _M_PER_PATIENT, _M_PER_EXTRA_CELL = 0.2e9, 40e3, 50.0
#: Features of the calibration runs the per-patient terms were measured at.
_BASE_FEATURES = 50
#: Memory taken while reading a CSV, per byte of file (measured ~10x).
_READ_FACTOR = 10.0


def _physical_memory() -> int | None:
    """Bytes of RAM on this machine, or None when the platform does not say."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def _default_max_bytes() -> int:
    ram = _physical_memory()
    return int(ram * 0.5) if ram else 4 * 1024**3


@dataclass(frozen=True)
class Limits:
    """What a single fit may use before it is refused (CLI) or confirmed (app).

    Parameters
    ----------
    max_seconds : float
        Longest acceptable estimated fit time (default 5 minutes).
    max_bytes : int
        Largest acceptable estimated peak memory (default half of this machine's RAM, or
        4 GiB when the RAM size is unknown).
    """

    max_seconds: float = 300.0
    max_bytes: int = field(default_factory=_default_max_bytes)


def _gb(n_bytes: float) -> str:
    return f"{n_bytes / 1e9:.1f} GB"


#: Fixed cost of a fit (setup, K-SVD and the trace-ratio solves on a tiny cohort), and the
#: forest's cost per patient x log2(patients) x sqrt(features).
_T_FIXED = 0.5
#: Seconds to embed one more patient (embedding and forest leaves at 50 features: about
#: 7,000 a second, bench.scale_train).
_T_EMBED = 1.4e-4
#: SparGE's default ``max_fit_samples``.
DEFAULT_FIT_SAMPLES = SparGE().max_fit_samples
_T_FOREST = 3.4e-6


def busy_factor(load: float | None = None, cores: int | None = None) -> float:
    """How much longer than the estimate a fit may take now, as other programs keep the
    processors busy: ``(load + cores) / cores`` (a fit uses every core, and shares them
    with the ``load`` runnable processes of the last minute), at least 1. ``load``: the
    one-minute load average (``os.getloadavg``, by default; 0 where the platform has
    none). Walk-through 92 read "about 1 s" and waited 5.4 s, at a load of 2.5–3.3 on 2
    cores.

    Examples
    --------
    >>> busy_factor(0.2, 2), busy_factor(3.0, 2)
    (1.1, 2.5)
    """
    if load is None:
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):
            load = 0.0
    cores = cores or os.cpu_count() or 1
    return max(1.0, (max(float(load), 0.0) + cores) / cores)


#: A busy factor from which the pages say that the machine is busy.
BUSY = 2.0


def busy_note(seconds: float, factor: float | None = None) -> str:
    """The words said after an estimate when the machine is busy (:func:`busy_factor` at
    least :data:`BUSY`): ``" (other programs are using the processors now: perhaps N
    s)"``; else ``""``."""
    factor = busy_factor() if factor is None else factor
    if factor < BUSY:
        return ""
    return (" (other programs are using the processors now: perhaps "
            f"{duration(seconds * factor)})")


def duration(seconds: float) -> str:
    """A duration in words: ``"under 1 s"``, ``"1 s"``, ``"40 s"``, ``"3 min"``,
    ``"1.5 h"`` (walk-through 102 read "under 1 s" for a fit of 0.98 s estimated)."""
    if seconds < 0.5:
        return "under 1 s"
    if seconds < 1:
        return "1 s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


@dataclass(frozen=True)
class Estimate:
    """Estimated cost of fitting SparGE on an ``n_patients`` x ``n_features`` table.

    Attributes
    ----------
    n_patients, n_features : int
        The shape the estimate is for.
    seconds : float
        Estimated fit time on 2 cores.
    peak_bytes : int
        Estimated peak memory of the fit.
    limits : Limits
        The limits ``too_big`` and ``message`` compare against.
    """

    n_patients: int
    n_features: int
    seconds: float
    peak_bytes: int
    limits: Limits

    @property
    def over_time(self) -> bool:
        """True when the estimated time exceeds ``limits.max_seconds``."""
        return self.seconds > self.limits.max_seconds

    @property
    def over_memory(self) -> bool:
        """True when the estimated peak memory exceeds ``limits.max_bytes``."""
        return self.peak_bytes > self.limits.max_bytes

    @property
    def too_big(self) -> bool:
        """True when the fit exceeds a limit (time or memory) and should be refused/asked."""
        return self.over_time or self.over_memory

    def summary(self) -> str:
        """One line: the shape, the estimated time and memory."""
        took = duration(self.seconds)
        took = took if took.startswith("under") else f"about {took}"
        return (f"{self.n_patients:,} patients x {self.n_features:,} features: {took} and "
                f"{_gb(self.peak_bytes)} of memory")

    def message(self) -> str:
        """What is over which limit, and how to proceed (empty when within the limits)."""
        if not self.too_big:
            return ""
        over = []
        if self.over_time:
            over.append(f"the estimated fit time {duration(self.seconds)} exceeds the "
                        f"limit of {duration(self.limits.max_seconds)}")
        if self.over_memory:
            over.append(f"the estimated peak memory {_gb(self.peak_bytes)} exceeds the "
                        f"limit of {_gb(self.limits.max_bytes)}")
        rows = suggest_rows(self.n_features, self.limits)
        return (f"Training on {self.n_patients:,} patients x {self.n_features:,} features: "
                + " and ".join(over) + ". To proceed: train on a random sample of rows "
                f"(about {rows:,} patients fit within the limits), or keep fewer columns "
                "(drop free-text, ID-like and mostly-empty columns), or train from the "
                "command line (`python -m sparge train --force ...`) on a machine with "
                "more memory, where no browser session waits for it.")


def _seconds(n: int, m: int, forest: bool = True) -> float:
    base = _T_BASE * n**_T_EXP
    wide = _T_WIDE * n**_T_WIDE_N * max(m**_T_WIDE_M - _BASE_FEATURES**_T_WIDE_M, 0.0)
    # the forest part of the look-alike metric (forest_weight > 0, the default): trees on
    # at most 20,000 bootstrap patients, then every patient's leaves; they split on the m
    # biomarkers and up to min(m, 50) completion scores (round 9), sqrt of those per split:
    # about 2.1 s for 6,000 x 31 on 2 cores with the default 100 trees (leaf-size choice
    # included; 3.5 s with 200 trees)
    grown = min(n, 20_000)
    inputs = max(m, 1) + min(max(m, 1), 50)
    trees = _T_FOREST * (grown * np.log2(max(grown, 2)) * np.sqrt(inputs) + 4.0 * n)
    return float(_T_FIXED + base + wide + (trees if forest else 0.0))


def _peak_bytes(n: int, m: int) -> int:
    extra_cells = n * max(m - _BASE_FEATURES, 0)
    return int(_M_FIXED + _M_PER_PATIENT * n + _M_PER_EXTRA_CELL * extra_cells)


def estimate_fit(n_patients: int, n_features: int, limits: Limits | None = None, *,
                 forest: bool = True, max_fit_samples: int | None = DEFAULT_FIT_SAMPLES
                 ) -> Estimate:
    """Estimate the time and peak memory of ``SparGE().fit`` on a table of this shape.

    Parameters
    ----------
    n_patients : int
        Training patients (rows).
    n_features : int
        Encoded features (columns after encoding).
    limits : Limits, optional
        What ``Estimate.too_big`` compares against; ``Limits()`` by default.
    forest : bool
        Count the forest part of the look-alike metric (``forest_weight`` > 0, the
        default). Its term is calibrated on one measured point (6,000 x 31: ~2.5 s); the
        rest on the measured fits without it (bench/results/scale.md, core_speed.md).
    max_fit_samples : int or None
        SparGE's ``max_fit_samples``: a larger cohort is learned from a sample of this
        size and the other patients are embedded (about 7,000 patients a second at 50
        features, bench/results/scale_train.md).

    Returns
    -------
    Estimate
        ``seconds``, ``peak_bytes``, ``too_big`` and ``message()``.

    Examples
    --------
    >>> est = estimate_fit(6000, 50)
    >>> est.too_big
    False
    """
    n, m = int(n_patients), int(n_features)
    if n < 0 or m < 0:
        raise ValueError(f"the shape must be non-negative, got {n} x {m}")
    learn = n if max_fit_samples is None else min(n, int(max_fit_samples))
    embed = (n - learn) * _T_EMBED * max(m / _BASE_FEATURES, 1.0) ** 0.5
    seconds = _seconds(learn, m, forest) + embed
    peak = _peak_bytes(learn, m) + 16 * (n - learn) * max(m, 1)  # the rest of the table
    return Estimate(n, m, seconds, peak, limits or Limits())


def suggest_rows(n_features: int, limits: Limits | None = None) -> int:
    """The largest number of patients (rounded down to 1,000) that fits within ``limits``."""
    limits = limits or Limits()
    lo, hi = 0, 10_000_000
    while hi - lo > 1000:
        mid = (lo + hi) // 2
        if _seconds(mid, n_features) <= limits.max_seconds and \
                _peak_bytes(mid, n_features) <= limits.max_bytes:
            lo = mid
        else:
            hi = mid
    return max(lo // 1000 * 1000, 1000 if lo >= 1000 else lo)


def estimate_read(n_bytes: int) -> int:
    """Estimated memory (bytes) needed to read a CSV of ``n_bytes`` into a table."""
    return int(_READ_FACTOR * max(int(n_bytes), 0))


__all__ = ["Estimate", "Limits", "busy_factor", "busy_note", "duration", "estimate_fit",
           "estimate_read", "suggest_rows"]
