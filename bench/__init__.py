"""SparGE's benchmarks, run from the repository root as modules.

    python -m bench.quality --quick
    python -m bench.run_all --quick

Scripts (``core_speed``, ``quality``, ``robustness``, ``weight_vote``, ``paper_table``,
``scale``, ``tune``, ``run_all``) import only the shared modules: ``common`` (paths,
synthetic shapes, timing), ``report`` (Markdown tables, publishing), ``splits`` (the
stratified 70/30 protocol), ``cohorts`` (the real cohorts), ``peers`` (the compared
representations) and ``scores`` (look-alike measures).
"""
