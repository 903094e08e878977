"""The report ``mlcrepro reproduce --report`` writes (``data/results/REPRODUCE.md``).

On two toy tables committed to a temporary results folder, rebuilt by the command on a
one-process local cluster (about 5 s): the report names every committed table of the
folder, and its figures (cells, CPU seconds, wall seconds) are those the tables'
provenance records.  And every committed table of the book is one that
``mlcrepro reproduce`` rebuilds, so that its report names them all.
"""

from __future__ import annotations

import json
import os
from datetime import datetime

import numpy as np
import pandas as pd
import pytest

from mlcrepro import cli, results, runner
from mlcrepro import rebuild_findings as findings
from mlcrepro._paths import cache_dir, results_dir
from mlcrepro.experiment import Experiment
from mlcrepro.ledger import load_ledgers
from mlcrepro.rebuild_report import LedgerChange, RowChange, report_markdown, row_changes
from mlcrepro.reproduce import EXPERIMENTS, Comparison, TableReport
from mlcrepro.sittings import SITTINGS, read_sittings, record_sitting, sittings_text

pytestmark = pytest.mark.slow


def power_cell(fold: int, power: int) -> pd.DataFrame:
    work = float(np.sum(np.sqrt(np.arange(100_000, dtype=float))))
    return pd.DataFrame({"fold": [fold], "value": [float(fold**power)], "work": [work]})


def spec(power: int) -> runner.Spec:
    name = f"toy_power{power}"
    return runner.Spec(name, power_cell, {"fold": range(power + 1)}, {"power": power}, table=name)


def experiment(power: int) -> Experiment:
    name = f"toy_power{power}"

    def load() -> pd.DataFrame:
        return results.load_or_compute(name, lambda: runner.table(spec(power)), {"p": power})

    def software(cell: str) -> str:  # the cells' log names a toy cell by its fold
        return "even folds" if int(cell) % 2 == 0 else "odd folds"

    return Experiment(
        name, load=load, specs=lambda: [spec(power)], volatile=("work",), software=software
    )


TOYS = (experiment(2), experiment(3))


@pytest.fixture
def committed(tmp_path, monkeypatch):
    folder = tmp_path / "results"
    monkeypatch.setenv("MLCBOOK_RESULTS_DIR", str(folder))
    monkeypatch.setenv("MLCBOOK_CACHE_DIR", str(tmp_path / "cache"))
    for e in TOYS:  # committed the direct way, without any timing
        with monkeypatch.context() as m:
            m.setenv("MLCBOOK_RECOMPUTE", e.name)
            e.load()
    monkeypatch.setattr(cli, "experiments", lambda names: list(TOYS))
    return folder


