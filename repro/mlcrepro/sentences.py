"""A ledger's findings in words: the sentences the chapters' boxes and the intro quote.

:func:`findings_sentence` counts a ledger's rows by status and cause kind, in the book's
words (:data:`FINDINGS_WORDS`); :func:`claim_tally` gives the hits and trials of the
ordering a claim states, and :func:`headline_sentence` a paper's headline finding
(:data:`HEADLINES`), so that no chapter types a number the ledgers hold.
"""

from __future__ import annotations

import textwrap  # noqa: F401  (the examples wrap their output)
from collections import Counter

import pandas as pd

from mlcrepro.ledger import CAUSE_KINDS, STATUSES, WORDS

__all__ = [
    "FINDINGS_WORDS",
    "FINDINGS_TERMS",
    "findings_counts",
    "findings_sentence",
    "claim_tally",
    "HEADLINES",
    "headline_sentence",
]

#: how a findings sentence names each status and cause kind (in the ledgers' order): the
#: book's word for it (``mlcrepro.vocabulary.WORDS``), statuses in italics, causes quoted
FINDINGS_WORDS: dict[str, str] = {
    **{s: f"*{WORDS[s]}*" for s in STATUSES},
    **{c: f"the cause *{WORDS[c]}*" for c in CAUSE_KINDS},
}


def findings_counts(ledger: pd.DataFrame) -> dict[str, int]:
    """The counts a findings sentence quotes: ``"rows"``, each status, each cause kind.

    Statuses and cause kinds with no row are left out; the causes counted are those of
    the rows that differ (a row names its cause only then).

    Examples
    --------
    >>> led = pd.DataFrame({"status": ["reproduced", "differs", "differs"],
    ...                     "cause": [None, "tested", "unknown"]})
    >>> findings_counts(led)
    {'rows': 3, 'reproduced': 1, 'differs': 2, 'tested': 1, 'unknown': 1}
    """
    if not isinstance(ledger, pd.DataFrame):
        raise TypeError(f"ledger must be a pandas DataFrame, got {type(ledger).__name__}")
    for col in ("status", "cause"):
        if col not in ledger.columns:
            raise ValueError(f"ledger lacks the column {col!r} (see Ledger.to_frame)")
    bad = sorted(set(ledger["status"]) - set(STATUSES))
    if bad:
        raise ValueError(f"ledger has unknown statuses {bad}; expected {STATUSES}")
    status = Counter(ledger["status"])
    causes = Counter(ledger.loc[ledger["status"] == "differs", "cause"].dropna())
    bad = sorted(set(causes) - set(CAUSE_KINDS))
    if bad:
        raise ValueError(f"ledger has unknown cause kinds {bad}; expected {CAUSE_KINDS}")
    out = {"rows": len(ledger)}
    out.update({s: status[s] for s in STATUSES if status[s]})
    out.update({c: causes[c] for c in CAUSE_KINDS if causes[c]})
    return out


