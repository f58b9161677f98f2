"""Build the tutorial notebooks in English, Traditional and Simplified Chinese from one
source each (``notebooks/src/*.md``, jupytext MyST markdown).

Code cells are written once and shared; each markdown cell says its language in
its metadata (``+++ {"lang": "en"}`` or ``"zh-Hant"``).  Simplified Chinese is made
from Traditional with OpenCC's Taiwan-to-mainland phrase conversion, glossary terms
protected so they come out as shared/GLOSSARY.md (copied in src/glossary.tsv) says.
Each notebook gets links to its other languages on top, is executed, and saved
with its outputs in ``notebooks/<lang>/``.  Exercise cells are tagged ``exercise``; the
reference solution of each is a code cell also tagged ``solution``, which is built with
its source collapsed (``jupyter.source_hidden``) and runs, so nbval checks it.

    python notebooks/build.py            # build and execute everything
    python notebooks/build.py --check    # exit 1 if a built notebook differs from its source
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

import jupytext
import nbformat

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
LANGS = ("en", "zh-Hant", "zh-Hans")
LANG_NAMES = {"en": "English", "zh-Hant": "繁體中文", "zh-Hans": "简体中文"}
INDEX_TITLE = {"en": "tfgraph_edu tutorials", "zh-Hant": "tfgraph_edu 教學",
               "zh-Hans": "tfgraph_edu 教程"}


def sources() -> list[Path]:
    return sorted(SRC.glob("[0-9][0-9]_*.md"))


def _glossary() -> list[tuple[str, str]]:
    """GLOSSARY terms, plus phrases OpenCC's tw2sp leaves in their Taiwan form."""
    pairs = []
    lines = (SRC / "glossary.tsv").read_text(encoding="utf-8").splitlines()
    lines += (SRC / "phrases.tsv").read_text(encoding="utf-8").splitlines()
    for line in lines:
        if "\t" not in line:
            continue
        hant, hans = line.split("\t")
        pairs.append((hant, hans))
        short_t, short_s = re.sub(r"\s*\(.*\)$", "", hant), re.sub(r"\s*\(.*\)$", "", hans)
        if short_t != hant:
            pairs.append((short_t, short_s))
    return sorted(set(pairs), key=lambda p: -len(p[0]))


def to_simplified(text: str) -> str:
    """zh-Hant -> zh-Hans with OpenCC (tw2sp), glossary terms kept as the glossary says."""
    import opencc
    converter = opencc.OpenCC("tw2sp")
    keep: dict[str, str] = {}
    for i, (hant, hans) in enumerate(_glossary()):
        token = f"\uE000{i}\uE001"
        if hant in text:
            text = text.replace(hant, token)
            keep[token] = hans
    # code spans and links stay as they are
    protected: dict[str, str] = {}

    def hide(m):
        token = f"\uE002{len(protected)}\uE003"
        protected[token] = m.group(0)
        return token
    text = re.sub(r"`[^`]*`|\]\([^)]*\)", hide, text)
    out = converter.convert(text)
    for token, original in {**keep, **protected}.items():
        out = out.replace(token, original)
    return out


def _title(nb) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.metadata.get("lang") == "en":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return "tutorial"


def _links(stem: str, lang: str) -> nbformat.NotebookNode:
    parts = []
    for other in LANGS:
        name = LANG_NAMES[other]
        parts.append(f"**{name}**" if other == lang else f"[{name}](../{other}/{stem}.ipynb)")
    cell = nbformat.v4.new_markdown_cell(" · ".join(parts) + " · [index](../index.ipynb)")
    return cell


def build(path: Path, lang: str) -> nbformat.NotebookNode:
    """The notebook for ``lang`` (not executed)."""
    source = jupytext.read(path)
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                                  "name": "python3"},
                   "language_info": {"name": "python"}}
    cells = [_links(path.stem, lang)]
    want = "zh-Hant" if lang == "zh-Hans" else lang
    for cell in source.cells:
        if cell.cell_type == "markdown":
            cell_lang = cell.metadata.get("lang")
            if cell_lang not in (None, want):
                continue
            text = to_simplified(cell.source) if lang == "zh-Hans" and cell_lang else cell.source
            cells.append(nbformat.v4.new_markdown_cell(text))
        elif cell.cell_type == "code":
            new = nbformat.v4.new_code_cell(cell.source)
            tags = cell.metadata.get("tags")
            if tags:
                new.metadata["tags"] = list(tags)
            if "solution" in (tags or ()):  # reference solutions start collapsed
                new.metadata["jupyter"] = {"source_hidden": True}
            cells.append(new)
    for i, cell in enumerate(cells):
        cell["id"] = f"{path.stem[:2]}-{i:02d}"
    nb.cells = cells
    return nb


def execute(nb, lang: str) -> nbformat.NotebookNode:
    from nbclient import NotebookClient
    nb = copy.deepcopy(nb)
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(HERE / lang)}}).execute()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    return nb


def _summary(path: Path, lang: str) -> str:
    """The one-line summary in the source's title cell metadata (``"summary": ...``)."""
    want = "zh-Hant" if lang == "zh-Hans" else lang
    for cell in jupytext.read(path).cells:
        if cell.cell_type == "markdown" and cell.metadata.get("lang") == want:
            text = cell.metadata.get("summary", "")
            return to_simplified(text) if lang == "zh-Hans" else text
    return ""


