"""The random corpus folders of tools/corpora_sources_vs_mindspore.py, in each dataset's layout:
CSV and text corpora (the text tool's hostile contents), IMDB reviews, tagged sentences, SQuAD
JSON, WAV files with their metadata, Multi30k pairs and Rendered SST-2 PNGs. Every generator
takes a ``random.Random`` and returns ``[(relative path, bytes)]`` (``None`` bytes: a folder);
the bytes are the same in any interpreter (no library encodes them)."""
import json
import struct
import zlib

import text_sources_vs_mindspore as text

CSV_CORPORA = {
    "AGNewsDataset": ["index", "title", "description"],
    "AmazonReviewDataset": ["label", "title", "content"],
    "DBpediaDataset": ["class", "title", "content"],
    "SogouNewsDataset": ["index", "title", "content"],
    "YahooAnswersDataset": ["class", "title", "content", "answer"],
    "YelpReviewDataset": ["label", "text"],
}
LINE_CORPORA = {"PennTreebankDataset": "ptb.{}.txt", "WikiTextDataset": "wiki.{}.tokens"}
TAGGED_CORPORA = {"CoNLL2000Dataset": (" ", {"train": "train.txt", "test": "test.txt"}),
                  "UDPOSDataset": ("\t", {"train": "en-ud-tag.v2.train.txt",
                                           "valid": "en-ud-tag.v2.dev.txt",
                                           "test": "en-ud-tag.v2.test.txt"})}
SST2_HEADERS = {"train": ["sentence", "label"], "dev": ["sentence", "label"],
                "test": ["index", "sentence"]}
SQUAD_FILES = ["train-v1.1.json", "train-v2.0.json", "dev-v1.1.json", "dev-v2.0.json"]
MULTI30K = {"train": "training/train", "valid": "validation/val", "test": "mmt16_task1_test/test"}


def present(r):
    """Whether a file of the layout is written (now and then one is missing)."""
    return r.random() > 0.07


def csv_folder(r, name):
    heat, columns = text.draw_heat(r), CSV_CORPORA[name]
    return [(split + ".csv", text.csv_file(r, ["str"] * len(columns), ",", False, columns,
                                           heat)) for split in ("train", "test") if present(r)]


def sst2_folder(r):
    heat = text.draw_heat(r)
    return [(split + ".tsv", text.csv_file(r, ["str", "str"], "\t", True, SST2_HEADERS[split],
                                           heat)) for split in ("train", "dev", "test")
            if present(r)]


def line_folder(r, name):
    heat = text.draw_heat(r)
    if name == "EnWik9Dataset":
        return [("enwik9", text.text_file(r, heat))] if present(r) else []
    return [(LINE_CORPORA[name].format(split), text.text_file(r, heat))
            for split in ("train", "test", "valid") if present(r)]


REVIEW_NAMES = ["0_9.txt", "1_7.txt", "10_2.txt", "2_10.txt", "b.txt", "A.txt", "_x.txt",
                "r\u00e9v.txt", "note.md", "12_3"]


def review(r, heat):
    """A review file's bytes: one line most often, else lines, line breaks, nothing."""
    roll = r.random() / heat
    if roll < 0.05:
        return r.choice([b"", b"\n", b"\r\n"])
    if roll < 0.15:
        lines = [" ".join(text.word(r) for _ in range(r.randint(0, 3)))
                 for _ in range(r.randint(2, 4))]
        return text.mangle(r, r.choice(["\n", "\r\n"]).join(lines).encode(), heat)
    line = " ".join(text.word(r) for _ in range(r.randint(1, 6))) + r.choice(["", "", "\n"])
    return text.mangle(r, line.encode(), heat)


def imdb_folder(r):
    """{train,test}/{pos,neg,unsup}/ folders (``None`` data: a folder), now and then one
    missing, with a few reviews each."""
    heat, files = text.draw_heat(r), []
    for split in ("train", "test"):
        for folder in ("pos", "neg", "unsup"):
            if present(r):
                files.append((f"{split}/{folder}", None))
                files += [(f"{split}/{folder}/{name}", review(r, heat))
                          for name in r.sample(REVIEW_NAMES, r.randint(0, 3))]
    return files


