"""Hospital-sized cohorts on Dask: embed every patient, find look-alikes among them all.

Built on ``dask.dataframe`` (a partitioned CSV or Parquet cohort read one partition per
task) and ``dask.distributed`` (a ``LocalCluster`` by default, or any cluster given its
scheduler address; the code is the same):

- :func:`embed_cohort` encodes and embeds every partition with a fitted ``Encoder`` and
  ``SparGE`` and writes an *embedded cohort*: IDs, outcome, embedding and forest leaves in
  Parquet, one file per partition, and a manifest (:mod:`sparge.services.embedded_cohort`);
- :func:`cohort_lookalikes` finds the ``k`` look-alikes of query patients among all the
  embedded patients: an exact top-``k`` per partition, merged in a tree on the workers,
  then distances, similarities, sparse weights and outcome shares on the client.

The model travels to the workers as its file's bytes and is loaded there by
:func:`sparge.load_model` once per worker process (never pickled). On a multi-machine
cluster the source and output folders must be visible to every worker under the same path
(a shared file system), and every worker needs this package and
``requirements-scale.txt``.
"""

from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sparge.data.safe_text import plain_text as _q
from sparge.data.tables import norm_key
from sparge.errors import DataError
from sparge.services.embedded_cohort import (
    MANIFEST,
    STATS_META,
    CohortManifest,
    candidates_meta,
    embed_partition,
    leaf_columns,
    lookalike_table,
    merge_topk,
    model_fingerprint,
    partition_topk,
    read_manifest,
)

PARQUET_SUFFIXES = (".parquet", ".parq", ".pq")
CSV_SUFFIXES = (".csv", ".tsv", ".txt")
#: Partition results merged per task in the look-alike search's merge tree.
SPLIT_EVERY = 8


