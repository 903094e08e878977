"""The registry of multi-label benchmark datasets.

Every dataset of the local mirror (``../shared/datasets/SOURCES.md``) is described by a
:class:`DatasetSpec`: its files with their sha256, the number of labels and where the labels
are, its public home and a citation.  The files are the ones of the BOOMER authors'
repository (mrapp-ke/Boomer, folder ``data/``, commit :data:`BOOMER_COMMIT`), which are the
MULAN versions of the datasets; a raw URL of that commit is each file's public download
address.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from .._validation import Flag, check_name, validate_params

__all__ = [
    "DatasetSpec",
    "REGISTRY",
    "BOOMER_COMMIT",
    "BOOMER_RAW",
    "MULAN_HOME",
    "MEKA_HOME",
    "SHA256",
    "list_datasets",
    "get_spec",
    "UnknownDatasetError",
    "DatasetUnavailableError",
]

#: The commit of mrapp-ke/Boomer whose ``data/`` folder holds the registered files.
BOOMER_COMMIT = "fe3f6edd82bef77f13050b845482c70c2d07401e"
BOOMER_RAW = f"https://raw.githubusercontent.com/mrapp-ke/Boomer/{BOOMER_COMMIT}/data/"
MULAN_HOME = "http://mulan.sourceforge.net/datasets-mlc.html"
MEKA_HOME = "https://waikato.github.io/meka/datasets/"


class UnknownDatasetError(KeyError):
    """The name is not in the registry (the message lists the known names)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class DatasetUnavailableError(LookupError):
    """The dataset is registered but its data files are not available anywhere known."""


