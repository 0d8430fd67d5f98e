"""The corpora read from a folder (AGNews, AmazonReview, DBpedia, SogouNews, YahooAnswers,
YelpReview, SST2, PennTreebank, WikiText, EnWik9, IMDB, CoNLL2000, UDPOS, SQuAD, Multi30k,
IWSLT2017, IWSLT2016, RenderedSST2, and the audio datasets YesNo, SpeechCommands, LJSpeech,
CMUArctic, LibriTTS, GTZAN, Tedlium) against MindSpore 2.10, on random folders
(tools/corpora_folders_for_differential.py).

Each case writes a corpus folder in MindSpore's layout (``train.csv`` / ``test.csv``; SST-2's
``train.tsv`` / ``dev.tsv`` / ``test.tsv`` with their header lines; ``ptb.{split}.txt``,
``wiki.{split}.tokens``, ``enwik9``; IMDB's ``{train,test}/{pos,neg,unsup}/`` review files
under odd names, of one line or several, empty, CRLF; CoNLL2000/UDPOS sentences; SQuAD JSON
with impossible questions, negative or fractional starts, keys missing; WAV files of every
16-bit value, now and then with a LIST chunk, another sample format or cut short, with their
metadata files; TED-LIUM ``.stm`` lines and SPHERE files of either byte order, now and then
a line of fewer fields, a segment past the end, a shorten-coded file), each file or folder now
and then missing, with the hostile contents
of tools/text_sources_vs_mindspore.py (quoted fields, line ends inside quotes, CRLF and lone CR,
empty lines and fields, fewer or more fields than columns, a BOM, bytes that are not UTF-8), and
reads it with a random ``usage`` (an invalid one too) and the sampling arguments of that tool
(``num_samples``, shards, ``shuffle``, ``num_parallel_workers``). The same cases run here and
in MindSpore's own interpreter (``--mindspore-python``); the column names,
``get_dataset_size()`` and every row of an epoch (dtype, shape and values exactly), or the
errors, are compared in order, sorted or counted as that tool does. The corpora read their
files with CSVDataset's and TextFileDataset's readers, so a difference the README documents for
those is documented here too (the text tool's ``documented()`` rules, asked about the files the
case's usage reads); differences of the corpora alone are this tool's own rules.

    .venv/bin/python tools/corpora_sources_vs_mindspore.py [--seed 1] [--cases 200]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import importlib
import os
import random
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402
import text_sources_vs_mindspore as text                            # noqa: E402
import corpora_folders_for_differential as folders                 # noqa: E402

CASE_TIMEOUT_S = 30

TRAIN_FIRST = ("SogouNewsDataset", "YelpReviewDataset")
USAGES = {"SST2Dataset": ["train", "dev", "test", None], "EnWik9Dataset": [],
          "IMDBDataset": ["train", "test", "all", None],
          "CoNLL2000Dataset": ["train", "test", "all", None],
          "SQuADDataset": ["train", "dev", "all", None],
          "SpeechCommandsDataset": ["train", "valid", "test", "all", None],
          "Multi30kDataset": ["train", "valid", "test", "all", None],
          "LibriTTSDataset": ["dev-clean", "train-clean-100", "test-clean", "all", None],
          "RenderedSST2Dataset": ["train", "val", "test", "all", None],
          "GTZANDataset": ["all", None, None, "train"],
          "IWSLT2017Dataset": ["train", "valid", "test", "all", None],
          "IWSLT2016Dataset": ["train", "valid", "test", "all", None],
          "TedliumDataset": ["train", "test", "dev", "all", None],
          "YesNoDataset": [], "LJSpeechDataset": [], "CMUArcticDataset": [],
          "UDPOSDataset": ["train", "valid", "test", "all", None],
          **{name: ["train", "test", "valid", "all", None] for name in folders.LINE_CORPORA},
          **{name: ["train", "test", "all", None] for name in folders.CSV_CORPORA}}
INVALID_USAGES = ["valid", "dev", "all", "eval", "TRAIN", 1]


AUDIO = ("YesNoDataset", "SpeechCommandsDataset", "LJSpeechDataset", "CMUArcticDataset",
         "LibriTTSDataset", "GTZANDataset")
# MindSpore lists these folders in the file system's order
LISTED_IN_FOLDER_ORDER = ("YesNoDataset", "LibriTTSDataset", "GTZANDataset")


def random_case(r):
    name = r.choice(sorted(folders.CSV_CORPORA) * 2 + ["SST2Dataset"] * 3 + sorted(folders.LINE_CORPORA) * 2 +
                    ["EnWik9Dataset"] * 2 + ["IMDBDataset"] * 6 + sorted(folders.TAGGED_CORPORA) * 4 +
                    ["SQuADDataset"] * 6 + list(AUDIO) * 5 + ["Multi30kDataset"] * 6 +
                    ["RenderedSST2Dataset"] * 5 + ["IWSLT2017Dataset"] * 6 +
                    ["IWSLT2016Dataset"] * 6 + ["TedliumDataset"] * 8)
    if name in IWSLT:
        return iwslt_case(r, name)
    if name == "TedliumDataset":
        return tedlium_case(r)
    elif name == "RenderedSST2Dataset":
        files = folders.rendered_sst2_folder(r)
        if r.random() < 0.5:
            return text.sampling(r, {"name": name, "files": files, "kwargs": {
                "decode": True}})
    elif name == "Multi30kDataset":
        files = folders.multi30k_folder(r)
        if r.random() < 0.5:
            return text.sampling(r, {"name": name, "files": files, "kwargs": {
                "language_pair": r.choice([["en", "de"], ["de", "en"], ("de", "en"),
                                           ["de", "fr"]])}})
    elif name in AUDIO:
        files = folders.audio_folder(r, name)
        if name == "CMUArcticDataset" and r.random() < 0.6:
            return text.sampling(r, {"name": name, "files": files, "kwargs": {
                "name": r.choice(["aew", "bdl", "xyz"])}})
    elif name == "IMDBDataset":
        files = folders.imdb_folder(r)
    elif name == "SQuADDataset":
        heat = text.draw_heat(r)
        files = [(file_name, folders.squad_file(r, heat)) for file_name in folders.SQUAD_FILES
                 if r.random() < 0.6]
    elif name in folders.TAGGED_CORPORA:
        heat, (separator, names) = text.draw_heat(r), folders.TAGGED_CORPORA[name]
        files = [(file_name, folders.tagged_file(r, separator, heat)) for file_name in names.values()
                 if folders.present(r)]
    elif name in folders.CSV_CORPORA:
        files = folders.csv_folder(r, name)
    elif name == "SST2Dataset":
        files = folders.sst2_folder(r)
    else:
        files = folders.line_folder(r, name)
    kwargs = {}
    if USAGES[name]:
        usage = r.choice(USAGES[name]) if r.random() > 0.04 else r.choice(INVALID_USAGES)
        if usage is not None:
            kwargs["usage"] = usage
    return text.sampling(r, {"name": name, "files": files, "kwargs": kwargs})


IWSLT = {"IWSLT2017Dataset": (2017, [["de", "en"], ["de", "en"], ["en", "it"], ["nl", "ro"]]),
         "IWSLT2016Dataset": (2016, [["de", "en"], ["de", "en"], ["en", "fr"], ["ar", "en"],
                                     ("cs", "en")])}


def iwslt_case(r, name):
    """An IWSLT folder of a pair (now and then asked for another, or an invalid one); for 2016
    ``valid_set``/``test_set`` mostly among the sets written, now and then another or an
    invalid name."""
    year, pairs = IWSLT[name]
    pair = r.choice(pairs)
    files = folders.iwslt_folder(r, list(pair), year)
    kwargs = {} if list(pair) == ["de", "en"] and r.random() < 0.5 else {"language_pair": pair}
    if r.random() < 0.03:
        kwargs["language_pair"] = r.choice([["de", "de"], ["de", "fr"], ["de"], "de-en"])
    if year == 2016:
        written = sorted({file_name.split(".TED.")[1].split(".")[0]
                          for file_name, _ in files if ".TED." in file_name})
        for key in ("valid_set", "test_set"):
            roll = r.random()
            if roll < 0.7 and written:
                kwargs[key] = r.choice(written)
            elif roll < 0.8:
                kwargs[key] = r.choice(folders.IWSLT2016_SETS)
            elif roll < 0.83:
                kwargs[key] = r.choice(["tst2015", "dev2012", 2013])
    usage = r.choice(USAGES[name]) if r.random() > 0.04 else r.choice(INVALID_USAGES)
    if usage is not None:
        kwargs["usage"] = usage
    return text.sampling(r, {"name": name, "files": files, "kwargs": kwargs})


def tedlium_case(r):
    """A TED-LIUM folder of a release, read with a usage of it (now and then an invalid one)
    and now and then another ``extensions``."""
    release = r.choice(["release1", "release2", "release3"])
    files, kwargs = folders.tedlium_folder(r, release), {}
    usages = ["all", None] if release == "release3" else USAGES["TedliumDataset"]
    usage = r.choice(usages) if r.random() > 0.04 else r.choice(["train", "data", "eval"])
    if usage is not None:
        kwargs["usage"] = usage
    if r.random() < 0.03:
        kwargs["extensions"] = r.choice([".wav", ".SPH", ".sph"])
    return text.sampling(r, {"name": "TedliumDataset", "files": files, "args": [release],
                             "kwargs": kwargs})


def iwslt_sets(case):
    """The XML set names an IWSLT case's usage 'valid' and 'test' read."""
    if case["name"] == "IWSLT2017Dataset":
        return {"valid": "dev2010", "test": "tst2010"}
    return {"valid": case["kwargs"].get("valid_set", "tst2013"),
            "test": case["kwargs"].get("test_set", "tst2014")}


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


