"""What travels with the wheels: the committed tables in the reproduction's package, the
datasets in the data bundle, and the errors a student meets when either is missing.

The installed copies are stood in for here (a folder of tables taken as the package's, a
package ``mlcbook_data`` on ``sys.path``); ``make handouts`` runs the real wheels in a
fresh environment.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import mlcrepro._paths as repro_paths
import mlcrepro.results as results
from mlcbook.datasets import fetch
from mlcbook.datasets.registry import SHA256

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
from downloads import PACKAGED_RESULTS, install_line, stage_sources, wheel_names  # noqa: E402

TABLE = "knn_fig4"  # a table a Learn chapter reads (knn)
HASHED = "blended_lp"  # a table whose provenance records its sha256 (not every one does)


def _mirror() -> Path:
    mirror = ROOT.parent / "shared" / "datasets"
    if not (mirror / "flags.arff").is_file():
        pytest.fail(f"needs the dataset mirror with flags.arff; looked in {mirror}")
    return mirror


def test_the_checkout_reads_its_tables_from_data_results():
    assert repro_paths.in_checkout()
    assert repro_paths.results_dir() == ROOT / "data" / "results"
    assert repro_paths.PACKAGED_RESULTS == PACKAGED_RESULTS  # the wheel's folder, one name


def test_the_wheels_sources_carry_every_committed_table_unchanged(tmp_path):
    stage_sources(ROOT, tmp_path / "src")
    packaged = tmp_path / "src" / "repro" / "mlcrepro" / PACKAGED_RESULTS
    committed = sorted(p for p in (ROOT / "data" / "results").iterdir()
                       if p.suffix in (".csv", ".json"))
    assert sorted(p.name for p in packaged.iterdir()) == [p.name for p in committed]
    for p in committed:
        assert (packaged / p.name).read_bytes() == p.read_bytes(), p.name
    # the pyproject of the reproduction declares them package data
    assert f'"{PACKAGED_RESULTS}/*.csv"' in (ROOT / "repro" / "pyproject.toml").read_text()


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The reproduction as if installed from its wheel: no checkout, tables in the package."""
    packaged = tmp_path / "site-packages" / "mlcrepro" / PACKAGED_RESULTS
    packaged.mkdir(parents=True)
    for name in (TABLE, HASHED):
        for suffix in (".csv", ".json"):
            shutil.copy2(ROOT / "data" / "results" / f"{name}{suffix}", packaged)
    monkeypatch.delenv("MLCBOOK_RESULTS_DIR", raising=False)
    for module in (repro_paths, results):
        monkeypatch.setattr(module, "in_checkout", lambda: False)
        monkeypatch.setattr(module, "packaged_results", lambda: packaged)
    return packaged


def test_an_installed_copy_reads_the_packaged_table_by_name(installed):
    table = results.committed_table(TABLE)
    direct = results.committed_table(TABLE, folder=ROOT / "data" / "results")
    assert table.equals(direct) and table.shape[0] > 0


def test_an_installed_copy_without_the_table_says_what_to_install(installed):
    (installed / f"{TABLE}.csv").unlink()
    with pytest.raises(results.StaleResultError) as err:
        results.committed_table(TABLE)
    text = str(err.value)
    assert "mlcbook_repro-" in text and "Get the code" in text and repr(TABLE) in text
    # no maintainer's command, no path of the install prefix
    assert "make table" not in text and "data/results" not in text
    assert str(installed) not in text


def test_an_installed_copy_with_a_damaged_table_says_to_reinstall(installed):
    csv = installed / f"{HASHED}.csv"
    csv.write_bytes(csv.read_bytes()[:-40])  # truncated
    with pytest.raises(results.StaleResultError, match="differs from the table") as err:
        results.committed_table(HASHED)
    assert "--force-reinstall" in str(err.value) and str(installed) not in str(err.value)


def test_an_installed_copy_does_not_recompute_into_its_package(installed, monkeypatch):
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", TABLE)
    with pytest.raises(results.StaleResultError, match="source archive"):
        results.load_or_compute(TABLE, lambda: None, {"k": 1})
    assert sorted(p.name for p in installed.iterdir()) == sorted(
        f"{n}{s}" for n in (TABLE, HASHED) for s in (".csv", ".json"))


# ----------------------------------------------------------------------- the data bundle
@pytest.fixture
def bundle(tmp_path, monkeypatch):
    """A data bundle ``mlcbook_data`` on ``sys.path`` holding flags.arff, and an empty cache."""
    files = tmp_path / "bundle" / fetch.BUNDLE_PACKAGE / "files"
    files.mkdir(parents=True)
    (files.parent / "__init__.py").write_text("")
    shutil.copy2(_mirror() / "flags.arff", files / "flags.arff")
    monkeypatch.syspath_prepend(str(tmp_path / "bundle"))
    monkeypatch.delitem(sys.modules, fetch.BUNDLE_PACKAGE, raising=False)
    monkeypatch.delenv("MLCBOOK_DATA_MIRROR", raising=False)
    monkeypatch.setenv("MLCBOOK_DATA", str(tmp_path / "cache"))
    yield files
    sys.modules.pop(fetch.BUNDLE_PACKAGE, None)  # the stand-in imported here goes with it


def test_a_dataset_comes_from_the_installed_bundle_checked(bundle):
    path, source = fetch.fetch_file("flags.arff", SHA256["flags.arff"], download=False)
    assert source == "bundle:mlcbook_data"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == SHA256["flags.arff"]


def test_a_damaged_bundle_file_is_refused(bundle):
    (bundle / "flags.arff").write_bytes((bundle / "flags.arff").read_bytes()[:-10])
    with pytest.raises(fetch.ChecksumError, match="the data bundle"):
        fetch.fetch_file("flags.arff", SHA256["flags.arff"], download=False)
    assert not (fetch.cache_dir() / "flags.arff").exists()


def test_without_bundle_or_network_the_error_names_the_bundle(tmp_path, monkeypatch):
    monkeypatch.delenv("MLCBOOK_DATA_MIRROR", raising=False)
    monkeypatch.setenv("MLCBOOK_DATA", str(tmp_path / "cache"))
    monkeypatch.setattr(fetch, "bundle_dir", lambda: None)
    with pytest.raises(fetch.DataNotFoundError) as err:
        fetch.fetch_file("flags.arff", SHA256["flags.arff"], download=False)
    assert f"mlcbook_data-{version('mlcbook')}-py3-none-any.whl" in str(err.value)
    assert "Get the code" in str(err.value)


def test_the_install_line_names_the_three_wheels_the_site_builds():
    names = wheel_names(ROOT)
    assert install_line(ROOT) == "pip install " + " ".join(names)
    assert [n.split("-")[0] for n in names] == ["mlcbook", "mlcbook_repro", "mlcbook_data"]
    assert all(n.endswith("-py3-none-any.whl") for n in names)
