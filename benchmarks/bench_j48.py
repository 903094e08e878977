"""Speed of Weka's J48 driven from Python (mlcbook.learners.j48), against scikit-learn's CART.

1. One J48 fit + predict through the Java server against one DecisionTreeClassifier on the
   same single label (emotions, first label, 593 rows x 72 numeric features).
2. MEKA's BR (6 J48 fits) on the authors' split 0 of emotions against sklearn's
   MultiOutputClassifier of CART trees.
3. The round trip alone: a 1-row predict of a fitted J48 against the same of CART.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line
from sklearn.multioutput import MultiOutputClassifier
from sklearn.tree import DecisionTreeClassifier

from mlcrepro.huellermeier2022 import reference
from mlcbook.datasets import load_dataset
from mlcbook.learners import J48Classifier, MekaBR


def main() -> None:
    X, Y, _ = load_dataset("emotions")
    y = Y[:, 0]
    J48Classifier().fit(X, y)  # start the Java process and warm its JIT up
    for _ in range(5):
        J48Classifier().fit(X, y).predict(X)
    j48 = best_of(lambda: J48Classifier().fit(X, y).predict(X))
    cart = best_of(lambda: DecisionTreeClassifier(random_state=0).fit(X, y).predict(X))
    print(ratio_line("J48 fit+predict (1 label)", j48, cart, "CART fit+predict"))

    s = reference.reference_folds("emotions").splits[0]
    br = best_of(lambda: MekaBR().fit(s.X_train, s.Y_train).predict(s.X_test), repeat=3)
    mo = best_of(
        lambda: MultiOutputClassifier(DecisionTreeClassifier(random_state=0))
        .fit(s.X_train, s.Y_train)
        .predict(s.X_test),
        repeat=3,
    )
    print(ratio_line("MEKA BR on J48 (emotions split 0)", br, mo, "BR on CART"))

    fitted = J48Classifier().fit(X, y)
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)
    one = X[:1]
    trip = best_of(lambda: fitted.predict(one), repeat=5, number=50)
    ref = best_of(lambda: tree.predict(one), repeat=5, number=50)
    print(ratio_line("J48 predict 1 row (round trip)", trip, ref, "CART predict 1 row"))


if __name__ == "__main__":
    main()