def files_read(case):
    """The files of the case's folder its usage reads, in MindSpore's order (paths sorted, but
    for Sogou News and Yelp Review: train.csv first)."""
    name, usage = case["name"], case["kwargs"].get("usage")
    if name == "IMDBDataset":
        splits = ["train", "test"] if usage in (None, "all") else [usage]
        return [(file_name, data) for file_name, data in case["files"] if data is not None and
                file_name.split("/")[0] in splits and file_name.split("/")[1] != "unsup"]
    if name in AUDIO or name in ("RenderedSST2Dataset", "TedliumDataset"):
        return sorted(item for item in case["files"] if item[1] is not None)
    if name in IWSLT:
        names = dict(iwslt_sets(case), train="train")
        splits = [names[split] for split in (["train", "valid", "test"] if usage in (None, "all")
                                             else [usage])]
        return [(file_name, data) for split in splits for file_name, data in case["files"]
                if f"/{split}" in file_name or f".{split}." in file_name]
    if name == "Multi30kDataset":
        splits = sorted(folders.MULTI30K) if usage in (None, "all") else [usage]
        return [(file_name, data) for split in splits for file_name, data in case["files"]
                if file_name.rsplit(".", 1)[0] == folders.MULTI30K[split]]
    if name == "SQuADDataset":
        splits = ["train", "dev"] if usage in (None, "all") else [usage]
        wanted = [file_name for split in splits for file_name in folders.SQUAD_FILES
                  if file_name.startswith(split)]
        return [(file_name, data) for file_name in wanted for found, data in case["files"]
                if found == file_name]
    if name in folders.TAGGED_CORPORA:
        names = folders.TAGGED_CORPORA[name][1]
        wanted = list(names.values()) if usage in (None, "all") else [names[usage]]
    elif name == "EnWik9Dataset":
        wanted = ["enwik9"]
    elif name == "SST2Dataset":
        wanted = [f"{usage or 'train'}.tsv"]
    elif name in folders.LINE_CORPORA:
        splits = ["train", "test", "valid"] if usage in (None, "all") else [usage]
        wanted = [folders.LINE_CORPORA[name].format(split) for split in splits]
    else:
        wanted = ["train.csv", "test.csv"] if usage in (None, "all") else [f"{usage}.csv"]
    if case["name"] not in TRAIN_FIRST:
        wanted.sort()
    return sorted(((file_name, data) for file_name, data in case["files"] if file_name in wanted),
                  key=lambda item: wanted.index(item[0]))


