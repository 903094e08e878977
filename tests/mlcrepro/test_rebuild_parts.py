"""A rebuild in parts: each part's record, and the report assembled from every record.

The committed report is checked here too: it is the assembly of the committed records
(not typed), it names every committed table, and each figure it gives for a rebuilt
table is the one in that table's committed provenance.
"""

import json
import math

import pytest

from mlcrepro import cli
from mlcrepro._paths import results_dir
from mlcrepro.papers import experiments
from mlcrepro.rebuild_attribution import differing_tables
from mlcrepro.rebuild_parts import (
    RECORDS,
    assembled_markdown,
    read_records,
    run_record,
    superseded,
    write_record,
)
from mlcrepro.rebuild_report import LedgerChange, RowChange
from mlcrepro.reproduce import Comparison, TableReport
from mlcrepro.sittings import read_sittings, record_sitting


def _report(name, cpu=3.0, within=True, largest=0.0):
    return TableReport(name, 2, cpu, Comparison(name, 4, largest, "v", 0.01, within), 0.5, 4.0)


def _sitting(day, hours, at="09:00"):
    return {"started": f"2026-12-{day:02d}T{at}:00", "wall_seconds": hours * 3600.0,
            "tables": [], "fresh": True}


def test_a_record_comes_back_as_written(tmp_path):
    refused = TableReport("r", 1, 1.0, Comparison.refused("r", 3, "rows differ"), 0.1, None, 2,
                          cpu_by_software=(("Weka's J48", 0.75), ("CLUS", 0.25)))
    # a table whose rows come from runs outside the cells (the authors' Octave runs)
    runs = TableReport("o", 0, 0.0, Comparison("o", 3, 0.0, "v", 0.0, True), 0.1, 0.0,
                       outside="3 runs of their code", outside_cpu_seconds=5400.0,
                       outside_wall_seconds=9000.0)
    change = RowChange("A1", "status", "reproduced", "differs")
    led = LedgerChange("toy", 5, 1, 0, 0, (change,))
    rec = run_record("p", [_report("t"), refused, runs], machine="m", ledgers=[led],
                     follows={("A1", "status"): ("t",)}, sittings=[_sitting(2, 1.5)])
    path = write_record(tmp_path, rec)
    assert path == tmp_path / "p.json"
    (back,) = read_records(tmp_path)
    assert back == json.loads(json.dumps(rec))  # what JSON keeps, nothing lost
    text = assembled_markdown([back], ["t", "r", "o"])
    # the refused table's infinite difference survives the trip through JSON
    assert "| r | 1 | 1.0 | not measured | inf |  | 0 | **outside** (rows differ) |" in text
    assert "| toy | A1 | status | reproduced | differs | follows the rebuilt table t (within" in text
    assert "Wall time: 1.50 h." in text
    # its CPU seconds by software come back, in their order
    assert ("r, CPU seconds by the software that did the cells' work: Weka's J48, 0.8 (75%); "
            "CLUS, 0.2 (25%).") in text
    assert "not yet rebuilt" not in text
    # its runs' time beside it, and outside the cells' totals
    assert "CPU time of the cells: at least 0.00 h. CPU time outside the cells: 1.50 h." in text
    assert ("o: its rows come from 3 runs of their code, outside the cells: 5,400.0 CPU-s "
            "and 9,000.0 s of wall") in text


def test_the_report_adds_the_parts_up_and_names_the_tables_not_rebuilt(tmp_path):
    write_record(tmp_path, run_record("a", [_report("t", cpu=1800.0)], machine="m",
                                      sittings=[_sitting(2, 1.0), _sitting(2, 0.5, "09:30")]))
    write_record(tmp_path, run_record("b", [_report("u", cpu=5400.0)], machine="m",
                                      sittings=[_sitting(3, 2.0)]))
    records = read_records(tmp_path)
    assert [r["part"] for r in records] == ["a", "b"]  # by their first sittings
    text = assembled_markdown(records, ["t", "u", "v"])
    # the two sittings of part a overlap: 09:00-10:00 and 09:30-10:00 cover one hour
    assert "Wall time: 3.00 h. CPU time of the cells: 2.00 h." in text
    assert "- a: 1 table, from a cache emptied on 2026-12-02, 1.00 h of wall in 2 sittings." in text
    assert text.rstrip().endswith("## Tables not yet rebuilt from an emptied cache\n\n- v")


