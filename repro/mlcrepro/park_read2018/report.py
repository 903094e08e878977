"""Park & Read (2018): the tables and sentences of the Reproduce page, from the evidence.

Each function turns part of an :class:`~mlcrepro.park_read2018.collect.Evidence` (and,
where it shows a verdict, the ledger built from it) into what the page
``book/reproduce_park_read2018`` shows: comparisons in the one shape of
:func:`mlcrepro.display.comparison_table`, small tables of text that fit the column, and
:func:`page_values`, every number and sentence its prose quotes, so that none is typed.
Nothing here computes evidence or adds a row.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from mlcbook.plots.blended import plot_blended_heatmaps
from mlcrepro.display import CompactTable, comparison_table, format_number
from mlcrepro.ledger import Entry, Ledger, derive_status
from mlcrepro.park_read2018 import causes as pc
from mlcrepro.park_read2018 import findings as bf
from mlcrepro.park_read2018 import hypotheses as hy
from mlcrepro.park_read2018.collect import Evidence
from mlcrepro.park_read2018.readings import READINGS
from mlcrepro.park_read2018.tables import BASES, NAMES, fit_report, fit_to_paper, paper_pairs

__all__ = [
    "READING_WORDS",
    "worked_examples",
    "printed_numbers",
    "fit_table",
    "fit_reports",
    "per_setting_fit",
    "heatmap",
    "gamma_choices",
    "optimum_locations",
    "penalty_table",
    "hypotheses_table",
    "FAMILY_WORDS",
    "family_shares",
    "enron_swap_table",
    "literal_table",
    "page_values",
]

#: the readings in the page's words
READING_WORDS = {"lbfgs": "L-BFGS to convergence", "ascent": "gradient ascent from zero"}


def _check(ev: Any) -> Evidence:
    if not isinstance(ev, Evidence):
        raise TypeError(
            "ev must be the Evidence of mlcrepro.park_read2018.evidence(), "
            f"got {type(ev).__name__}"
        )
    return ev


def _frame(ledger: Any) -> pd.DataFrame:
    if not isinstance(ledger, Ledger):
        raise TypeError(f"ledger must be a mlcrepro.ledger.Ledger, got {type(ledger).__name__}")
    return ledger.to_frame()


def _worked_label(e: Entry) -> str:
    """A worked example's row as the table names it, from what the row is about (the
    instance t, z is in the caption): ``Table 1 mean Hamming similarity``,
    ``undetermined TP``; any other row by its claim."""
    about = e.about
    if about.get("table") == "Table 1":
        return f"Table 1 mean {about['measure']} similarity"
    if "quantity" in about:
        return f"{about['setting']} {about['quantity']}"
    return e.claim


def worked_examples(ledger: Ledger) -> CompactTable:
    """Table 1's means and Sec. 2.2's counts beside the paper's, as the ledger judged them.

    The rows of the ledger whose source is Table 1 or Sec. 2.2 and whose values are
    numbers (the totals "4, 4" are an exact row of text, left out), each named by what
    it is about (so ``ledger`` is one :func:`.ledger_rows.ledgers` built: a ledger read
    back from its file does not keep that and shows its claims).
    """
    f = _frame(ledger)
    f["claim"] = [_worked_label(e) for e in ledger.entries]  # what each row is about
    f = f[f["source"].isin(["Table 1", "Sec. 2.2"])].copy()
    f["ours"] = pd.to_numeric(f["ours"], errors="coerce")
    f["paper"] = pd.to_numeric(f["paper"], errors="coerce")
    f["claim_id"] = f["claim_ids"].str.split().str[0]
    f["cause"] = f["cause"].fillna("")
    f = f[f["ours"].notna() & f["paper"].notna()]
    f["tol"] = f["tol"].fillna(0.0)  # an exact row: equal or not
    return comparison_table(
        f[["claim", "ours", "paper", "tol", "status", "claim_id", "cause"]],
        caption="Table 1 and Sec. 2.2 (t = [1 0 1], z = [0.6 0.4 0.2])",
        decimals=2,
    )


def printed_numbers(
    ev: Evidence, measure: str, *, ledger: Ledger | None = None, reading: str | None = None
) -> CompactTable:
    """One of Tables 2-4: every printed number beside ours, with its verdict.

    With ``ledger``: the ledger's numbers (:attr:`Evidence.numbers`) and statuses.  With
    ``reading`` instead: that reading's grid throughout, judged by the ledger's number
    rule at the printed precision (:data:`.hypotheses.PRINTED_TOL`).
    """
    ev = _check(ev)
    if measure not in BASES:
        raise ValueError(f"measure must be one of {list(BASES)}, got {measure!r}")
    if (ledger is None) == (reading is None):
        raise ValueError("give either ledger (the ledger's numbers) or reading, not both")
    if ledger is not None:
        rows = ev.numbers.copy()
        by_id = _frame(ledger).set_index("claim_ids")
        rows["status"] = rows["id"].map(by_id["status"])
        rows["claim_id"] = rows["id"]
        rows["cause"] = rows["id"].map(by_id["cause"].fillna(""))
        words = "the ledger's numbers"
    else:
        if reading not in READINGS:
            raise ValueError(f"reading must be one of {READINGS}, got {reading!r}")
        rows = paper_pairs(ev.grids[reading])
        rows["status"] = [
            derive_status("number", paper_value=float(p), ours_value=o, tol=hy.PRINTED_TOL)
            for p, o in zip(rows["paper"], rows["ours"])
        ]
        words = READING_WORDS[reading]
    rows = rows[rows["measure"] == measure]
    out = pd.DataFrame(
        {
            "data": rows["Data"] + " " + rows["Type"].str.lower(),
            "number": rows["column"],
            "ours": rows["ours"].astype(float),
            "paper": rows["paper"].astype(float),
            "tol": hy.PRINTED_TOL,
            "status": rows["status"],
        }
    )
    # a verdict that does not agree links the ledger row of its printed number (under a
    # reading other than the ledger's, without the cause, which is the ledger reading's)
    out["claim_id"] = rows["id"]
    out["cause"] = rows["cause"] if ledger is not None else ""
    return comparison_table(out, caption=f"{BASES[measure][0]} ({measure}), {words}")


def fit_table(ev: Evidence) -> pd.DataFrame:
    """Mean |ours - paper| over the printed numbers of Tables 2-4, per grid (3 decimals)."""
    ev = _check(ev)
    names = {"earlier": "L-BFGS, γ per dataset, 200 iterations", **READING_WORDS}
    out = ev.fit.rename(index=names).rename_axis("training")
    out.columns = ["numbers", "training halves", "test halves", "all", "largest"]
    return out.round(3)


def per_setting_fit(ev: Evidence) -> pd.DataFrame:
    """Mean |ours - paper| with gamma chosen per alpha and per (alpha, beta), per reading.

    On the datasets of the tables with gamma per setting (Emotions, Scene, Yeast), whose
    fits with gamma per alpha come from the same cross-validation.
    """
    ev = _check(ev)
    grids = {
        f"{READING_WORDS[r]}, γ per {c}": g[g["gamma_choice"] == c]
        for r, g in ev.per_setting.items()
        for c in ("alpha", "setting")
    }
    out = fit_to_paper(grids).rename_axis("training")
    out.columns = ["numbers", "training halves", "test halves", "all", "largest"]
    return out.round(3)


def heatmap(ev: Evidence, half: str) -> Any:
    """The paper's Fig. 1 (``half="train"``) or 2 (``"test"``) from the chosen reading's grid.

    :func:`mlcbook.plots.blended.plot_blended_heatmaps`, the datasets in the paper's order.
    """
    ev = _check(ev)
    return plot_blended_heatmaps(ev.grid, half, datasets=list(NAMES))


def fit_reports(ev: Evidence) -> pd.DataFrame:
    """How every fit of both readings ended (counts of the statuses that occur) and CPU time."""
    ev = _check(ev)
    reports = pd.concat({READING_WORDS[r]: fit_report(ev.grids[r]) for r in READINGS})
    reports = reports.loc[:, reports.any()]
    reports["cpu minutes"] = reports["cpu minutes"].round(1)
    return reports.rename_axis(["reading", "dataset"])


def gamma_choices(ev: Evidence) -> pd.DataFrame:
    """The gammas CV picks over the 11 alphas, per reading and dataset (γ × how often)."""
    ev = _check(ev)
    rows = {}
    for r in READINGS:
        g = ev.grids[r].groupby(["dataset", "alpha"])["gamma"].first()
        for d, gs in g.groupby(level="dataset"):
            counts = gs.value_counts().sort_index()
            rows[(READING_WORDS[r], NAMES[d])] = ", ".join(
                f"{v:g} × {n}" for v, n in counts.items()
            )
    out = pd.Series(rows, name="γ chosen (× alphas)").to_frame()
    return out.rename_axis(["reading", "dataset"])


def optimum_locations(ev: Evidence) -> pd.DataFrame:
    """Per measure, dataset and half: the paper's optimum, ours, and what ours loses there."""
    ev = _check(ev)
    loc = ev.locations
    out = pd.DataFrame(
        {
            "table": loc["table"],
            "data": loc["Data"] + " " + loc["Type"].str.lower(),
            "paper (α, β)": loc["paper"],
            "ours (α, β)": loc["ours"],
            "ours best": loc["ours best"],
            "ours at paper's": loc["ours at paper's"],
            "gap": loc["gap"],
        }
    )
    return out.set_index(["table", "data"]).round(3)


