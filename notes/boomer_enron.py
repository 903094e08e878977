"""Why BOOMER-1 on enron differs from the authors' released profile (issue 13).

Measurement script of notes/boomer-enron.md; not part of the library.  It writes
nothing into the repository: builds and results go to ``$BOOMER_ENRON_DIR``
(default ``/tmp/boomer-enron``).  Run every computation with ``nice -n 19``; the
steps run one process at a time.

Usage (from the worktree, project venv unless said otherwise)::

    python notes/boomer_enron.py folds          # H1: per-fold table vs the released pool
    python notes/boomer_enron.py ours  JSON     # one 0.12.3 run on the authors' ten folds
    python notes/boomer_enron.py build TAG      # build mrapp-ke/Boomer at TAG (0.5.0, 0.6.2,
                                                #   0.8.2, 0.9.0, 0.9.0+quality)
    python notes/boomer_enron.py old   TAG JSON # one run of that build (spawns its venv)
    python notes/boomer_enron.py wheel VER JSON # one run of a released wheel (0.10.0)
    python notes/boomer_enron.py profile TAG    # full 108-value profile vs the released one
    python notes/boomer_enron.py all            # every run of the note's table

``JSON`` holds the run's settings: ``variant`` (BOOMER-1/BOOMER-K), ``seed`` (the
Boomer ``random_state``; 2021 default 1, our registry's seed 0 is Boomer's 1),
``folds`` (list, default all ten), ``dense`` / ``nominal`` (bool, 0.12.3 only) and
any further Boomer keyword of that version.  Each run prints pooled subset 0/1 and
Hamming loss, the wrong rows / cells and the rule counts.

The old builds read the authors' ARFF files exactly as the 2021 testbed did
(``mlrl/testbed/data.py`` at 0.5.0, lines 326-364 and 300-322: liac-arff, sparse
COO, ``encode_nominal=True``, float32 features, labels sliced off the start as the
file's MEKA header puts them there, lil matrices handed to ``fit``), and build the
learner as ``python/main_boomer.py`` at 0.5.0 does with the command-line defaults of
``python/args.py`` (lines 196-199: 1000 rules, bagging, random feature selection;
``--max-head-refinements -1``).
"""

# ruff: noqa: E501  (SELECT_BY_QUALITY holds verbatim C++ lines of Boomer 0.9.0)
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import scipy.sparse as sp

WORK = Path(os.environ.get("BOOMER_ENRON_DIR", "/tmp/boomer-enron"))
BOOMER_GIT = Path("/work/.mirror/mrapp-ke+Boomer/repo")  # fetch github:mrapp-ke/Boomer
FOLDS_ZIP = Path("/work/shared/reference/hullermeier2022/folds-enron-f.zip")
N_LABELS = 53
#: Build-time pins for the 2021 sources on Python 3.11 (Cython 3 and NumPy 2 break
#: them; scikit-learn >= 1.6 dropped ``BaseEstimator._validate_data``).
PINS = [
    "numpy<2",
    "scipy",
    "Cython<3",
    "meson",
    "ninja",
    "wheel",
    "setuptools",
    "scikit-learn==1.3.2",
    "liac-arff",
]


# --------------------------------------------------------------------------- data
def fold_dir() -> Path:
    d = WORK / "folds"
    if not (d / "enron-f_42_9_test.arff").exists():
        d.mkdir(parents=True, exist_ok=True)
        zipfile.ZipFile(FOLDS_ZIP).extractall(d)
    return d


def read_fold_file(path: Path):
    """(X lil float32, Y lil uint8) as the 0.5.0 testbed reads a MEKA file."""
    import arff  # liac-arff, only in the old builds' venv

    with open(path) as f:
        d = arff.load(f, encode_nominal=True, return_type=arff.COO)
    v, r, c = d["data"]
    shape = (max(r) + 1, max(c) + 1)  # as data.py line 341 (shape from the last entry)
    m = sp.coo_matrix((v, (r, c)), shape=shape, dtype=np.float32).tocsc()
    nominal = [
        i - N_LABELS
        for i, a in enumerate(d["attributes"])
        if i >= N_LABELS and isinstance(a[1], list)
    ]
    return m[:, N_LABELS:].tolil(), m[:, :N_LABELS].astype(np.uint8).tolil(), nominal


