"""Regenerate ``data_samples/``: ``python -m sparge.services.make_samples``.

Writes the synthetic SingHEART-style cohort (683 patients, seed 0), a 60-patient variant
(seed 1) for tests, a one-patient CSV (a new patient from seed 2), the biomarker groups,
the encoding table, and the pre-trained default model (SparGE defaults, trained on the
683-patient cohort with the paper's preprocessing).
"""

from __future__ import annotations

import json
from pathlib import Path

from sparge.data.synthetic import make_singheart_like
from sparge.services.persistence import save_model
from sparge.services.workflow import encode_cohort, train


def main(out: Path = Path("data_samples"), umap_map: bool = True) -> None:
    """Write every sample file into ``out`` (by default ``./data_samples``, run from the
    repository root); ``umap_map``: also the default model's UMAP map (the longest step,
    whose coordinates depend on numba's arithmetic: the tests compare the other files)."""
    out.mkdir(parents=True, exist_ok=True)
    df, groups = make_singheart_like(683, random_state=0)
    df.to_csv(out / "singheart_synthetic.csv", index=False)
    small, _ = make_singheart_like(60, random_state=1)
    small.to_csv(out / "singheart_small.csv", index=False)
    new, _ = make_singheart_like(5, random_state=2)
    one = new.iloc[[0]].copy()
    one["Subject ID"] = "NEW0001"
    one.drop(columns=["Outcome"]).to_csv(out / "new_patient.csv", index=False)
    (out / "biomarker_groups.json").write_text(json.dumps(groups, indent=1))
    cohort = encode_cohort(df, id_column="Subject ID", label_column="Outcome")
    (out / "encoding_table.csv").write_text(cohort.encoder.table_.to_csv())
    model = train(cohort)
    save_model(out / "default_model.sparge", model, encoder=cohort.encoder)
    if umap_map:
        from sparge.services.maps import MapProjector, map_frame

        coords = MapProjector("umap", random_state=0).fit(model).coords_
        map_frame(model, coords).to_csv(out / "default_map_umap.csv", index=False)
    print(f"wrote {out}: trained on {len(cohort.train_rows)} patients in "
          f"{model.fit_time_:.1f} s")


if __name__ == "__main__":
    import sys

    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("data_samples"))