def report_rows(text: str) -> dict[str, list[str]]:
    """table -> its cells in the report's first Markdown table."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header[:4] == ["table", "cells", "CPU s", "wall s"]
    return {
        cols[0]: cols
        for cols in ([c.strip() for c in line.strip("|").split("|")] for line in lines[2:])
    }


def test_the_report_names_every_table_with_its_provenance_figures(committed, tmp_path):
    report = tmp_path / "REPRODUCE.md"
    argv = ["reproduce", "--workers", "1", "--no-ledgers", "--write", "--report", str(report)]
    assert cli.main(argv) == 0
    rows = report_rows(report.read_text(encoding="utf-8"))
    assert set(rows) == {p.stem for p in committed.glob("*.json")} == {e.name for e in TOYS}
    for name, cols in rows.items():
        record = json.loads((committed / f"{name}.json").read_text(encoding="utf-8"))
        cpu, wall = record["cpu_seconds"], record["wall_seconds"]
        n_cells = len(runner.cells(spec(int(name[-1]))))
        assert len(cpu["cells"]) == len(wall["cells"]) == n_cells
        assert cols[1:4] == [str(n_cells), f"{cpu['total']:,.1f}", f"{wall['total']:,.1f}"]
        assert cpu["total"] == pytest.approx(sum(cpu["cells"].values()), abs=1e-9)
        assert cols[-1] == "within tolerance"
        # its CPU seconds by the software that did each cell's work: the provenance's
        # cells added up by the experiment's `software`, largest first
        groups: dict[str, float] = {}
        for key, seconds in cpu["cells"].items():
            fold = int(key.split(":", 1)[1])
            name_ = "even folds" if fold % 2 == 0 else "odd folds"
            groups[name_] = groups.get(name_, 0.0) + seconds
        parts = "; ".join(f"{g}, {v:,.1f} ({v / cpu['total']:.0%})"
                          for g, v in sorted(groups.items(), key=lambda kv: -kv[1]))
        assert (f"{name}, CPU seconds by the software that did the cells' work: {parts}."
                in report.read_text(encoding="utf-8").splitlines())
    # the header's CPU hours are the tables' CPU seconds added up
    total = sum(
        json.loads((committed / f"{e.name}.json").read_text())["cpu_seconds"]["total"]
        for e in TOYS
    )
    text = report.read_text()
    assert f"CPU time of the cells: {total / 3600:.2f} h" in text
    # the sitting is logged in the cache, start and end, and the report adds them up
    (sitting,) = read_sittings(cache_dir() / "reproduce")
    assert sitting["tables"] == [e.name for e in TOYS] and sitting["wall_seconds"] > 0
    assert f"{sitting['wall_seconds'] / 3600:.2f} h in 1 sitting since" in " ".join(text.split())
    # The part of a cell's CPU seconds that Weka's JVM server spent is logged per cell; the
    # provenance adds those parts up, and the report prints the sum beside each table's CPU
    # seconds and in its header.  The toy cells run no J48 (their logged part is 0), so
    # the log's parts are set by hand to 40 % of each cell's CPU seconds, and the tables
    # rebuilt from the cached cells (no cell is computed again, no worker started).
    log = cache_dir() / "reproduce" / "cells" / "cpu_seconds.jsonl"
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines and all(line["helper_cpu_seconds"] == 0.0 for line in lines)
    for line in lines:
        line["helper_cpu_seconds"] = 0.4 * line["cpu_seconds"]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert cli.main(argv) == 0
    text = " ".join(report.read_text(encoding="utf-8").split())
    helper_total = 0.0
    for e in TOYS:
        record = json.loads((committed / f"{e.name}.json").read_text(encoding="utf-8"))
        cpu, helper = record["cpu_seconds"]["total"], record["helper_cpu_seconds"]["total"]
        # the provenance rounds each cell's seconds to the millisecond
        assert helper == pytest.approx(0.4 * cpu, abs=1e-3 * len(lines))
        assert f"{e.name}: {helper:,.1f} of its {cpu:,.1f} CPU-s ({helper / cpu:.0%})" in text
        helper_total += helper
    assert f"of which {helper_total / 3600:.2f} h in Weka's JVM server (J48)." in text
    # A sitting killed without logging its end counts up to the last cell it saved: one
    # logged as started at 08:00 on an earlier day, whose cells are dated 08:20 and 08:30
    # (the next sitting of its tables started later, so they are its own), counts 0.5 h.
    root = cache_dir() / "reproduce"
    record_sitting(root, started="2026-12-01T08:00:00+00:00", tables=[e.name for e in TOYS])
    cells = sorted((root / "cells").rglob("*.npz"))
    for i, cell in enumerate(cells):
        when = datetime.fromisoformat(f"2026-12-01T08:{20 if i else 30}:00+00:00").timestamp()
        os.utime(cell, (when, when))
    assert cli.main(argv) == 0
    text = " ".join(report.read_text(encoding="utf-8").split())
    sittings = read_sittings(root)  # the three runs of this test, and the killed one
    ended = sum(s["wall_seconds"] for s in sittings if s["wall_seconds"] is not None)
    assert len(sittings) == 4
    assert f"Wall time of the whole rebuild: {(1800 + ended) / 3600:.2f} h in 4 sittings" in text
    assert ("1 of them has no end logged (killed, or still running), and it is counted up to "
            "the last cell it saved (a lower bound of its wall time)") in text


def test_a_stopped_sitting_is_counted_but_not_its_time(tmp_path):
    record_sitting(tmp_path, started="2026-12-01T08:00:00", tables=["a"])
    record_sitting(tmp_path, started="2026-12-01T08:00:00", tables=["a"], wall_seconds=3600.0)
    record_sitting(tmp_path, started="2026-12-01T10:00:00", tables=["a", "b"])  # killed
    with open(tmp_path / SITTINGS, "a") as f:
        f.write('{"started": "2026-12-01T1')  # a line cut short by a kill
    record_sitting(tmp_path, started="2026-12-02T08:00:00", tables=["a", "b"], wall_seconds=1800.0)
    walls = [s["wall_seconds"] for s in read_sittings(tmp_path)]
    assert walls == [3600.0, None, 1800.0]
    text = " ".join(sittings_text(read_sittings(tmp_path)).split())
    assert text.startswith("Wall time of the whole rebuild: 1.50 h in 3 sittings")
    assert "1 of them has no end logged (killed, or still running)" in text
    with pytest.raises(ValueError, match="wall_seconds"):
        record_sitting(tmp_path, started="x", tables=[], wall_seconds=-1.0)


def test_every_committed_table_is_rebuilt_by_the_reproduction():
    committed = {p.stem for p in results_dir().glob("*.json")}
    assert committed == {e.name for e in EXPERIMENTS}


def test_differences_are_listed_one_by_one_with_their_judgement(monkeypatch):
    outside = Comparison("t", 2, 0.05, "v", 0.02, False)
    within = Comparison("u", 1, 0.0, "v", 0.02, True)
    led = LedgerChange(
        "toy",
        3,
        1,
        1,
        1,
        (
            RowChange("T1", "status", "differs", "agrees"),
            RowChange("T1", "note", "a | b", ""),
            RowChange("T2", "ours", "0.50", "0.51"),
        ),
    )
    monkeypatch.setattr(findings, "TABLES", {})
    monkeypatch.setattr(findings, "ROWS", {"T2": "the last digit of a sum"})
    reports = [TableReport("t", 2, 3.0, outside, 0.1), TableReport("u", 1, 1.0, within, 0.1)]
    text = report_markdown(reports, wall_seconds=1.0, machine="toy", ledgers=[led])
    assert "- **t**: **not judged**" in text and "- **u**" not in text
    assert "| toy | 3 | 1 | 1 | 1 |" in text
    assert "| toy | T1 | status | differs | agrees | **not judged** |" in text
    assert "| toy | T1 | note | a \\| b | (empty) | **not judged** |" in text
    assert "| toy | T2 | ours | 0.50 | 0.51 | the last digit of a sum |" in text
    monkeypatch.setattr(findings, "TABLES", {"t": "the BLAS kernels"})
    text = report_markdown(reports, wall_seconds=1.0, machine="toy", ledgers=[led])
    assert "- **t**: the BLAS kernels" in text


def test_the_rows_of_two_ledgers_are_compared_field_by_field():
    old = pd.DataFrame(
        {"claim_ids": ["A", "B"], "status": ["agrees", "differs"], "ours": ["1", "2"],
         "cause": ["", "unknown"], "note": ["", "n"]}
    )
    assert row_changes(old, old) == ()
    new = old.assign(ours=["1", "3"])
    assert row_changes(old, new) == (RowChange("B", "ours", "2", "3"),)


def test_every_judged_table_is_a_committed_table():
    assert set(findings.TABLES) <= {e.name for e in EXPERIMENTS}
    assert all(text and not text.endswith(".") for text in findings.TABLES.values())


def test_every_judged_row_is_a_row_of_a_saved_ledger():
    ids = {i.strip() for ids in load_ledgers()["claim_ids"] for i in str(ids).split(",")}
    assert set(findings.ROWS) <= ids
    assert all(text and not text.endswith(".") for text in findings.ROWS.values())