def penalty_table(ev: Evidence) -> pd.DataFrame:
    """Per base of Tables 2-4: the fixed gamma nearest the paper, ours (paper) per half."""
    ev = _check(ev)
    m = ev.penalty_match
    out = pd.DataFrame(
        {
            "data": m["Data"],
            "base": m["column"].where(m["column"] != "Base", m["measure"].str.capitalize()),
            "γ": m["best gamma"].map("{:g}".format),
            "train (paper)": [f"{a:.3f} ({b:.3f})" for a, b in zip(m["train"], m["paper train"])],
            "test (paper)": [f"{a:.3f} ({b:.3f})" for a, b in zip(m["test"], m["paper test"])],
            "distance": m["distance"].round(3),
        }
    )
    return out.set_index(["data", "base"])


#: the row labels of :func:`.hypotheses.moved` tables in the page's words
_MOVE_READINGS = {
    "lbfgs": "L-BFGS",
    "ascent": "ascent",
    "ledger": "the ledger's",
    "ascent→lbfgs": "ascent → L-BFGS",
}


def hypotheses_table(ev: Evidence) -> pd.DataFrame:
    """What each open hypothesis moves: mean |Δ| per half before and after, per reading.

    Numbers as text with three decimals; a hypothesis that could not be computed shows
    dashes.
    """
    ev = _check(ev)
    m = ev.moves
    cols = {
        "train before": "mean |Δ| train before",
        "train after": "mean |Δ| train after",
        "test before": "mean |Δ| test before",
        "test after": "mean |Δ| test after",
    }
    out = pd.DataFrame({k: [format_number(v) for v in m[c]] for k, c in cols.items()})
    for k, c in {"numbers": "numbers", "changed": "status changes"}.items():
        out[k] = [format_number(None if pd.isna(v) else int(v)) for v in m[c]]
    readings = [_MOVE_READINGS.get(r, r) for r in m.index.get_level_values("reading")]
    out.index = pd.MultiIndex.from_arrays(
        [m.index.get_level_values("hypothesis"), readings], names=["hypothesis", "reading"]
    )
    return out


