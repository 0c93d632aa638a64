"""Where the bundled sample cohort and the pre-trained default model live.

The caller passes the directory (``app.py`` passes its own ``data_samples/``), or sets
``SPARGE_SAMPLES``, or the files come from an installed ``sparge.samples`` package data
directory through :mod:`importlib.resources`. In a source checkout that is not installed
(a clone on ``PYTHONPATH``), the checkout's own ``data_samples/`` beside the package is
used when it holds the default model; nothing else is guessed from the package's path.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

#: Environment variable naming the sample directory when no path is passed.
ENV_VAR = "SPARGE_SAMPLES"
#: Identifier and outcome columns of the bundled sample cohort.
SAMPLE_ID, SAMPLE_LABEL = "Subject ID", "Outcome"


@dataclass(frozen=True)
class SampleFiles:
    """The files of a sample directory (written by ``python -m sparge.services.make_samples``).

    Parameters
    ----------
    root : Path
        The directory holding the files.
    """

    root: Path

    @property
    def cohort_csv(self) -> Path:
        """The 683-patient synthetic SingHEART-style cohort."""
        return self.root / "singheart_synthetic.csv"

    @property
    def small_csv(self) -> Path:
        """A 60-patient variant of the cohort (seed 1) for quick trials."""
        return self.root / "singheart_small.csv"

    @property
    def new_patient_csv(self) -> Path:
        """One new patient (no outcome), for the New patient page."""
        return self.root / "new_patient.csv"

    @property
    def default_model(self) -> Path:
        """The pre-trained default model (SparGE defaults on the cohort)."""
        return self.root / "default_model.sparge"

    @property
    def groups_json(self) -> Path:
        """Biomarker groups of the sample's columns."""
        return self.root / "biomarker_groups.json"

    @property
    def encoding_table(self) -> Path:
        """The encoding table the default model was trained with."""
        return self.root / "encoding_table.csv"

    @property
    def default_map(self) -> Path:
        """UMAP coordinates of the default model's training patients."""
        return self.root / "default_map_umap.csv"


def sample_files(root: str | os.PathLike | None = None) -> SampleFiles:
    """Locate the bundled samples.

    Parameters
    ----------
    root : path-like, optional
        The sample directory. When omitted: ``$SPARGE_SAMPLES``, else the package data of
        an installed ``sparge.samples``.

    Returns
    -------
    SampleFiles

    Raises
    ------
    FileNotFoundError
        When no directory is given and none can be found.
    """
    if root is None:
        root = os.environ.get(ENV_VAR)
    if root is None:
        try:
            # (a namespace package's files() is a MultiplexedPath: join a member, then
            # take its folder)
            member = resources.files("sparge.samples") / "default_model.sparge"
            root = Path(str(member)).parent
        except ModuleNotFoundError:
            root = _checkout_samples()
        if root is None:
            raise FileNotFoundError(
                "No sample directory: pass its path, set SPARGE_SAMPLES, or install the "
                "package with its sample data.")
    return SampleFiles(Path(root))


def _checkout_samples() -> Path | None:
    """A source checkout's ``data_samples/`` (beside the ``sparge`` package), when it
    holds the default model; ``None`` otherwise."""
    here = Path(__file__).resolve().parents[2] / "data_samples"
    return here if SampleFiles(here).default_model.is_file() else None