def pooled(P_list, T_list) -> dict:
    P, T = np.vstack(P_list), np.vstack(T_list)
    W, C = int((P != T).any(1).sum()), int((P != T).sum())
    return {
        "subset01": W / T.shape[0],
        "hamming": C / T.size,
        "wrong_rows": W,
        "wrong_cells": C,
        "n": T.shape[0],
    }


# --------------------------------------------------------- old builds (2021 code)
def _old_kwargs(tag: str, variant: str, seed: int) -> dict:
    """main_boomer.py's learner at the command-line defaults of that version."""
    one = variant == "BOOMER-1"
    if tag in ("0.4.0", "0.5.0"):
        return dict(
            random_state=seed,
            feature_format="auto",
            label_format="auto",
            max_rules=1000,
            time_limit=-1,
            early_stopping=None,
            loss="label-wise-logistic-loss" if one else "example-wise-logistic-loss",
            predictor=None,
            pruning=None,
            label_sub_sampling=None,
            instance_sub_sampling="bagging",
            shrinkage=0.3,
            feature_sub_sampling="random-feature-selection",
            holdout_set_size=0,
            feature_binning=None,
            label_binning=None,
            head_refinement=None,
            l2_regularization_weight=1.0,
            min_coverage=1,
            max_conditions=-1,
            max_head_refinements=-1,
            num_threads_refinement=1,
            num_threads_update=1,
            num_threads_prediction=1,
        )
    common = dict(
        random_state=seed,
        max_rules=1000,
        shrinkage=0.3,
        l2_regularization_weight=1.0,
        instance_sampling="with-replacement",
        feature_sampling="without-replacement",
        feature_binning="none",
        label_binning="none",
        loss="logistic-label-wise" if one else "logistic-example-wise",
        head_type="single-label" if one else "complete",
    )
    if tag.startswith("0.8"):
        return dict(
            common,
            pruning="none",
            predictor="label-wise" if one else "example-wise",
            rule_induction="top-down{max_head_refinements=0}",
        )
    if tag.startswith("0.9"):
        return dict(
            common,
            rule_pruning="none",
            global_pruning="none",
            default_rule="true",
            binary_predictor="label-wise" if one else "example-wise",
            rule_induction="top-down-greedy{max_head_refinements=0}",
        )
    # 0.6.x: renamed parameters (0.6.0 CHANGELOG); the 2021 settings spelled out
    return dict(
        random_state=seed,
        max_rules=1000,
        default_rule="true",
        loss="logistic-label-wise" if one else "logistic-example-wise",
        head_type="single-label" if one else "complete",
        predictor="label-wise" if one else "example-wise",
        instance_sampling="with-replacement",
        recalculate_predictions="true",
        feature_sampling="without-replacement",
        label_binning=None,
        feature_binning=None,
        pruning=None,
        shrinkage=0.3,
        l2_regularization_weight=1.0,
        min_coverage=1,
        max_conditions=0,
        max_head_refinements=0,
        parallel_rule_refinement="false",
        parallel_statistic_update="false",
        parallel_prediction="false",
    )