def tagged_file(r, separator, heat):
    """Sentences of ``word tag tag`` lines between empty lines: now and then no empty line
    after the last, CRLF line ends, spaces around a line, a field more or fewer."""
    end, lines = "\r\n" if r.random() < 0.1 * heat else "\n", []
    for _ in range(r.randint(0, 3)):
        lines += [""] * r.choice([1, 1, 1, 2])
        for _ in range(r.randint(1, 3)):
            fields = [text.word(r).replace(" ", "_").replace("\t", "_") for _ in range(3)]
            roll = r.random() / heat
            if roll < 0.01:        # MindSpore 2.10 crashes on it (CoNLL2000) or fails
                fields = fields[:r.choice([1, 2])]
            elif roll < 0.1:
                fields.append("extra")
            elif roll < 0.15:
                fields[1] = ""
            line = separator.join(fields)
            lines.append(" " + line + "  " if r.random() < 0.1 * heat else line)
    if r.random() > 0.2:
        lines.append("")
    return end.join(lines).encode() + (end.encode() if lines and r.random() > 0.1 else b"")


def squad_answer(r, heat):
    answer = {"text": text.word(r), "answer_start": r.choice([0, 3, 17])}
    if r.random() < 0.05 * heat:
        answer["answer_start"] = r.choice([-1, -7, "3", 2 ** 32 + 5, 1.5, None])
    if r.random() < 0.03 * heat:
        del answer[r.choice(["text", "answer_start"])]
    return answer


