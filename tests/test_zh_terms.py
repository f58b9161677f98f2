"""Chinese text reads as written in its region: the zh-Hant prose of the tutorials, the
panel and widget labels and the exercise checks uses Taiwan's words and traditional
characters; the zh-Hans text (built from it by OpenCC plus src/phrases.tsv) uses the
mainland's words and simplified characters.

The word lists hold only words a reader of the other region would stumble on in this
project's kind of text, each with the word to use instead, so a hit is a real mistake.
Characters are judged by OpenCC (an independent converter): a character OpenCC's s2t
changes and t2s keeps is simplified-only, and the other way round traditional-only,
except the few that are correct in both scripts with another meaning (游標, 划不來).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import jupytext  # noqa: F401 - build.py reads the sources with it (dev extra)
import opencc  # dev extra: a missing one fails here, it is not skipped

from tfgraph_edu import labels

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "notebooks" / "build.py")
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)

# mainland word -> Taiwan word (in traditional characters, as a converter would leave them).
# Not here: words both regions use with another sense (對象 "target", 文件 "document").
MAINLAND_IN_HANT = {
    "函數": "函式", "變量": "變數", "面向對象": "物件導向", "默認": "預設", "內存": "記憶體",
    "數據": "資料", "優化": "最佳化", "返回": "傳回", "代碼": "程式碼", "調用": "呼叫",
    "調試": "除錯", "運行": "執行", "信息": "訊息、資訊", "緩存": "快取", "線程": "執行緒",
    "進程": "行程", "接口": "介面", "模塊": "模組", "字符串": "字串", "數組": "陣列",
    "單元格": "儲存格", "用戶": "使用者", "軟件": "軟體", "硬件": "硬體", "網絡": "網路",
    "屏幕": "螢幕", "標量": "純量", "常量": "常數", "打印": "印出、列印", "加載": "載入",
    "創建": "建立", "設置": "設定", "獲取": "取得", "支持": "支援", "文檔": "文件",
    "運算符": "運算子", "生成器": "產生器", "小部件": "小工具", "占位符": "佔位符",
    "追蹤瀏覽器": "追蹤檢視器", "計算圖瀏覽器": "計算圖檢視器", "查看器": "檢視器",
    "全局": "全域", "局部變": "區域變",
    "嵌套": "巢狀", "循環體": "迴圈本體", "批量": "批次", "程序": "程式（「程序」只指 procedure）",
    "控制流(?!程)": "控制流程", "簽名": "簽章",
    "(?<![公英鄰])里(?!程)": "裡", "(?<![皇王太])后": "後",  # 里, 后 are whole words in both
}
# Taiwan word (after simplification) -> mainland word
TAIWAN_IN_HANS = {
    "函式": "函数", "程式": "程序、代码", "物件": "对象", "变数": "变量", "预设": "默认",
    "记忆体": "内存", "资料": "数据", "最佳化": "优化", "回传": "返回", "传回": "返回",
    "呼叫": "调用", "除错": "调试", "执行绪": "线程", "快取": "缓存", "储存格": "单元格",
    "纯量": "标量", "签章": "签名", "全域": "全局", "区域变": "局部变", "巢状": "嵌套",
    "产生器": "生成器", "透过": "通过", "杂讯": "噪声", "收合": "折叠", "控制相依": "控制依赖",
    "运算子": "运算符", "原始码": "源代码", "档案": "文件", "萤幕": "屏幕", "软体": "软件",
    "网路": "网络", "列印": "打印", "拖曳": "拖动", "清单": "列表", "指派": "赋值",
    "小工具": "小部件", "检视器": "查看器", "追踪浏览器": "追踪查看器", "份教学": "篇教程",
    "相依": "依赖", "量测": "测量",
    "「": "“", "」": "”",
}
BOTH_SCRIPTS = set("划游干里后台只制系面才")  # correct in traditional text as they are

TO_TRAD, TO_SIMP = opencc.OpenCC("s2t"), opencc.OpenCC("t2s")


def _prose(text: str) -> str:
    """Text without code (fenced and inline), link targets and HTML tags."""
    return re.sub(r"```.*?```|`[^`]*`|\]\([^)]*\)|<[^>]+>", " ", text, flags=re.S)


def _texts(lang: str) -> dict[str, str]:
    """Every piece of ``lang`` text a learner reads, by where it comes from."""
    out = {}
    for path in build.sources():
        for i, cell in enumerate(jupytext.read(path).cells):
            if cell.cell_type == "markdown" and cell.metadata.get("lang") == "zh-Hant":
                text = cell.source
                summary = cell.metadata.get("summary", "")
                if lang == "zh-Hans":
                    text, summary = build.to_simplified(text), build.to_simplified(summary)
                out[f"{path.name} cell {i}"] = _prose(text + "\n" + summary)
    column = labels.LANGUAGES.index(lang)  # the exercise checks' sentences are rows too (ex_)
    out.update({f"labels.py {k}": row[column] for k, row in labels._LABELS.items()})
    for name in ("INTRO", "START", "PICTURE_CAPTION"):
        out[f"build.py {name}"] = _prose(build._in(lang, getattr(build, name)))
    return out


def _hits(texts: dict[str, str], words: dict[str, str]) -> list[str]:
    found = []
    for where, text in texts.items():
        for word, instead in words.items():
            for m in re.finditer(word, text):
                found.append(f"{where}: {text[max(0, m.start() - 12):m.end() + 12]!r} "
                             f"has {m.group(0)!r}, write {instead!r}")
    return found


def _odd_characters(texts: dict[str, str], lang: str) -> list[str]:
    found = []
    for where, text in texts.items():
        for ch in sorted({c for c in text if "\u4e00" <= c <= "\u9fff"} - BOTH_SCRIPTS):
            if lang == "zh-Hant":
                wrong = TO_SIMP.convert(ch) == ch and TO_TRAD.convert(ch) != ch
            else:
                wrong = TO_TRAD.convert(ch) == ch and TO_SIMP.convert(ch) != ch
            if wrong:
                other = TO_TRAD.convert(ch) if lang == "zh-Hant" else TO_SIMP.convert(ch)
                found.append(f"{where}: {ch!r} is not {lang} (write {other!r})")
    return found


def test_traditional_chinese_uses_taiwan_words():
    assert _hits(_texts("zh-Hant"), MAINLAND_IN_HANT) == []


def test_traditional_chinese_has_no_simplified_characters():
    assert _odd_characters(_texts("zh-Hant"), "zh-Hant") == []


def test_traditional_chinese_punctuation_is_full_width():
    bad = []
    for where, text in _texts("zh-Hant").items():
        for m in re.finditer(r"[\u4e00-\u9fff][,;:!?]|[,;:!?] ?[\u4e00-\u9fff]"
                             r"|\([^()]*[\u4e00-\u9fff][^()]*\)", text):
            bad.append(f"{where}: {text[max(0, m.start() - 12):m.end() + 12]!r}")
    assert bad == []


def test_simplified_chinese_uses_mainland_words():
    assert _hits(_texts("zh-Hans"), TAIWAN_IN_HANS) == []


def test_simplified_chinese_has_no_traditional_characters():
    assert _odd_characters(_texts("zh-Hans"), "zh-Hans") == []


def test_the_checks_catch_a_planted_mistake():
    """Each check finds the mistake it is for (so an empty list above means something)."""
    assert _hits({"x": "這個函數的返回值"}, MAINLAND_IN_HANT)
    assert len(_hits({"x": "控制流 vs 控制流程"}, MAINLAND_IN_HANT)) == 1
    assert not _hits({"x": "控制流程，十公里"}, MAINLAND_IN_HANT)
    assert len(_hits({"x": "迴圈里，之后"}, MAINLAND_IN_HANT)) == 2
    assert _odd_characters({"x": "计算圖"}, "zh-Hant")
    assert not _odd_characters({"x": "游標在這裡，划不來"}, "zh-Hant")
    assert _hits({"x": "这个函式"}, TAIWAN_IN_HANS)
    assert _odd_characters({"x": "计算圖"}, "zh-Hans")
