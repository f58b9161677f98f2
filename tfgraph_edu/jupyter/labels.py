"""Panel and widget labels in English, Traditional and Simplified Chinese (layer 9).

Terms follow shared/GLOSSARY.md.
"""

from __future__ import annotations

LANGUAGES = ("en", "zh-Hant", "zh-Hans")

_LABELS = {
    "source": ("Python source", "Python 原始碼", "Python 源代码"),
    "code": ("AutoGraph code", "AutoGraph 轉換後的程式碼", "AutoGraph 转换后的代码"),
    "graph": ("Graph", "計算圖", "计算图"),
    "optimized": ("optimised graph", "最佳化後的計算圖", "优化后的计算图"),
    "raw": ("traced graph", "追蹤得到的計算圖", "追踪得到的计算图"),
    "concrete": ("Concrete functions", "具體函式 (ConcreteFunction)",
                 "具体函数 (ConcreteFunction)"),
    "timing": ("Eager vs graph", "即時執行 vs 計算圖執行", "即时执行 vs 计算图执行"),
    "signature": ("signature", "輸入簽章", "输入签名"),
    "reason": ("why it was traced", "追蹤原因", "追踪原因"),
    "calls": ("calls", "呼叫次數", "调用次数"),
    "key": ("trace key", "追蹤鍵", "追踪键"),
    "eager": ("eager", "即時執行", "即时执行"),
    "graph_run": ("graph", "計算圖執行", "计算图执行"),
    "median": ("median", "中位數", "中位数"),
    "speedup": ("speed-up", "加速", "加速"),
    "no_calls": ("not called in this cell: nothing to time",
                 "這個儲存格沒有呼叫它：無法計時", "这个单元格没有调用它：无法计时"),
    "traces": ("traces", "追蹤次數", "追踪次数"),
    "details": ("node details", "節點詳細資訊", "节点详细信息"),
}


def label(key: str, lang: str = "en") -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"Unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    return _LABELS[key][LANGUAGES.index(lang)]