def squad_file(r, heat):
    """A SQuAD JSON file: articles of paragraphs of questions, answered, impossible (no
    answers, plausible ones), now and then a key missing or of another type."""
    articles = []
    for _ in range(r.randint(0, 2)):
        paragraphs = []
        for _ in range(r.randint(0, 2)):
            qas = []
            for _ in range(r.randint(0, 3)):
                qa = {"question": text.word(r) + "?", "id": str(r.randint(0, 99)),
                      "answers": [squad_answer(r, heat) for _ in range(r.choice([0, 1, 1, 2]))]}
                if not qa["answers"] and r.random() < 0.5:
                    qa.update(is_impossible=True, plausible_answers=[squad_answer(r, heat)])
                if r.random() < 0.03 * heat:
                    del qa[r.choice(["question", "answers"])]
                qas.append(qa)
            paragraph = {"context": " ".join(text.word(r) for _ in range(3)), "qas": qas}
            if r.random() < 0.03 * heat:
                paragraph["context"] = r.choice([None, 7, ["x"]])
            paragraphs.append(paragraph)
        articles.append({"title": text.word(r), "paragraphs": paragraphs})
    data = json.dumps({"version": "v2.0", "data": articles},
                      ensure_ascii=r.random() < 0.5).encode()
    return data if r.random() > 0.02 * heat else data[:len(data) // 2]


def wav(r, heat):
    """A WAV file's bytes: 16-bit mono PCM with a 44-byte header most often; now and then a
    LIST chunk before the data, another sample format, or the file cut short."""
    samples = [r.choice([-32768, 32767, 0, 1, -1, r.randint(-32768, 32767)])
               for _ in range(r.randint(0, 6))]
    channels, width, extra = 1, 2, b""
    roll = r.random() / heat
    if roll < 0.03:
        extra = b"LIST" + struct.pack("<I", 4) + b"abcd"
    elif roll < 0.05:
        channels, width = r.choice([(2, 2), (1, 1), (1, 4)])
    data = b"".join(struct.pack("<h", v) for v in samples)
    rate = r.choice([8000, 16000, 16000, 22050, 22050, 24000, 24000, 44100])
    fmt = struct.pack("<4sIHHIIHH", b"fmt ", 16, 1, channels, rate, rate * channels * width,
                      channels * width, 8 * width)
    body = b"WAVE" + fmt + extra + b"data" + struct.pack("<I", len(data)) + data
    out = b"RIFF" + struct.pack("<I", len(body)) + body
    return out[:-1] if data and 0.05 <= roll < 0.07 else out


def audio_folder(r, name):
    heat, files = text.draw_heat(r), []
    if name == "YesNoDataset":
        for _ in range(r.randint(0, 4)):
            bits = [str(r.randint(0, 1)) for _ in range(r.choice([8, 8, 8, 3]))]
            files.append(("_".join(bits) + ".wav", wav(r, heat)))
        if r.random() < 0.1:
            files.append(("README.txt", b"yes no"))
    elif name == "SpeechCommandsDataset":
        lists, files = {"validation_list.txt": [], "testing_list.txt": []}, {}
        for label in r.sample(["cat", "dog", "yes", "_background_noise_"], r.randint(1, 3)):
            for _ in range(r.randint(0, 3)):
                relative = f"{label}/{r.choice(['b433eff', 'a1', 'zz9'])}_nohash_" \
                           f"{r.randint(0, 3)}.wav"
                files[relative] = wav(r, heat)
                roll = r.random()
                if roll < 0.5:
                    lists["validation_list.txt" if roll < 0.25 else "testing_list.txt"].append(
                        relative)
        files = sorted(files.items()) + [
            (list_name, "".join(line + "\n" for line in lines).encode())
            for list_name, lines in lists.items() if r.random() > 0.1]
    elif name == "LJSpeechDataset":
        lines = []
        for k in range(r.randint(0, 4)):
            utterance = f"LJ001-{k:04d}"
            lines.append(f"{utterance}|{text.word(r)} {text.word(r)}|{text.word(r)}")
            if r.random() > 0.05 * heat:
                files.append((f"wavs/{utterance}.wav", wav(r, heat)))
        if r.random() > 0.05:
            files.append(("metadata.csv", "".join(line + "\n" for line in lines).encode()))
    elif name == "GTZANDataset":
        for genre in r.sample(["blues", "rock", "jazz", "mygenre"], r.randint(0, 3)):
            for k in r.sample([0, 1, 3, 99, 100], r.randint(1, 3)):
                files.append((f"{genre}/{genre}.{k:05d}.wav", wav(r, heat)))
            if r.random() < 0.1:
                files.append((f"{genre}/other.wav", wav(r, heat)))
    elif name == "LibriTTSDataset":
        for part in r.sample(["dev-clean", "train-clean-100"], r.randint(0, 2)):
            for speaker, chapter in r.sample([("9", "5"), ("10", "40"), ("116", "7")],
                                             r.randint(1, 2)):
                folder, lines = f"{part}/{speaker}/{chapter}", []
                for k in r.sample(range(1, 6), r.randint(0, 3)):
                    utterance = f"{speaker}_{chapter}_{k:06d}_000000"
                    lines.append(f"{utterance}\t{text.word(r)}\t{text.word(r)}")
                    if r.random() > 0.05 * heat:
                        files.append((f"{folder}/{utterance}.wav", wav(r, heat)))
                files.append((f"{folder}/{speaker}_{chapter}.trans.tsv",
                              "".join(line + "\n" for line in lines).encode()))
    else:
        lines, root = [], f"cmu_us_{r.choice(['aew', 'aew', 'bdl'])}_arctic"
        for k in r.sample(range(1, 9), r.randint(0, 4)):
            utterance = f"arctic_a{k:04d}"
            lines.append(f'( {utterance} "{text.word(r)}, {text.word(r)}." )')
            if r.random() > 0.05 * heat:
                files.append((f"{root}/wav/{utterance}.wav", wav(r, heat)))
        if r.random() > 0.05:
            files.append((f"{root}/etc/txt.done.data",
                          "".join(line + "\n" for line in lines).encode()))
    return files


def multi30k_folder(r):
    """Each split's English and German files, line-aligned, now and then an empty line in one
    or both, CRLF ends, or a line more in one."""
    heat, files = text.draw_heat(r), []
    for stem in MULTI30K.values():
        if not present(r):
            continue
        pairs = [[text.word(r), text.word(r)] for _ in range(r.randint(0, 4))]
        for pair in pairs:
            if r.random() < 0.1 * heat:
                pair[r.choice([0, 1])] = ""
            elif r.random() < 0.05 * heat:
                pair[:] = ["", ""]
        end = "\r\n" if r.random() < 0.1 * heat else "\n"
        extra = r.random() < 0.05 * heat
        for k, language in enumerate(("en", "de")):
            lines = [pair[k] for pair in pairs] + (["more"] if extra and k else [])
            files.append((f"{stem}.{language}", "".join(line + end for line in lines).encode()))
    return files


def png(r, width, height):
    """A small RGB PNG's bytes (zlib level 6 of random pixels: the same in both interpreters)."""
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    rows = b"".join(b"\x00" + bytes(r.randrange(256) for _ in range(3 * width))
                    for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0,
                                                              0, 0)) +
            chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def rendered_sst2_folder(r):
    """{train,valid,test}/{negative,positive,...}/*.png, now and then a split or class more or
    missing, a file that is no PNG."""
    files = []
    for split in ("train", "valid", "test"):
        if not present(r):
            continue
        classes = ["negative", "positive"] + (["neutral"] if r.random() < 0.1 else [])
        for name in classes:
            for k in range(r.randint(0, 2) if r.random() < 0.1 else r.randint(1, 2)):
                files.append((f"{split}/{name}/{k}.png", png(r, r.randint(1, 3),
                                                             r.randint(1, 3))))
            if r.random() < 0.05:
                files.append((f"{split}/{name}/notes.jpg", b"not a png"))
            if not any(file_name.startswith(f"{split}/{name}/") for file_name, _ in files):
                files.append((f"{split}/{name}", None))
    return files