#: the row families of :data:`.hypotheses.FAMILIES` in the page's words
FAMILY_WORDS = {
    "Table 4 bases at beta = 2^7": "Table 4's bases at β = 2⁷",
    "Slashdot panel (corner against the rest)": "Slashdot's panel (its corner)",
    "whole grid (best exact match against the bases)": "the whole grid (the headline)",
}


def family_shares(ev: Evidence) -> pd.DataFrame:
    """The share of trained fits per row family and reading, and the reading it takes."""
    ev = _check(ev)
    shares = {
        FAMILY_WORDS[f]: {
            READING_WORDS[r]: format_number(hy.trained_share(ev.grids[r], f), 2) for r in READINGS
        }
        for f in hy.FAMILIES
    }
    out = pd.DataFrame(shares).T
    out["takes"] = [READING_WORDS[ev.families[f]] for f in hy.FAMILIES]
    return out.rename_axis("rows")


def enron_swap_table(ev: Evidence) -> pd.DataFrame:
    """Table 4's Enron numbers: the paper's row of the same half and of the other, ours."""
    ev = _check(ev)
    sw = ev.enron_swap
    out = pd.DataFrame(
        {
            "paper": sw["paper"],
            "paper, other half": sw["paper, other half"],
            "ours": sw["ours"],
            "Δ as printed": sw["Δ as printed"],
            "Δ swapped": sw["Δ swapped"],
        }
    ).map(format_number)
    out.index = pd.MultiIndex.from_arrays(
        [sw["Type"].str.lower(), sw["column"]], names=["half", "number"]
    )
    return out


def literal_table(ev: Evidence) -> pd.DataFrame:
    """The literal fits' trend per step size (:func:`.findings.literal_trends`), as text."""
    ev = _check(ev)
    t = ev.literal_trends
    out = pd.DataFrame(
        {
            "Spearman ρ": t["Spearman rho"].map(format_number),
            "α → 0": t["alpha -> 0"].map(format_number),
            "α = 1": t["alpha = 1"].map(format_number),
            "rises": t["rises"].map({True: "yes", False: "no"}),
            "steps": t["steps"],
            "stopped by the rule": t["stopped by the rule"],
        }
    )
    out.index = [f"{r:g}" for r in t.index]
    return out.rename_axis("step")


