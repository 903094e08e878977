"""The learners of Hüllermeier et al. (2022) and their names: one table, read both ways.

One job: say once what each learner of Sec. 5 is called by the study (the registry's
name, :mod:`mlcbook.learners.registry`), by the paper (its figures, the ledgers and the
pages) and by the authors' released results (their algorithm key).  Every other module
reads the names here: :func:`paper_name` (study -> paper), :func:`study_name` (paper ->
study), :func:`study_learner` (paper -> the study's cell learner) and
:func:`paper_names` (a table's ``learner`` column, study -> paper).

========  =================  ====================================
paper     study              authors' key
========  =================  ====================================
BR        ``BR-J48``         ``br``
CC        ``CC-J48``         ``cc``
LP        ``LP-J48``         ``lc`` (MEKA's ``LC``)
RAkEL     ``RAkEL-J48``      ``rakel-k`` (one key per k)
PCT       ``PCT-CLUS``       ``clus``
EPCT      ``EPCT-CLUS``      ``clus-ensemble``
BOOMER-1  ``BOOMER-1-2021``  ``boomer_label_wise_logistic_loss``
BOOMER-K  ``BOOMER-K-2021``  ``boomer_example_wise_logistic_loss``
========  =================  ====================================

RAkEL is one learner of the study whose cell holds one member per labelset size k, with
m = L - k + 1 members of its ensemble (L the labels trained on): the member
``RAkEL-J48-k2-m5`` of the study is ``RAkEL-k2-m5`` in the paper's naming, or
``RAkEL-k2`` for short (the authors ran one m per k and dataset).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import pandas as pd

from mlcbook.validation import check_bool

__all__ = [
    "LearnerName",
    "LEARNER_NAMES",
    "PAPER_NAMES",
    "STUDY_NAMES",
    "paper_name",
    "study_name",
    "study_learner",
    "paper_names",
]


@dataclass(frozen=True)
class LearnerName:
    """One learner of Sec. 5 under its three names.

    Attributes
    ----------
    paper : str
        The paper's name (figures, ledgers, pages).
    study : str
        The study's (the registry's) name, a cell learner of the study.
    authors : str
        The authors' algorithm key in their released results (RAkEL: ``rakel-k``, one
        key per labelset size k).
    """

    paper: str
    study: str
    authors: str


#: the learners of Sec. 5, in the paper's order: the one table of their names
LEARNER_NAMES: tuple[LearnerName, ...] = (
    LearnerName("BR", "BR-J48", "br"),
    LearnerName("CC", "CC-J48", "cc"),
    LearnerName("LP", "LP-J48", "lc"),
    LearnerName("RAkEL", "RAkEL-J48", "rakel-k"),
    LearnerName("PCT", "PCT-CLUS", "clus"),
    LearnerName("EPCT", "EPCT-CLUS", "clus-ensemble"),
    LearnerName("BOOMER-1", "BOOMER-1-2021", "boomer_label_wise_logistic_loss"),
    LearnerName("BOOMER-K", "BOOMER-K-2021", "boomer_example_wise_logistic_loss"),
)

#: study name -> paper name (the table read one way)
PAPER_NAMES: Mapping[str, str] = MappingProxyType({n.study: n.paper for n in LEARNER_NAMES})
#: paper name -> study name (the table read the other way)
STUDY_NAMES: Mapping[str, str] = MappingProxyType({n.paper: n.study for n in LEARNER_NAMES})

_STUDY_MEMBER = re.compile(r"RAkEL-J48-k([1-9]\d*)-m([1-9]\d*)")
_PAPER_MEMBER = re.compile(r"RAkEL-k([1-9]\d*)(?:-m([1-9]\d*))?")


def paper_name(study: str, *, rakel_m: bool = True) -> str:
    """The paper's name of a study learner or RAkEL member.

    Parameters
    ----------
    study : str
        A key of :data:`PAPER_NAMES` or a RAkEL member ``RAkEL-J48-k{k}-m{m}``.
    rakel_m : bool
        Keep a RAkEL member's m (``RAkEL-k2-m5``); False drops it (``RAkEL-k2``).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        ``study`` is no study name.

    Examples
    --------
    >>> paper_name("BR-J48"), paper_name("BOOMER-K-2021")
    ('BR', 'BOOMER-K')
    >>> paper_name("RAkEL-J48-k2-m5"), paper_name("RAkEL-J48-k2-m5", rakel_m=False)
    ('RAkEL-k2-m5', 'RAkEL-k2')
    """
    rakel_m = check_bool(rakel_m, "rakel_m")
    if isinstance(study, str) and study in PAPER_NAMES:
        return PAPER_NAMES[study]
    m = _STUDY_MEMBER.fullmatch(study) if isinstance(study, str) else None
    if m is None:
        raise ValueError(
            f"study must be a study learner ({', '.join(PAPER_NAMES)}) or a RAkEL member "
            f"'RAkEL-J48-k<k>-m<m>', got {study!r}"
        )
    return f"RAkEL-k{m[1]}-m{m[2]}" if rakel_m else f"RAkEL-k{m[1]}"


def study_name(paper: str) -> str:
    """The study's name of a paper learner or of a RAkEL member with its m.

    Parameters
    ----------
    paper : str
        A key of :data:`STUDY_NAMES` or ``RAkEL-k{k}-m{m}``.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        ``paper`` is no paper name, or a RAkEL member without its m (``RAkEL-k2``
        names the members of k = 2 on every dataset, whose m differ; see
        :func:`study_learner`).

    Examples
    --------
    >>> study_name("LP"), study_name("RAkEL-k2-m5")
    ('LP-J48', 'RAkEL-J48-k2-m5')
    >>> all(study_name(paper_name(s)) == s for s in PAPER_NAMES)
    True
    """
    if isinstance(paper, str) and paper in STUDY_NAMES:
        return STUDY_NAMES[paper]
    m = _PAPER_MEMBER.fullmatch(paper) if isinstance(paper, str) else None
    if m is None or m[2] is None:
        raise ValueError(
            f"paper must be a paper learner ({', '.join(STUDY_NAMES)}) or a RAkEL member "
            f"'RAkEL-k<k>-m<m>', got {paper!r}"
        )
    return f"RAkEL-J48-k{m[1]}-m{m[2]}"


def study_learner(paper: str) -> str:
    """The study's cell learner (one of the study's learners) a paper name belongs to.

    Examples
    --------
    >>> study_learner("RAkEL-k2"), study_learner("RAkEL-k2-m5"), study_learner("PCT")
    ('RAkEL-J48', 'RAkEL-J48', 'PCT-CLUS')
    """
    if isinstance(paper, str) and _PAPER_MEMBER.fullmatch(paper):
        return STUDY_NAMES["RAkEL"]
    if isinstance(paper, str) and paper in STUDY_NAMES:
        return STUDY_NAMES[paper]
    raise ValueError(
        f"paper must be a paper learner ({', '.join(STUDY_NAMES)}) or a RAkEL member "
        f"'RAkEL-k<k>[-m<m>]', got {paper!r}"
    )


def paper_names(table: pd.DataFrame, *, rakel_short: bool = True) -> pd.DataFrame:
    """A table with the paper's learner names in its ``learner`` column.

    Parameters
    ----------
    table : pandas.DataFrame
        A column ``learner`` at least, of study names (:func:`paper_name`) or already
        the paper's (kept; a RAkEL member is shortened when ``rakel_short``).
    rakel_short : bool
        Also drop RAkEL's m: the authors ran each k with one m, m = L - k + 1 (L the
        label count their experimenter trained on: K, but 12 on flags), so one name
        (``RAkEL-k2``) means the same k on every dataset.

    Returns
    -------
    pandas.DataFrame
        A copy with the ``learner`` column renamed.

    Examples
    --------
    >>> t = pd.DataFrame({"learner": ["BR-J48", "RAkEL-J48-k2-m11", "LP", "RAkEL-k3-m5"]})
    >>> paper_names(t)["learner"].tolist()
    ['BR', 'RAkEL-k2', 'LP', 'RAkEL-k3']
    >>> paper_names(t, rakel_short=False)["learner"].tolist()
    ['BR', 'RAkEL-k2-m11', 'LP', 'RAkEL-k3-m5']
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas DataFrame, got {type(table).__name__}")
    if "learner" not in table.columns:
        raise ValueError("table lacks the column 'learner'")
    rakel_short = check_bool(rakel_short, "rakel_short")
    new = {}
    for learner in table["learner"].unique():
        if not isinstance(learner, str):
            raise TypeError(f"table: learner names must be str, got {learner!r}")
        m = _PAPER_MEMBER.fullmatch(learner)
        if m is not None:  # already the paper's name of a RAkEL member
            new[learner] = f"RAkEL-k{m[1]}" if rakel_short or m[2] is None else learner
        elif learner in STUDY_NAMES:
            new[learner] = learner
        else:
            new[learner] = paper_name(learner, rakel_m=not rakel_short)
    out = table.copy()
    out["learner"] = table["learner"].map(new)
    return out