def index(lang: str) -> str:
    lines = []
    for path in sources():
        nb = build(path, lang)
        title = next((ln[2:] for c in nb.cells if c.cell_type == "markdown"
                      for ln in c.source.splitlines() if ln.startswith("# ")), path.stem)
        summary = _summary(path, lang)
        lines.append(f"- [{title}]({lang}/{path.stem}.ipynb)" + (f": {summary}" if summary else ""))
    return "\n".join(lines)


INTRO = {
    "en": ("How TensorFlow 2 turns Python into graphs (`tf.function`, tracing, AutoGraph, graph "
           "execution, the optimiser) rebuilt on numpy, so that every hidden step can be opened "
           "and looked at. You write `import tfgraph_edu as tf` and the code of TensorFlow's "
           "guides; TensorFlow itself is not needed."),
    "zh-Hant": ("在 numpy 上重新實作 TensorFlow 2 把 Python 變成計算圖的過程（`tf.function`、追蹤、"
                "AutoGraph、計算圖執行、最佳化器），讓每個藏起來的步驟都能打開來看。只要寫 "
                "`import tfgraph_edu as tf`，就能執行 TensorFlow 官方指南裡的程式碼，"
                "完全不需要安裝 TensorFlow。"),
}
START = {
    "en": "Start with **0. Your tools**, then follow the numbers. Every tutorial ends with "
          "exercises that check your answer.",
    "zh-Hant": "從 **0. 你的工具** 開始，再照編號往下走。每份教學最後都有會自動檢查答案的練習。",
}
PICTURE = """import tfgraph_edu as tf
from tfgraph_edu.viz import show_graph

@tf.function
def my_relu(x):
    if tf.reduce_max(x) > 0:
        return tf.maximum(x, 0.0)
    return tf.zeros_like(x)

# image=True: drawn as an image, so it shows before this notebook is trusted
show_graph(my_relu.get_concrete_function(tf.constant([1.0, -1.0])), image=True)"""
PICTURE_CAPTION = {
    "en": "One picture: the graph `tf.function` traced from a five-line function with an `if` "
          "on a tensor. The `If` op holds both branches as graphs of their own.",
    "zh-Hant": "先看一張圖：一個五行的函式對張量做了 `if`，下面是 `tf.function` 從它追蹤出的"
               "計算圖。`If` 運算裡的兩個分支，各自存成一張計算圖。",
}


def _in(lang: str, texts: dict) -> str:
    return to_simplified(texts["zh-Hant"]) if lang == "zh-Hans" else texts[lang]


def index_notebook() -> nbformat.NotebookNode:
    """The landing page: what the project is, one picture, the tutorials in each language."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                                  "name": "python3"}}
    intro = "# tfgraph_edu\n\n" + "\n\n".join(
        f"**{LANG_NAMES[lang]}** · {_in(lang, INTRO)}" for lang in LANGS)
    cells = [nbformat.v4.new_markdown_cell(intro),
             nbformat.v4.new_markdown_cell(" ".join(_in(lang, PICTURE_CAPTION)
                                                    for lang in LANGS)),
             nbformat.v4.new_code_cell(PICTURE)]
    for lang in LANGS:
        cells.append(nbformat.v4.new_markdown_cell(
            f"## {INDEX_TITLE[lang]} ({LANG_NAMES[lang]})\n\n{_in(lang, START)}\n\n"
            f"{index(lang)}"))
    for i, c in enumerate(cells):
        c["id"] = f"index-{i}"
    nb.cells = cells
    return nb


def readme() -> str:
    parts = ["# Notebooks", "",
             "Built from `src/*.md` by `python notebooks/build.py` (code written once, prose "
             "in each language); do not edit the `.ipynb` files by hand.", ""]
    for lang in LANGS:
        parts += [f"## {INDEX_TITLE[lang]} ({LANG_NAMES[lang]})", "", index(lang), ""]
    return "\n".join(parts)


def _cells(nb) -> list:
    return [(c.cell_type, c.source, sorted(c.metadata.get("tags", []))) for c in nb.cells]


def check() -> list[str]:
    """Differences between the sources and the built notebooks (empty: none)."""
    problems = []
    for path in sources():
        for lang in LANGS:
            built = HERE / lang / f"{path.stem}.ipynb"
            if not built.exists():
                problems.append(f"{built} is missing")
                continue
            if _cells(nbformat.read(built, 4)) != _cells(build(path, lang)):
                problems.append(f"{built} differs from {path.name}: rebuild it")
    if (HERE / "README.md").read_text(encoding="utf-8") != readme():
        problems.append("notebooks/README.md is out of date")
    index_file = HERE / "index.ipynb"
    if not index_file.exists() or _cells(nbformat.read(index_file, 4)) != _cells(
            index_notebook()):
        problems.append("notebooks/index.ipynb is out of date")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, build nothing")
    parser.add_argument("names", nargs="*", help="only these sources (e.g. 01_graphs)")
    args = parser.parse_args()
    if args.check:
        problems = check()
        print("\n".join(problems) or "all notebooks match their sources")
        return 1 if problems else 0
    for path in sources():
        if args.names and path.stem not in args.names:
            continue
        for lang in LANGS:
            (HERE / lang).mkdir(exist_ok=True)
            nb = execute(build(path, lang), lang)
            nbformat.write(nb, HERE / lang / f"{path.stem}.ipynb")
            print(f"built {lang}/{path.stem}.ipynb")
    (HERE / "README.md").write_text(readme(), encoding="utf-8")
    nbformat.write(execute(index_notebook(), "."), HERE / "index.ipynb")
    return 0


if __name__ == "__main__":
    sys.exit(main())