def as_text_case(case):
    """The case as tools/text_sources_vs_mindspore.py would read the files its usage reads
    (CSVDataset or TextFileDataset over part0, part1, ... in order), for that tool's rules."""
    kwargs = {key: value for key, value in case["kwargs"].items() if key != "usage"}
    if case["name"] in folders.CSV_CORPORA:
        kind, suffix, kwargs["column_names"] = "csv", ".csv", folders.CSV_CORPORA[case["name"]]
    elif case["name"] == "SST2Dataset":
        kind, suffix, kwargs["field_delim"] = "csv", ".csv", "\t"
    elif case["name"] in ("Multi30kDataset", *IWSLT):
        kind, suffix = "text", ".txt"
    elif case["name"] in ("SQuADDataset", "RenderedSST2Dataset", "TedliumDataset") or \
            case["name"] in AUDIO:
        kind, suffix = "json", ".json"
    else:
        kind, suffix = "text", ".txt"
    files = [(f"part{i}{suffix}", data) for i, (_, data) in enumerate(files_read(case))]
    if case["name"] == "SST2Dataset" and case["kwargs"].get("usage") == "test":
        files = [(file_name, index_skipped(data)) for file_name, data in files]
    return dict(case, kind=kind, files=files, kwargs=kwargs, glob=False)