def test_parts_rebuilt_from_one_cache_count_its_sittings_once():
    shared = [_sitting(2, 1.0), _sitting(3, 0.5)]
    recs = [run_record(p, [_report(p)], machine="m", sittings=shared) for p in ("a", "b")]
    assert "Wall time: 1.50 h." in assembled_markdown(recs, ["a", "b"])


def test_a_part_rebuilt_again_replaces_the_records_it_covers(tmp_path):
    write_record(tmp_path, run_record("a", [_report("t")], machine="m"))
    write_record(tmp_path, run_record("b", [_report("u")], machine="m"))
    assert superseded(tmp_path, ["u", "w"]) == [tmp_path / "b.json"]
    write_record(tmp_path, run_record("all", [_report("t"), _report("u")], machine="m"))
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["all.json"]


def test_two_records_of_one_table_are_refused(tmp_path):
    for part in ("a", "b"):
        (tmp_path / f"{part}.json").write_text(json.dumps(
            run_record(part, [_report("t")], machine="m")))
    with pytest.raises(ValueError, match="'t' is in the records of two parts, 'a' and 'b'"):
        read_records(tmp_path)
    with pytest.raises(ValueError, match="part must be a plain name"):
        run_record("../x", [], machine="m")


def test_the_parts_ledger_changes_are_counted_once_per_claim():
    first = LedgerChange("toy", 5, 1, 0, 0, (RowChange("A1", "status", "x", "y"),))
    second = LedgerChange("toy", 5, 1, 1, 0, (RowChange("A1", "status", "y", "z"),
                                              RowChange("A2", "ours", "1", "2")))
    recs = [run_record(p, [_report(p)], machine="m", ledgers=[led])
            for p, led in (("a", first), ("b", second))]
    text = assembled_markdown(recs, ["a", "b"])
    # A1's status changed in both parts: one claim; both steps are listed
    assert "| toy | 5 | 1 | 1 | 0 |" in text
    assert "| toy | A1 | status | x | y |" in text and "| toy | A1 | status | y | z |" in text


def test_the_part_is_named_by_record_else_by_the_paper_else_all():
    def part(*argv):
        name, exps = cli._part(cli._parser().parse_args(["reproduce", *argv]))
        return name, [e.name for e in exps]

    assert part("blended_lp", "--write", "--record", "lp") == ("lp", ["blended_lp"])
    name, tables = part("--paper", "park_read2018", "--record")
    assert name == "park_read2018" and tables == [e.name for e in experiments("park_read2018")]
    assert part("--write", "--record")[0] == "all"


def test_a_record_needs_a_cold_cache_of_the_same_tables(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "cache_dir", lambda: tmp_path)
    root = tmp_path / "reproduce"
    argv = ["reproduce", "--paper", "park_read2018", "--write", "--record"]
    with pytest.raises(ValueError, match="not emptied by its first sitting"):
        cli._reproduce(cli._parser().parse_args(argv))
    record_sitting(root, started="2026-12-02T09:00:00", tables=["blended_lp"])
    with pytest.raises(ValueError, match="not emptied by its first sitting"):
        cli._reproduce(cli._parser().parse_args(argv))
    assert len(read_sittings(root)) == 1  # refused before the run logged a sitting
    for bad, message in (
        (["reproduce", "blended_lp", "--paper", "park_read2018"], "not both"),
        (["reproduce", "blended_lp", "--write", "--record"], "needs the part's name"),
        (["reproduce", "--paper", "park_read2018", "--record"], "needs --write"),
        (["reproduce", "--paper", "nobody2099"], "key must be one of"),
        (["reproduce", "--paper", "hivemall", "--plan"], "hivemall has no result tables"),
    ):
        with pytest.raises(ValueError, match=message):
            cli._reproduce(cli._parser().parse_args(bad))


# ------------------------------------------------------------------ the committed report
def _committed():
    records = read_records(results_dir() / RECORDS)
    assert records, "no part of the cold rebuild is committed"
    return records


def test_the_committed_report_is_assembled_from_the_committed_records():
    records = _committed()
    committed = [e.name for e in experiments()]
    text = (results_dir() / "REPRODUCE.md").read_text(encoding="utf-8")
    assert text == assembled_markdown(records, committed)
    for name in committed:  # rebuilt, or listed as not yet rebuilt
        assert f"| {name} |" in text or f"\n- {name}\n" in text + "\n"