# sha256 of every file of the mirror, copied from SOURCES.md (and checked by the tests
# against the files themselves).
SHA256: dict[str, str] = {
    "bibtex-test.arff": "9b03329cde64d3f994bdf7fbbac3f3b10fe185c311cb9ae725475f59c7f3f922",
    "bibtex-train.arff": "8dcc9de6e0b2cebaec8c1f4fac78431adeeb73cfd3ab879b530a66d366e59174",
    "bibtex.arff": "a282a6d1fb3cdaf39bde3f81cd4e6079850a7a538a6bc44f8b4ed95dfe1e5014",
    "birds-test.arff": "51ba6326d65ccdd7c755b6461280eb6d2769c7f59d8e12fd4250f91e6ca28326",
    "birds-train.arff": "8f215db6ee163149901e753977f631ba8bea0e0e8e1abc42b234414822f8ae36",
    "birds.arff": "07c0f4f504458b8f1064371bde126371fe501886d8c684b5b5199fd9e2e1ff9a",
    "cal500.arff": "cfe6097ba5fd6e8584e54911ab9783dcab34e898446b7c9370c71d477eae56d3",
    "emotions-test.arff": "f13d4b746b7b5c8eb484bd751d6ac463d4560dff998a93516a5c1fe35daf6c8f",
    "emotions-train.arff": "bbe704106c79bb8fb99c1d1d2e9bde081d6a2daeb01f100862f11fd91a3c1f98",
    "emotions.arff": "6f2f790047073d1293ac0872c0d55f2dc98b6177802fc96c6b66b309dfee1e4b",
    "enron-test.arff": "2f3aad54a8f54caaab4ab01246fe9dd385ba944a2633028f52747b57eac5474e",
    "enron-train.arff": "2988cefc1cdf7a8004a20ef84615cc8fa1b5d7434c16687283b41454e2d9d194",
    "enron.arff": "d0889ef0576d4e7b5ec0df3b3e4760e476ac11a6e7d7ddeee4c4a34470dedf97",
    "flags-test.arff": "09f6136fae47dcc2f0f491efd6401a11072cbfb0bfbb2666c63b35bb06aeeb16",
    "flags-train.arff": "1861cdab7f8baf1aef6fb6198f304465ddfd99b7f9a435337c604119522df3c5",
    "flags.arff": "d3ed8b5683f1b27e68069aad2c29388bb57d4caa5041b559e646cc3854a0cd1e",
    "genbase-test.arff": "0e988520bedab39aa3f23f08f646c769bcdb6f9119ee298fd92b37127b226a36",
    "genbase-train.arff": "37670db2c2b308a1c163d05501819526f1d65d659638ddfb76812d4ce384b5c6",
    "genbase.arff": "cb23052a49191e36e9a59cd661e97d79bed2e3f2583030a206692b57bf1e3671",
    "llog.arff": "c680833ef5163d67a6a13c06c277420abb125c164a30b0fcf874383324d3cf95",
    "medical-test.arff": "9095a32057d113ee477667ef7e54e2e8ebbc827ba777ef732f0eb90588491d6d",
    "medical-train.arff": "a8d2626a2032203aaf0956df8a14b01dccb20e1b28bebc687d5620eddf81acec",
    "medical.arff": "3429996af8ffdcf1cbfc231d19a95ee2c1da036175c900d615f87e10bda22444",
    "scene-test.arff": "ea38d20296b3ff7e220f477a3b802a9bcb2d768881fe6ee163efbc97ea527a42",
    "scene-train.arff": "b53ba93bdf412de922e3960389bcee24744fa3e872ce610511fc1d750888b64d",
    "slashdot-test.arff": "59f2a836d568fcfefc897dfa55c092b1184f22c119dc5d652fa4e20fc42eefbe",
    "slashdot-train.arff": "0d2e275f8b4f943840e03d80780c29ba21596f4ce5a54c3f1e224175887699b3",
    "slashdot.arff": "f953d2b26728fdf03d668f1c965f5bef18b5fcfa998f3aa8c63d63120792f938",
    "yeast-test.arff": "4aaac102bff9669a765bf0b378602e5cc8c3b181048282e2f003117b496d552a",
    "yeast-train.arff": "e759dc991ff54694a4ff9c4314f3be0d6fd2b1994a4b563f57e416394c6aebbd",
    "yeast.arff": "55c07a3b6ff885ae338fb6987a1d57f55572b29809922c2822c4885c61230dd7",
    "bibtex.xml": "08fe20013c1e75dcf1888c185f5187c95e76495b8518ce289b4d3afce38d1232",
    "birds.xml": "0f4ea547b2b3d538c8402662daf689e0d4520cc8b4f5ba113c2e7c01700f010f",
    "cal500.xml": "877e128531268d7661faa3e44f7bb43cbcda829c0895e49879168775b192728c",
    "corel5k.xml": "54ef6a6ccb7ca9b77524052b34b306d5d501661a5609b9d1cc7085b2b597679d",
    "emotions.xml": "dbce8e6ccbbb2fcbfd9e9edbb230d7ed12692c6e13f59fdbc0161fa9b6cf2dc0",
    "enron.xml": "ed40c92d7f613eed51714912cab10dddc4ce456262137d8fef230d44c7f4457b",
    "flags.xml": "7c9ed21a91b716b91f811323e20ee5a260ea2da62a5edcfeb1b91ec855a48f17",
    "genbase.xml": "198e8a1d7070e9603119e02e626cedc589db7577339b307b06f5192047b69eb9",
    "llog.xml": "5110d363b6d047c96ca27769d7f033cd8c195e9701e7107e1071d4b7ae51195b",
    "medical.xml": "ee157f419b92eb356cbe70dafe9e222700e542515a48d6e60f862df854b31dcd",
    "scene.xml": "55d8b247b949ad5c52e5a73d8c6775ec6e5469ce9682465b45b333b68ee4bcc5",
    "slashdot.xml": "0a85c982b45661f9521cb444f71051781dcd00a5e7b0610eece7f58add3025c2",
    "yeast.xml": "c3056cc26444b5158b1588d1b73bec9c45429e10f0957ad085903423cb81f247",
}