def index_skipped(data):
    """SST-2's test.tsv as MindSpore 2.10 parses it: after the header line (whose first name
    it drops), every byte up to the first tab after each LF is skipped (the index column); a
    line without a tab skips on into the next."""
    header, newline, rest = data.partition(b"\n")
    out, skipping = bytearray(header.partition(b"\t")[2] + newline), True
    for byte in rest:
        if skipping:
            skipping = byte != ord("\t")
            continue
        out.append(byte)
        skipping = byte == ord("\n")
    return bytes(out)


def index_skip_reads_otherwise(data):
    """Whether skipping test.tsv's index bytes (MindSpore) reads other fields than dropping
    the first column of the parsed file (here): a line without a tab, a lone CR line end, a
    quote before a line's first tab, or nothing after it (an empty line, no row there)."""
    lines = data.split(b"\n")[1:]
    return any(line and (b"\t" not in line or b'"' in line.split(b"\t")[0] or
                         b"\r" in line.rstrip(b"\r") or
                         not line.partition(b"\t")[2].rstrip(b"\r")) for line in lines)


def mindspore_review(data):
    """The text MindSpore 2.10 serves for a review file: its last non-empty line (measured),
    or None (it fails) where there is none."""
    lines = [line for line in data.split(b"\n") if line]
    return lines[-1] if lines else None


def our_review(data):
    return re.sub(rb"(\r?\n)+\Z", b"", data)


def missing_and_files_shuffled(case, item, ours, theirs):
    """Whether a file the usage reads is missing, the files are shuffled, and one side
    raises in ``item``."""
    read = {file_name for file_name, _ in files_read(case)}
    wanted = len(read) < {"EnWik9Dataset": 1, "SST2Dataset": 1}.get(
        case["name"], 3 if case["name"] in folders.LINE_CORPORA else 2) and case["kwargs"].get(
            "usage") in (None, "all")
    sides = [dict(ours).get(item, ("",))[0], dict(theirs).get(item, ("",))[0]]
    return wanted and case["kwargs"].get("shuffle") is True and sides.count("error") == 1


