"""CLUS run by hand on the authors' own files, read the way the authors read it.

Independent of :mod:`mlcbook.learners.clus`: this runs ``java -jar Clus.jar`` on the
unmodified ARFF files of the authors' flags split 0 (MEKA layout with the seven labels
last, ``-C -7``, so the file is already in CLUS's features-then-targets layout) with
the settings file of their experimenter (``DependenceAwareMLCLossExperimenter.java``
line 270, completed as ``ClusWrapperClassification.buildInternal`` does: ``File``,
``TestSet``, ``Target`` as a comma list), and reads the predictions with the
authors' loop (EXP:446-472): for ``-forest`` the value of every second column from
``2K`` on divided by 10, for the single tree ``v(j) / (v(j) + v(j + 1))`` for every
second column from ``5K + 1`` on.

``python -m tests.clus_reference`` writes the committed fixture
``tests/data/clus_flags_split0.json`` (its provenance is stored in it).
"""

from __future__ import annotations

import json
import platform
import subprocess
import tempfile
import zipfile
from pathlib import Path

from mlcbook.learners.clus import CLUS_SHA256, clus_jar
from mlcrepro.huellermeier2022.reference import reference_file

FIXTURE = Path(__file__).parents[1] / "data" / "clus_flags_split0.json"
_SETTINGS = (
    "[Data]\nFile\nTestSet\n[Attributes]\nTarget\n[Output]\nWritePredictions=Test"
)


def _settings(n_features: int, n_labels: int) -> str:
    out = []
    for line in _SETTINGS.split("\n"):
        if line.startswith("File"):
            out.append("File = train.arff")
        elif line.startswith("TestSet"):
            out.append("TestSet = test.arff")
        elif line.startswith("Target"):
            out.append(
                "Target = " + ",".join(str(n_features + 1 + k) for k in range(n_labels))
            )
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def _authors_scores(pred: Path, n_labels: int, ensemble: bool) -> list[list[float]]:
    lines = pred.read_text().splitlines()
    data = lines[[s.strip().upper() for s in lines].index("@DATA") + 1 :]
    scores = []
    for line in filter(None, (s.strip() for s in data)):
        v = line.split(",")
        row, j = [], 0
        while j < len(v) - 1 and len(row) < n_labels:
            if ensemble and j >= 2 * n_labels:
                row.append(float(v[j]) / 10.0)
                j += 1
            elif not ensemble and j >= 5 * n_labels + 1:
                row.append(float(v[j]) / (float(v[j]) + float(v[j + 1])))
                j += 1
            j += 1
        scores.append(row)
    return scores


def run_clus_on_authors_files(java: str, jar: Path, folds_zip: Path, ensemble: bool):
    """(scores, test labels) of CLUS on the authors' flags split 0."""
    with tempfile.TemporaryDirectory(prefix="clus-ref-") as tmp:
        d = Path(tmp)
        with zipfile.ZipFile(folds_zip) as z:
            (d / "train.arff").write_bytes(z.read("flags_42_0_train.arff"))
            (d / "test.arff").write_bytes(z.read("flags_42_0_test.arff"))
        (d / "train.s").write_text(_settings(19, 7))
        cmd = [java, "-jar", str(jar), *(["-forest"] if ensemble else []), "train.s"]
        subprocess.run(cmd, cwd=d, check=True, capture_output=True)
        return _authors_scores(d / "train.test.pred.arff", 7, ensemble)


def main() -> None:
    import shutil

    java = shutil.which("java")
    version = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    zip_path, _ = reference_file("folds-flags.zip")
    out = {
        "provenance": (
            "Clus.jar (sha256 "
            + CLUS_SHA256
            + ") run by tests/clus_reference.py on the "
            "authors' unmodified flags_42_0_train.arff / flags_42_0_test.arff "
            "(folds-flags.zip of KIuML/DependenceAwareMLCLoss), settings as EXP:270, "
            "scores read with the authors' loop (EXP:446-472); "
            + version.splitlines()[0]
            + ", "
            + platform.machine()
        ),
        "PCT": run_clus_on_authors_files(java, clus_jar(), zip_path, False),
        "EPCT": run_clus_on_authors_files(java, clus_jar(), zip_path, True),
    }
    FIXTURE.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
