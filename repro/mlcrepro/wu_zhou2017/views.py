"""The tables of the Reproduce page of Wu & Zhou (2017), in the book's one shape.

Each function turns a piece of the :class:`~mlcrepro.wu_zhou2017.collect.Evidence`, or
rows of the ledger built from it, into a table narrow enough for the text column: a
comparison (labels, ours, the paper's, difference, verdict;
:func:`mlcrepro.display.comparison_table`) or a short table of text with fixed decimals
(:func:`mlcrepro.display.compact_table`).  Nothing here judges: the verdicts are the
ledger's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape

import pandas as pd
from matplotlib.figure import Figure

from mlcbook.plots import plot_ours_vs_paper
from mlcrepro.display import (
    CompactTable,
    compact_table,
    comparison_table,
    format_number,
    ledger_ref,
    verdicts,
)
from mlcrepro.ledger import Entry, Ledger
from mlcrepro.summary import errata as errata_rows
from mlcrepro.summary import errata_html
from mlcrepro.wu_zhou2017 import analysis as A
from mlcrepro.wu_zhou2017 import authors_causes as AC
from mlcrepro.wu_zhou2017 import causes as C
from mlcrepro.wu_zhou2017.collect import Evidence
from mlcrepro.wu_zhou2017.ledger_rows import FIG4, SYNTHETIC_IDS
from mlcrepro.wu_zhou2017.printed import (
    B3_ORDER,
    DS_PAPER,
    METHODS,
    NAMES,
    paper_frame,
    paper_table2,
)

__all__ = [
    "NAMES",
    "conventions_table",
    "claim_verdicts",
    "b3_figure",
    "ledger_comparison",
    "status_counts",
    "rank_comparison",
    "passes_table",
    "authors_table",
    "solvers_table",
    "benchmark_solvers_table",
    "sampling_table",
    "account_table",
    "hypothesis_fits",
    "Report",
    "account_summary",
    "authors_report",
    "variants_report",
    "baselines_report",
    "Errata",
    "errata",
]

#: the claims whose short verdicts the page shows, by group: claim id -> label
_GROUPS: Mapping[str, Callable[[], Mapping[str, str]]] = {
    "table2": lambda: {ids[0]: NAMES[k] for k, ids in paper_table2()[1].items()},
    "synthetic": lambda: {cid: f"reading {i}" for i, cid in enumerate(SYNTHETIC_IDS, 1)},
    "fig4": lambda: {cid: text for text, _, cid in FIG4.values()},
    "rescaling": lambda: {"WZ084": "Table B.1, rescaled", "WZ109": "Table B.2, rescaled"},
}


def claim_verdicts(led: Ledger, group: str) -> CompactTable:
    """Short verdicts of one group of claims: claim, the paper's, ours, the ledger's verdict.

    ``group`` is ``"table2"`` (one line per measure of Table 2: its ✓/✗ pattern),
    ``"synthetic"`` (Sec. 5.1's readings of Figs 2-3), ``"fig4"`` (Fig. 4's readings) or
    ``"rescaling"`` (Tables B.1-B.2's rescaled columns).  A reading is named by the
    ledger row's own claim where the label is a number.
    """
    if group not in _GROUPS:
        raise ValueError(f"group must be one of {sorted(_GROUPS)}, got {group!r}")
    labels = dict(_GROUPS[group]())
    if group == "synthetic":
        by_id = {i: e.claim for e in led.entries for i in e.claim_ids}
        labels = {cid: by_id[cid] for cid in labels}
    return verdicts(led, labels)


def b3_figure(ev: Evidence, dataset: str) -> Figure:
    """Our Table B.3 against the paper's for one dataset, as a grid of dot plots.

    :func:`mlcbook.plots.plot_ours_vs_paper`.  Ours: mean and std over the ten splits of
    every learner (and GFM-marg, ours only); the paper's: its printed mean and std.
    """
    if dataset not in DS_PAPER:
        raise ValueError(f"dataset must be one of {list(DS_PAPER)}, got {dataset!r}")
    rows = [*METHODS, "GFM-marg"]
    frames = [
        ev.mean.loc[dataset].loc[rows],
        ev.std.loc[dataset].loc[rows],
        paper_frame(ev.paper_b3, dataset, "mean"),
        paper_frame(ev.paper_b3, dataset, "std"),
    ]
    frames = [f[B3_ORDER].rename(columns=NAMES) for f in frames]
    return plot_ours_vs_paper(*frames, title=f"{DS_PAPER[dataset]}: ours and the paper's")


#: a label column of :func:`ledger_comparison` -> the key of the rows' ``about`` it shows
_LABEL_KEYS = {"measure": "measure", "learner": "learner", "variant": "learner"}


def ledger_comparison(
    led: Ledger,
    source: str,
    labels: Sequence[str],
    *,
    where: str = "",
    decimals: int = 3,
    caption: str = "",
) -> CompactTable:
    """The numeric rows of ``source`` beside the paper's values, as the ledger judged them.

    The label columns (``"measure"``, ``"learner"`` or ``"variant"``) show what each row
    is about (its ``about``: the measure by the paper's name, the learner); ``where``
    keeps only the rows of one dataset, named as the paper names it (``"CAL500"``, Table
    B.3).  The tolerance is the one the verdict was judged by: half a printed unit, plus
    the paper's standard deviation for a spread.
    """
    unknown = [c for c in labels if c not in _LABEL_KEYS]
    if unknown:
        raise ValueError(f"labels must be among {sorted(_LABEL_KEYS)}, got {unknown}")
    about = {"table": source}
    if where:
        about["dataset"] = {name: d for d, name in DS_PAPER.items()}.get(where, where)
    rows = [e for e in led.where(**about) if e.kind in ("number", "spread")]
    if not rows:
        raise ValueError(f"the ledger has no numeric rows of {source!r} on {where!r}")

    def shown(e: Entry, label: str) -> str:
        value = e.about[_LABEL_KEYS[label]]
        return NAMES[value] if _LABEL_KEYS[label] == "measure" else str(value)

    frame = pd.DataFrame(
        [
            {
                **{label: shown(e, label) for label in labels},
                "ours": e.ours_value,
                "paper": e.paper_value,
                "tol": (e.tol or 0.0) + (e.spread or 0.0),
                "status": e.status,
                **ledger_ref(e),
            }
            for e in rows
        ]
    )
    return comparison_table(frame, labels=labels, decimals=decimals, caption=caption)


def status_counts(led: Ledger, source: str, by: str = "learner") -> pd.DataFrame:
    """How many rows of ``source`` have each status, by what the rows are about (``by``,
    a key of their ``about``: the learner by default)."""
    rows = [(e.about[by], e.status) for e in led.where(table=source)]
    frame = pd.DataFrame(rows, columns=["group", "status"])
    table = pd.crosstab(frame.group, frame.status)
    order = [m for m in METHODS if m in table.index] or list(table.index)
    table = table.loc[order]
    table.index.name, table.columns.name = None, None
    return table


def rank_comparison(ev: Evidence) -> CompactTable:
    """Average ranks over our four datasets: ours, and the paper's own in brackets."""
    ours, paper = ev.average_ranks, ev.paper_average_ranks
    frame = pd.DataFrame(
        {
            m: [
                f"{format_number(ours.loc[k, m], 2)} ({format_number(paper.loc[k, m], 2)})"
                for k in ours.index
            ]
            for m in METHODS
        }
    )
    frame.insert(0, "measure", [NAMES[k] for k in ours.index])
    return compact_table(frame, "average rank, ours (the paper's), over the same four datasets")


def passes_table(ev: Evidence) -> CompactTable:
    """LIMO's ranking measures on bibtex after 10 and 30 passes, beside Table B.3.

    ``between`` says whether the paper's mean lies between ours after 10 and after 30
    passes, strictly (no tolerance); ``within ±`` whether it does once the interval is
    widened by the paper's std and half a printed unit on each side.
    """
    cmp = ev.epochs_comparison
    passes = [c for c in cmp.columns if c.endswith(" passes")]
    p = ev.paper_b3.set_index(["dataset", "method", "measure"])
    rows = []
    for (d, m, k), r in cmp.iterrows():
        std = p.loc[(DS_PAPER[d], m, k), "std"]
        rows.append(
            {
                "variant": m,
                "measure": NAMES[k],
                "paper": f"{format_number(r['paper'], 3)} ± {std}",
                **{c: format_number(r[c], 4) for c in passes},
                "between": "yes" if r["between"] else "no",
                "within ±": "yes" if r["bracketed"] else "no",
            }
        )
    return compact_table(pd.DataFrame(rows))


def authors_table(ev: Evidence) -> CompactTable:
    """LIMO inside the authors' protocol: the paper, their code (Octave), ours twice."""
    a = ev.authors_limo
    frame = pd.DataFrame(
        {
            "dataset": a.dataset,
            "measure": [NAMES[k] for k in a.measure],
            "paper": [format_number(v, 3) for v in a.paper],
            "their code": [format_number(v, 4) for v in a.authors_mean],
            "seed sd": [format_number(v, 4) for v in a.authors_sd],
            "ours, Alg. 1": [format_number(v, 4) for v in a.ours_algorithm1],
            "ours, code's": [format_number(v, 4) for v in a.ours_released_code],
        }
    )
    return compact_table(frame)


def conventions_table(ev: Evidence) -> CompactTable:
    """The baselines' macro-F1 on our splits by this book's F1 convention and the authors'."""
    conv = ev.conventions
    conv = conv[conv.measure == "macro_f1"].groupby(["dataset", "method"], sort=False)["value"]
    rows = []
    for (dataset, method), values in conv:
        cell = ev.paper_b3[
            (ev.paper_b3.dataset == DS_PAPER[dataset])
            & (ev.paper_b3.method == method)
            & (ev.paper_b3.measure == "macro_f1")
        ]
        if cell.empty:
            continue  # GFM-marg: not a row of Table B.3
        mean, std = cell["mean"].iloc[0], cell["std"].iloc[0]
        theirs = float(values.mean())
        rows.append(
            {
                "dataset": DS_PAPER[dataset],
                "method": method,
                "paper": f"{format_number(float(mean), 3)} ± {format_number(float(std), 3)}",
                "ours, F1 = 1": format_number(
                    float(ev.mean.loc[(dataset, method), "macro_f1"]), 4
                ),
                "ours, F1 = 0": format_number(theirs, 4)
                + (" ✔" if AC.within_paper(theirs, mean, std) else ""),
            }
        )
    return compact_table(
        pd.DataFrame(rows),
        "macro-F1, mean of the ten splits; F1 = 1 or 0: what a label with no true and no "
        "predicted positive scores (this book's default, the authors'); ✔: within the "
        "paper's std (plus half a printed unit)",
    )


def solvers_table(ev: Evidence) -> CompactTable:
    """BR through LIBSVM (the paper's) and LIBLINEAR (ours) beside the paper's BR."""
    s = ev.authors_solvers
    frame = pd.DataFrame(
        {
            "dataset": list(s.dataset),
            "measure": [NAMES[k] for k in s.measure],
            "paper": [
                f"{format_number(m, 3)} ± {format_number(sd, 3)}"
                for m, sd in zip(s.paper, s.paper_std)
            ],
            "LIBSVM": [
                format_number(v, 4) + (" ✔" if w else "")
                for v, w in zip(s.libsvm, s.libsvm_within)
            ],
            "LIBLINEAR": [
                format_number(v, 4) + (" ✔" if w else "")
                for v, w in zip(s.liblinear, s.liblinear_within)
            ],
        }
    )
    return compact_table(frame, "✔: within the paper's std (plus half a printed unit)")


def benchmark_solvers_table(ev: Evidence) -> CompactTable:
    """BR through both solvers on medical's and bibtex's splits, measured the authors' way,
    on the cells where the benchmark's BR (LIBLINEAR, the book's convention) misses the
    paper's std."""
    means = ev.solvers.groupby(["dataset", "measure", "method"], sort=False)["value"].mean()
    rows = []
    for dataset, measure in dict.fromkeys(zip(ev.solvers.dataset, ev.solvers.measure)):
        cell = ev.paper_b3[
            (ev.paper_b3.dataset == DS_PAPER[dataset])
            & (ev.paper_b3.method == "BR")
            & (ev.paper_b3.measure == measure)
        ].iloc[0]
        ours = float(ev.mean.loc[(dataset, "BR"), measure])
        if AC.within_paper(ours, cell["mean"], cell["std"]):
            continue
        row = {
            "dataset": DS_PAPER[dataset],
            "measure": NAMES[measure],
            "paper": f"{format_number(float(cell['mean']), 3)} ± "
            f"{format_number(float(cell['std']), 3)}",
            "ours": format_number(ours, 4),
        }
        for method, label in (("BR-LIBSVM", "LIBSVM"), ("BR-LIBLINEAR", "LIBLINEAR")):
            v = float(means.loc[(dataset, measure, method)])
            row[label] = format_number(v, 4) + (
                " ✔" if AC.within_paper(v, cell["mean"], cell["std"]) else ""
            )
        rows.append(row)
    return compact_table(
        pd.DataFrame(rows),
        "mean of the ten splits; ours: the benchmark's BR (LIBLINEAR, this book's "
        "conventions); LIBSVM, LIBLINEAR: BR through each solver, measured by the authors' "
        "code; ✔: within the paper's std (plus half a printed unit)",
    )


def sampling_table(ev: Evidence) -> CompactTable:
    """LIMO's two readings of its sampling: measures within the paper's std, of eleven."""
    s = ev.sampling
    frame = pd.DataFrame(
        {
            "dataset": s.dataset,
            "variant": s.method,
            "Alg. 1 (printed)": [f"{a} of {n}" for a, n in zip(s.algorithm1, s.measures)],
            "code's sampling": [f"{a} of {n}" for a, n in zip(s.released_code, s.measures)],
        }
    )
    return compact_table(frame)


def account_table(ev: Evidence) -> CompactTable:
    """The thresholding account read off on bibtex beside demo.m's rules and the paper."""
    c = ev.bibtex_check.reset_index()
    frame = pd.DataFrame(
        {
            "measure": c.measure,
            "variant": c.variant,
            "paper": [
                f"{format_number(m, 3)} ± {format_number(s, 3)}" for m, s in zip(c.paper, c["std"])
            ],
            "account": [
                format_number(v, 3) + (" ✔" if w else "")
                for v, w in zip(c.account, c["account within std"])
            ],
            "demo.m": [
                format_number(v, 3) + (" ✔" if w else "")
                for v, w in zip(c.code, c["code within std"])
            ],
        }
    )
    return compact_table(frame, "✔: the mean of the splits within the paper's std")


def hypothesis_fits(ev: Evidence, measure: str = "macro_f1") -> CompactTable:
    """Mean |hypothesis - paper| per variant over CAL500, medical and enron, best first.

    :func:`.analysis.per_variant_fit` and :func:`.analysis.hypothesis_fit` (over all
    nine cells) of :func:`.analysis.hypotheses_summary`.
    """
    summary = A.hypotheses_summary(ev.thresholds, ev.paper_b3, measure)
    per = A.per_variant_fit(summary)
    per["all nine"] = A.hypothesis_fit(summary)
    per = per.sort_values("all nine", kind="stable")
    shown = per.map(lambda v: format_number(v, 3)).rename_axis("hypothesis").reset_index()
    return compact_table(shown, f"mean |ours - paper| of {NAMES[measure]}, best first")


class Report:
    """Lines of text: a list on the page, the lines themselves as text (and inline)."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str) or not text.strip():
            raise ValueError("text must be a non-empty string")
        self.text = text

    def _repr_html_(self) -> str:
        lines = [escape(line.strip()) for line in self.text.splitlines() if line.strip()]
        if len(lines) == 1:
            return f"<p>{lines[0]}</p>"
        return "<ul class='simple'>" + "".join(f"<li>{x}</li>" for x in lines) + "</ul>"

    def __repr__(self) -> str:
        return self.text


def account_summary(ev: Evidence) -> Report:
    """What the thresholding account does on bibtex, in one sentence (the ledger's cause)."""
    return Report(C.account_cause(ev.bibtex_check, "bibtex").text)


def authors_report(ev: Evidence) -> Report:
    """:func:`.authors_causes.authors_code_report` of the runs inside the authors' protocol."""
    return Report(AC.authors_code_report(ev.authors_limo, ev.paper_b3, NAMES))


def variants_report(ev: Evidence) -> Report:
    """:func:`.authors_causes.variants_report` of LIMO-inst and LIMO-label there."""
    return Report(AC.variants_report(ev.authors_variants, NAMES))


def baselines_report(ev: Evidence) -> Report:
    """Per baseline inside the authors' protocol: how many measures meet the paper's std."""
    lines = []
    for label, b3_name, ours in (
        ("BR, LIBSVM", "BR", "BR-LIBSVM"),
        ("BR, LIBLINEAR", "BR", "BR-LIBLINEAR"),
        ("ML-kNN", "ML-kNN", "ML-kNN"),
        ("GFM", "GFM", "GFM"),
    ):
        missed = AC.method_within(ev.authors_baselines, ev.paper_b3, b3_name, ours)
        said = "; ".join(
            f"{DS_PAPER[d]} {11 - len(m)} of 11"
            + (f" (not {', '.join(NAMES[k] for k in m)})" if m else "")
            for d, m in missed.items()
        )
        lines.append(f"{label}: within the paper's std on {said}")
    return Report("\n".join(lines))


class Errata:
    """The errata of one ledger: HTML for the page, one line per erratum as text."""

    def __init__(self, table: pd.DataFrame) -> None:
        self.table = table

    def _repr_html_(self) -> str:
        return errata_html(self.table, titles={c: "this page" for c in self.table.chapter})

    def __repr__(self) -> str:
        return "\n".join(f"{r.source}: {r.claim}. {r.proof}" for r in self.table.itertuples())


def errata(led: Ledger) -> Errata:
    """The ledger's rows whose cause is an error of the paper, each with its proof and a
    link to its row (:func:`mlcrepro.summary.errata`, :func:`~mlcrepro.summary.errata_html`).
    """
    return Errata(errata_rows(led.to_frame().assign(chapter=led.chapter, paper_ref=led.paper)))
