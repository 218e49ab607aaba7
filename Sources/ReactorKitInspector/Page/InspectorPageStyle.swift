/// The page's markup and styles (the first half of the document).
enum InspectorPageStyle {
  static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>ReactorKit Inspector</title>
    <style>
    :root {
      --bg: #f5f6f8; --panel: #ffffff; --panel-2: #f0f2f5; --border: #e2e5ea;
      --text: #1c2230; --muted: #6a7282; --faint: #9aa1ad; --accent: #2f6bff;
      --accent-soft: rgba(47, 107, 255, .10); --row-hover: #f3f5f9; --selected: #e8efff;
      --action: #2f6bff; --mutation: #8b5cf6; --jump: #d97706; --note: #64748b; --gap: #dc2626;
      --added: #15803d; --added-bg: rgba(21, 128, 61, .09); --removed: #b91c1c;
      --removed-bg: rgba(185, 28, 28, .08); --shadow: 0 1px 2px rgba(16, 24, 40, .06);
      --mono: ui-monospace, "SF Mono", "JetBrains Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace;
      --sans: system-ui, -apple-system, "Segoe UI", "Inter", "Helvetica Neue", Arial, sans-serif;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #0e1014; --panel: #15181e; --panel-2: #1b1f26; --border: #262b34;
        --text: #e4e7ec; --muted: #8d95a3; --faint: #5f6775; --accent: #6b96ff;
        --accent-soft: rgba(107, 150, 255, .13); --row-hover: #1a1e25; --selected: #1d2638;
        --action: #6b96ff; --mutation: #a78bfa; --jump: #f59e0b; --note: #94a3b8; --gap: #f87171;
        --added: #4ade80; --added-bg: rgba(74, 222, 128, .08); --removed: #f87171;
        --removed-bg: rgba(248, 113, 113, .08); --shadow: none;
      }
    }
    * { box-sizing: border-box; }
    html, body { height: 100%; margin: 0; }
    body { background: var(--bg); color: var(--text); font: 13px/1.45 var(--sans);
      display: flex; flex-direction: column; -webkit-font-smoothing: antialiased; }
    button, select, input, textarea { font: inherit; color: inherit; }
    header { display: flex; align-items: center; gap: 12px; padding: 10px 16px;
      background: var(--panel); border-bottom: 1px solid var(--border); }
    .brand { display: flex; align-items: center; gap: 9px; font-weight: 600; font-size: 14px;
      letter-spacing: -.01em; }
    .logo { width: 20px; height: 20px; border-radius: 6px;
      background: linear-gradient(135deg, var(--accent), var(--mutation)); }
    .brand small { color: var(--muted); font-weight: 500; }
    .pill { display: inline-flex; align-items: center; gap: 6px; padding: 3px 9px;
      border-radius: 999px; background: var(--panel-2); color: var(--muted); font-size: 12px; }
    .dot { width: 7px; height: 7px; border-radius: 50%; background: var(--faint); }
    .pill.live .dot { background: var(--added); box-shadow: 0 0 0 3px var(--added-bg); }
    .pill.paused .dot { background: var(--jump); }
    .pill.offline .dot { background: var(--gap); }
    .spacer { flex: 1; }
    .btn { border: 1px solid var(--border); background: var(--panel); border-radius: 7px;
      padding: 5px 11px; cursor: pointer; box-shadow: var(--shadow); white-space: nowrap; }
    .btn:hover { background: var(--panel-2); }
    .btn:disabled { opacity: .45; cursor: default; }
    .btn.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
    .btn.primary:hover { filter: brightness(1.06); }
    .btn.warn { background: var(--jump); border-color: var(--jump); color: #1b1200; }
    #banner { display: none; align-items: center; gap: 10px; padding: 8px 16px;
      background: color-mix(in srgb, var(--jump) 14%, var(--panel)); color: var(--text);
      border-bottom: 1px solid color-mix(in srgb, var(--jump) 35%, var(--border)); }
    #banner.shown { display: flex; }
    #banner b { color: var(--jump); }
    #banner .tag { font-size: 10.5px; font-weight: 700; text-transform: uppercase;
      letter-spacing: .06em; color: #1b1200; background: var(--jump); border-radius: 4px;
      padding: 2px 7px; }
    main { flex: 1; display: grid; grid-template-columns: minmax(380px, 44%) 1fr; min-height: 0; }
    .pane { display: flex; flex-direction: column; min-height: 0; min-width: 0; }
    #timeline-pane { border-right: 1px solid var(--border); background: var(--panel); }
    .filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 10px 12px;
      border-bottom: 1px solid var(--border); }
    .search { flex: 1 1 100%; min-width: 140px; padding: 6px 10px; border-radius: 7px;
      border: 1px solid var(--border); background: var(--panel-2); outline: none; }
    .search:focus, textarea:focus, select:focus { border-color: var(--accent);
      box-shadow: 0 0 0 3px var(--accent-soft); outline: none; }
    select { padding: 5px 8px; border-radius: 7px; border: 1px solid var(--border);
      background: var(--panel-2); }
    .chips { display: flex; gap: 4px; flex: 1; justify-content: flex-end; }
    .chip { border: 1px solid var(--border); border-radius: 999px; padding: 3px 9px;
      font-size: 12px; cursor: pointer; background: transparent; color: var(--muted);
      user-select: none; }
    .chip.on { color: var(--text); background: var(--panel-2); border-color: var(--faint); }
    .chip i { display: inline-block; width: 7px; height: 7px; border-radius: 50%;
      margin-right: 5px; vertical-align: 1px; }
    #timeline { flex: 1; overflow: auto; }
    .row { display: grid; grid-template-columns: 46px 88px minmax(0, 1fr) auto;
      gap: 10px; align-items: center; padding: 6px 12px; border-bottom: 1px solid var(--border);
      cursor: pointer; }
    .row:hover { background: var(--row-hover); }
    .row.selected { background: var(--selected); box-shadow: inset 3px 0 0 var(--accent); }
    .row.current { box-shadow: inset 3px 0 0 var(--jump); }
    .seq { font: 12px var(--mono); color: var(--faint); text-align: right; }
    .kind { font-size: 10.5px; font-weight: 600; text-transform: uppercase; letter-spacing: .05em;
      white-space: nowrap; }
    .kind::before { content: ""; display: inline-block; width: 7px; height: 7px;
      border-radius: 50%; margin-right: 6px; background: currentColor; vertical-align: 1px; }
    .k-action { color: var(--action); } .k-mutation { color: var(--mutation); }
    .k-jump { color: var(--jump); } .k-note { color: var(--note); } .k-gap { color: var(--gap); }
    .summary { min-width: 0; display: flex; flex-direction: column; }
    .what { font: 12.5px var(--mono); white-space: nowrap; overflow: hidden;
      text-overflow: ellipsis; }
    .meta { font-size: 11.5px; color: var(--muted); white-space: nowrap; overflow: hidden;
      text-overflow: ellipsis; }
    .src { display: inline-block; padding: 0 6px; border-radius: 4px; background: var(--panel-2);
      color: var(--muted); font-size: 11px; margin-right: 6px; }
    .time { font: 11.5px var(--mono); color: var(--faint); }
    .gaprow { padding: 6px 12px; font-size: 12px; color: var(--gap);
      border-bottom: 1px dashed var(--border); background: var(--removed-bg); }
    .empty { padding: 40px 20px; text-align: center; color: var(--muted); }
    #dispatch { border-top: 1px solid var(--border); padding: 10px 12px; display: grid;
      grid-template-columns: 1fr auto; gap: 8px; background: var(--panel); }
    #dispatch .head { grid-column: 1 / -1; display: flex; gap: 8px; align-items: center; }
    #dispatch .head b { font-size: 12px; color: var(--muted); font-weight: 600;
      text-transform: uppercase; letter-spacing: .05em; }
    textarea { width: 100%; min-height: 54px; resize: vertical; padding: 7px 9px;
      border-radius: 7px; border: 1px solid var(--border); background: var(--panel-2);
      font: 12.5px/1.4 var(--mono); }
    #dispatch-result { grid-column: 1 / -1; font-size: 12px; color: var(--muted); min-height: 16px; }
    #detail-pane { overflow: auto; padding: 18px 22px 40px; }
    .detail-head { display: flex; align-items: center; gap: 10px; flex-wrap: wrap;
      margin-bottom: 14px; }
    .detail-head h2 { margin: 0; font-size: 15px; font-weight: 600; }
    .detail-head .seq { font-size: 13px; }
    .card { background: var(--panel); border: 1px solid var(--border); border-radius: 10px;
      margin-bottom: 14px; box-shadow: var(--shadow); overflow: hidden; }
    .card h3 { margin: 0; padding: 9px 14px; font-size: 11.5px; font-weight: 600;
      text-transform: uppercase; letter-spacing: .06em; color: var(--muted);
      border-bottom: 1px solid var(--border); display: flex; align-items: center; gap: 8px; }
    .card h3 .count { font-weight: 500; text-transform: none; letter-spacing: 0; color: var(--faint); }
    .card h3 .tools { margin-left: auto; display: flex; gap: 6px; }
    .card h3 .tools button { font-size: 11px; padding: 2px 8px; border-radius: 5px;
      border: 1px solid var(--border); background: transparent; color: var(--muted); cursor: pointer;
      text-transform: none; letter-spacing: 0; }
    pre.code { margin: 0; padding: 12px 14px; font: 12.5px/1.5 var(--mono); white-space: pre-wrap;
      word-break: break-word; }
    table.diff { width: 100%; border-collapse: collapse; font: 12.5px/1.45 var(--mono); }
    table.diff td { padding: 6px 14px; vertical-align: top; border-bottom: 1px solid var(--border);
      word-break: break-word; }
    table.diff tr:last-child td { border-bottom: 0; }
    table.diff td.path { color: var(--accent); width: 30%; white-space: nowrap; }
    .old { color: var(--removed); background: var(--removed-bg); border-radius: 4px; padding: 1px 5px; }
    .new { color: var(--added); background: var(--added-bg); border-radius: 4px; padding: 1px 5px; }
    .none { color: var(--faint); font-style: italic; }
    .arrow { color: var(--faint); padding: 0 8px; }
    .nodiff { padding: 12px 14px; color: var(--muted); }
    .tree { padding: 10px 8px 12px; font: 12.5px/1.55 var(--mono); }
    .tree ul { list-style: none; margin: 0; padding-left: 18px; }
    .tree > ul { padding-left: 4px; }
    .tree li { position: relative; }
    .tw { display: inline-block; width: 14px; color: var(--faint); cursor: pointer; user-select: none; }
    .key { color: var(--text); }
    .key.changed { background: var(--accent-soft); border-radius: 3px; padding: 0 3px; }
    .ty { color: var(--faint); margin-left: 6px; }
    .val { color: var(--mutation); }
    .val.str { color: var(--added); }
    .val.num { color: var(--jump); }
    .collapsed > ul { display: none; }
    .placeholder { color: var(--muted); text-align: center; margin-top: 18vh; }
    .placeholder .big { font-size: 15px; color: var(--text); margin-bottom: 6px; font-weight: 600; }
    .toast { position: fixed; right: 16px; bottom: 16px; padding: 9px 14px; border-radius: 8px;
      background: var(--text); color: var(--bg); font-size: 12.5px; opacity: 0;
      transition: opacity .2s; pointer-events: none; }
    .toast.shown { opacity: .94; }
    </style>
    </head>
    <body>
    <header>
      <div class="brand"><div class="logo"></div>ReactorKit Inspector <small id="title-sources"></small></div>
      <span class="pill" id="status"><span class="dot"></span><span id="status-text">connecting…</span></span>
      <span class="pill" id="counter">0 events</span>
      <div class="spacer"></div>
      <button class="btn" id="pause-btn" title="Stop or resume recording in the app">Pause</button>
      <button class="btn" id="export-btn" title="Download the store's actions as an ActionRecorder recording">Export</button>
      <button class="btn" id="import-btn" title="Replay a recording into the store">Import</button>
      <input type="file" id="import-file" accept=".jsonl,.json,.txt,application/x-ndjson" hidden>
    </header>
    <div id="banner"><span class="tag">Time travel</span><span><b id="banner-source">store</b> shows the state after <b id="banner-seq">#0</b>. New actions from the app continue from there.</span>
      <span class="spacer"></span><button class="btn warn" id="live-btn">Back to live</button></div>
    <main>
      <section class="pane" id="timeline-pane">
        <div class="filters">
          <input class="search" id="search" type="search" placeholder="Filter actions, paths, values…" autocomplete="off">
          <select id="source-filter" title="Source"><option value="">All sources</option></select>
          <div class="chips" id="kind-chips"></div>
        </div>
        <div id="timeline"><div class="empty" id="timeline-empty">Waiting for the first event…</div></div>
        <form id="dispatch">
          <div class="head"><b>Dispatch</b><select id="dispatch-type"></select><select id="dispatch-source"></select></div>
          <textarea id="dispatch-json" spellcheck="false" placeholder='The action as JSON, as in a recording: {"add": {"title": "Buy milk"}}'></textarea>
          <button class="btn primary" id="dispatch-btn" type="submit">Send</button>
          <div id="dispatch-result"></div>
        </form>
      </section>
      <section class="pane" id="detail-pane">
        <div class="placeholder" id="placeholder"><div class="big">Select an event</div>
          Its action, what changed and the whole state appear here.</div>
        <div id="detail" hidden>
          <div class="detail-head">
            <span class="seq" id="d-seq"></span><span class="kind" id="d-kind"></span>
            <h2 id="d-title"></h2><span class="src" id="d-source"></span><span class="time" id="d-time"></span>
            <span class="spacer"></span>
            <button class="btn" id="jump-btn" title="Move the store to the state after this event">Jump to this state</button>
          </div>
          <div class="card" id="action-card"><h3>Action</h3><pre class="code" id="d-action"></pre></div>
          <div class="card" id="diff-card"><h3>Changes <span class="count" id="d-diff-count"></span></h3><div id="d-diff"></div></div>
          <div class="card" id="state-card"><h3>State <span class="count">after this event</span>
            <span class="tools"><button id="expand-all">Expand all</button><button id="collapse-all">Collapse</button></span></h3>
            <div class="tree" id="d-state"></div></div>
        </div>
      </section>
    </main>
    <div class="toast" id="toast"></div>

    """#
}