def line_sizes(case, strip):
    """MindSpore 2.10's get_dataset_size() of a CoNLL2000/UDPOS case: its count of the
    non-empty lines (``strip``: of those not only spaces) of the files read, per shard and
    under num_samples."""
    count = sum(1 for _, data in files_read(case) for line in data.split(b"\n")
                if (line.strip(b" ") if strip else line))
    shards = case.get("shards", 1)
    per = -(-count // shards)
    return [min(per, case["kwargs"].get("num_samples") or per)] * shards


def iwslt_uneven(case):
    """Whether the IWSLT train files the case reads have other line counts."""
    train = [data for file_name, data in files_read(case) if "/train.tags." in file_name]
    return len(train) == 2 and train[0].count(b"\n") != train[1].count(b"\n")


def multi30k_irregular(case):
    """Whether a split the case reads has files of other line counts, or an empty English line
    beside a German one."""
    read = dict(files_read(case))
    for stem in folders.MULTI30K.values():
        english, german = (read.get(f"{stem}.{language}") for language in ("en", "de"))
        if english is None or german is None:
            continue
        lines = [data.split(b"\n")[:-1] for data in (english, german)]
        if len(lines[0]) != len(lines[1]) or any(
                not a.rstrip(b"\r") and b.rstrip(b"\r") for a, b in zip(*lines)):
            return True
    return False


def stm_lines(case):
    """The lines of the ``.stm`` files of a TED-LIUM case (bytes, CR kept)."""
    return [line for file_name, data in case["files"] if file_name.endswith(".stm") and data
            for line in data.split(b"\n")[:-1]]


def stm_malformed(case):
    """Whether a ``.stm`` line has fewer than seven fields or a time that is no number."""
    for line in stm_lines(case):
        fields = line.rstrip(b"\r").split(b" ", 6)
        if len(fields) < 7 or not all(re.fullmatch(rb"[0-9.]+", t) for t in fields[3:5]):
            return True
    return False


def sphere_unread(case):
    """Whether a TED-LIUM case's segment reaches past its ``.sph`` file's samples, or a
    ``.sph`` file is shorten-coded."""
    sph = {file_name.rsplit("/", 1)[-1][:-4]: data for file_name, data in case["files"]
           if file_name.endswith(".sph")}
    if any(b"shorten" in data[:1024] for data in sph.values()):
        return True
    for line in stm_lines(case):
        fields = line.rstrip(b"\r").split(b" ", 6)
        data = sph.get(fields[0].decode("utf-8", "replace"))
        if data is None or len(fields) < 7:
            continue
        rate = int(re.search(rb"sample_rate -i (\d+)", data).group(1))
        try:
            if int(float(fields[4]) * rate) > (len(data) - 1024) // 2:
                return True
        except ValueError:
            continue
    return False


def zero_waveforms(outcome):
    """Rows of an outcome with each waveform's bytes zeroed, in a comparable order."""
    rows = [[(row[0][0], row[0][1], bytes(len(row[0][2])))] + row[1:] for row in outcome[1]]
    return sorted(rows, key=repr)


def only_waveforms_zeroed(item, ours, theirs):
    """Whether both sides served the same rows but for MindSpore's waveforms, all zeros."""
    mine, reference = dict(ours).get(item, ("",)), dict(theirs).get(item, ("",))
    if mine[0] != "ok" or reference[0] != "ok" or not isinstance(mine[1], list):
        return False
    return all(not any(row[0][2]) for row in reference[1]) and \
        zero_waveforms(mine) == zero_waveforms(reference)


def wav_unlike_mindspore(data):
    """Whether MindSpore 2.10 reads a WAV file otherwise than by its chunks: its data does not
    follow a 16-byte fmt chunk at byte 44, its samples are not 16-bit mono, or it is cut."""
    if len(data) < 44 or data[36:40] != b"data":
        return True
    channels, width = struct.unpack("<H", data[22:24])[0], struct.unpack("<H", data[34:36])[0]
    return channels != 1 or width != 16 or len(data) - 44 < struct.unpack("<I", data[40:44])[0]


def speech_commands_sizes(case):
    """MindSpore 2.10's get_dataset_size() of a SpeechCommands case: every WAV file's count
    but _background_noise_'s, whatever the usage, per shard and under num_samples."""
    count = sum(1 for file_name, _ in case["files"] if file_name.endswith(".wav") and
                not file_name.startswith("_background_noise_/"))
    shards = case.get("shards", 1)
    per = -(-count // shards)
    return [min(per, case["kwargs"].get("num_samples") or per)] * shards


def nonempty_line_sizes(case):
    """MindSpore 2.10's get_dataset_size() of an EnWik9 case: it counts the non-empty lines
    only (its rows are every line), per shard and under num_samples."""
    data = dict(case["files"]).get("enwik9", b"")
    lines = data.split(b"\n")
    count = sum(1 for line in (lines[:-1] if lines[-1] == b"" else lines) if line)
    shards = case.get("shards", 1)
    per = -(-count // shards)
    return [min(per, case["kwargs"].get("num_samples") or per)] * shards


# --- running a case in one library ---------------------------------------------------------------


def run_case(ds, case, directory):
    """[(item, outcome)]: "build", or "get_col_names", "get_dataset_size", "rows" (with shards:
    each shard's size and all shards' rows together) and, under num_samples, "whole"."""
    for file_name, data in case["files"]:
        if data is None:
            os.makedirs(os.path.join(directory, file_name))
            continue
        os.makedirs(os.path.dirname(os.path.join(directory, file_name)), exist_ok=True)
        with open(os.path.join(directory, file_name), "wb") as f:
            f.write(data)
    source = getattr(ds, case["name"])
    shards = case.get("shards")
    built = pipelines.attempt(lambda: [
        source(directory, *case.get("args", ()), **case["kwargs"],
               **({"num_shards": shards, "shard_id": i} if shards else {}))
        for i in range(shards or 1)])
    if built[0] == "error":
        return [("build", built)]
    datasets = built[1]

    def read(data):
        return [[pipelines.plain(v) for v in row] for row in
                data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    found = [("get_col_names", pipelines.attempt(lambda: list(datasets[0].get_col_names()))),
             ("get_dataset_size", pipelines.attempt(
                 lambda: [data.get_dataset_size() for data in datasets])),
             ("rows", pipelines.attempt(lambda: pipelines.in_order(
                 [row for data in datasets for row in read(data)], order(case))))]
    if "num_samples" in case["kwargs"]:     # every row of the files, in order
        whole = dict(case["kwargs"], shuffle=False, num_parallel_workers=1)
        del whole["num_samples"]
        found.append(("whole", pipelines.attempt(lambda: pipelines.in_order(
            read(source(directory, *case.get("args", ()), **whole)), order(dict(
                {key: value for key, value in case.items() if key != "shards"}, kwargs=whole))))))
    return found


def order(case):
    """The text tool's order of the case's rows; YesNo's and LibriTTS's "sorted" at most, or
    "counted" where num_samples or shards take some of their rows (MindSpore reads their
    folders in the order the file system lists them)."""
    found = text.order(as_text_case(case))
    if case["name"] not in LISTED_IN_FOLDER_ORDER or found == "counted":
        return found
    return "counted" if "shards" in case or case["kwargs"].get("num_samples") else "sorted"


def library(name):
    return importlib.import_module("mindspore.dataset" if name == "mindspore" else "minddata")


outcomes = differential_reference.case_by_case(library, cases, run_case, in_directory=True)
CRASH = differential_reference.CRASH


# --- comparing -----------------------------------------------------------------------------------


def classify(case, ours, theirs):
    return differential_reference.first_undocumented(
        case, ours, theirs, text.case_differences(ours, theirs), documented)


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None: the text tool's rules for
    CSVDataset and TextFileDataset, over the files the usage reads, and the corpora's own."""
    reference = dict(theirs)
    tagged = case["name"] in folders.TAGGED_CORPORA
    read = [data for _, data in files_read(case)]
    rules = [
        (case["name"] in IWSLT and iwslt_uneven(case),
         "IWSLT2017/2016: train files of other line counts raise (MindSpore 2.10 pairs the "
         "lines up to the shorter file)"),
        (case["name"] == "TedliumDataset" and item in ("rows", "whole") and
         only_waveforms_zeroed(item, ours, theirs),
         "Tedlium: the waveform is the segment's samples (MindSpore 2.10 serves zeros of the "
         "segment's length)"),
        (case["name"] == "TedliumDataset" and any(b"\r" in line for line in stm_lines(case)),
         "Tedlium: a CRLF line end loses its \\r (MindSpore 2.10 keeps it in the transcript)"),
        (case["name"] == "TedliumDataset" and stm_malformed(case),
         "Tedlium: a .stm line of fewer than seven fields or with a time that is no number "
         "raises naming the file and line (MindSpore 2.10 reads other fields or a time of 0)"),
        (case["name"] == "TedliumDataset" and sphere_unread(case),
         "Tedlium: a segment past the end of its .sph file or a shorten-coded file raises "
         "(MindSpore 2.10 serves zeros, or fails by a byte offset that ignores the header)"),
        (case["name"] == "GTZANDataset" and case["kwargs"].get("usage") in ("train", "valid",
                                                                           "test"),
         "GTZAN: usage 'train', 'valid' and 'test' raise ValueError (MindSpore's fixed lists of "
         "each split's files are not carried)"),
        (case["name"] == "RenderedSST2Dataset" and case["kwargs"].get("usage") in (None, "all")
         and item in ("rows", "whole") and len({frozenset(
             file_name.split("/")[1] for file_name, _ in case["files"]
             if file_name.startswith(split + "/")) for split in ("train", "valid", "test")
             if any(file_name.startswith(split + "/") for file_name, _ in case["files"])}) > 1,
         "RenderedSST2 usage 'all': labels are the indices of the sorted class names of every "
         "split (MindSpore numbers the classes as it meets them, folder by folder)"),
        (case["name"] == "Multi30kDataset" and multi30k_irregular(case),
         "Multi30k: the files of a split are paired line by line, files of other line counts "
         "raise (MindSpore 2.10 stops at the shorter one, and serves at most as many pairs as "
         "the English file has non-empty lines, its get_dataset_size())"),
        (case["name"] in AUDIO and any(wav_unlike_mindspore(data) for file_name, data in
                                       case["files"] if file_name.endswith(".wav")),
         "WAV files: the RIFF chunks are read as they are, a file not 16-bit mono PCM or cut "
         "short raises (MindSpore 2.10 reads a fixed 44-byte header and serves what follows as "
         "16-bit mono samples)"),
        (case["name"] == "SpeechCommandsDataset" and item == "rows" and
         dict(ours).get(item) in (("ok", 0), ("ok", [])) and "must be greater than 0" in str(
             reference.get(item)),
         "SpeechCommands: a usage without files has an empty epoch, sharded or sampled too "
         "(MindSpore 2.10: its sampler raises 'num_samples must be greater than 0')"),
        ("shards" in case and item == "rows" and dict(ours).get(item, ("",))[0] == "ok" and
         "does not exist" in str(reference.get(item)),
         "a corpus file missing after the last rows: no error in any shard (MindSpore 2.10: "
         "raises in the shards whose row range reaches past the rows)"),
        (item == "rows" and order(case) == "counted" and case["name"] in AUDIO and
         [dict(ours).get(item, ("",))[0], reference.get(item, ("",))[0]].count("error") == 1,
         "a random subset (shuffle or shards with num_samples) reads other rows here, so a "
         "faulty WAV file is met on one side only"),
        (case["name"] == "SST2Dataset" and "cannot parse its header line" in str(
            dict(ours).get(item)),
         "CSV: a header line that is not UTF-8 raises (MindSpore: get_col_names raises "
         "UnicodeDecodeError, the rows are served; SST2 test.tsv: no error where the bytes "
         "are in the index column's name, which it drops)"),
        (case["name"] == "SpeechCommandsDataset" and item == "get_dataset_size" and (
            reference.get(item) == ("ok", speech_commands_sizes(case)) or
            reference.get(item, ("",))[0] == "error" and case["kwargs"].get("usage") in (
                "test", "valid")),
         "SpeechCommands: get_dataset_size() counts the usage's files (MindSpore 2.10: every "
         "file's, whatever the usage, and a RuntimeError where there is none)"),
        (tagged and item == "get_dataset_size" and reference.get(item) in (
            ("ok", line_sizes(case, strip)) for strip in (False, True)),
         "CoNLL2000/UDPOS: get_dataset_size() counts the sentences served (MindSpore 2.10 "
         "counts the word lines)"),
        (tagged and item in ("rows", "whole") and any(not re.search(rb"\n[ ]*\r?\n[\s]*\Z", data)
                                                      and data.strip() for data in read),
         "CoNLL2000/UDPOS: a file's last sentence is a row where no empty line follows it "
         "(MindSpore 2.10 drops it)"),
        (tagged and any(0 < len(line.strip(b" ").split(folders.TAGGED_CORPORA[case["name"]][0].encode()))
                        < 3 for data in read for line in data.split(b"\n") if line.strip(b" ")),
         "CoNLL2000/UDPOS: a line of fewer than three fields raises (MindSpore 2.10 reads past "
         "its fields: a crash, garbage or an error)"),
        (tagged and any(b"\r" in data for data in read),
         "CoNLL2000/UDPOS: a CRLF line end loses its CR (MindSpore 2.10 fails on the line "
         "after it)"),
        (tagged and item in ("rows", "whole", "get_dataset_size") and "shards" in case or (
            tagged and "num_samples" in case["kwargs"] and item == "rows"),
         "CoNLL2000/UDPOS: shards and num_samples count sentences (MindSpore 2.10: word lines, "
         "so a shard or num_samples takes other sentences)"),
        (case["name"] == "IMDBDataset" and any(
            mindspore_review(data) != our_review(data) for _, data in files_read(case)),
         "IMDB: a review file is served whole but for the line breaks that end it (MindSpore "
         "2.10: its last non-empty line only, with a CRLF's CR; an empty file fails)"),
        (case["name"] == "EnWik9Dataset" and item == "get_dataset_size" and
         reference.get(item) == ("ok", nonempty_line_sizes(case)),
         "EnWik9: get_dataset_size() counts every row served, empty lines too (MindSpore 2.10 "
         "counts the non-empty lines only, fewer than it serves)"),
        (case["name"] == "SST2Dataset" and case["kwargs"].get("usage") == "test" and any(
            index_skip_reads_otherwise(data) for file_name, data in case["files"]
            if file_name == "test.tsv"),
         "SST2 test.tsv: the index column is dropped from the parsed rows (MindSpore skips the "
         "bytes up to each line's first tab before parsing: a line without a tab, a lone CR "
         "line end or a quoted index reads other fields there, an empty sentence no row)"),
        (item in ("rows", "whole") and missing_and_files_shuffled(case, item, ours, theirs),
         "a corpus file missing where usage 'all' shuffles the files: it fails or not by the "
         "sorted order of the files (MindSpore: by their shuffled order)"),
    ]
    return next((reason for applies, reason in rules if applies), None) or text.documented(
        as_text_case(case), item, renamed(case, ours), theirs)


def renamed(case, outcomes):
    """``outcomes`` with the files the usage reads named in error messages as in
    ``as_text_case`` (part0.csv, ...), which the text tool's rules read."""
    names = {f"/{file_name}": f"/{part}" for (file_name, _), (part, _) in
             zip(files_read(case), as_text_case(case)["files"])}

    def rename(outcome):
        if outcome[0] != "error":
            return outcome
        message = outcome[2]
        for old, new in names.items():
            message = message.replace(old, new)
        return outcome[:2] + (message,) + outcome[3:]
    return [(item, rename(outcome)) for item, outcome in outcomes]


def describe(case, limit=300):
    files = ", ".join(f"{name}={data[:limit]!r}" for name, data in case["files"]
                      if data is not None)
    extra = f" shards={case['shards']}" if "shards" in case else ""
    args = "".join(f"{arg!r}, " for arg in case.get("args", ()))
    return f"{case['name']}({args}{case['kwargs']}){extra} over {files or 'an empty folder'}"


def main():
    return differential_reference.run_tool(__doc__.split("\n\n")[0], 200, __file__, cases,
                                           outcomes, classify, describe, CASE_TIMEOUT_S,
                                           soft=("error type", "error elsewhere"))


if __name__ == "__main__":
    sys.exit(main())
