"""Agreement of MEKA BR/CC/LC/RAkEL on Weka's J48 with the authors' released results.

flags is run as the authors ran it: their experimenter's L = 12 makes MEKA take the
last 12 attributes of the file as labels (crescent, triangle, icon, animate, text
and the 7 colours), the other 14 as features; the released profiles score the 7
colours.  (Measured: this reproduces every released flags row; 7 labels do not.)

Run: ``MLCBOOK_CACHE_DIR=/work/cache-13 nice -n 10 .venv/bin/python \
notes/j48_agreement.py [datasets]``
Resumable: every (dataset, learner, split) prediction is cached as .npz under
``$MLCBOOK_CACHE_DIR/j48-agreement``; the table goes to ``notes/j48-agreement.csv``.
"""

from __future__ import annotations

import io
import sys
import time
import zipfile
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from mlcrepro.huellermeier2022 import folds, reference
from mlcrepro._paths import cache_dir
from mlcbook.datasets import load_dataset
from mlcbook.datasets.arff import parse_arff
from mlcbook.profiles import cv_folds
from mlcbook.learners._weka import WekaError, server
from mlcbook.learners.j48 import J48Classifier
from mlcbook.learners.meka import MekaBR, MekaCC, MekaLC, MekaRAkEL, java_hashmap_order
from mlcbook.learners.registry import authors_rakel_settings
from mlcbook.losses import binomial_loss

FOLDED = ["flags", "emotions", "birds", "genbase", "medical", "enron", "llog"]
SEEDED = ["scene", "yeast"]
LEARNERS = {"BR": MekaBR, "CC": MekaCC, "LP": MekaLC}
FLAGS_EXTRA = 5  # crescent, triangle, icon, animate, text: labels in the authors' run
EXPERIMENTER_L = {"flags": 12}  # their numLabels where it differs from the data
OUT = Path(__file__).with_name("j48-agreement.csv")


def authors_nominal(name: str) -> dict[int, int]:
    """Nominal features of the authors' split-0 train file: column -> categories."""
    key = reference.FOLD_DATASETS[name]
    path, _ = reference.reference_file(f"folds-{key}.zip")
    with zipfile.ZipFile(path) as z:
        member = f"{key}_42_0_train.arff"
        tmp = cache_dir() / "j48-agreement" / member
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(z.read(member))
    p = parse_arff(tmp, meka=True)
    return {i: len(p.nominal[f]) for i, f in enumerate(p.feature_names)
            if f in p.nominal}


def splits(name: str):
    if name == "flags":  # 14 features, 12 labels; score the last 7
        folds = folds.reference_folds(name)
        nominal = {c: v for c, v in authors_nominal(name).items() if c < 14}
        for s in folds.splits:
            Ytr = np.hstack([s.X_train[:, 14:].astype(np.int64), s.Y_train])
            Yte = np.hstack([s.X_test[:, 14:].astype(np.int64), s.Y_test])
            yield s.split, s.X_train[:, :14], Ytr, s.X_test[:, :14], Yte, nominal
    elif name in FOLDED:
        folds = folds.reference_folds(name)
        nominal = authors_nominal(name)
        for s in folds.splits:
            yield s.split, s.X_train, s.Y_train, s.X_test, s.Y_test, nominal
    else:
        X, Y, info = load_dataset(name)
        nominal = {i: len(info.nominal[f]) for i, f in enumerate(info.feature_names)
                   if f in info.nominal}
        for k, (tr, te) in enumerate(cv_folds(X.shape[0], 10, 0)):
            yield k, X[tr], Y[tr], X[te], Y[te], nominal


def make(learner: str, nominal: dict[int, int]):
    base = J48Classifier(nominal=nominal)
    if learner in LEARNERS:
        return LEARNERS[learner](base)
    k, m = (int(v) for v in learner.removeprefix("RAkEL-k").split("-m"))
    return MekaRAkEL(k, m, base)


