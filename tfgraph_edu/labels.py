"""Every word the panels, widgets, legends and exercise checks show, in English,
Traditional and Simplified Chinese (layer 0, so every layer that shows text uses it): one
table, one row per key (en, zh-Hant, zh-Hans).  Terms follow shared/GLOSSARY.md.  The
widgets receive the column of their language as a dict (:func:`table`); the panels call
:func:`label`; the engine's retrace reasons (``function/trace_key.py``) are translated by
:func:`reason`, its trace-key descriptions by :func:`key`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

LANGUAGES = ("en", "zh-Hant", "zh-Hans")

_LABELS = {
    # %%trace panels
    "source": ("Python source", "Python 原始碼", "Python 源代码"),
    "code": ("AutoGraph code", "AutoGraph 轉換後的程式碼", "AutoGraph 转换后的代码"),
    "code_gutter": ("the number before a generated line is the source line it came from "
                    "(click it to see that line)",
                    "產生的每一行前面的數字，是它對應的原始碼行號（點一下可跳到那一行）",
                    "生成的每一行前面的数字，是它对应的源代码行号（点一下可跳到那一行）"),
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
    "graph_raw": ("graph (not optimised)", "計算圖執行（未最佳化）", "计算图执行（未优化）"),
    "median": ("median", "中位數", "中位数"),
    "min_max": ("fastest … slowest", "最快 … 最慢", "最快 … 最慢"),
    "speedup": ("speed-up", "加速", "加速"),
    "runs_each": ("{n} runs each", "各執行 {n} 次", "各运行 {n} 次"),
    "within_noise": ("no clear difference: the runs of the two overlap ({ratio}× lies within "
                     "their spread)",
                     "沒有明顯差異：兩者的執行時間範圍重疊（{ratio}× 落在波動範圍內）",
                     "没有明显差异：两者的运行时间范围重叠（{ratio}× 落在波动范围内）"),
    "timing_apart": ("{n} extra calls (one warm-up and {runs} timed runs of each), made in a "
                     "copy of this kernel: your variables, random state, files and printed "
                     "output are exactly as your cell left them.",
                     "另外呼叫了 {n} 次（每種各暖身 1 次、計時 {runs} 次），都在這個核心的副本"
                     "中執行：你的變數、亂數狀態、檔案和輸出，都和你的儲存格留下的完全一樣。",
                     "另外调用了 {n} 次（每种各预热 1 次、计时 {runs} 次），都在这个内核的副本"
                     "中运行：你的变量、随机数状态、文件和输出，都和你的单元格留下的完全一样。"),
    "timing_inplace": ("{n} extra calls (one warm-up and {runs} timed runs of each), made in "
                       "this kernel: their printed output was dropped and every variable and "
                       "the random state were restored afterwards; Python objects the function "
                       "itself changes when it runs eagerly are not restored on this system.",
                       "另外呼叫了 {n} 次（每種各暖身 1 次、計時 {runs} 次），在這個核心中執行："
                       "它們的輸出已丟棄，所有變數和亂數狀態事後都已還原；但在這個系統上，函式"
                       "即時執行時自己改動的 Python 物件不會還原。",
                       "另外调用了 {n} 次（每种各预热 1 次、计时 {runs} 次），在这个内核中运行："
                       "它们的输出已丢弃，所有变量和随机数状态事后都已还原；但在这个系统上，函数"
                       "即时执行时自己改动的 Python 对象不会还原。"),
    "timing_declined": ("Not timed: {reason}. Timing would call the function again and again, "
                        "and that would change what your program does.",
                        "沒有計時：{reason}。計時會一再呼叫這個函式，改變你的程式的結果。",
                        "没有计时：{reason}。计时会一再调用这个函数，改变你的程序的结果。"),
    "declined_op": ("its graph runs {detail}, whose effects cannot be undone on this system",
                    "它的計算圖會執行 {detail}，在這個系統上無法復原其效果",
                    "它的计算图会运行 {detail}，在这个系统上无法复原其效果"),
    "declined_file": ("it writes to the file {detail}", "它會寫入檔案 {detail}",
                      "它会写入文件 {detail}"),
    "declined_call": ("it calls {detail}", "它會呼叫 {detail}", "它会调用 {detail}"),
    "declined_timeout": ("it ran longer than {detail} s", "執行超過 {detail} 秒",
                         "运行超过 {detail} 秒"),
    "timing_interrupted": ("Timing interrupted: your variables, random state and output are as "
                           "your cell left them.",
                           "計時已中斷：你的變數、亂數狀態和輸出，都和你的儲存格留下的一樣。",
                           "计时已中断：你的变量、随机数状态和输出，都和你的单元格留下的一样。"),
    "no_calls": ("not called in this cell: nothing to time",
                 "這個儲存格沒有呼叫它：無法計時", "这个单元格没有调用它：无法计时"),
    "not_traced": ("(not traced yet)", "（尚未追蹤）", "（尚未追踪）"),
    "no_source": ("(source not available)", "（無法取得原始碼）", "（无法获取源代码）"),
    "timing_note": ("timing runs are not counted as calls",
                    "計時用的執行不算在呼叫次數內", "计时用的运行不算在调用次数内"),
    "viewer_hint": ("for pan, zoom, search and stepping: %graph_viewer {name}",
                    "要平移、縮放、搜尋和逐步執行：%graph_viewer {name}",
                    "要平移、缩放、搜索和逐步运行：%graph_viewer {name}"),
    "traces": ("traces", "追蹤次數", "追踪次数"),
    # the rich displays of tf.function, ConcreteFunction and show_graph (viz/displays.py)
    "traced_one": ("traced 1 time", "追蹤了 1 次", "追踪了 1 次"),
    "traced_many": ("traced {n} times", "追蹤了 {n} 次", "追踪了 {n} 次"),
    "calls_served": ("calls served", "處理的呼叫次數", "处理的调用次数"),
    "collapsed_one": ("1 part drawn collapsed", "有 1 個部分以收合方式繪製",
                      "有 1 个部分以折叠方式绘制"),
    "collapsed_many": ("{n} parts drawn collapsed", "有 {n} 個部分以收合方式繪製",
                       "有 {n} 个部分以折叠方式绘制"),
    "collapsed_big": (" (graphs over {limit} operations start summarised)",
                      "（超過 {limit} 個運算的計算圖一開始會摘要顯示）",
                      "（超过 {limit} 个运算的计算图一开始会摘要显示）"),
    "collapsed_hint": ("; pass collapse=set() to draw every op.",
                       "；傳入 collapse=set() 可畫出每個運算。",
                       "；传入 collapse=set() 可画出每个运算。"),
    "outlined_one": ("1 changed node is outlined.", "1 個有變更的節點以外框標出。",
                     "1 个有变更的节点以外框标出。"),
    "outlined_many": ("{n} changed nodes are outlined.", "{n} 個有變更的節點以外框標出。",
                      "{n} 个有变更的节点以外框标出。"),
    "optimised_from_one": ("optimised from {ops} traced operations (1 change).",
                           "由追蹤得到的 {ops} 個運算最佳化而來（1 處變更）。",
                           "由追踪得到的 {ops} 个运算优化而来（1 处变更）。"),
    "optimised_from_many": ("optimised from {ops} traced operations ({n} changes).",
                            "由追蹤得到的 {ops} 個運算最佳化而來（{n} 處變更）。",
                            "由追踪得到的 {ops} 个运算优化而来（{n} 处变更）。"),
    "open_viewer": ("open in the viewer", "在檢視器中開啟", "在查看器中打开"),
    "full_size": ("full size", "原始大小", "原始大小"),
    # graph viewer
    "details": ("node details", "節點詳細資訊", "节点详细信息"),
    "optimised_toggle": ("optimised", "最佳化後", "优化后"),
    "fit": ("fit", "符合視窗大小", "适应窗口"),
    "zoom_in": ("zoom in", "放大", "放大"),
    "zoom_out": ("zoom out", "縮小", "缩小"),
    "search": ("find an op…", "搜尋運算…", "搜索运算…"),
    "no_match": ("no op matches", "沒有符合的運算", "没有匹配的运算"),
    "step": ("step ▶", "逐步 ▶", "逐步 ▶"),
    "step_back": ("◀", "◀", "◀"),
    "run_all": ("run to end", "執行到底", "运行到底"),
    "iteration": ("iteration", "迭代", "迭代"),
    "export_svg": ("SVG", "SVG", "SVG"),
    "export_png": ("PNG", "PNG", "PNG"),
    "legend": ("legend", "圖例", "图例"),
    "search_regex": ("a name or a regular expression (e.g. dense.*MatMul); Enter: next match, "
                     "Shift+Enter: previous",
                     "名稱或正規表示式（例如 dense.*MatMul）；Enter：下一個符合項，"
                     "Shift+Enter：上一個",
                     "名称或正则表达式（例如 dense.*MatMul）；Enter：下一个匹配项，"
                     "Shift+Enter：上一个"),
    "next_match": ("next match", "下一個符合項", "下一个匹配项"),
    "previous_match": ("previous match", "上一個符合項", "上一个匹配项"),
    "match_of": ("{i} of {n}", "第 {i} 個，共 {n} 個", "第 {i} 个，共 {n} 个"),
    "minimap": ("the whole graph: the red frame is what the view shows; click or drag to move it",
                "整張計算圖：紅框是目前看到的範圍；點一下或拖曳即可移動",
                "整张计算图：红框是当前看到的范围；点一下或拖动即可移动"),
    "laying_out": ("laying out…", "正在排版…", "正在布局…"),
    # words inside the drawing (graph_to_dot, to_svg)
    "svg_ops_one": ("1 op", "1 個運算", "1 个运算"),
    "svg_ops_many": ("{n} ops", "{n} 個運算", "{n} 个运算"),
    "svg_more": ("… {n} more", "… 還有 {n} 個", "… 还有 {n} 个"),
    "svg_open_next": ("{ops} · open: next {k}", "{ops} · 展開：接下來 {k} 個",
                      "{ops} · 展开：接下来 {k} 个"),
    "svg_variable_argument": ("variable (argument)", "變數（引數）", "变量（参数）"),
    "svg_captured": ("captured", "捕捉的值", "捕获的值"),
    "svg_no_ops": ("(no ops)", "（沒有運算）", "（没有运算）"),
    "svg_too_big": ("This view would draw {n} nodes: more than {limit}, which would keep\n"
                    "Python busy laying it out for minutes, so it is not drawn.\n"
                    "Fold scopes or series (collapse=...), open fewer pages,\n"
                    "or call to_svg(dot, limit=None) to draw it anyway.",
                    "這個畫面會畫出 {n} 個節點，超過 {limit} 個，\n"
                    "排版會讓 Python 忙上好幾分鐘，所以不畫。\n"
                    "請收合範圍或序列（collapse=...）、少展開幾頁，\n"
                    "或呼叫 to_svg(dot, limit=None) 照樣畫出。",
                    "这个画面会画出 {n} 个节点，超过 {limit} 个，\n"
                    "布局会让 Python 忙上好几分钟，所以不画。\n"
                    "请折叠范围或序列（collapse=...）、少展开几页，\n"
                    "或调用 to_svg(dot, limit=None) 照样画出。"),
    "export_scaled": ("exported at {w} × {h} px, {pct}% of full size: a bigger picture is "
                      "more than a browser can draw",
                      "已匯出為 {w} × {h} 像素，原尺寸的 {pct}%：更大的圖超出瀏覽器能繪製的範圍",
                      "已导出为 {w} × {h} 像素，原尺寸的 {pct}%：更大的图超出浏览器能绘制的范围"),
    "export_svg_scaled": ("the SVG opens at {w} × {h} px, {pct}% of full size (zoom in to read "
                          "it; nothing is left out)",
                          "SVG 開啟時為 {w} × {h} 像素，原尺寸的 {pct}%（放大即可閱讀，內容完整）",
                          "SVG 打开时为 {w} × {h} 像素，原尺寸的 {pct}%（放大即可阅读，内容完整）"),
    "hint": ("drag to pan · wheel to zoom at the cursor · small words appear as you zoom in "
             "(hover shows them) · click an op for its details · double-click a frame to "
             "collapse it, a grey box to open it",
             "拖曳可平移 · 滾輪可在游標處縮放 · 放大後才顯示小字（滑鼠移上去也會顯示） · "
             "點一下運算可看詳細資訊 · 雙擊外框可收合，雙擊灰色方塊可展開",
             "拖动以平移 · 滚轮在光标处缩放 · 放大后才显示小字（鼠标悬停也会显示） · "
             "点一下运算看详细信息 · 双击框线可折叠，双击灰色方块可展开"),
    "click_node": ("Click an op to see its details.", "點一下運算即可看到詳細資訊。",
                   "点一下运算即可看到详细信息。"),
    "type": ("type", "類型", "类型"),
    "inputs": ("inputs", "輸入", "输入"),
    "outputs": ("outputs", "輸出", "输出"),
    "control_inputs": ("control inputs", "控制輸入", "控制输入"),
    "attrs": ("attributes", "屬性", "属性"),
    "optimiser": ("optimiser", "最佳化器", "优化器"),
    "changes": ("{n} changes", "{n} 處變更", "{n} 处变更"),
    "created_by": ("created by", "建立位置", "创建位置"),
    "in_function": ("in concrete function", "所屬具體函式", "所属具体函数"),
    "inside": ("inside", "位於", "位于"),
    "value": ("value", "值", "值"),
    "values_at": ("values at {i}", "{i} 時的值", "{i} 时的值"),
    "not_run": ("not run (yet)", "尚未執行", "尚未运行"),
    "collapsed_box": ("{n} ops folded here: double-click to open",
                      "這裡收合了 {n} 個運算：雙擊展開", "这里折叠了 {n} 个运算：双击展开"),
    # kinds of nodes and optimiser highlights (legend)
    "kind_input": ("input (placeholder)", "輸入（佔位符）", "输入（占位符）"),
    "kind_captured": ("captured from outside", "從外部捕捉的值", "从外部捕获的值"),
    "kind_variable": ("variable", "變數", "变量"),
    "kind_constant": ("constant", "常數", "常量"),
    "kind_op": ("operation", "運算", "运算"),
    "kind_state": ("reads/writes a variable", "讀寫變數", "读写变量"),
    "kind_control_flow": ("control flow (If, While)", "控制流程 (If, While)", "控制流 (If, While)"),
    "kind_io": ("printing", "印出", "打印"),
    "kind_box": ("folded scope, series or body", "收合的範圍、序列或本體",
                 "折叠的范围、序列或主体"),
    "kind_control_edge": ("control edge (runs after)", "控制邊（之後執行）", "控制边（之后运行）"),
    "change_removed": ("removed by the optimiser", "已由最佳化器移除", "已被优化器移除"),
    "change_added": ("made by the optimiser", "由最佳化器產生", "由优化器生成"),
    "change_replaced": ("rewritten, or does a removed op's work", "已改寫，或接手已移除運算的工作",
                        "被改写，或接手被移除运算的工作"),
    "change_folded": ("computed ahead (constant folding)", "預先計算（常數折疊）",
                      "预先计算（常量折叠）"),
    "change_hoisted": ("moved out of a loop", "已移到迴圈外", "已移出循环"),
    # what each kind means (the legend's tooltips)
    "tip_input": ("an argument of the function (Placeholder)", "函式的參數 (Placeholder)",
                  "函数的参数 (Placeholder)"),
    "tip_captured": ("a value captured from outside the graph", "從計算圖外部捕捉的值",
                     "从计算图外部捕获的值"),
    "tip_variable": ("a variable's resource handle, from outside", "從外部傳入的變數資源",
                     "从外部传入的变量资源"),
    "tip_constant": ("a constant (Const)", "常數 (Const)", "常量 (Const)"),
    "tip_op": ("math and array ops", "數學與陣列運算", "数学与数组运算"),
    "tip_state": ("reads and writes of variables", "讀取與寫入變數", "读取与写入变量"),
    "tip_control_flow": ("control flow (If, While)", "控制流程 (If, While)", "控制流 (If, While)"),
    "tip_io": ("printing (StringFormat, PrintV2)", "印出 (StringFormat, PrintV2)",
               "打印 (StringFormat, PrintV2)"),
    "tip_removed": ("removed by the optimiser", "已由最佳化器移除", "已被优化器移除"),
    "tip_added": ("made by the optimiser", "由最佳化器產生", "由优化器生成"),
    "tip_replaced": ("rewritten, or now does the work of a removed node",
                     "已改寫，或接手已移除節點的工作", "被改写，或接手被移除节点的工作"),
    "tip_folded": ("computed once at optimisation time (constant folding)",
                   "在最佳化時預先算好（常數折疊）", "在优化时预先算好（常量折叠）"),
    "tip_hoisted": ("moved out of a loop body", "已移出迴圈本體", "已移出循环体"),
    # trace explorer
    "explorer_head": ("{name}: {calls} calls, {traces} traces",
                      "{name}：呼叫 {calls} 次，追蹤 {traces} 次",
                      "{name}：调用 {calls} 次，追踪 {traces} 次"),
    "explorer_timing": ("(+ {n} timing runs, not counted)", "（另有 {n} 次計時執行，不計入）",
                        "（另有 {n} 次计时运行，不计入）"),
    "trace_event": ("trace #{index} ({ms} ms): {reason} — {signature}",
                    "追蹤 #{index}（{ms} ms）：{reason} — {signature}",
                    "追踪 #{index}（{ms} ms）：{reason} — {signature}"),
    "call_event": ("call {index} → concrete function #{concrete}",
                   "呼叫 {index} → 具體函式 #{concrete}", "调用 {index} → 具体函数 #{concrete}"),
    "traced_mark": (" (traced)", "（觸發追蹤）", "（触发追踪）"),
    "runs": ("runs", "次執行", "次运行"),
}

# retrace reasons (function/trace_key.SeenArguments.reason, function/polymorphic._trace)
# -> their translations, by pattern; tests/test_labels.py checks each reason the engine
# can produce has one
_REASONS = [
    (r"first call", ("第一次呼叫", "第一次调用")),
    (r"argument (?P<n>.+?) was not given before",
     ("參數 {n} 之前沒有傳入過", "参数 {n} 之前没有传入过")),
    (r"argument (?P<n>.+?): (?P<x>.+) was not seen before \(last call: (?P<y>.+)\)",
     ("參數 {n}：{x} 之前沒出現過（上次呼叫：{y}）",
      "参数 {n}：{x} 之前没出现过（上次调用：{y}）")),
    (r"Python argument (?P<n>.+?) changed from (?P<a>.+) to (?P<b>.+)",
     ("Python 參數 {n} 從 {a} 變為 {b}", "Python 参数 {n} 从 {a} 变为 {b}")),
    (r"argument (?P<n>.+?): shape (?P<s>.+) was not seen before",
     ("參數 {n}：形狀 {s} 之前沒出現過", "参数 {n}：形状 {s} 之前没出现过")),
    (r"argument (?P<n>.+?): dtype (?P<d>.+) was not seen before",
     ("參數 {n}：資料型別 {d} 之前沒出現過", "参数 {n}：数据类型 {d} 之前没出现过")),
    (r"this combination of arguments was not seen before",
     ("這組參數組合之前沒出現過", "这组参数组合之前没出现过")),
    (r"it created tf\.Variables, so it was traced a second time that must not create any "
     r"\(as TensorFlow does\)",
     ("它建立了 tf.Variable，所以像 TensorFlow 一樣再追蹤一次，這次不得再建立變數",
      "它创建了 tf.Variable，所以像 TensorFlow 一样再追踪一次，这次不得再创建变量")),
]


# trace-key descriptions (function/trace_key.describe) -> their translations
_KEYS = [
    (r"(?P<d>\S+) tensor of shape <unknown rank>",
     ("{d} 張量，秩未知", "{d} 张量，秩未知")),
    (r"(?P<d>\S+) tensor of shape (?P<s>.+)", ("{d} 張量，形狀 {s}", "{d} 张量，形状 {s}")),
    (r"non-trainable (?P<d>\S+) variable of shape (?P<s>.+) \(alias (?P<a>\d+)\)",
     ("不可訓練的 {d} 變數，形狀 {s}（別名 {a}）", "不可训练的 {d} 变量，形状 {s}（别名 {a}）")),
    (r"(?P<d>\S+) variable of shape (?P<s>.+) \(alias (?P<a>\d+)\)",
     ("{d} 變數，形狀 {s}（別名 {a}）", "{d} 变量，形状 {s}（别名 {a}）")),
    (r"(?P<d>\S+) variable of shape (?P<s>.+)", ("{d} 變數，形狀 {s}", "{d} 变量，形状 {s}")),
    (r"a (?P<t>\S+) object \(id (?P<i>\S+)\)", ("{t} 物件 (id {i})", "{t} 对象 (id {i})")),
    (r"a list of (?P<n>\d+)", ("含 {n} 個元素的 list", "含 {n} 个元素的 list")),
    (r"a tuple of (?P<n>\d+)", ("含 {n} 個元素的 tuple", "含 {n} 个元素的 tuple")),
    (r"a dict of (?P<n>\d+)", ("含 {n} 個項目的 dict", "含 {n} 个项目的 dict")),
    (r"<unknown>", ("未知", "未知")),  # a shape in a reason
]


def _translate(part: str, patterns, i: int) -> str | None:
    """``part`` translated by the first pattern it matches (its fields that are trace-key
    descriptions translated too), or None."""
    for pattern, words in patterns:
        m = re.fullmatch(pattern, part)
        if m:
            fields = {k: v if patterns is _KEYS else (_translate(v, _KEYS, i) or v)
                      for k, v in m.groupdict().items()}
            return words[i].format(**fields)
    return None


def default_language() -> str:
    """The language of panels and widgets given none: $TFGRAPH_EDU_LANG, else the notebook's
    folder (the tutorials live in notebooks/en, notebooks/zh-Hant, notebooks/zh-Hans, and the
    code cells are the same in all three), else English."""
    env = os.environ.get("TFGRAPH_EDU_LANG")
    if env in LANGUAGES:
        return env
    folder = Path.cwd().name
    return folder if folder in LANGUAGES else "en"


def key(text: str, lang: str = "en") -> str:
    """A trace-key description (``float32 tensor of shape (2,)``) in ``lang``; a description
    no pattern knows stays as it is."""
    if lang == "en":
        return text
    i = LANGUAGES.index(lang) - 1
    return _translate(text, _KEYS, i) or text


def label(name: str, lang: str = "en", /, **values) -> str:
    """The words for ``name`` in ``lang``, with ``{field}`` fields filled from ``values``."""
    if lang not in LANGUAGES:
        raise ValueError(f"Unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    text = _LABELS[name][LANGUAGES.index(lang)]
    return text.format(**values) if values else text


def plural(name: str, n: int, lang: str = "en", /, **values) -> str:
    """``name_one`` when ``n`` is 1, else ``name_many`` (with ``n`` filled in)."""
    return label(f"{name}_one" if n == 1 else f"{name}_many", lang, n=n, **values)


def has(name: str) -> bool:
    """Whether the table has a row ``name``."""
    return name in _LABELS


def table(lang: str = "en") -> dict:
    """Every label of ``lang`` (unformatted), for a widget's front end."""
    label("source", lang)  # checks the language
    i = LANGUAGES.index(lang)
    return {key: row[i] for key, row in _LABELS.items()}


def reason(text: str, lang: str = "en") -> str:
    """A trace reason in ``lang``; each ``;``-separated part by pattern (a part no pattern
    knows stays as it is)."""
    if lang == "en":
        return text
    i = LANGUAGES.index(lang) - 1
    parts = []
    for part in text.split("; "):
        found = _translate(part, _REASONS, i)
        parts.append(part if found is None else found)
    return "；".join(parts)
