"""Hivemall's four claims as ledger rows, built here and hosted by the measures ledger.

Hivemall has no ledger of its own (its ``PAPER.ledgers`` is empty): its rows stand in
the ledger of the standard measures, on the Reproduce page it shares with Zhang & Zhou
(2014). :func:`~mlcrepro.hivemall.rows` is the only place they are added;
the host's ``ledgers`` takes them in as a guest
(:func:`mlcrepro.zhang_zhou2014.ledgers`), so that no paper folder imports another. The
printed values come with their claim ids from ``book/_claims/hivemall.printed.csv``
(:func:`mlcrepro.printed_numbers.printed`).
"""

from __future__ import annotations

from mlcrepro.hivemall.collect import Evidence
from mlcrepro.ledger import Ledger
from mlcrepro.printed_numbers import printed

__all__ = ["rows"]

SOURCE = "Hivemall guide, fmeasure"


def rows(evidence: Evidence) -> Ledger:
    """Hivemall's rows: the printed F1 and F2, scikit-learn's F2, the limits in beta.

    Returns an unnamed :class:`~mlcrepro.ledger.Ledger` (it cannot be saved on its own:
    its rows are saved inside the ledger that hosts them).

    Raises
    ------
    TypeError
        If ``evidence`` is not a :class:`mlcrepro.hivemall.collect.Evidence`.
    """
    if not isinstance(evidence, Evidence):
        raise TypeError(
            f"evidence must be mlcrepro.hivemall's Evidence, got {type(evidence).__name__}"
        )
    led = Ledger("")  # unnamed: saved only inside its host
    (f1, id1), (f2, id2) = ((r.value, r.id) for r in printed("hivemall").itertuples())
    led.number(
        "micro F1 of the cat/dog/bird example",
        SOURCE,
        paper=f1,
        ours=evidence.f1,
        digits=16,
        claim_id=id1,
    )
    led.number(
        "micro F2 of the cat/dog/bird example",
        SOURCE + " -beta 2",
        paper=f2,
        ours=evidence.f2,
        digits=16,
        claim_id=id2,
    )
    led.exact(
        "scikit-learn's micro F2 prints Hivemall's value to the last digit",
        SOURCE + ", equations",
        paper=f2,
        ours=repr(evidence.sk_f2),
        note="beta^2 (tp + fn) + tp + fp = (1 + beta^2) tp + beta^2 fn + fp",
        claim_id="HM003",
    )
    led.ordering(
        "F_beta -> micro recall (beta large), micro precision (beta small)",
        "Hivemall guide, F-measure",
        paper="large beta: recall; small beta: precision",
        rule="|F_1000 - micro recall| < 1e-5 and |F_0.001 - micro precision| < 1e-5",
        holds=abs(evidence.f_big - evidence.recall) < 1e-5
        and abs(evidence.f_tiny - evidence.precision) < 1e-5,
        claim_id="HM004",
    )
    return led