@dataclass(frozen=True)
class DatasetSpec:
    """Description of one benchmark dataset.

    Attributes
    ----------
    name : str
        Registry key (lower case).
    files : mapping
        ``subset -> ARFF file name`` for the subsets that exist as a file
        (``'all'``, ``'train'``, ``'test'``).  When ``'all'`` is missing it is the union
        (rows of train, then test).
    n_labels : int
        Number of labels.
    label_layout : {'xml', 'meka'}
        ``'xml'``: MULAN layout, the file ``xml`` names the label attributes (matched
        by name after ARFF unescaping).  ``'meka'``: the ``-C n`` option of the
        ``@relation`` line, labels are the first ``n`` attributes (last ``-n`` if negative).
    xml : str or None
        The MULAN label file.
    home : str
        Public page of the dataset (MULAN / MEKA).
    url : str
        Base URL from which the files can be downloaded (file name appended).
    citation : str
        Reference for the data (BibTeX key in ``book/references.bib`` and text).
    available : bool
        False when no data file is known anywhere reachable (only the XML).
    note : str
        Known anomalies of this version.
    sha256 : mapping
        ``file -> sha256`` of every file (ARFF and XML).
    repairs : mapping
        ``file -> ((old, new), ...)``: literal fixes of known syntax defects, applied to the
        verified text before parsing (each ``old`` must occur exactly once).
    rows : mapping
        ``subset -> (start, stop)``: the subset is that row range of its file (medical).
    extra_labels : tuple of str
        Attributes taken as labels in addition to those of the XML, appended after them
        (flags-12).
    """

    name: str
    files: MappingProxyType
    n_labels: int
    label_layout: str = "xml"
    xml: str | None = None
    home: str = MULAN_HOME
    url: str = BOOMER_RAW
    citation: str = ""
    available: bool = True
    note: str = ""
    sha256: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    repairs: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    rows: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    extra_labels: tuple[str, ...] = ()

    @property
    def subsets(self) -> tuple[str, ...]:
        """The subsets :func:`load_dataset` accepts for this dataset."""
        out = ["all"]
        out += [s for s in ("train", "test") if s in self.files]
        return tuple(out)

    def parts_for(self, subset: str) -> tuple[tuple[str, tuple[int, int] | None], ...]:
        """``(ARFF file, row range or None)`` pieces making up ``subset``, stacked in order.

        A missing ``'all'`` file is the union train + test.
        """
        if subset in self.files:
            return ((self.files[subset], self.rows.get(subset)),)
        if subset == "all" and "train" in self.files and "test" in self.files:
            return (
                (self.files["train"], self.rows.get("train")),
                (self.files["test"], self.rows.get("test")),
            )
        raise ValueError(
            f"subset must be one of {self.subsets} for dataset {self.name!r}, got {subset!r}"
        )


def _spec(
    name,
    *,
    split=True,
    full=True,
    n_labels,
    citation,
    note="",
    available=True,
    repairs=None,
    files=None,
    rows=None,
    base=None,
    **kw,
):
    base = base or name
    if files is not None:
        pass
    elif not available:
        files = {}
    else:
        files = {}
        if full:
            files["all"] = f"{name}.arff"
        if split:
            files["train"] = f"{name}-train.arff"
            files["test"] = f"{name}-test.arff"
    xml = f"{base}.xml"
    needed = sorted(set(files.values())) + [xml]
    sha = {f: SHA256[f] for f in needed}
    return DatasetSpec(
        name=name,
        files=MappingProxyType(files),
        n_labels=n_labels,
        xml=xml,
        citation=citation,
        note=note,
        available=available,
        sha256=MappingProxyType(sha),
        repairs=MappingProxyType(dict(repairs or {})),
        rows=MappingProxyType(dict(rows or {})),
        **kw,
    )