def run(name: str, learner: str, dead: frozenset[int] = frozenset()) -> dict:
    """Pooled losses over the folds that finished: not ``dead``, not failed here."""
    folder = cache_dir() / "j48-agreement"
    tag = "flags12" if name == "flags" else name
    Ys, Ps, cpu, failed = [], [], 0.0, []
    for k, Xtr, Ytr, Xte, Yte, nominal in splits(name):
        cell = folder / f"{tag}-{learner}-{k}.npz"
        if cell.exists():
            z = np.load(cell)
            P, sec = z["P"], float(z["cpu"])
        else:
            srv = server()
            t0, j0 = time.process_time(), srv.cpu_seconds()
            try:
                P = make(learner, nominal).fit(Xtr, Ytr).predict(Xte)
            except WekaError as exc:  # as in MEKA, the whole fold fails
                if "unary class" not in str(exc):
                    raise
                P = np.zeros((0, 0), dtype=np.int64)  # marks a failed fold
            sec = time.process_time() - t0 + srv.cpu_seconds() - j0
            buf = io.BytesIO()
            np.savez(buf, P=P, cpu=sec)
            tmp = cell.with_suffix(".tmp")
            tmp.write_bytes(buf.getvalue())
            tmp.replace(cell)
            print(f"{name} {learner} split {k}: {sec:.1f} CPU-s", flush=True)
        cpu += sec
        if P.size == 0 and len(Yte):  # J48 refused a one-valued class: MEKA fails too
            failed.append(k)
            continue
        if k in dead:  # an earlier k of the experimenter's loop failed on this fold
            continue
        Ys.append(np.asarray(Yte, dtype=np.int64))
        Ps.append(P)
    if name == "flags":
        Ys = [y[:, FLAGS_EXTRA:] for y in Ys]
        Ps = [p[:, FLAGS_EXTRA:] for p in Ps]
    Y, P = np.vstack(Ys), np.vstack(Ps)
    K = Y.shape[1]
    # per fold: the summed binomial loss of every k and the number of test rows, so
    # that any subset of folds can be pooled (the authors' RAkEL rows pool < 10)
    per_fold = [(np.array([binomial_loss(y, p, k) for k in range(1, K + 1)]) * len(y),
                 len(y)) for y, p in zip(Ys, Ps)]
    return {"dataset": name, "learner": learner, "K": K, "n_test": Y.shape[0],
            "folds": "authors" if name in FOLDED else "seeded",
            "folds_ok": len(Ys), "failed_folds": " ".join(map(str, failed)),
            "skipped_folds": " ".join(map(str, sorted(dead - set(failed)))),
            "hamming": binomial_loss(Y, P, 1), "subset01": binomial_loss(Y, P, K),
            "profile": np.array([binomial_loss(Y, P, k) for k in range(1, K + 1)]),
            "per_fold": per_fold,
            "cpu_seconds": cpu}


def main(names: list[str], rakel: Iterable[str] = ()) -> None:
    """BR, CC, LP on ``names``; RAkEL (the authors' k, m) too on those in ``rakel``."""
    ref = reference.load_reference_results()
    ref = ref[ref.family == "binomial"]
    rows = []
    for name in names:
        learners = list(LEARNERS)
        if name in set(rakel):
            # The experimenter loops over a HashSet<Integer> of k inside one job per
            # fold: an exception at one k ends that fold for the later ks.
            L = EXPERIMENTER_L.get(name, int(ref[ref.dataset == name].K.iloc[0]))
            ks = list(dict.fromkeys([*range(1, 6), L // 2, L - 1]))  # insertion order
            ks = [ks[i] for i in java_hashmap_order(ks)]  # Integer.hashCode = value
            m = dict(authors_rakel_settings(L))
            learners += [f"RAkEL-k{k}-m{m[k]}" for k in ks]
        dead: set[int] = set()
        for learner in learners:
            r = run(name, learner, frozenset(dead) if learner.startswith("RAkEL") else
                    frozenset())
            if learner.startswith("RAkEL") and r["failed_folds"]:
                dead |= {int(f) for f in r["failed_folds"].split()}
            theirs = ref[(ref.dataset == name) & (ref.learner == learner)]
            if len(theirs):
                K = int(theirs.K.iloc[0])
                r["K_authors"] = K
                r["folds_authors"] = int(theirs.folds.iloc[0])
                r["authors_hamming"] = float(theirs[theirs.param == 1].loss.iloc[0])
                r["authors_subset01"] = float(theirs[theirs.param == K].loss.iloc[0])
                r["d_hamming"] = r["hamming"] - r["authors_hamming"]
                r["d_subset01"] = r["subset01"] - r["authors_subset01"]
                theirs_k = theirs.sort_values("param").loss.to_numpy()
                r["max_abs_d_binomial_k"] = float(np.abs(r["profile"] - theirs_k).max())
                n_folds = r["folds_authors"]
                if n_folds < len(r["per_fold"]):  # which of our folds fit best?
                    best = min(
                        (float(np.abs(sum(r["per_fold"][i][0] for i in c)
                                      / sum(r["per_fold"][i][1] for i in c)
                                      - theirs_k).max()), c)
                        for c in combinations(range(len(r["per_fold"])), n_folds))
                    r["best_fold_subset"] = " ".join(map(str, best[1]))
                    r["max_abs_d_best_subset"] = best[0]
            r.pop("profile")
            r.pop("per_fold")
            rows.append(r)
            df = pd.DataFrame(rows)
            df.to_csv(OUT, index=False, float_format="%.6f")
    print(df.to_string())
    core = df[df.learner.isin(list(LEARNERS))]
    print("BR/CC/LP: median |d hamming|", core.d_hamming.abs().median(),
          "median |d subset01|", core.d_subset01.abs().median())


if __name__ == "__main__":
    # usage: j48_agreement.py [--rakel=name,name] [datasets]  (default: all nine)
    args = sys.argv[1:]
    rakel = [n for a in args if a.startswith("--rakel=") for n in a[8:].split(",")]
    names = [a for a in args if not a.startswith("--rakel")]
    main(names or FOLDED + SEEDED, rakel=rakel)
