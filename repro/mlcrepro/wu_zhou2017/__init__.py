"""Wu & Zhou (2017): margins, the unified view of the measures, and LIMO.

benchmark, thresholds   LIMO, its label/instance variants and the baselines (Table B.3)
report, hypotheses      the ledger rows of Table B.3 and the thresholding hypotheses
bounds                  Theorem bounds of the margins, by simulation
evidence                Table 1 claims computed from the library
"""