def page_values(ev: Evidence, ledger: Ledger) -> dict[str, Any]:
    """Every number and sentence the page's prose quotes, keyed by its glue name.

    Numbers are plain floats or ints (the page formats them); sentences are MyST text.
    Floats are rounded to 10 decimals, and those below 0.001 in size (rounding errors of a
    check, which the prose prints as ``:.0e``) to one significant digit, those below 1e-12
    (a few units of the last place, or none, depending on the CPU) to 0: the prose prints
    at most 4 decimals, and the last bits of a mean or of a finite difference follow the
    CPU's arithmetic (the page's stored values must not differ between CPUs).
    """
    return {k: _stable(v) for k, v in _page_values(ev, ledger).items()}


def _stable(v: Any) -> Any:
    """``v`` as the page stores it (see :func:`page_values`).

    >>> _stable(2.09e-07), _stable(2.2e-16), _stable(0.12264493289501419), _stable(3)
    (2e-07, 0.0, 0.1226449329, 3)
    """
    if not isinstance(v, float):
        return v
    if abs(v) < 1e-12:
        return 0.0
    if abs(v) < 1e-3:
        return float(f"{v:.0e}")
    return round(v, 10)


def _page_values(ev: Evidence, ledger: Ledger) -> dict[str, Any]:
    ev = _check(ev)
    f = _frame(ledger)
    fit = ev.fit
    h = ev.headline
    wins = bf.headline_wins(h)
    conclusions = {f"pr-hyp-{label[1]}": str(text) for label, text in ev.conclusions.items()}
    verdicts = {
        f"pr-hyp-{label[1]}-verdict": (
            "narrows the gap"
            if str(text).startswith("It narrows")
            else "moves one half closer, the other away"
            if str(text).startswith("It moves")
            else "does not narrow the gap"
        )
        for label, text in ev.conclusions.items()
    }
    status_counts = f["status"].value_counts()
    return {
        "pr-rows": len(f),
        "pr-differ": int(status_counts.get("differs", 0)),
        "pr-numbers": int(fit.loc["ascent", "numbers"]),
        "pr-chosen": READING_WORDS[ev.chosen],
        "pr-fit-ascent": float(fit.loc["ascent", "mean |Δ| all"]),
        "pr-fit-lbfgs": float(fit.loc["lbfgs", "mean |Δ| all"]),
        "pr-fit-test-ascent": float(fit.loc["ascent", "mean |Δ| test"]),
        "pr-fit-test-lbfgs": float(fit.loc["lbfgs", "mean |Δ| test"]),
        "pr-fit-train-ascent": float(fit.loc["ascent", "mean |Δ| train"]),
        "pr-fit-train-lbfgs": float(fit.loc["lbfgs", "mean |Δ| train"]),
        "pr-bases-reading": READING_WORDS[ev.families["Table 4 bases at beta = 2^7"]],
        "pr-penalty-1": bf.penalty_sentence(ev.penalty_match, 1.0),
        "pr-penalty-128": bf.penalty_sentence(ev.penalty_match, 128.0),
        "pr-penalty-rows": pc.penalty_rows_sentence(
            pc.penalty_rows(ev.numbers, ev.penalty_match, ev.causes["penalty"])
        ),
        "pr-cv-determined": "; ".join(
            f"{READING_WORDS[r]}: {', '.join(f'{g:g}' for g in v)}"
            for r, v in ev.cv_determined_gammas.items()
        ),
        "pr-enron-best": ev.enron_best_test,
        "pr-enron-seeds": float(ev.split_spread.xs("as-is", level="features").max().max()),
        "pr-hypotheses": hy.hypotheses_sentence(ev.conclusions),
        "pr-headline-wins": wins,
        "pr-headline-lp": int((h["LP"] > h["blend"]).sum()),
        "pr-headline-n": len(h),
        "pr-limits-worst": float(ev.limits.abs().max()),
        "pr-gradient-settings": len(ev.gradient_errors),
        "pr-gradient-worst": max(ev.gradient_errors),
        "pr-literal-stopped": int(ev.literal_trends["stopped by the rule"].sum()),
        "pr-literal-fits": len(ev.literal),
        "pr-eq8-printed": float(ev.eq8.iloc[0]),
        "pr-eq8-meant": float(ev.eq8.iloc[1]),
        **conclusions,
        **verdicts,
    }
