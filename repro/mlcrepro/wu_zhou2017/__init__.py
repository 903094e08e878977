"""Wu & Zhou (2017): margins, the unified view of the measures, and LIMO.

benchmark, thresholds   LIMO, its label/instance variants and the baselines (Table B.3)
report, hypotheses      the ledger rows of Table B.3 and the thresholding hypotheses
bounds                  Theorem bounds of the margins, by simulation
evidence                Table 1 claims computed from the library
authors                 the authors' released data files, splits and normalisation (sha256-pinned)
octave                  the authors' demo.m run by GNU Octave (make octave), its committed tables
octave_fixtures         the authors' threshold and measure functions' outputs as test fixtures
authors_protocol        our LIMO and its variants inside demo.m's protocol, beside Octave's
authors_baselines       BR (LIBSVM and LIBLINEAR), ML-kNN and GFM inside demo.m's protocol
authors_causes          causes of Table B.3 cells from the authors' code, splits and measures
"""

from mlcrepro.paper import Paper

__all__ = ["PAPER"]

#: the paper's record: its spelling, citation, claim ids, Reproduce page and ledgers
PAPER = Paper(
    key="wu_zhou2017",
    citation="Wu & Zhou (2017)",
    bibkey="wu2017unified",
    prefix="WZ",
    page="wu_zhou2017",
    ledgers=("limo",),
    learn=("limo", "measures"),
)