IWSLT_FOLDER = "texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo"
IWSLT2016_SETS = ["dev2010", "tst2010", "tst2011", "tst2012", "tst2013", "tst2014"]


def iwslt_paths(pair, year):
    """(folder, XML file name prefix) of an IWSLT 2017 or 2016 pair."""
    src, tgt = pair
    if year == 2017:
        return IWSLT_FOLDER, "IWSLT17"
    return f"texts/{src}/{tgt}/{src}-{tgt}", "IWSLT16"


def iwslt_xml(segments, language):
    """An IWSLT XML file of ``segments`` (a list of docs, each a list of seg texts)."""
    docs = "".join(f'<doc docid="{k}" genre="lectures">\n<talkid>{k}</talkid>\n' +
                   "".join(f'<seg id="{i}"> {text} </seg>\n' for i, text in enumerate(doc)) +
                   "</doc>\n" for k, doc in enumerate(segments))
    return (f'<mteval>\n<srcset setid="iwslt2017-dev2010" srclang="{language}">\n{docs}'
            f"</srcset>\n</mteval>\n").encode()


def iwslt_folder(r, pair, year=2017):
    """The train tag files and XML files of ``pair`` (2017: dev2010 and tst2010; 2016: two to
    four of its sets), each now and then missing: talk tags, spaces, now and then an empty
    line, CRLF ends or a line more; XML entities."""
    heat, files, (src, tgt) = text.draw_heat(r), [], pair
    folder, prefix = iwslt_paths(pair, year)
    sets = ["dev2010", "tst2010"] if year == 2017 else r.sample(IWSLT2016_SETS, r.randint(2, 4))
    words = lambda: " ".join(w for w in (text.word(r) for _ in range(2))         # noqa: E731
                             if w.isprintable() and not set(w) & set("<&\t")) or "x"
    if present(r):
        lines = [["<url>http://ted.com/x</url>"] * 2, ["<title>T</title>"] * 2]
        lines += [[words(), words()] for _ in range(r.randint(0, 4))]
        if r.random() < 0.05 * heat:
            lines.insert(r.randrange(len(lines) + 1), ["", words()])
        end = "\r\n" if r.random() < 0.1 * heat else "\n"
        for k, language in enumerate((src, tgt)):
            rows = [line[k] for line in lines] + (["more"] if k and r.random() < 0.05 * heat
                                                  else [])
            files.append((f"{folder}/train.tags.{src}-{tgt}.{language}",
                          "".join(line + end for line in rows).encode()))
    for name in sets:
        if not present(r):
            continue
        docs = [[(words(), words()) for _ in range(r.randint(1, 3))]
                for _ in range(r.randint(1, 2))]
        if r.random() < 0.1:
            docs[0][0] = ("a &amp; b", "c &lt; d")
        for k, language in enumerate((src, tgt)):
            files.append((f"{folder}/{prefix}.TED.{name}.{src}-{tgt}.{language}.xml",
                          iwslt_xml([[seg[k] for seg in doc] for doc in docs], language)))
    return files