def _series(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


#: each word of :data:`FINDINGS_WORDS` as a link to its definition in the glossary
#: (``book/glossary.md`` defines each word of ``mlcrepro.vocabulary.WORDS`` as a term)
FINDINGS_TERMS: dict[str, str] = {
    **{s: f"{{term}}`{WORDS[s]}`" for s in STATUSES},
    **{c: f"the cause {{term}}`{WORDS[c]}`" for c in CAUSE_KINDS},
}


def findings_sentence(ledger: pd.DataFrame, *, terms: bool = False) -> str:
    """The counts of a chapter's "What this chapter found" box, computed from its ledger.

    One or two sentences of MyST markdown: how many rows the ledger has, how many of
    each status, and for the rows that differ how many name each kind of cause.  With
    ``terms=True`` each status and cause links its definition in the glossary
    (:data:`FINDINGS_TERMS`), as the ``reproduction-finding`` directive shows it.

    A chapter shows it with myst-nb's ``glue``, so that the box quotes the ledger the
    chapter has just built and cannot drift from it.  In ``book/NAME.md``, after the
    ledger is built (``ledger`` a :class:`~mlcrepro.ledger.Ledger`)::

        ```{code-cell} ipython3
        :tags: [remove-cell]
        from IPython.display import Markdown
        from myst_nb import glue
        glue("NAME-findings", Markdown(findings_sentence(ledger.to_frame())), display=False)
        ```

    and in the box, before its prose::

        :::{admonition} What this chapter found
        :class: note
        ```{glue:md} NAME-findings
        :format: myst
        ```
        ...
        :::

    ``tests/book/test_chapter_findings.py`` checks that the glued text of each chapter
    equals this function of its saved ledger (``book/_ledgers/NAME.csv``).

    Examples
    --------
    >>> led = pd.DataFrame({"status": ["reproduced", "differs", "differs", "qualitative"],
    ...                     "cause": [None, "tested", "unknown", None]})
    >>> print(textwrap.fill(findings_sentence(led), 80))
    Of the **4** ledger rows, the status is *reproduced* for **1**, *qualitative*
    for **1** and *differs* for **2**. Of the rows that differ, **1** names the
    cause *tested* and **1** the cause *unknown*.
    >>> print(findings_sentence(led.iloc[:1]))
    Of the **1** ledger rows, the status is *reproduced* for **1**.
    >>> print(textwrap.fill(findings_sentence(led.iloc[:2], terms=True), 80))
    Of the **2** ledger rows, the status is {term}`reproduced` for **1** and
    {term}`differs` for **1**. Of the rows that differ, **1** names the cause
    {term}`tested`.
    """
    words = FINDINGS_TERMS if terms else FINDINGS_WORDS
    n = findings_counts(ledger)
    parts = [f"{words[s]} for **{n[s]}**" for s in STATUSES if s in n]
    text = f"Of the **{n['rows']}** ledger rows, the status is {_series(parts)}."
    causes = [c for c in CAUSE_KINDS if c in n]
    if causes:
        cs: list[str] = []
        for c in causes:
            verb = ("names " if n[c] == 1 else "name ") if not cs else ""
            cs.append(f"**{n[c]}** {verb}{words[c]}")
        text += f" Of the rows that differ, {_series(cs)}."
    return text


def claim_tally(ledgers: pd.DataFrame, claim_id: str) -> tuple[int, int]:
    """On how many of its trials (datasets, folds) the ordering a claim states holds.

    The one ledger row that checks ``claim_id`` must be an ordering row (it stores
    ``hits`` of ``trials``); a chapter quotes the pair in its prose instead of typing it.

    Parameters
    ----------
    ledgers : pandas.DataFrame
        Saved ledger rows (:func:`mlcrepro.ledger.load_ledgers`), with the columns
        ``claim_ids``, ``hits`` and ``trials``.
    claim_id : str
        The claim's id (``"PR158"``).

    Returns
    -------
    tuple of int
        ``(hits, trials)``.

    Raises
    ------
    ValueError
        If no row or more than one checks ``claim_id``, or its row stores no tally.

    Examples
    --------
    >>> rows = pd.DataFrame({"claim_ids": ["PR157", "PR158 PR159"],
    ...                      "hits": [None, 0], "trials": [None, 5]})
    >>> claim_tally(rows, "PR158")
    (0, 5)
    """
    if not isinstance(ledgers, pd.DataFrame):
        raise TypeError(f"ledgers must be a pandas DataFrame, got {type(ledgers).__name__}")
    missing = [c for c in ("claim_ids", "hits", "trials") if c not in ledgers.columns]
    if missing:
        raise ValueError(f"ledgers lacks the columns {missing} (see load_ledgers)")
    if not isinstance(claim_id, str):
        raise TypeError(f"claim_id must be a claim id such as 'PR158', got {claim_id!r}")
    ids = ledgers["claim_ids"].fillna("").astype(str).str.split()
    rows = ledgers[ids.map(lambda i: claim_id in i)]
    if len(rows) != 1:
        raise ValueError(
            f"claim_id {claim_id!r} must be checked by exactly one ledger row, not {len(rows)}"
        )
    hits, trials = rows.iloc[0]["hits"], rows.iloc[0]["trials"]
    if pd.isna(hits) or pd.isna(trials):
        raise ValueError(f"the row of {claim_id!r} stores no tally (hits of trials)")
    return int(hits), int(trials)


#: the headline claim of a ledger's paper, where it is an ordering over several trials: the
#: claim id of its ledger row and what the trials are
HEADLINES: dict[str, tuple[str, str]] = {"blended": ("PR158", "data sets")}


def headline_sentence(ledgers: pd.DataFrame, ledger: str) -> str:
    """The sentence that says how far a paper's headline claim held, or ``""`` if it has none.

    The claim's words are its ledger row's (``claim``), the tally :func:`claim_tally`'s;
    the ledgers with a headline are those of :data:`HEADLINES`.

    Examples
    --------
    >>> rows = pd.DataFrame({"claim_ids": ["PR158"], "claim": ["the blend wins"],
    ...                      "hits": [0], "trials": [5]})
    >>> headline_sentence(rows, "blended")
    "The paper's headline claim, *the blend wins*, holds on **0** of the **5** data sets."
    >>> headline_sentence(rows, "losses")
    ''
    """
    if ledger not in HEADLINES:
        return ""
    claim_id, trials_are = HEADLINES[ledger]
    hits, trials = claim_tally(ledgers, claim_id)
    ids = ledgers["claim_ids"].fillna("").astype(str).str.split()
    claim = ledgers.loc[ids.map(lambda i: claim_id in i), "claim"].iloc[0]
    return (
        f"The paper's headline claim, *{claim}*, holds on **{hits}** of the **{trials}** "
        f"{trials_are}."
    )