_SPECS = [
    _spec(
        "birds",
        n_labels=19,
        citation="briggs2013birds",
        note="One label name carries an escaped quote in the ARFF (Swainson\\'s Thrush); "
        "labels are matched after ARFF unescaping.",
    ),
    _spec("emotions", n_labels=6, citation="trohidis2008emotions"),
    _spec("enron", n_labels=53, citation="klimt2004enron"),
    _spec(
        "flags",
        n_labels=7,
        citation="goncalves2013flags",
        note="MULAN's flags has 7 colour labels; Table 2 of Hüllermeier et al. (2022) "
        "reports 12 labels: see 'flags-12'.",
    ),
    _spec(
        "flags-12",
        base="flags",
        n_labels=12,
        citation="goncalves2013flags",
        files={"all": "flags.arff", "train": "flags-train.arff", "test": "flags-test.arff"},
        extra_labels=("crescent", "triangle", "icon", "animate", "text"),
        note="flags.arff with the five binary symbol attributes (crescent, triangle, icon, "
        "animate, text) taken as labels after the 7 colours: 12 labels, 103 "
        "combinations, cardinality 4.12 -- the statistics of Table 2 of Hüllermeier "
        "et al. (2022).",
    ),
    _spec(
        "genbase",
        n_labels=27,
        citation="diplaris2005genbase",
        note="The first feature is the protein identifier (nominal, 662 values), kept as "
        "in MULAN. genbase-train/-test are not a partition of genbase.arff: protein "
        "Q9XEL8 is in both, O88658 in neither; 'all' is genbase.arff.",
    ),
    _spec(
        "llog",
        split=False,
        n_labels=75,
        citation="read2010thesis",
        home=MEKA_HOME,
        note="The @relation line still says '-C 75' (labels first) but a Weka Reorder "
        "moved the 75 labels to the end; the XML is authoritative.",
    ),
    _spec(
        "medical",
        n_labels=45,
        citation="pestian2007medical",
        files={"all": "medical.arff"},
        rows={"all": (0, 978)},
        note="medical.arff holds the 978 training reports of the 2007 CMC challenge "
        "followed by 976 more (most likely its test reports), 1954 rows in all; "
        "'medical' is the first 978 rows, the instance set "
        "of MULAN's medical and of Table 2 (94 combinations, cardinality 1.245). Its "
        "1909 word features were built on all 1954 reports (MULAN's version has "
        "1449). medical-train.arff and medical-test.arff hold the same 1954 rows and "
        "are not used; see 'medical-cmc' for the challenge split.",
    ),
    _spec(
        "medical-cmc",
        base="medical",
        n_labels=45,
        citation="pestian2007medical",
        files={"all": "medical.arff", "train": "medical.arff", "test": "medical.arff"},
        rows={"train": (0, 978), "test": (978, 1954)},
        note="All 1954 rows of medical.arff; 'train' = rows 0-977 (the challenge's training "
        "reports = MULAN's medical), 'test' = rows 978-1953 (the 976 further reports, "
        "presumably the challenge's test set).",
    ),
    _spec(
        "scene",
        full=False,
        n_labels=6,
        citation="boutell2004scene",
        note="Only MULAN's train/test split exists; 'all' is their union (1211 + 1196).",
    ),
    _spec("yeast", n_labels=14, citation="elisseeff2001yeast"),
    _spec(
        "slashdot",
        n_labels=20,
        citation="read2011classifier",
        home=MEKA_HOME,
        note="The @relation line says '-C 20' but the labels are the last 20 attributes; "
        "the XML is authoritative. slashdot-train.arff has one malformed row "
        "'{,3125 1}' (a document with no word and the label Idle), read as '{3125 1}'. "
        "The train/test files are another export than slashdot.arff (float32 values).",
        repairs={"slashdot-train.arff": (("\n{,3125 1}\n", "\n{3125 1}\n"),)},
    ),
    _spec("cal500", split=False, n_labels=174, citation="turnbull2008cal500"),
    _spec("bibtex", n_labels=159, citation="katakis2008bibtex"),
    _spec(
        "corel5k",
        split=False,
        full=False,
        available=False,
        n_labels=374,
        citation="duygulu2002corel",
        note="Only corel5k.xml is in the mirror; the ARFF is not available from any source "
        "reachable here (download it from the MULAN page yourself).",
    ),
]

REGISTRY: MappingProxyType = MappingProxyType({s.name: s for s in _SPECS})


@validate_params(available_only=Flag())
def list_datasets(available_only: bool = False) -> list[str]:
    """Names of the registered datasets (sorted)."""
    return sorted(n for n, s in REGISTRY.items() if s.available or not available_only)


def get_spec(name: str) -> DatasetSpec:
    """The :class:`DatasetSpec` of ``name`` (case-insensitive).

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If ``name`` is empty or not a plain name (separators, ``..``).
    UnknownDatasetError
        If the name is not registered; the message lists the known names.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a dataset name (str), got {type(name).__name__}")
    key = check_name(name.strip(), "name").lower()  # no '../x': names become file names
    if key not in REGISTRY:
        raise UnknownDatasetError(
            f"unknown dataset {name!r}; known datasets: {', '.join(list_datasets())}"
        )
    return REGISTRY[key]