def require_dask() -> None:
    """Raise a DataError saying how to install Dask when it is not installed."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as exc:
        raise DataError(f"This needs Dask ({exc.name} is not installed): "
                        "pip install -r requirements-scale.txt") from exc


@contextmanager
def dask_client(scheduler=None, *, n_workers: int | None = None, threads_per_worker: int = 1,
                processes: bool = True, memory_limit="auto", timeout: float = 10.0,
                **cluster_options) -> Iterator:
    """A ``distributed.Client``: on the cluster at ``scheduler``, or on a new LocalCluster.

    Parameters
    ----------
    scheduler : str, Client or None
        A scheduler address (``tcp://host:8786``) of a running cluster; a ``Client``
        (used as it is, not closed); ``None``: a ``LocalCluster`` for the block.
    n_workers, threads_per_worker, processes, memory_limit
        The LocalCluster's workers (default: one single-threaded worker process per CPU;
        Dask sets single-threaded BLAS in worker processes).
    timeout : float
        Seconds to wait for a scheduler.
    **cluster_options
        More ``LocalCluster`` options (e.g. ``protocol``).
    """
    require_dask()
    from distributed import Client, LocalCluster

    if isinstance(scheduler, Client):
        yield scheduler
        return
    if scheduler:
        try:
            client = Client(str(scheduler), timeout=timeout)
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise DataError(f"Cannot connect to the Dask scheduler at {_q(scheduler, 100)} "
                            f"({type(exc).__name__}: {_q(exc, 300)}). Check the address, "
                            "e.g. tcp://10.0.0.5:8786, and that the scheduler is running."
                            ) from exc
        try:
            yield client
        finally:
            client.close()
        return
    n = int(n_workers or max(1, os.cpu_count() or 1))
    with LocalCluster(n_workers=n, threads_per_worker=threads_per_worker,
                      processes=processes, memory_limit=memory_limit,
                      dashboard_address=None, **cluster_options) as cluster, \
            Client(cluster) as client:
        yield client


# ---------------------------------------------------------------- reading a source cohort
def find_source_files(source) -> tuple[str, list[Path]]:
    """The files of a partitioned cohort and their format (``"parquet"`` or ``"csv"``).

    ``source`` is a folder (its ``*.parquet`` files, else its ``*.csv`` files), one file,
    or a glob pattern (``extract/part-*.csv``). Files are taken in name order.
    """
    text = str(source)
    path = Path(text)
    if path.is_dir():
        files = sorted(f for f in path.iterdir() if f.is_file()
                       and f.suffix.lower() in PARQUET_SUFFIXES)
        if not files:
            files = sorted(f for f in path.iterdir() if f.is_file()
                           and f.suffix.lower() in CSV_SUFFIXES)
        if not files:
            raise DataError(f"The folder {_q(text)} holds no .parquet or .csv files.")
    elif path.is_file():
        files = [path]
    elif any(c in text for c in "*?["):
        files = sorted(Path(f) for f in glob.glob(text) if Path(f).is_file())
        if not files:
            raise DataError(f"No file matches {_q(text)}.")
    else:
        raise DataError(f"The cohort {_q(text)} does not exist (give a folder of .parquet "
                        "or .csv files, one file, or a pattern such as 'extract/*.csv').")
    kinds = {("parquet" if f.suffix.lower() in PARQUET_SUFFIXES else
              "csv" if f.suffix.lower() in CSV_SUFFIXES else f.suffix or "(none)")
             for f in files}
    if len(kinds) > 1 or not kinds <= {"parquet", "csv"}:
        raise DataError(f"The cohort {_q(text)} must be .parquet or .csv files of one "
                        f"kind; found {sorted(_q(k, 20) for k in kinds)}.")
    return kinds.pop(), files


def _read_csv_file(path: str, header: list[str]) -> pd.DataFrame:
    """One CSV partition, read as the app and the CLI read a table (text cells), with the
    columns of the cohort's first file (``header``). (Not named ``columns``: from_map
    would pass its column projection there.)"""
    from sparge import read_table

    df = read_table(path)
    missing = [c for c in header if c not in df.columns]
    if missing:
        raise DataError(f"{_q(Path(path).name, 100)} lacks {len(missing)} column(s) of the "
                        f"cohort's first file, e.g. {[_q(c, 40) for c in missing[:3]]}: every "
                        "file of a cohort needs the same header.")
    return df[header]


def _csv_columns(path: Path) -> pd.DataFrame:
    """The empty frame (columns) of a CSV partition, from its first megabyte."""
    from sparge import read_table

    with open(path, "rb") as fh:
        head = fh.read(1 << 20)
    cut = head.rfind(b"\n") + 1 if len(head) == 1 << 20 else len(head)
    try:
        return read_table(head[:cut] if cut else head).iloc[:0]
    except DataError:
        return read_table(str(path)).iloc[:0]  # the whole file names the problem


def _check_parquet_columns(files: list[Path]) -> None:
    """Every file holds the columns of the first (read from the files' footers only)."""
    import pyarrow.parquet as pq

    first = None
    for f in files:
        names = pq.read_schema(f).names
        if first is None:
            first = names
            continue
        missing = [c for c in first if c not in names]
        if missing:
            raise DataError(f"{_q(f.name, 100)} lacks {len(missing)} column(s) of the "
                            f"cohort's first file, e.g. {[_q(c, 40) for c in missing[:3]]}: "
                            "every file of a cohort needs the same columns.")


def _arrow_errors() -> tuple[type[BaseException], ...]:
    try:
        import pyarrow as pa

        return (pa.ArrowException, OSError)
    except ImportError:  # pragma: no cover - pyarrow comes with requirements-scale.txt
        return (OSError,)


def read_cohort(source, columns=None):
    """A partitioned cohort as a Dask DataFrame, one partition per file.

    Parquet through ``dask.dataframe.read_parquet`` (only ``columns`` are read); CSV through
    ``dask.dataframe.from_map`` with :func:`sparge.read_table` per file, so every cell is read
    as the app and the CLI read it.

    Parameters
    ----------
    source : str or Path
        See :func:`find_source_files`.
    columns : list of str, optional
        Columns to keep, matched case- and space-insensitively (absent ones are skipped).

    Returns
    -------
    frame : dask.dataframe.DataFrame
    fmt : str
        ``"parquet"`` or ``"csv"``.
    """
    require_dask()
    import dask.dataframe as dd

    fmt, files = find_source_files(source)
    try:
        if fmt == "parquet":
            _check_parquet_columns(files)
            ddf = dd.read_parquet([str(f) for f in files])
        else:
            meta = _csv_columns(files[0])
            ddf = dd.from_map(_read_csv_file, [str(f) for f in files],
                              args=[list(meta.columns)], meta=meta, enforce_metadata=False,
                              label="read-csv-cohort")
    except _arrow_errors() as exc:
        raise DataError(f"Cannot read the cohort {_q(source)} as {fmt}: "
                        f"{_q(exc, 300)}") from exc
    if columns is not None:
        wanted = {norm_key(c) for c in columns}
        ddf = ddf[[c for c in ddf.columns if norm_key(c) in wanted]]
    return ddf, fmt


def _input_error(exc: BaseException, reading: str) -> BaseException:
    """What to raise for an exception from the workers: unreadable files and workers that
    died become DataErrors saying so; anything else (a bug, an interrupt) stays as is."""
    from distributed.scheduler import KilledWorker

    if isinstance(exc, DataError):
        return exc
    if isinstance(exc, KilledWorker):
        return DataError("A Dask worker died on this task, most often from lack of memory: "
                         "split the cohort into smaller partitions (files), or use workers "
                         "with more memory or fewer threads.")
    if isinstance(exc, _arrow_errors()):
        return DataError(f"{reading}: {_q(exc, 300)}")
    return exc


def _match_column(columns, name: str | None) -> str | None:
    """The source column whose name matches ``name`` (case- and space-insensitively)."""
    if name is None:
        return None
    if name in columns:
        return name
    hits = [c for c in columns if norm_key(c) == norm_key(name)]
    return hits[0] if hits else None


# ---------------------------------------------------------------- embedding a cohort
@dataclass
class EmbedSummary:
    """What :func:`embed_cohort` did."""

    out_dir: Path
    manifest: CohortManifest
    partitions: pd.DataFrame  # one row per source partition (:data:`STATS_META`)
    seconds: float
    notes: list[str] = field(default_factory=list)

    @property
    def patients_per_second(self) -> float:
        return self.manifest.n_patients / max(self.seconds, 1e-9)


def _model_payload(model) -> tuple[bytes, object, object]:
    """``(file bytes, model, encoder)`` of a model path, file bytes or (model, encoder)."""
    from sparge import load_model, model_to_bytes

    if isinstance(model, tuple):
        est, encoder = model
        data = model_to_bytes(est, encoder)
    else:
        if isinstance(model, bytes | bytearray):
            data = bytes(model)
        else:
            try:
                data = Path(model).read_bytes()
            except OSError as exc:
                raise DataError(f"Cannot read the model file {_q(model)} "
                                f"({exc.strerror or exc}).") from exc
        est, encoder = load_model(data)
    if encoder is None:
        raise DataError("This model file has no encoder; train it with `python -m sparge "
                        "train` (or save it with its Encoder) to embed a cohort.")
    return data, est, encoder


def _prepare_out_dir(out_dir, source, overwrite: bool) -> Path:
    out = Path(out_dir).absolute()
    if out.exists() and not out.is_dir():
        raise DataError(f"The output {_q(out)} is a file; give a folder.")
    if out.is_dir() and any(out.iterdir()):
        ours = [f for f in out.iterdir()
                if f.name == MANIFEST or (f.name.startswith("part-")
                                          and f.suffix == ".parquet")]
        if not overwrite or len(ours) < len(list(out.iterdir())):
            raise DataError(f"The output folder {_q(out)} is not empty; give a new folder"
                            + ("" if len(ours) < len(list(out.iterdir())) else
                               ", or add --overwrite to replace the embedded cohort in it")
                            + ".")
        for f in ours:
            f.unlink()
    src = Path(str(source))
    if src.is_dir() and src.resolve() == out.resolve():
        raise DataError("The output folder must not be the source folder.")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"Cannot create the output folder {_q(out)} "
                        f"({exc.strerror or exc}).") from exc
    if not os.access(out, os.W_OK):
        raise DataError(f"The output folder {_q(out)} is not writable.")
    return out