def test_the_committed_records_figures_are_the_tables_provenance():
    for rec in _committed():
        assert rec["sittings"] and rec["sittings"][0]["fresh"], rec["part"]
        for t in rec["tables"]:
            meta = json.loads((results_dir() / f"{t['name']}.json").read_text("utf-8"))
            cpu = meta["cpu_seconds"]
            assert t["cells"] == len(cpu["cells"]), t["name"]
            # the provenance rounds each cell to the millisecond and sums those
            assert math.isclose(t["cpu_seconds"], cpu["total"], abs_tol=1e-6), t["name"]
            walls = meta["wall_seconds"]
            if t["cell_wall_seconds"] is not None:
                assert math.isclose(t["cell_wall_seconds"], walls["total"], abs_tol=1e-6)


def test_a_sitting_stopped_by_a_signal_logs_its_wall_time(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "cache_dir", lambda: tmp_path)

    def stopped(*args, **kwargs):
        cli._exit_on_signal(15, None)  # what SIGTERM does during the run

    monkeypatch.setattr(cli, "reproduce", stopped)
    with pytest.raises(SystemExit) as exit_:
        cli._reproduce(cli._parser().parse_args(["reproduce", "blended_lp", "--fresh"]))
    assert exit_.value.code == 128 + 15
    (sitting,) = read_sittings(tmp_path / "reproduce")
    assert sitting["stopped"] and sitting["fresh"] and sitting["wall_seconds"] >= 0
    assert sitting["tables"] == ["blended_lp"]
    rec = run_record("p", [_report("blended_lp")], machine="m",
                     sittings=[_sitting(2, 1.0, "08:00") | {"wall_seconds": None}, sitting])
    line = next(ln for ln in assembled_markdown([rec], ["blended_lp"]).splitlines()
                if ln.startswith("- p:"))
    assert line.endswith("(1 with no end logged (killed, or still running when the part was "
                         "recorded): its wall time is not counted; "
                         "1 interrupted, counted up to the interruption).")


def test_write_replaces_the_committed_tables_after_the_attribution_read_them(
    tmp_path, monkeypatch
):
    """The attribution puts a ledger change down to the tables that differ from the
    committed ones: it must run while the committed tables are still there."""
    committed, cache = tmp_path / "results", tmp_path / "cache"
    staging = cache / "reproduce" / "staging"
    for folder, rows in ((committed, "v\n1\n"), (staging, "v\n2\n")):
        folder.mkdir(parents=True)
        (folder / "blended_lp.csv").write_text(rows)
        (folder / "blended_lp.json").write_text("{}")
    monkeypatch.setenv("MLCBOOK_RESULTS_DIR", str(committed))
    monkeypatch.setattr(cli, "cache_dir", lambda: cache)
    monkeypatch.setattr(cli, "reproduce", lambda *a, **k: [])
    change = LedgerChange("blended", 1, 1, 0, 0, (RowChange("PR001", "status", "a", "b"),))
    monkeypatch.setattr(cli, "ledger_changes", lambda staging: [change])
    seen = []

    def attribute(staging, changes):
        seen.append(differing_tables(staging, committed))
        return {}

    monkeypatch.setattr(cli, "attribute", attribute)
    cli._reproduce(cli._parser().parse_args(["reproduce", "blended_lp", "--write"]))
    assert seen == [["blended_lp"]]
    assert (committed / "blended_lp.csv").read_text() == "v\n2\n"


def test_a_sitting_running_when_one_part_was_recorded_counts_with_the_end_a_later_part_saw():
    running = {"started": "2026-12-03T05:00:00", "wall_seconds": None, "tables": [], "fresh": False}
    first = run_record("a", [_report("t")], machine="m", sittings=[_sitting(3, 1.0, "02:00"), running])
    later = run_record(
        "b", [_report("u")], machine="m",
        sittings=[_sitting(3, 1.0, "02:00"), running | {"wall_seconds": 1800.0}],
    )
    for records in ([first, later], [later, first]):
        assert "Wall time: 1.50 h." in assembled_markdown(records, ["t", "u"])
    assert "(1 with no end logged (killed, or still running when the part was recorded)" in (
        assembled_markdown([first], ["t"])
    )
