"""The package's one-way layers (issue 11), checked by import-linter's contracts in
``pyproject.toml``, and the app's entry points reaching the library only from above."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["method", "estimator", "data", "services", "app"]


def test_import_linter_contracts_are_kept():
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.fail("import-linter is not installed (requirements-dev.txt)")
    run = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_every_library_module_sits_in_a_layer():
    top = {p.stem for p in (ROOT / "sparge").glob("*.py")}
    assert top == {"__init__", "__main__", "cli", "errors"}, top
    for layer in LAYERS:
        assert (ROOT / "sparge" / layer / "__init__.py").exists()


def test_the_method_core_imports_only_arrays_and_errors():
    for path in (ROOT / "sparge" / "method").glob("*.py"):
        for name in _imports(path):
            if name.startswith("sparge"):
                assert name.startswith(("sparge.method", "sparge.errors")), (path, name)


@pytest.mark.parametrize("path", [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))],
                         ids=lambda p: p.name)
def test_pages_import_no_method_internals(path):
    """Pages stay thin: they call services, the app helpers or the public API."""
    for name in _imports(path):
        assert not name.startswith("sparge.method"), (path.name, name)


def test_library_import_does_not_load_streamlit():
    code = ("import sys, sparge, sparge.cli, sparge.services.workflow, sparge.services.maps, "
            "sparge.services.teaching, sparge.services.display; "
            "print('streamlit' in sys.modules, 'plotly' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=120).stdout.split()
    assert out == ["False", "False"]


def test_pyproject_ships_every_layer_and_the_samples():
    import tomllib

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = set(cfg["tool"]["setuptools"]["packages"])
    layers = {f"sparge.{p.parent.name}" for p in (ROOT / "sparge").glob("*/__init__.py")}
    assert packages == {"sparge", "sparge.samples"} | layers
    assert cfg["tool"]["setuptools"]["package-dir"]["sparge.samples"] == "data_samples"
    deps = " ".join(cfg["project"]["dependencies"])
    for lib in ("numpy", "scipy", "pandas", "scikit-learn"):
        assert lib in deps
    assert "streamlit" not in deps and "streamlit" in " ".join(
        cfg["project"]["optional-dependencies"]["app"])


def test_samples_found_by_path_or_environment(monkeypatch, tmp_path):
    from sparge.services.samples import ENV_VAR, sample_files

    assert sample_files(ROOT / "data_samples").default_model.exists()
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert sample_files().root == tmp_path
    monkeypatch.delenv(ENV_VAR)
    # not installed (this checkout on the path): the checkout's own samples
    assert sample_files().default_model.exists()


def test_without_samples_the_error_names_the_ways_to_give_them(monkeypatch, tmp_path):
    from sparge.services import samples

    monkeypatch.delenv(samples.ENV_VAR, raising=False)
    monkeypatch.setattr(samples, "_checkout_samples", lambda: None)
    monkeypatch.setattr(samples.resources, "files", lambda name: (_ for _ in ()).throw(
        ModuleNotFoundError(name)))
    with pytest.raises(FileNotFoundError, match="SPARGE_SAMPLES"):
        samples.sample_files()


def test_tests_mirror_the_layers():
    for layer in LAYERS:
        assert list((ROOT / "tests" / layer).glob("test_*.py")), layer
    loose = {p.name for p in (ROOT / "tests").glob("test_*.py")}
    assert loose == {"test_architecture.py", "test_bench_quick.py", "test_bench_scripts.py",
                     "test_cli.py"}, loose


def test_no_source_file_holds_a_control_character():
    """A regular expression edited through an unescaped string held backspaces where its
    word boundaries were ("\\bmeds\\b" as BS-meds-BS): the pattern matched nothing, and
    no test said so. No source file may hold a control character but tab and newline."""
    bad = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
    found = [f"{p.relative_to(ROOT)}:{n}"
             for folder in ("sparge", "pages", "tests", "bench")
             for p in sorted((ROOT / folder).rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if bad.search(line)]
    assert not found, found