def _summed_notes(stats: pd.DataFrame) -> list[str]:
    """The partitions' encoding notes, added up (one line each)."""
    import json

    warnings: dict[str, None] = {}
    unknown: dict[str, int] = {}
    stray: dict[str, int] = {}
    no_value = 0
    for text in stats["notes"]:
        n = json.loads(text)
        warnings.update(dict.fromkeys(n["warnings"]))
        for kind, acc in (("unknown", unknown), ("stray", stray)):
            for col, count in n[kind].items():
                acc[col] = acc.get(col, 0) + count
        no_value += n["no_value"]
    lines = list(warnings)
    lines += [f"Column '{_q(c, 80)}': {v:,} value(s) not in the encoding table were set to "
              "missing." for c, v in unknown.items()]
    lines += [f"Column '{_q(c, 80)}': {v:,} cell(s) that are not numbers were set to missing."
              for c, v in stray.items()]
    if no_value:
        lines.append(f"{no_value:,} patient(s) with no value the model knows were left out.")
    return lines


def _select_columns(ddf, encoder, id_column, label_column):
    """The columns the encoder reads, the ID and the outcome, the latter two renamed to
    the names the encoder looks for. Returns ``(frame, id_name, label_name or None)``
    (``None``: the cohort has no outcome column)."""
    id_name = id_column or encoder.id_column
    if id_name is None:
        raise DataError("The model's encoder has no patient ID column; give the cohort's "
                        "ID column (--id).")
    id_src = _match_column(ddf.columns, id_name)
    if id_src is None:
        raise DataError(f"The cohort has no patient ID column '{_q(id_name, 80)}' (its "
                        f"columns start {[_q(c, 40) for c in list(ddf.columns)[:6]]}); "
                        "give it with --id.")
    label_name = label_column or encoder.label_column
    label_src = _match_column(ddf.columns, label_name)
    if label_column is not None and label_src is None:
        raise DataError(f"The cohort has no outcome column '{_q(label_column, 80)}'.")
    needed = {norm_key(c) for c in getattr(encoder, "encoded_columns_", None) or ddf.columns}
    keep = [c for c in ddf.columns if c in (id_src, label_src) or norm_key(c) in needed]
    rename = {id_src: id_name}
    if label_src is not None:
        rename[label_src] = label_name
    ddf = ddf[keep].rename(columns={k: v for k, v in rename.items() if k != v})
    return ddf, str(id_name), None if label_src is None else str(label_name)


