"""The reproduction behind the book: shared machinery and one folder per paper.

Shared machinery
----------------
runner       the one runner of every long experiment (spec → cells → cache → table)
results      committed result tables with provenance (``load_or_compute``)
ledger       the reproduction ledger: claim kinds, statuses derived by rule, causes
claims       the claims inventory of each paper, linked to ledger rows by claim id
summary      the outcome per chapter and per paper, derived from the saved ledgers
display      side-by-side tables of the paper's numbers and ours
tables       rankings and robustness of claims over folds or resamples
worked_examples  the printed inputs of worked examples that two paper folders read

One folder per paper
--------------------
huellermeier2022   Hüllermeier et al. (2022): losses, Bayes examples, the learner study, Fig. 4
park_read2018      Park & Read (2018): the blended metric's grid, readings and tables
wu_zhou2017        Wu & Zhou (2017): margins' bounds, LIMO's benchmark and thresholds
zhang_zhou2014     Zhang & Zhou (2014): the standard measures' definitions, identities, examples
hivemall           Hivemall's F-measure page: micro F-beta on label sets (rows in measures)

Importing the package points the library's data home at the checkout's ``data/cache``
(``mlcrepro._paths.use_checkout_data``).
"""

from ._paths import use_checkout_data

use_checkout_data()
