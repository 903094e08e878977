"""Speed of the library's neighbour policy (mlcbook.learners._neighbors) against
scikit-learn's NearestNeighbors on the LIMO benchmark's data (70/30 split, features
scaled to [-1, 1]): medical and bibtex (0/1 words: the exact integer path, a sparse
product) and cal500 (continuous: SciPy's fixed-order cdist).  scikit-learn's search is
faster where it may use BLAS, but it does not break ties by index, so its neighbours
(and ML-kNN's results) change between machines on tie-heavy data.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sklearn.neighbors import NearestNeighbors

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line  # noqa: E402

from mlcbook.learners._neighbors import nearest_neighbors  # noqa: E402
from mlcrepro.wu_zhou2017.benchmark import scaled_split


def main() -> None:
    os.environ["MLCBOOK_PROGRESS"] = "0"
    for name in ("medical", "cal500", "bibtex"):
        Xtr, Xte, _, _ = scaled_split(name, 0)
        ours = best_of(lambda: nearest_neighbors(Xtr, Xte, 10), repeat=3)
        nn = NearestNeighbors(n_neighbors=10).fit(Xtr)
        ref = best_of(lambda: nn.kneighbors(Xte, return_distance=False), repeat=3)
        print(ratio_line(f"10-NN, {name} {Xtr.shape}", ours, ref, "sklearn NearestNeighbors"),
              flush=True)


if __name__ == "__main__":
    main()