def embed_cohort(model, source, out_dir, *, client=None, local_cluster: dict | None = None,
                 id_column: str | None = None, label_column: str | None = None,
                 overwrite: bool = False,
                 progress: Callable[[int, int, int], None] | None = None) -> EmbedSummary:
    """Encode and embed every patient of a partitioned cohort, partition by partition.

    Parameters
    ----------
    model : str, Path, bytes or (SparGE, Encoder)
        A model file saved with its encoder (``python -m sparge train``), its bytes, or the
        pair.
    source : str or Path
        Partitioned CSV or Parquet cohort (:func:`find_source_files`).
    out_dir : str or Path
        New (or empty) folder for the embedded cohort; visible to every worker.
    client : Client, str or None
        A ``distributed.Client``, a scheduler address, or ``None`` for a LocalCluster
        started after the input is checked and closed at the end.
    local_cluster : dict, optional
        Options of that LocalCluster (:func:`dask_client`: ``n_workers``, ``processes``...).
    id_column : str, optional
        The source's patient ID column (default: the encoder's). Required one way or the
        other: look-alikes are reported by ID.
    label_column : str, optional
        The outcome column to carry (default: the encoder's, when the source has it).
    overwrite : bool
        Replace an embedded cohort already in ``out_dir`` (other files are never removed).
    progress : callable, optional
        ``progress(partitions_done, partitions, patients_embedded)`` after each partition.

    Returns
    -------
    EmbedSummary
    """
    require_dask()
    from dask import delayed
    from distributed import as_completed

    t0 = time.perf_counter()
    data, est, encoder = _model_payload(model)
    ddf, fmt = read_cohort(source)
    ddf, id_name, label_name = _select_columns(ddf, encoder, id_column, label_column)
    out = _prepare_out_dir(out_dir, source, overwrite)
    fingerprint = model_fingerprint(est)
    columns = {"id_column": id_name, "label_column": label_name or encoder.label_column}
    key = f"{fingerprint}:{sorted(columns.items())}"
    payload = delayed((key, data, columns), pure=True)
    stats = ddf.map_partitions(embed_partition, payload, str(out), label_name,
                               meta=STATS_META, enforce_metadata=False)
    parts = stats.to_delayed()
    rows, done, embedded = [], 0, 0
    with dask_client(client, **(local_cluster or {})) as c:
        futures = c.compute(parts)
        try:
            for fut in as_completed(futures):
                row = fut.result()
                rows.append(row)
                done += 1
                embedded += int(row["embedded"].sum())
                if progress is not None:
                    progress(done, len(parts), embedded)
        except BaseException as exc:
            c.cancel(futures)
            for f in out.glob("part-*.parquet"):  # the folder held none of ours before
                f.unlink(missing_ok=True)
            raise _input_error(exc, f"Cannot read the cohort {_q(source)} as {fmt}") from exc
    table = pd.concat(rows, ignore_index=True).sort_values("partition", ignore_index=True)
    Y_train, L_train = est.lookalike_parts()
    manifest = CohortManifest(
        model_fingerprint=fingerprint, n_components=int(Y_train.shape[1]),
        n_trees=0 if L_train is None else int(L_train.shape[1]),
        forest_scale=float(getattr(est, "forest_scale_", 0.0) or 0.0),
        id_column=str(id_name), outcome_column=label_name,
        n_patients=int(table["embedded"].sum()),
        files=[f for f in table["file"] if f], source=str(source),
        skipped_no_value=int(table["no_value"].sum()),
        seconds=round(time.perf_counter() - t0, 3))
    if manifest.n_patients == 0:
        raise DataError(f"No patient of {_q(source)} has a value the model knows; nothing "
                        "was embedded.")
    manifest.write(out)
    return EmbedSummary(out, manifest, table, time.perf_counter() - t0, _summed_notes(table))


