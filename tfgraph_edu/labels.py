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
    # %%trace --tf: the cell run again under real TensorFlow (jupyter/tf_panels.py)
    "tf_missing": ("Real TensorFlow is not installed in this kernel, so {flag} shows only "
                   "tfgraph_edu's panels: install it with {install} and restart the kernel.",
                   "這個核心沒有安裝真正的 TensorFlow，所以 {flag} 只顯示 tfgraph_edu 的面板："
                   "請用 {install} 安裝，再重新啟動核心。",
                   "这个内核没有安装真正的 TensorFlow，所以 {flag} 只显示 tfgraph_edu 的面板："
                   "请用 {install} 安装，再重新启动内核。"),
    "tf_broken": ("Real TensorFlow could not be imported ({detail}), so {flag} shows only "
                  "tfgraph_edu's panels.",
                  "無法匯入真正的 TensorFlow（{detail}），所以 {flag} 只顯示 tfgraph_edu 的面板。",
                  "无法导入真正的 TensorFlow（{detail}），所以 {flag} 只显示 tfgraph_edu 的面板。"),
    "tf_title": ("Real TensorFlow {version}: {name}", "真正的 TensorFlow {version}：{name}",
                 "真正的 TensorFlow {version}：{name}"),
    "tf_graph": ("TensorFlow's graph (as traced)", "TensorFlow 的計算圖（追蹤得到的）",
                 "TensorFlow 的计算图（追踪得到的）"),
    "tf_concrete": ("TensorFlow's concrete functions", "TensorFlow 的具體函式 (ConcreteFunction)",
                    "TensorFlow 的具体函数 (ConcreteFunction)"),
    "tf_traced": ("Traces: TensorFlow {tf}, tfgraph_edu {ours}.",
                  "追蹤次數：TensorFlow {tf}，tfgraph_edu {ours}。",
                  "追踪次数：TensorFlow {tf}，tfgraph_edu {ours}。"),
    "tf_timing": ("Eager vs graph: tfgraph_edu and TensorFlow",
                  "即時執行 vs 計算圖執行：tfgraph_edu 與 TensorFlow",
                  "即时执行 vs 计算图执行：tfgraph_edu 与 TensorFlow"),
    "tf_timing_note": ("TensorFlow ran the same call as your last one, {runs} times each after a "
                       "warm-up, in its copy of your namespace; those calls printed nothing here.",
                       "TensorFlow 執行了和你最後一次相同的呼叫，暖身 1 次後各執行 {runs} 次，"
                       "都在它那份命名空間副本中；這些呼叫的輸出不會顯示。",
                       "TensorFlow 运行了和你最后一次相同的调用，预热 1 次后各运行 {runs} 次，"
                       "都在它那份命名空间副本中；这些调用的输出不会显示。"),
    "tf_diff": ("Differences between the two graphs", "兩張計算圖的差異", "两张计算图的差异"),
    "tf_diff_totals": ("tfgraph_edu: {ours} ops, TensorFlow: {tf} ops, {common} in common "
                       "(function by function, bodies included).",
                       "tfgraph_edu：{ours} 個運算，TensorFlow：{tf} 個運算，共同的有 {common} 個"
                       "（逐一比較每個函式，包含本體）。",
                       "tfgraph_edu：{ours} 个运算，TensorFlow：{tf} 个运算，共同的有 {common} 个"
                       "（逐个比较每个函数，包含主体）。"),
    "tf_diff_what": ("Compared: tfgraph_edu's traced graph (before its optimiser) with "
                     "TensorFlow's function graph (before Grappler), each one's last trace.",
                     "比較的是 tfgraph_edu 追蹤得到的計算圖（最佳化之前）與 TensorFlow 的函式"
                     "計算圖（Grappler 之前），兩者都取最後一次追蹤。",
                     "比较的是 tfgraph_edu 追踪得到的计算图（优化之前）与 TensorFlow 的函数"
                     "计算图（Grappler 之前），两者都取最后一次追踪。"),
    "tf_function": ("function", "函式", "函数"),
    "tf_ops_of": ("{who} ops", "{who} 的運算數", "{who} 的运算数"),
    "tf_only_in": ("only in {who}", "只有 {who} 有", "只有 {who} 有"),
    "tf_node": ("node", "節點", "节点"),
    "tf_attr": ("attribute", "屬性", "属性"),
    "tf_attrs_differ": ("Attributes that differ on nodes both graphs have:",
                        "兩張計算圖都有的節點中，屬性不同的：",
                        "两张计算图都有的节点中，属性不同的："),
    "tf_same": ("The same op types in every function.", "每個函式的運算類型都相同。",
                "每个函数的运算类型都相同。"),
    "tf_run": ("TensorFlow's run of this cell", "TensorFlow 對這個儲存格的執行",
               "TensorFlow 对这个单元格的运行"),
    "tf_run_note": ("Run a second time under real TensorFlow {version}, in a copy of your "
                    "namespace: your own variables are as your cell left them, and what this "
                    "run printed is shown here, not in your output.",
                    "以真正的 TensorFlow {version} 再執行一次，在你的命名空間副本中執行：你自己的"
                    "變數都和你的儲存格留下的一樣，這次執行印出的內容顯示在這裡，不在你的輸出中。",
                    "用真正的 TensorFlow {version} 再运行一次，在你的命名空间副本中运行：你自己的"
                    "变量都和你的单元格留下的一样，这次运行打印的内容显示在这里，不在你的输出中。"),
    "tf_left_out": ("Left out of TensorFlow's run, as they hold tfgraph_edu objects of earlier "
                    "cells that it could only use by changing yours: {names}.",
                    "沒有交給 TensorFlow 這次執行的名稱（它們是之前的儲存格建立的 tfgraph_edu "
                    "物件，TensorFlow 使用它們就會改動你的物件）：{names}。",
                    "没有交给 TensorFlow 这次运行的名称（它们是之前的单元格创建的 tfgraph_edu "
                    "对象，TensorFlow 使用它们就会改动你的对象）：{names}。"),
    "tf_printed": ("printed", "印出的內容", "打印的内容"),
    "tf_nothing_printed": ("(nothing printed)", "（沒有印出任何內容）", "（没有打印任何内容）"),
    "tf_error": ("TensorFlow stopped with an error: {error}", "TensorFlow 執行時發生錯誤：{error}",
                 "TensorFlow 运行时发生错误：{error}"),
    "tf_value": ("value of the last line", "最後一行的值", "最后一行的值"),
    "tf_not_defined": ("TensorFlow's run did not define {detail}: only the tf.functions a cell "
                       "defines run under TensorFlow (one from an earlier cell stays "
                       "tfgraph_edu's).",
                       "TensorFlow 的執行沒有定義 {detail}：只有這個儲存格定義的 tf.function "
                       "才會以 TensorFlow 執行（之前的儲存格定義的仍屬於 tfgraph_edu）。",
                       "TensorFlow 的运行没有定义 {detail}：只有这个单元格定义的 tf.function "
                       "才会以 TensorFlow 运行（之前的单元格定义的仍属于 tfgraph_edu）。"),
    "tf_not_called": ("TensorFlow's run did not call {detail}: nothing was traced.",
                      "TensorFlow 的執行沒有呼叫 {detail}：沒有追蹤任何東西。",
                      "TensorFlow 的运行没有调用 {detail}：没有追踪任何东西。"),
    "tf_unreadable": ("TensorFlow's graph could not be read: {detail}",
                      "無法讀取 TensorFlow 的計算圖：{detail}",
                      "无法读取 TensorFlow 的计算图：{detail}"),
    "tf_not_timed": ("TensorFlow's calls were not timed: {detail}",
                     "TensorFlow 的呼叫沒有計時：{detail}", "TensorFlow 的调用没有计时：{detail}"),
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
    "svg_gradient": ("gradient", "梯度", "梯度"),
    "svg_gradient_part": ("{n} of them for the gradient", "其中 {n} 個計算梯度",
                          "其中 {n} 个计算梯度"),
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
    # a While's details: what TF's While carries besides the learner's loop, and what the
    # drawing leaves out of it
    "tf_while_folded": (
        "As in TensorFlow 2.21, a While carries two loop variables before yours: a loop counter "
        "and maximum_iterations (while/loop_counter, while/maximum_iterations; -1 when no limit "
        "is given), counted by an AddV2 in the body; a loop over tf.range also first computes "
        "the range's length (Sub, FloorDiv, FloorMod, NotEqual, Cast, AddV2, Maximum) and "
        "never uses it. The drawing leaves them out (a maximum_iterations you gave is drawn "
        "where the condition tests it); get_operations() and as_graph_def() list them, as "
        "TF's do.",
        "與 TensorFlow 2.21 相同，While 在你的迴圈變數之前另外帶有兩個迴圈變數：迴圈計數器與 "
        "maximum_iterations（while/loop_counter、while/maximum_iterations；沒有給上限時為 -1），"
        "由迴圈主體裡的一個 AddV2 計數；走訪 tf.range 的迴圈還會先算出範圍的長度（Sub、FloorDiv、"
        "FloorMod、NotEqual、Cast、AddV2、Maximum），卻從不使用。圖中省略它們（你給的 "
        "maximum_iterations 會畫在條件檢查它的地方）；get_operations() 與 as_graph_def() "
        "會列出它們，與 TF 相同。",
        "与 TensorFlow 2.21 相同，While 在你的循环变量之前另外带有两个循环变量：循环计数器和 "
        "maximum_iterations（while/loop_counter、while/maximum_iterations；没有给上限时为 -1），"
        "由循环体里的一个 AddV2 计数；遍历 tf.range 的循环还会先算出范围的长度（Sub、FloorDiv、"
        "FloorMod、NotEqual、Cast、AddV2、Maximum），却从不使用。图中省略了它们（你给的 "
        "maximum_iterations 会画在条件检查它的地方）；get_operations() 和 as_graph_def() "
        "会列出它们，与 TF 相同。"),
    # an If whose branches hold constants nothing uses, and such a constant: not drawn
    "tf_unused_consts": (
        "Its branches also hold constants nothing uses (AutoGraph's do_return = True in a "
        "branch that returns): TensorFlow builds them the same way, and they do nothing. "
        "The drawing leaves them out; they are still listed by name and found by search.",
        "它的分支裡還有沒被任何運算使用的常數（AutoGraph 在會 return 的分支裡設定的 "
        "do_return = True）：TensorFlow 也會這樣建立，它們不做任何事。圖中省略它們；"
        "它們仍可依名稱列出，也能被搜尋到。",
        "它的分支里还有没被任何运算使用的常量（AutoGraph 在会 return 的分支里设置的 "
        "do_return = True）：TensorFlow 也会这样构建，它们不做任何事。图中省略了它们；"
        "它们仍可按名称列出，也能被搜索到。"),
    "tf_unused_const": (
        "Not drawn: nothing uses this constant (TensorFlow builds it too; AutoGraph's "
        "do_return = True in a branch that returns).",
        "圖中未畫出：沒有任何運算使用這個常數（TensorFlow 也會建立它；是 AutoGraph 在會 "
        "return 的分支裡設定的 do_return = True）。",
        "图中未画出：没有任何运算使用这个常量（TensorFlow 也会构建它；是 AutoGraph 在会 "
        "return 的分支里设置的 do_return = True）。"),
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
    # exercise checks (tfgraph_edu/exercises.py): code between backticks; a key starting
    # with "ex_hint_" is a hint at the fix
    "ex_right": ("Right", "正確", "正确"),
    "ex_not_yet": ("Not yet", "還沒通過", "还没通过"),
    "ex_hint": ("Hint", "提示", "提示"),
    "ex_all_right": ("All checks pass.", "全部檢查通過。", "全部检查通过。"),
    "ex_not_function": ("`{name}` is not a tf.function (it is a `{kind}`).",
                     "`{name}` 不是 tf.function（它是 `{kind}`）。",
                     "`{name}` 不是 tf.function（它是 `{kind}`）。"),
    "ex_is_function": ("`{name}` is a tf.function.", "`{name}` 是 tf.function。",
                    "`{name}` 是 tf.function。"),
    "ex_hint_function": ("Decorate it with `@tf.function`, or wrap it: `f = tf.function(f)`.",
                      "加上 `@tf.function` 裝飾器，或寫成 `f = tf.function(f)`。",
                      "加上 `@tf.function` 装饰器，或写成 `f = tf.function(f)`。"),
    "ex_raised": ("Calling `{name}{call}` raised `{error}`: {message}",
               "呼叫 `{name}{call}` 時發生 `{error}`：{message}",
               "调用 `{name}{call}` 时发生 `{error}`：{message}"),
    "ex_hint_raised": ("Run `{name}{call}` in a cell of your own to read the whole error and the "
                    "line of your code it points at.",
                    "自己在一個儲存格裡執行 `{name}{call}`，就能看到完整的錯誤訊息和它指出的"
                    "程式碼行。",
                    "自己在一个单元格里运行 `{name}{call}`，就能看到完整的错误信息和它指出的"
                    "代码行。"),
    "ex_traces_ok": ("`{name}` traced {n} time(s) for {calls} calls (at most {most} allowed).",
                  "`{name}` 在 {calls} 次呼叫中追蹤了 {n} 次（上限 {most} 次）。",
                  "`{name}` 在 {calls} 次调用中追踪了 {n} 次（上限 {most} 次）。"),
    "ex_traces_bad": ("`{name}` traced {n} times for {calls} calls; at most {most} allowed. "
                   "Why it traced again: {reasons}",
                   "`{name}` 在 {calls} 次呼叫中追蹤了 {n} 次，最多只能 {most} 次。"
                   "重新追蹤的原因：{reasons}",
                   "`{name}` 在 {calls} 次调用中追踪了 {n} 次，最多只能 {most} 次。"
                   "重新追踪的原因：{reasons}"),
    "ex_hint_retrace_python": ("A Python number or object is part of the trace key: each new "
                            "value traces a new graph. Pass it as a tensor "
                            "(`tf.constant(...)`), or declare an `input_signature`.",
                            "Python 的數字或物件是追蹤鍵的一部分：每換一個值就追蹤一張新的"
                            "計算圖。改傳張量（`tf.constant(...)`），或宣告 `input_signature`。",
                            "Python 的数字或对象是追踪键的一部分：每换一个值就追踪一张新的"
                            "计算图。改传张量（`tf.constant(...)`），或声明 `input_signature`。"),
    "ex_hint_retrace_shape": ("Each new shape traces a new graph. Declare the shape once with "
                           "`input_signature=[tf.TensorSpec([None, ...], ...)]`: `None` is a "
                           "dimension that may change.",
                           "每個新形狀都會追蹤一張新的計算圖。用 "
                           "`input_signature=[tf.TensorSpec([None, ...], ...)]` 一次宣告形狀："
                           "`None` 表示可以變動的維度。",
                           "每个新形状都会追踪一张新的计算图。用 "
                           "`input_signature=[tf.TensorSpec([None, ...], ...)]` 一次声明形状："
                           "`None` 表示可以变动的维度。"),
    "ex_hint_retrace": ("Read the reasons above: give every call the same kind of input (same "
                     "dtype, compatible shapes, tensors instead of Python values).",
                     "看看上面的原因：讓每次呼叫的輸入都是同一種（相同的資料型別、相容的形狀，"
                     "用張量而不是 Python 的值）。",
                     "看看上面的原因：让每次调用的输入都是同一种（相同的数据类型、兼容的形状，"
                     "用张量而不是 Python 的值）。"),
    "ex_few_calls": ("`{name}` was called {n} time(s) by your cell; the exercise calls it {want} "
                  "times.",
                  "你的儲存格呼叫了 `{name}` {n} 次，練習要呼叫 {want} 次。",
                  "你的单元格调用了 `{name}` {n} 次，练习要调用 {want} 次。"),
    "ex_hint_few_calls": ("Keep the calls of the exercise cell and change how `{name}` is "
                       "called or defined: the check reads what your own calls did.",
                       "保留練習儲存格裡的呼叫，改的是 `{name}` 的呼叫方式或定義：檢查讀的是"
                       "你自己的呼叫留下的紀錄。",
                       "保留练习单元格里的调用，改的是 `{name}` 的调用方式或定义：检查读的是"
                       "你自己的调用留下的记录。"),
    "ex_has_op": ("The graph contains `{op}`.", "計算圖裡有 `{op}` 運算。",
               "计算图里有 `{op}` 运算。"),
    "ex_lacks_op": ("The graph contains no `{op}`.", "計算圖裡沒有 `{op}` 運算。",
                 "计算图里没有 `{op}` 运算。"),
    "ex_hint_lacks_op": ("List your graph's op types with "
                      "`[op.type for op in f.get_concrete_function(...).graph.get_operations()]` "
                      "and use the TensorFlow function that builds `{op}`.",
                      "用 `[op.type for op in f.get_concrete_function(...).graph.get_operations()]`"
                      " 列出計算圖的運算類型，再改用會建立 `{op}` 的 TensorFlow 函式。",
                      "用 `[op.type for op in f.get_concrete_function(...).graph.get_operations()]`"
                      " 列出计算图的运算类型，再改用会建立 `{op}` 的 TensorFlow 函数。"),
    "ex_hint_loop": ("Loop over a tensor (`for i in tf.range(n):`) or with a tensor condition "
                  "(`while i < n:` with `i` a tensor): AutoGraph then builds one `While` op. "
                  "A loop over `range(n)` with a Python `n` is unrolled.",
                  "對張量迭代（`for i in tf.range(n):`），或用張量當條件（`while i < n:`，"
                  "`i` 是張量）：AutoGraph 就會建立一個 `While` 運算。對 Python 的 `n` 做 "
                  "`range(n)` 的迴圈會被展開。",
                  "对张量迭代（`for i in tf.range(n):`），或用张量当条件（`while i < n:`，"
                  "`i` 是张量）：AutoGraph 就会建立一个 `While` 运算。对 Python 的 `n` 做 "
                  "`range(n)` 的循环会被展开。"),
    "ex_hint_cond": ("Keep an `if` whose condition is a tensor (`if x > 0:`): AutoGraph turns it "
                  "into an `If` op. `tf.maximum` or `tf.where` build no `If`.",
                  "保留條件是張量的 `if`（`if x > 0:`）：AutoGraph 會把它變成 `If` 運算。"
                  "`tf.maximum` 或 `tf.where` 不會建立 `If`。",
                  "保留条件是张量的 `if`（`if x > 0:`）：AutoGraph 会把它变成 `If` 运算。"
                  "`tf.maximum` 或 `tf.where` 不会建立 `If`。"),
    "ex_hint_random": ("Draw the number with a random op inside the function "
                    "(`tf.random.uniform(...)`, `tf.random.normal(...)`): an op runs on every "
                    "call, Python's `random` only while tracing.",
                    "在函式裡用隨機運算產生數字（`tf.random.uniform(...)`、"
                    "`tf.random.normal(...)`）：運算每次呼叫都會執行，Python 的 `random` "
                    "只在追蹤時執行一次。",
                    "在函数里用随机运算产生数字（`tf.random.uniform(...)`、"
                    "`tf.random.normal(...)`）：运算每次调用都会运行，Python 的 `random` "
                    "只在追踪时运行一次。"),
    "ex_hint_assign": ("Keep the state in a `tf.Variable` created outside the function and change "
                    "it inside with `assign`, `assign_add` or `assign_sub`: those are ops, run "
                    "on every call.",
                    "把狀態放在函式外面建立的 `tf.Variable` 裡，在函式裡用 `assign`、"
                    "`assign_add` 或 `assign_sub` 改它：這些是運算，每次呼叫都會執行。",
                    "把状态放在函数外面建立的 `tf.Variable` 里，在函数里用 `assign`、"
                    "`assign_add` 或 `assign_sub` 改它：这些是运算，每次调用都会运行。"),
    "ex_unwanted_op": ("The graph still contains `{op}` ({count}×).",
                    "計算圖裡還有 {count} 個 `{op}` 運算。",
                    "计算图里还有 {count} 个 `{op}` 运算。"),
    "ex_hint_unwanted_op": ("Build the result from smaller ops instead of `{op}`, as the exercise "
                         "describes.",
                         "不要用 `{op}`，照練習的說明用較小的運算組出結果。",
                         "不要用 `{op}`，照练习的说明用较小的运算组出结果。"),
    "ex_no_unwanted_op": ("The graph contains no `{op}`.", "計算圖裡沒有 `{op}` 運算。",
                       "计算图里没有 `{op}` 运算。"),
    "ex_size_ok": ("The graph has {n} ops (at most {most}).",
                "計算圖有 {n} 個運算（最多 {most} 個）。",
                "计算图有 {n} 个运算（最多 {most} 个）。"),
    "ex_size_bad": ("The graph has {n} ops, more than {most}: something is unrolled.",
                 "計算圖有 {n} 個運算，超過 {most} 個：有東西展開了（多半是迴圈）。",
                 "计算图有 {n} 个运算，超过 {most} 个：有东西展开了（多半是循环）。"),
    "ex_hint_size": ("Replace the Python loop with whole-tensor ops (a reduction with `axis=`), "
                  "or loop over a tensor with `tf.range`.",
                  "把 Python 迴圈換成對整個張量的運算（帶 `axis=` 的歸約），或用 `tf.range` "
                  "對張量迭代。",
                  "把 Python 循环换成对整个张量的运算（带 `axis=` 的归约），或用 `tf.range` "
                  "对张量迭代。"),
    "ex_same_ok": ("`{name}{call}` gives `{got}`, as expected.",
                "`{name}{call}` 得到 `{got}`，和預期相同。",
                "`{name}{call}` 得到 `{got}`，和预期相同。"),
    "ex_same_bad": ("`{name}{call}` gives `{got}`, expected `{want}`.",
                 "`{name}{call}` 得到 `{got}`，預期是 `{want}`。",
                 "`{name}{call}` 得到 `{got}`，预期是 `{want}`。"),
    "ex_hint_same": ("Compare your formula with the exercise's, step by step: call `{name}` on "
                  "these inputs and print the intermediate tensors (`tf.print`).",
                  "把你的公式和練習的公式一步一步對照：用這些輸入呼叫 `{name}`，用 "
                  "`tf.print` 印出中間的張量。",
                  "把你的公式和练习的公式一步一步对照：用这些输入调用 `{name}`，用 "
                  "`tf.print` 打印中间的张量。"),
    "ex_value_ok": ("`{name}` is `{got}`, as expected.", "`{name}` 是 `{got}`，和預期相同。",
                 "`{name}` 是 `{got}`，和预期相同。"),
    "ex_value_bad": ("`{name}` is `{got}`, expected `{want}`.",
                  "`{name}` 是 `{got}`，預期是 `{want}`。",
                  "`{name}` 是 `{got}`，预期是 `{want}`。"),
    "ex_hint_value": ("Run the exercise cell again from its first line (its variables start "
                   "fresh) and compare each step with the exercise's description.",
                   "從第一行重新執行練習的儲存格（變數會重新開始），再把每一步和練習的說明對照。",
                   "从第一行重新运行练习的单元格（变量会重新开始），再把每一步和练习的说明对照。"),
    "ex_differ_ok": ("Two calls of `{name}` gave different values, as in eager execution.",
                  "`{name}` 呼叫兩次得到不同的值，和即時執行一樣。",
                  "`{name}` 调用两次得到不同的值，和即时执行一样。"),
    "ex_differ_bad": ("Two calls of `{name}` gave the same value: it was fixed when the function "
                   "was traced.",
                   "`{name}` 呼叫兩次得到同一個值：這個值在追蹤時就被固定下來了。",
                   "`{name}` 调用两次得到同一个值：这个值在追踪时就被固定下来了。"),
    "ex_shape_ok": ("`{name}{call}` has the shape of its input, `{shape}`.",
                 "`{name}{call}` 的形狀和輸入相同，是 `{shape}`。",
                 "`{name}{call}` 的形状和输入相同，是 `{shape}`。"),
    "ex_shape_bad": ("`{name}{call}` has shape `{got}`, its input `{want}`.",
                  "`{name}{call}` 的形狀是 `{got}`，輸入的形狀卻是 `{want}`。",
                  "`{name}{call}` 的形状是 `{got}`，输入的形状却是 `{want}`。"),
    "ex_hint_shape": ("Give the noise the input's shape (`tf.shape(x)`), or make it a scalar "
                   "(`[]`) so that it broadcasts.",
                   "讓雜訊的形狀和輸入相同（`tf.shape(x)`），或用純量（`[]`），讓它自動廣播。",
                   "让噪声的形状和输入相同（`tf.shape(x)`），或用标量（`[]`），让它自动广播。"),
    "ex_sequence_ok": ("Calls of `{name}` returned `{got}`, as expected.",
                    "連續呼叫 `{name}` 得到 `{got}`，和預期相同。",
                    "连续调用 `{name}` 得到 `{got}`，和预期相同。"),
    "ex_sequence_bad": ("Calls of `{name}` returned `{got}`, expected `{want}`.",
                     "連續呼叫 `{name}` 得到 `{got}`，預期是 `{want}`。",
                     "连续调用 `{name}` 得到 `{got}`，预期是 `{want}`。"),
    "ex_hint_sequence": ("Each call starts from the state the previous one left (its variables): "
                      "follow what one call should change, and check that yours changes it.",
                      "每次呼叫都從上一次呼叫留下的狀態（變數）開始：想想一次呼叫應該改變什麼，"
                      "再檢查你的函式有沒有改變它。",
                      "每次调用都从上一次调用留下的状态（变量）开始：想想一次调用应该改变什么，"
                      "再检查你的函数有没有改变它。"),
    "ex_optimised_ok": ("The optimiser's `{pass_}` pass changed {n} node(s): `{nodes}`.",
                     "最佳化器的 `{pass_}` 步驟改動了 {n} 個節點：`{nodes}`。",
                     "优化器的 `{pass_}` 步骤改动了 {n} 个节点：`{nodes}`。"),
    "ex_optimised_bad": ("The optimiser's `{pass_}` pass found nothing to change.",
                      "最佳化器的 `{pass_}` 步驟沒有找到可以改動的地方。",
                      "优化器的 `{pass_}` 步骤没有找到可以改动的地方。"),
    "ex_hint_folding": ("Constant folding computes an op whose inputs are all constants of the "
                     "graph, such as `tf.constant(9.0) / tf.constant(5.0)`; arithmetic Python "
                     "does on its own numbers never reaches the graph.",
                     "常數折疊會預先算好輸入全是計算圖常數的運算，例如 "
                     "`tf.constant(9.0) / tf.constant(5.0)`；Python 對自己的數字做的運算"
                     "不會進到計算圖裡。",
                     "常量折叠会预先算好输入全是计算图常量的运算，例如 "
                     "`tf.constant(9.0) / tf.constant(5.0)`；Python 对自己的数字做的运算"
                     "不会进到计算图里。"),
    "ex_hint_pass": ("Read the optimiser's report "
                  "(`f.get_concrete_function(...).optimization_report`) "
                  "to see what each pass looks for.",
                  "讀一讀最佳化器的報告（`f.get_concrete_function(...).optimization_report`），"
                  "看每個步驟在找什麼。",
                  "读一读优化器的报告（`f.get_concrete_function(...).optimization_report`），"
                  "看每个步骤在找什么。"),
    "ex_graphs_on": ("tf.functions run as graphs (`run_functions_eagerly` is `False`).",
                  "tf.function 以計算圖執行（`run_functions_eagerly` 為 `False`）。",
                  "tf.function 以计算图执行（`run_functions_eagerly` 为 `False`）。"),
    "ex_graphs_off": ("`tf.config.run_functions_eagerly` is still `True`: every tf.function in "
                   "this kernel runs as plain Python.",
                   "`tf.config.run_functions_eagerly` 仍然是 `True`：這個核心裡所有的 "
                   "tf.function 都會以一般 Python 執行。",
                   "`tf.config.run_functions_eagerly` 仍然是 `True`：这个内核里所有的 "
                   "tf.function 都会以普通 Python 运行。"),
    "ex_hint_graphs": ("It is a global switch: call `tf.config.run_functions_eagerly(False)` when "
                    "you are done debugging.",
                    "這是全域開關：除錯完記得呼叫 `tf.config.run_functions_eagerly(False)`。",
                    "这是全局开关：调试完记得调用 `tf.config.run_functions_eagerly(False)`。"),
    "ex_not_checked": ("Not checked: {reason}. The check would run your code again, and that "
                    "would change what your program does.",
                    "沒有檢查：{reason}。檢查會再執行你的程式碼，改變你的程式的結果。",
                    "没有检查：{reason}。检查会再运行你的代码，改变你的程序的结果。"),
    "ex_hint_not_checked": ("Take the effect out of the function for the exercise (write the file "
                         "or make the call in another cell), then check again.",
                         "做練習時先把這個效果移出函式（在別的儲存格寫檔案或呼叫），再檢查一次。",
                         "做练习时先把这个效果移出函数（在别的单元格写文件或调用），再检查一次。"),
    "ex_declined_op": ("the graph runs `{detail}`, whose effects cannot be undone on this system",
                    "計算圖會執行 `{detail}`，在這個系統上無法復原其效果",
                    "计算图会运行 `{detail}`，在这个系统上无法复原其效果"),
    "ex_declined_file": ("it writes to the file `{detail}`", "它會寫入檔案 `{detail}`",
                      "它会写入文件 `{detail}`"),
    "ex_declined_call": ("it calls `{detail}`", "它會呼叫 `{detail}`", "它会调用 `{detail}`"),
    "ex_declined_timeout": ("it ran longer than {detail} s", "執行超過 {detail} 秒",
                         "运行超过 {detail} 秒"),
    "ex_array": ("{dtype} array of shape {shape}", "{dtype} 陣列，形狀 {shape}",
              "{dtype} 数组，形状 {shape}"),
    "ex_err_branch": ("`{v}` gets a value in one branch only; both branches of a graph's `If` "
                   "must give it one.",
                   "`{v}` 只在一個分支裡有值；計算圖的 `If` 兩個分支都必須給它值。",
                   "`{v}` 只在一个分支里有值；计算图的 `If` 两个分支都必须给它值。"),
    "ex_hint_err_branch": ("Give `{v}` a value before the `if`, or in the other branch too.",
                        "在 `if` 之前先給 `{v}` 一個值，或在另一個分支也給它值。",
                        "在 `if` 之前先给 `{v}` 一个值，或在另一个分支也给它值。"),
    "ex_err_shapes": ("the shapes of two tensors do not fit together.",
                   "兩個張量的形狀對不上。", "两个张量的形状对不上。"),
    "ex_hint_err_shapes": ("Print the shapes (`x.shape`) of the tensors on the failing line, and "
                        "check the `axis=` of reductions.",
                        "印出出錯那一行各個張量的形狀（`x.shape`），並檢查歸約的 `axis=`。",
                        "打印出错那一行各个张量的形状（`x.shape`），并检查归约的 `axis=`。"),
    "ex_err_arguments": ("the function was called with another number of arguments than it "
                      "takes.",
                      "呼叫時給的參數個數和函式定義的不一樣。",
                      "调用时给的参数个数和函数定义的不一样。"),
    "ex_hint_err_arguments": ("Keep the parameters the exercise gives the function (the check "
                           "calls it the same way).",
                           "保留練習給這個函式的參數（檢查也用同樣的方式呼叫它）。",
                           "保留练习给这个函数的参数（检查也用同样的方式调用它）。"),
    "ex_err_attribute": ("`{a}` does not exist there.", "那裡沒有 `{a}`。", "那里没有 `{a}`。"),
    "ex_hint_err_attribute": ("Check the spelling; an API tfgraph_edu does not have yet is "
                           "reported this way, and the exercise can be solved without it.",
                           "檢查拼字；tfgraph_edu 還沒有的 API 也會這樣回報，不用它也能完成練習。",
                           "检查拼写；tfgraph_edu 还没有的 API 也会这样报告，不用它也能完成练习。"),
    "ex_err_variable": ("the function creates a `tf.Variable` on every call.",
                     "函式每次呼叫都會建立新的 `tf.Variable`。",
                     "函数每次调用都会创建新的 `tf.Variable`。"),
    "ex_err_numpy": ("a symbolic tensor of the graph was given to NumPy or Python.",
                  "把計算圖裡的符號張量交給了 NumPy 或 Python。",
                  "把计算图里的符号张量交给了 NumPy 或 Python。"),
    "ex_hint_err_numpy": ("Inside a `tf.function` compute with TensorFlow ops (`tf.…`): NumPy "
                       "sees only the symbolic tensors of the trace, not numbers.",
                       "在 `tf.function` 裡請用 TensorFlow 的運算（`tf.…`）計算：NumPy 只看得到"
                       "追蹤時的符號張量，看不到數字。",
                       "在 `tf.function` 里请用 TensorFlow 的运算（`tf.…`）计算：NumPy 只看得到"
                       "追踪时的符号张量，看不到数字。"),
    "ex_err_other": ("the message is TensorFlow's, in English.",
                  "錯誤訊息是 TensorFlow 的英文原文。", "错误信息是 TensorFlow 的英文原文。"),
    "ex_predict_none": ("No prediction yet: the cell above still says `prediction = ...`.",
                     "還沒有預測：上面的儲存格仍然是 `prediction = ...`。",
                     "还没有预测：上面的单元格仍然是 `prediction = ...`。"),
    "ex_hint_predict_none": ("Replace `...` with your guess, run that cell, then run this one "
                          "again.",
                          "把 `...` 換成你的猜測，執行那個儲存格，再重新執行這一個。",
                          "把 `...` 换成你的猜测，运行那个单元格，再重新运行这一个。"),
    "ex_predict_ok": ("You predicted `{p}`, and {seen}.", "你預測 `{p}`，結果{seen}。",
                   "你预测 `{p}`，结果{seen}。"),
    "ex_predict_bad": ("You predicted `{p}`, but {seen}.", "你預測 `{p}`，但是{seen}。",
                    "你预测 `{p}`，但是{seen}。"),
    "ex_seen_prints": ("the cell printed {n} line(s)", "儲存格印出了 {n} 行",
                    "单元格打印了 {n} 行"),
    "ex_seen_traces": ("the cell traced {n} graph(s)", "儲存格追蹤了 {n} 張計算圖",
                    "单元格追踪了 {n} 张计算图"),
    "ex_seen_value": ("the code gives `{v}`", "程式碼得到的是 `{v}`", "代码得到的是 `{v}`"),
    "ex_seen_ops": ("the graph holds `{v}`", "計算圖裡有 `{v}`", "计算图里有 `{v}`"),
    "ex_seen_missing": ("missing: `{v}`", "少了：`{v}`", "少了：`{v}`"),
    "ex_seen_extra": ("not there: `{v}`", "其實沒有：`{v}`", "其实没有：`{v}`"),
    "ex_hint_predict_prints": ("Python's `print` runs only while the function traces; "
                            "`tf.print` is an op of the graph and prints on every call. Count "
                            "the traces first.",
                            "Python 的 `print` 只在函式追蹤時執行；`tf.print` 是計算圖裡的運算，"
                            "每次呼叫都會印出。先數一數追蹤了幾次。",
                            "Python 的 `print` 只在函数追踪时运行；`tf.print` 是计算图里的运算，"
                            "每次调用都会打印。先数一数追踪了几次。"),
    "ex_hint_predict_traces": ("A call traces when its input differs from every earlier call's "
                            "(a new shape or dtype, a new Python value). What traced here: "
                            "{reasons}",
                            "輸入和之前每次呼叫都不一樣（新的形狀或資料型別、新的 Python 值）時，"
                            "呼叫就會追蹤。這裡追蹤的原因：{reasons}",
                            "输入和之前每次调用都不一样（新的形状或数据类型、新的 Python 值）时，"
                            "调用就会追踪。这里追踪的原因：{reasons}"),
    "ex_hint_predict_ops": ("The optimiser folds ops whose inputs are all constants into one "
                         "`Const` and prunes ops no output needs; open the optimiser's report "
                         "with `%%trace` to see each step.",
                         "最佳化器會把輸入全是常數的運算折疊成一個 `Const`，並剪掉沒有輸出需要的"
                         "運算；用 `%%trace` 打開最佳化器的報告，可以看到每一步。",
                         "优化器会把输入全是常量的运算折叠成一个 `Const`，并剪掉没有输出需要的"
                         "运算；用 `%%trace` 打开优化器的报告，可以看到每一步。"),
    "ex_hint_predict_value": ("Run the code again under `%%trace` and follow what each line does "
                           "while tracing and on each call.",
                           "在 `%%trace` 下重新執行程式碼，看看每一行在追蹤時和每次呼叫時"
                           "做了什麼。",
                           "在 `%%trace` 下重新运行代码，看看每一行在追踪时和每次调用时"
                           "做了什么。"),
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