def run_old_inside(tag: str, cfg: dict) -> dict:
    """Runs in the old build's interpreter (spawned by :func:`run_old`)."""
    root = WORK / f"boomer-{tag}"
    sys.path.insert(0, str(root / ("pyroot" if (root / "pyroot").exists() else "python")))
    from mlrl.boosting.boosting_learners import Boomer

    cfg = dict(cfg)
    variant, seed = cfg.pop("variant", "BOOMER-1"), cfg.pop("seed", 1)
    folds = cfg.pop("folds", list(range(10)))
    save = cfg.pop("save", None)
    kw = _old_kwargs(tag, variant, seed)
    kw.update(cfg)
    d = fold_dir()
    Ps, Ts, rules, per_fold, t0 = [], [], [], {}, time.process_time()
    for s in folds:
        xtr, ytr, nominal = read_fold_file(d / f"enron-f_42_{s}_train.arff")
        xte, yte, _ = read_fold_file(d / f"enron-f_42_{s}_test.arff")
        assert xtr.shape[1] == xte.shape[1] == 1001, (xtr.shape, xte.shape)
        est = Boomer(**kw)
        if nominal:  # experiments.py line 73 at 0.5.0 (enron-f declares none)
            est.nominal_attribute_indices = nominal
        if tag.startswith("0.6"):  # 0.6.2 segfaults on a sparse feature matrix here
            xtr, xte = xtr.toarray(), xte.toarray()
        est.fit(xtr, ytr)
        P = est.predict(xte)
        P = P.toarray() if sp.issparse(P) else np.asarray(P)
        T = yte.toarray()
        Ps.append(P.astype(np.int8)), Ts.append(T.astype(np.int8))
        per_fold[s] = [int((P != T).any(1).sum()), int((P != T).sum()), T.shape[0]]
        n = getattr(est.model_, "get_num_rules", None)
        rules.append(n() if n else None)
    if save:
        np.savez_compressed(
            save,
            **{f"P{s}": p for s, p in zip(folds, Ps)},
            **{f"T{s}": t for s, t in zip(folds, Ts)},
        )
    out = pooled(Ps, Ts)
    out.update(
        per_fold=per_fold,
        rules=sorted(set(map(str, rules))),
        cpu=round(time.process_time() - t0, 1),
    )
    return out


#: The 0.9.0 single-label head choice (largest |score|) put back to 0.8.2's (best
#: quality), in cpp/subprojects/boosting/src/boosting/rule_evaluation/
#: rule_evaluation_label_wise_single.cpp; build tag "0.9.0+quality".
SELECT_BY_QUALITY = (
    """                uint32 bestIndex = 0;

                for (uint32 i = 1; i < numElements; i++) {
                    const Tuple<float64>& tuple = statisticIterator[i];
                    float64 score = calculateLabelWiseScore(tuple.first, tuple.second, l1RegularizationWeight_,
                                                            l2RegularizationWeight_);

                    if (std::abs(score) > std::abs(bestScore)) {
                        bestIndex = i;
                        bestScore = score;
                    }
                }
""",
    """                uint32 bestIndex = 0;
                float64 bestQuality = calculateLabelWiseQuality(bestScore, firstTuple.first, firstTuple.second,
                                                                l1RegularizationWeight_, l2RegularizationWeight_);

                for (uint32 i = 1; i < numElements; i++) {
                    const Tuple<float64>& tuple = statisticIterator[i];
                    float64 score = calculateLabelWiseScore(tuple.first, tuple.second, l1RegularizationWeight_,
                                                            l2RegularizationWeight_);
                    float64 quality = calculateLabelWiseQuality(score, tuple.first, tuple.second,
                                                                l1RegularizationWeight_, l2RegularizationWeight_);

                    if (quality < bestQuality) {  // 0.8.2 and before: the label of the best quality
                        bestIndex = i;
                        bestScore = score;
                        bestQuality = quality;
                    }
                }
""",
)