# ---------------------------------------------------------------- look-alikes in a cohort
@dataclass
class CohortLookalikes:
    """The look-alikes of query patients among an embedded cohort."""

    table: pd.DataFrame  # query, rank, ID, distance, similarity, sparse_weight[, outcome]
    outcome_shares: pd.DataFrame  # query x outcome: share among look-alikes with one
    n_patients: int  # patients searched
    seconds: float


def cohort_lookalikes(model, X_query, cohort_dir, *, n_neighbors: int = 10, query_ids=None,
                      exclude_self: bool = True, client=None,
                      local_cluster: dict | None = None) -> CohortLookalikes:
    """The ``n_neighbors`` look-alikes of query patients among every embedded patient.

    The same look-alikes, distances, similarities and sparse weights as
    :meth:`SparGE.lookalikes` would give if the embedded patients were its training
    patients: an exact search over all of them (top-``k`` per partition on the workers,
    merged in a tree of :data:`SPLIT_EVERY` partitions per task).

    Parameters
    ----------
    model : SparGE
        The model the cohort was embedded with (checked by fingerprint).
    X_query : array-like or DataFrame of shape (q, m)
        Encoded query patients (e.g. from ``encode_new_patients``).
    cohort_dir : str or Path
        An embedded cohort (:func:`embed_cohort`).
    n_neighbors : int
        Capped at the number of embedded patients.
    query_ids : sequence of str, optional
        IDs of the queries: the ``query`` column of the table; with ``exclude_self`` a
        cohort patient with the query's ID is not its own look-alike.
    client, local_cluster
        As :func:`embed_cohort`.
    """
    require_dask()
    import dask.dataframe as dd
    from dask import delayed

    t0 = time.perf_counter()
    man = read_manifest(cohort_dir)
    if man.model_fingerprint != model_fingerprint(model):
        raise DataError("The embedded cohort was embedded with another model; embed it "
                        "again with this model, or query it with the model that embedded it.")
    own = [str(v) for v in query_ids] if (exclude_self and query_ids is not None) else None
    # a query that is a cohort patient has one candidate less
    k = int(min(int(n_neighbors), man.n_patients - (own is not None and man.n_patients > 1)))
    if k < 1:
        raise DataError("n_neighbors must be at least 1.")
    Yq, Lq = model.lookalike_parts(X_query)
    if (Lq is None) != (man.n_trees == 0):
        raise DataError("The embedded cohort and the model disagree about the forest part; "
                        "embed the cohort again.")
    if query_ids is not None and len(query_ids) != len(Yq):
        raise ValueError(f"{len(query_ids)} query IDs for {len(Yq)} queries")
    cols = ["ID"] + (["outcome"] if man.has_outcome else []) + man.embedding_columns \
        + leaf_columns(man.n_trees)
    files = [str(Path(cohort_dir).absolute() / f) for f in man.files]
    try:
        ddf = dd.read_parquet(files, columns=cols)
    except _arrow_errors() as exc:
        raise DataError(f"Cannot read the embedded cohort: {_q(exc, 300)}") from exc
    queries = delayed((np.asarray(Yq, dtype=np.float64),
                       None if Lq is None else np.asarray(Lq).astype(np.int32), own),
                      pure=True)
    meta = candidates_meta(man.n_components, man.has_outcome)
    cands = ddf.map_partitions(partition_topk, queries, k, man.forest_scale, man.has_outcome,
                               meta=meta, enforce_metadata=False)
    best = cands.reduction(_same, combine=merge_topk, aggregate=merge_topk,
                           combine_kwargs={"k": k}, aggregate_kwargs={"k": k}, meta=meta,
                           split_every=SPLIT_EVERY)
    with dask_client(client, **(local_cluster or {})) as c:
        try:
            merged = c.compute(best).result()
        except Exception as exc:
            raise _input_error(exc, "Cannot read the embedded cohort") from exc
    table, shares = lookalike_table(model, Yq, merged, k,
                                    query_ids if query_ids is not None else None,
                                    man.has_outcome)
    return CohortLookalikes(table, shares, man.n_patients, time.perf_counter() - t0)


def _same(df: pd.DataFrame) -> pd.DataFrame:
    return df
