"""What the command line prints and what it loads: the loss profile summarised or in full,
every number rounded in text (parameters included), a note for each interval that does
not exist, progress bars only on a terminal, the environment variables in ``--help``, and
no heavy library imported before a command needs it (start-up is measured in
``benchmarks/bench_cli.py``, not here)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import numpy as np
import pytest

from mlcbook import cli
from mlcbook._evaluation import profile_params
from mlcbook.losses import loss_profile
from mlcbook.profiles import ALPHAS

from .cli_run import run_in_process as run
from .cli_run import run_process


def files(tmp_path, n=60, K=40, seed=0):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < 0.2).astype(int)
    F = rng.random((n, K)) + 0.4 * Y
    P = (F > 0.8).astype(int)
    head = ",".join(f"c{j}" for j in range(K))
    for name, A, fmt in (("y.csv", Y, "%d"), ("p.csv", P, "%d"), ("f.csv", F, "%.17g")):
        np.savetxt(tmp_path / name, A, fmt=fmt, delimiter=",", header=head, comments="")
    return Y, P, F


def test_the_profile_is_summarised_by_default_and_printed_in_full_on_request(tmp_path):
    Y, P, _ = files(tmp_path)
    ks, alphas = profile_params(40, "summary")
    assert ks == sorted({round(40 ** (i / 9)) for i in range(10)})  # 10 log-spaced points
    assert ks == [1, 2, 3, 5, 8, 12, 18, 27, 40]
    assert alphas == [float(a) for a in ALPHAS][::4] and alphas[0] == 1 and alphas[-1] == 1000
    js = json.loads(run("evaluate", tmp_path / "y.csv", tmp_path / "p.csv", "--format",
                        "json").stdout)
    assert js["profile"]["binomial"]["param"] == ks
    np.testing.assert_array_equal(js["profile"]["binomial"]["loss"],
                                  loss_profile(Y, P, "binomial", ks))
    full = json.loads(run("evaluate", tmp_path / "y.csv", tmp_path / "p.csv", "--format",
                          "json", "--profile", "full").stdout)
    assert full["profile"]["binomial"]["param"] == list(range(1, 41))
    assert full["profile"]["polynomial"]["param"] == [float(a) for a in ALPHAS]
    text = run("evaluate", tmp_path / "y.csv", tmp_path / "p.csv").stdout
    assert len(text.splitlines()) < 60  # K = 40: 17 profile rows, not 65
    none = run("evaluate", tmp_path / "y.csv", tmp_path / "p.csv", "--profile", "none")
    assert none.returncode == 0 and "loss profiles" not in none.stdout
    bad = run("evaluate", tmp_path / "y.csv", tmp_path / "p.csv", "--profile", "none",
              "--plot", tmp_path / "x.png")
    assert bad.returncode == 2 and "--plot draws the loss profile" in bad.stderr


_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")


def _significant(token: str) -> int:
    mantissa = token.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa.rstrip("0")) if "." not in token else len(mantissa)


@pytest.mark.parametrize("digits", [3, 4])
def test_every_number_in_text_is_rounded_parameters_included(tmp_path, digits):
    files(tmp_path)
    out = run("evaluate", tmp_path / "y.csv", tmp_path / "p.csv", "--scores", tmp_path / "f.csv",
              "--ci", "0.9", "--resamples", "99", "--beta", "1.333521432163324",
              "--digits", digits, "--profile", "full").stdout
    body = out.split("\n", 1)[1]  # the title names the labels c0..c39
    numbers = [t for t in _NUMBER.findall(body) if t not in ("0.9",)]
    assert numbers and max(_significant(t) for t in numbers) <= digits, out
    assert f"{10 ** 0.5:.{digits}g}" in out and "3.1622776601683795" not in out  # alpha
    assert "1.333521432163324" not in out and "macro_f1.334 " in out  # beta in the name


def test_a_note_says_why_an_interval_is_missing(tmp_path):
    files(tmp_path)
    args = ("evaluate", tmp_path / "y.csv", tmp_path / "p.csv", "--scores", tmp_path / "f.csv",
            "--ci", "0.95", "--resamples", "99")
    text = run(*args).stdout
    assert "macro_auc: no interval (macro AUC counts pairs of instances" in text
    assert re.search(r"^macro_auc\s+\S+\s+-\s+-$", text, re.M)
    js = json.loads(run(*args, "--format", "json").stdout)
    assert "macro_auc" not in js["intervals"] and "micro_auc" not in js["intervals"]
    assert any(n.startswith("micro_auc: no interval") for n in js["notes"])
    rows = run(*args, "--format", "csv").stdout.splitlines()
    assert rows[0] == "table,name,param,value,low,high,note"
    macro = next(r for r in rows if r.startswith("measure,macro_auc,"))
    assert macro.endswith(",,,no interval (macro AUC counts pairs of instances: not a sum "
                          "over instances)")
    cmp = run("compare", tmp_path / "y.csv", tmp_path / "p.csv", tmp_path / "p.csv",
              "--scores-a", tmp_path / "f.csv", "--scores-b", tmp_path / "f.csv",
              "--resamples", "49", "--permutations", "49", "--measures", "ranking_loss,roc_auc")
    assert cmp.returncode == 0 and "roc_auc: not compared, no interval" in cmp.stdout


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


@pytest.mark.parametrize("env,tty,shown", [
    (None, True, True), (None, False, False), ("1", False, True), ("0", True, False),
])
def test_progress_only_on_a_terminal_unless_the_environment_says(monkeypatch, env, tty, shown):
    if env is None:
        monkeypatch.delenv("MLCBOOK_PROGRESS", raising=False)
    else:
        monkeypatch.setenv("MLCBOOK_PROGRESS", env)
    monkeypatch.setattr(sys, "stderr", _Stream(tty))
    assert cli._show_progress() is shown


def test_help_lists_the_environment_variables():
    res = run_process("--help")
    assert res.returncode == 0
    for name in ("MLCBOOK_PROGRESS", "MLCBOOK_DATA", "MLCBOOK_DATA_MIRROR",
                 "MLCBOOK_DATA_DOWNLOAD", "XDG_CACHE_HOME"):
        assert name in res.stdout, name
    assert "MLCBOOK_PROGRESS" in run_process("evaluate", "--help").stdout


HEAVY = ("numpy", "scipy", "sklearn", "pandas", "matplotlib")


def _loaded_after(code: str) -> list[str]:
    probe = (
        "import sys, contextlib, io\n"
        f"{code}\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout.strip().replace("'", '"'))


def test_help_imports_nothing_heavy_and_evaluate_no_pandas_sklearn_or_matplotlib(tmp_path):
    assert _loaded_after(
        "from mlcbook import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n        cli.main(['evaluate', '--help'])\n"
        "    except SystemExit:\n        pass"
    ) == []
    files(tmp_path, n=5, K=3)
    code = (
        "from mlcbook import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert cli.main(['evaluate', {str(tmp_path / 'y.csv')!r}, "
        f"{str(tmp_path / 'p.csv')!r}, '--scores', {str(tmp_path / 'f.csv')!r}]) == 0"
    )
    assert _loaded_after(code) == ["numpy", "scipy"]