def build(tag: str) -> None:
    """git archive TAG (cpp, python) + venv with PINS + meson/ninja -j1 + build_ext.

    Tags from 0.7.0 build their Python part with meson too (installed into the source
    tree; ``pyroot/mlrl`` joins the common and boosting packages).  ``0.9.0+quality``
    is 0.9.0 with :data:`SELECT_BY_QUALITY` applied.
    """
    src, venv = WORK / f"boomer-{tag}", WORK / "venv-2021"
    git_tag = tag.split("+")[0]
    WORK.mkdir(parents=True, exist_ok=True)
    if not venv.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([venv / "bin/pip", "install", "-q", *PINS], check=True)
    if not src.exists():
        src.mkdir()
        arch = subprocess.run(
            ["git", "-C", BOOMER_GIT, "archive", git_tag, "cpp", "python"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", src], input=arch, check=True)
        if tag.endswith("+quality"):
            f = src / (
                "cpp/subprojects/boosting/src/boosting/rule_evaluation/"
                "rule_evaluation_label_wise_single.cpp"
            )
            text = f.read_text()
            assert text.count(SELECT_BY_QUALITY[0]) == 1
            f.write_text(text.replace(*SELECT_BY_QUALITY))
    env = dict(os.environ, PATH=f"{venv}/bin:" + os.environ["PATH"])
    nice = ["nice", "-n", "19"]
    if git_tag >= "0.7":
        for part in ("cpp", "python"):
            subprocess.run(
                [*nice, "meson", "setup", f"{part}/build", part], cwd=src, env=env, check=True
            )
            subprocess.run(
                [*nice, "ninja", "-j1", "-C", f"{part}/build"], cwd=src, env=env, check=True
            )
            subprocess.run(
                [*nice, "meson", "install", "-C", f"{part}/build"], cwd=src, env=env, check=True
            )
        dt = src / "python/subprojects/common/mlrl/common/data_types.py"
        dt.write_text(dt.read_text().replace("= np.long\n", "= np.int64\n"))  # NumPy 1.24
        (src / "pyroot/mlrl").mkdir(parents=True, exist_ok=True)
        (src / "pyroot/mlrl/__init__.py").touch()
        for pkg in ("common", "boosting"):
            link = src / "pyroot/mlrl" / pkg
            if not link.exists():
                link.symlink_to(src / f"python/subprojects/{pkg}/mlrl/{pkg}")
        return
    subprocess.run(
        [*nice, "meson", "setup", "build", "-Doptimization=3"],
        cwd=src / "cpp",
        env=env,
        check=True,
    )
    subprocess.run([*nice, "ninja", "-j1"], cwd=src / "cpp/build", env=env, check=True)
    subprocess.run(
        [*nice, venv / "bin/python", "setup.py", "build_ext", "--inplace", "-j1"],
        cwd=src / "python",
        env=env,
        check=True,
    )


def run_old(tag: str, cfg: dict) -> dict:
    src = WORK / f"boomer-{tag}" / "cpp/build/subprojects"
    env = dict(os.environ, LD_LIBRARY_PATH=f"{src}/common:{src}/boosting")
    out = subprocess.run(
        [
            "nice",
            "-n",
            "19",
            WORK / "venv-2021/bin/python",
            __file__,
            "_inside",
            tag,
            json.dumps(cfg),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def run_wheel(version: str, cfg: dict) -> dict:
    """A released ``mlrl-boomer`` wheel (PyPI has 0.10.0 and later for Python 3.11)."""
    venv = WORK / f"venv-{version}"
    if not venv.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [venv / "bin/pip", "install", "-q", f"mlrl-boomer=={version}", "liac-arff"], check=True
        )
    out = subprocess.run(
        ["nice", "-n", "19", venv / "bin/python", __file__, "_wheel", version, json.dumps(cfg)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def run_wheel_inside(version: str, cfg: dict) -> dict:
    from mlrl.boosting import Boomer

    cfg = dict(cfg)
    variant, seed = cfg.pop("variant", "BOOMER-1"), cfg.pop("seed", 1)
    one = variant == "BOOMER-1"
    kw = dict(
        random_state=seed,
        max_rules=1000,
        shrinkage=0.3,
        l2_regularization_weight=1.0,
        instance_sampling="with-replacement",
        feature_sampling="without-replacement",
        feature_binning="none",
        label_binning="none",
        rule_pruning="none",
        global_pruning="none",
        default_rule="true",
        rule_induction="top-down-greedy{max_head_refinements=0}",
        loss="logistic-label-wise" if one else "logistic-example-wise",
        head_type="single-label" if one else "complete",
        binary_predictor="label-wise" if one else "example-wise",
    )
    kw.update(cfg)
    d = fold_dir()
    Ps, Ts, rules, t0 = [], [], [], time.process_time()
    for s in range(10):
        xtr, ytr, _ = read_fold_file(d / f"enron-f_42_{s}_train.arff")
        xte, yte, _ = read_fold_file(d / f"enron-f_42_{s}_test.arff")
        est = Boomer(**kw).fit(xtr.tocsr(), ytr.toarray())
        P = est.predict(xte.tocsr())
        Ps.append(np.asarray(P.toarray() if sp.issparse(P) else P, dtype=np.int8))
        Ts.append(yte.toarray().astype(np.int8))
        rules.append(est.model_.get_num_rules())
    out = pooled(Ps, Ts)
    out.update(rules=sorted(set(rules)), cpu=round(time.process_time() - t0, 1))
    return out


# ------------------------------------------------------------- 0.12.3 (registry)
def run_ours(cfg: dict) -> dict:
    """``make_boomer`` (BOOMER_2021 on mlrl-boomer 0.12.3) on the study's enron splits."""
    from mlcrepro.huellermeier2022.authors_study import study_data
    from mlcbook.learners.boomer import make_boomer

    cfg = dict(cfg)
    variant, seed = cfg.pop("variant", "BOOMER-1"), cfg.pop("seed", 0)
    folds = cfg.pop("folds", list(range(10)))
    dense, nominal = cfg.pop("dense", False), cfg.pop("nominal", False)
    data = study_data("enron")
    Ps, Ts, rules, per_fold, t0 = [], [], [], {}, time.process_time()
    for s in folds:
        Xtr, Ytr, Xte, Yte = data.splits[s]
        if dense:
            Xtr, Xte = Xtr.toarray(), Xte.toarray()
        est = make_boomer(variant, seed, **cfg)
        fit = {"nominal_feature_indices": list(range(Xtr.shape[1]))} if nominal else {}
        est.fit(Xtr, Ytr, **fit)
        P = est.predict(Xte)
        P = P.toarray() if sp.issparse(P) else np.asarray(P)
        Ps.append(P.astype(np.int8)), Ts.append(np.asarray(Yte, dtype=np.int8))
        per_fold[s] = [int((P != Yte).any(1).sum()), int((P != Yte).sum()), Yte.shape[0]]
        rules.append(est.model_.get_num_rules())
    out = pooled(Ps, Ts)
    out.update(per_fold=per_fold, rules=sorted(set(rules)), cpu=round(time.process_time() - t0, 1))
    return out


# ------------------------------------------------------------------- comparisons
def released(learner: str):
    from mlcrepro.huellermeier2022.reference import load_reference_results

    r = load_reference_results()
    return r[(r.dataset == "enron") & (r.learner == learner)]


def per_fold_table():
    """H1: our committed per-fold losses; the released file has only the pool."""
    import pandas as pd

    t = pd.read_csv(Path(__file__).parents[1] / "data/results/dependence_authors.csv")
    t = t[(t.dataset == "enron") & (t.learner == "BOOMER-1-2021") & (t.family == "binomial")]
    wide = t[t.param.isin([1, N_LABELS])].pivot_table(index="fold", columns="param", values="loss")
    n = t.groupby("fold").n_test.first()
    wrong_rows = (wide[N_LABELS] * n).round().astype(int)
    wrong_cells = (wide[1] * n * N_LABELS).round().astype(int)
    r = released("BOOMER-1")
    ref = r[r.family == "binomial"].set_index("param").loss
    print("committed BOOMER-1-2021 enron, wrong rows / cells per fold:")
    print(
        pd.DataFrame(
            {
                "n_test": n,
                "wrong_rows": wrong_rows,
                "wrong_cells": wrong_cells,
                "cpu_s": t.groupby("fold").cpu_seconds.first().round(2),
            }
        ).to_string()
    )
    N = int(n.sum())
    print(
        f"pooled: subset {wrong_rows.sum() / N:.6f} ({wrong_rows.sum()} of {N}), "
        f"Hamming {wrong_cells.sum() / (N * N_LABELS):.6f} ({wrong_cells.sum()}); released: "
        f"subset {ref[N_LABELS]:.6f} ({ref[N_LABELS] * N:.2f} rows), Hamming {ref[1]:.6f} "
        f"({ref[1] * N * N_LABELS:.2f} cells); released per-fold values: none "
        "(results_boomer.kvstore holds one pooled profile per learner, size=10)"
    )


def profile(tag: str) -> None:
    """Full binomial (k=1..53) and polynomial (55 alphas) profile of a saved run."""
    from mlcbook.profiles import evaluate_predictions
    from mlcrepro.huellermeier2022.reference import ALPHAS

    for v in ("BOOMER-1", "BOOMER-K"):
        f = WORK / f"pred-{tag}-{v}-seed1.npz"
        if not f.exists():
            run_old(tag, {"variant": v, "seed": 1, "save": str(f)})
        z = np.load(f)
        P = np.vstack([z[f"P{s}"] for s in range(10)])
        T = np.vstack([z[f"T{s}"] for s in range(10)])
        ours = evaluate_predictions(T, P, ALPHAS)
        ref = released(v)
        for fam in ("binomial", "polynomial"):
            a = ours[ours.family == fam].loss.to_numpy()
            b = ref[ref.family == fam].loss.to_numpy()
            print(
                f"{tag} {v} {fam}: {len(a)} values, max |ours - released| = "
                f"{np.abs(a - b).max():.3g}"
            )


#: The runs of the note's hypotheses table, in order: (label, where, settings).
RUNS = [
    ("registry (BOOMER_2021 on 0.12.3), seed 0", "ours", {}),
    ("  seed 1", "ours", {"seed": 1}),
    ("  seed 2", "ours", {"seed": 2}),
    ("H3 dense feature matrix", "ours", {"dense": True}),
    ("H3 all 1001 features nominal", "ours", {"nominal": True}),
    ("H3 nominal + dense", "ours", {"nominal": True, "dense": True}),
    (
        "H4 max_head_refinements=1 (class default)",
        "ours",
        {"rule_induction": "top-down-greedy{max_head_refinements=1}"},
    ),
    ("H4 64-bit statistics", "ours", {"statistic_type": "64-bit"}),
    ("H4 no bagging (feature sampling only)", "ours", {"instance_sampling": "none"}),
    ("0.5.0 testbed defaults, seed 1 (2021 default)", "0.5.0", {"seed": 1}),
    ("  seed 2", "0.5.0", {"seed": 2}),
    ("  seed 3", "0.5.0", {"seed": 3}),
    ("0.5.0 dense feature matrix", "0.5.0", {"feature_format": "dense"}),
    ("0.5.0 no bagging (feature sampling only)", "0.5.0", {"instance_sub_sampling": None}),
    ("0.5.0 BOOMER-K seed 1", "0.5.0", {"variant": "BOOMER-K"}),
    ("0.6.2 (dense: its sparse path segfaults), seed 1", "0.6.2", {}),
    ("0.8.2, seed 1", "0.8.2", {}),
    ("0.9.0, seed 1", "0.9.0", {}),
    ("0.9.0 + 0.8.2's single-label choice, seed 1", "0.9.0+quality", {}),
    ("0.10.0 wheel, seed 1", "wheel 0.10.0", {}),
]


def main(argv: list[str]) -> None:
    cmd = argv[0] if argv else "all"
    if cmd == "_inside":
        print(json.dumps(run_old_inside(argv[1], json.loads(argv[2]))))
    elif cmd == "_wheel":
        print(json.dumps(run_wheel_inside(argv[1], json.loads(argv[2]))))
    elif cmd == "wheel":
        print(json.dumps(run_wheel(argv[1], json.loads(argv[2]))))
    elif cmd == "folds":
        per_fold_table()
    elif cmd == "ours":
        print(json.dumps(run_ours(json.loads(argv[1]))))
    elif cmd == "build":
        build(argv[1])
    elif cmd == "old":
        print(json.dumps(run_old(argv[1], json.loads(argv[2]))))
    elif cmd == "profile":
        profile(argv[1])
    elif cmd == "all":
        per_fold_table()
        for label, where, cfg in RUNS:
            r = (
                run_ours(cfg)
                if where == "ours"
                else run_wheel(where.split()[1], cfg)
                if where.startswith("wheel")
                else run_old(where, cfg)
            )
            print(
                f"{label:50s} subset {r['subset01']:.4f} ({r['wrong_rows']}) Hamming "
                f"{r['hamming']:.5f} ({r['wrong_cells']}) rules {r['rules']} cpu {r['cpu']}",
                flush=True,
            )
        profile("0.5.0")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
