"""Park & Read (2018): the blended metric and its linear model.

grid, readings   the alpha x beta grid and the two readings of the training procedure
tables           the paper's Tables 2-4 beside ours
findings         the chapter's claims as ledger rows
evidence         claims about the metric computed from the library
"""