def sphere(samples, rate, order="01", coding="pcm"):
    """A NIST SPHERE file's bytes: its 1024-byte header (NUL-padded: MindSpore 2.10 reads the
    header as a C string) and 16-bit samples in ``order`` (01 little-, 10 big-endian)."""
    fields = (f"sample_count -i {len(samples)}\nsample_rate -i {rate}\nchannel_count -i 1\n"
              f"sample_byte_format -s2 {order}\nsample_n_bytes -i 2\n"
              f"sample_coding -s{len(coding)} {coding}\nend_head\n")
    head = b"NIST_1A\n   1024\n" + fields.encode()
    return head + bytes(1024 - len(head)) + struct.pack(
        ("<" if order == "01" else ">") + "%dh" % len(samples), *samples)


def stm_line(r, talk, duration, heat):
    """One ``talk channel speaker start end identifier transcript`` line inside ``duration``
    seconds; now and then a field fewer, a time that is no number or past the end."""
    start = round(r.uniform(0, duration), 2)
    end = round(r.uniform(start, duration), 2)
    roll = r.random() / heat
    if roll < 0.02:
        end = round(duration + r.choice([0.5, 3.0]), 2)
    fields = [talk, "1", r.choice([talk, "inter_segment_gap", "S1"]), f"{start:.2f}",
              f"{end:.2f}", r.choice(["<o,f0,male>", "<o,f0,female>", "<o,,unknown>"]),
              " ".join(w for w in (text.word(r) for _ in range(r.randint(0, 3)))
                       if w.isprintable() and "\n" not in w)]
    if 0.02 <= roll < 0.03:
        fields = fields[:r.randint(1, 6)]
    elif 0.03 <= roll < 0.035:
        fields[3] = "abc"
    return " ".join(fields)


def tedlium_folder(r, release):
    """``{usage}/stm/*.stm`` and ``{usage}/sph/*.sph`` (release3: ``data/``), each usage folder
    now and then missing: one or two talks each, up to 12 lines a file (their string order
    differs from their number order past 10), little- and big-endian samples at small rates;
    now and then a CRLF file, a shorten-coded or missing ``.sph``."""
    heat, files = text.draw_heat(r), []
    usages = ["data"] if release == "release3" else ["train", "test", "dev"]
    for usage in usages:
        if not present(r):
            continue
        files.append((f"{usage}/stm", None))
        for talk in r.sample(["TalkA_2010", "Bob2", "Carla_2009X"], r.randint(1, 2)):
            rate = r.choice([1000, 2000, 8000])
            samples = [r.choice([-32768, 32767, 0, r.randint(-32768, 32767)])
                       for _ in range(r.randint(rate // 4, 2 * rate))]
            lines = [stm_line(r, talk, len(samples) / rate, heat)
                     for _ in range(r.choice([1, 2, 3, 11, 12]))]
            end = "\r\n" if r.random() < 0.05 * heat else "\n"
            files.append((f"{usage}/stm/{talk}.stm", "".join(line + end for line in lines)
                          .encode()))
            if r.random() < 0.05 * heat:
                continue                                    # its .sph missing
            coding = "pcm,embedded-shorten-v2.00" if r.random() < 0.03 * heat else "pcm"
            files.append((f"{usage}/sph/{talk}.sph", sphere(samples, rate, r.choice(["01", "10"]),
                                                            coding)))
    return files
