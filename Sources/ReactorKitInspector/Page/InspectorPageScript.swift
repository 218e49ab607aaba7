/// The page's script (the second half of the document).
enum InspectorPageScript {
  static let html = #"""
    <script>
    "use strict";
    (function () {
      const $ = (id) => document.getElementById(id);
      const port = location.port || "80";
      // The token lives in this variable and in this history entry's state, which a reload
      // keeps; never in a cookie (every other 127.0.0.1 port would read it and receive it) or in
      // storage. It arrives in the address's fragment (which browsers send to no server) and is
      // moved out of the address bar at once, so screen shares and screenshots don't show it.
      const token = (function () {
        const fromAddress = new URLSearchParams(location.hash.slice(1)).get("token");
        if (fromAddress) {
          history.replaceState(Object.assign({}, history.state, { token: fromAddress }), "",
            location.pathname + location.search);
          return fromAddress;
        }
        const kept = history.state && history.state.token;
        return typeof kept === "string" ? kept : "";
      })();
      // Removes the cookie an earlier version of this page set.
      document.cookie = "rkinspector_" + port + "=; Max-Age=0; path=/; SameSite=Strict";

      const KINDS = ["action", "mutation", "jump", "note"];
      const MAX_EVENTS = 20000, MAX_ROWS = 2000;
      const state = {
        events: [], bySeq: new Map(), last: 0, selected: null, sources: [], paused: false,
        kinds: new Set(KINDS), text: "", source: "", actionTypes: [], connected: false,
      };

      function api(path, options) {
        options = options || {};
        options.headers = Object.assign({ "Authorization": "Bearer " + token }, options.headers || {});
        return fetch(path, options).then(async (response) => {
          const text = await response.text();
          let body = null;
          try { body = JSON.parse(text); } catch (e) { body = text; }
          if (!response.ok) {
            throw new Error((body && body.error) || ("HTTP " + response.status));
          }
          return body;
        });
      }

      function toast(message) {
        const element = $("toast");
        element.textContent = message;
        element.classList.add("shown");
        clearTimeout(toast.timer);
        toast.timer = setTimeout(() => element.classList.remove("shown"), 2600);
      }

      function el(tag, className, text) {
        const element = document.createElement(tag);
        if (className) element.className = className;
        if (text !== undefined && text !== null) element.textContent = text;
        return element;
      }

      function clock(ms) {
        const date = new Date(ms);
        const pad = (n, w) => String(n).padStart(w || 2, "0");
        return pad(date.getHours()) + ":" + pad(date.getMinutes()) + ":" + pad(date.getSeconds())
          + "." + pad(date.getMilliseconds(), 3);
      }

      function title(event) {
        if (event.kind === "gap") return event.missed + " events dropped";
        if (event.note) return event.note;
        return event.action || "";
      }

      // MARK: - Timeline

      function matches(event) {
        if (event.kind === "gap") return true;
        if (!state.kinds.has(event.kind)) return false;
        if (state.source && event.source !== state.source) return false;
        if (state.text) {
          const needle = state.text.toLowerCase();
          let haystack = (title(event) + " " + event.source).toLowerCase();
          if (event.diff) haystack += " " + event.diff.map((d) => d.path + " " + d.old + " " + d.new).join(" ").toLowerCase();
          if (!haystack.includes(needle)) return false;
        }
        return true;
      }

      function row(event) {
        if (event.kind === "gap") {
          const gap = el("div", "gaprow", "⚠ " + event.missed + " older events were dropped from the ring before this page read them");
          gap.dataset.kind = "gap";
          return gap;
        }
        const element = el("div", "row");
        element.dataset.seq = event.seq;
        element.dataset.kind = event.kind;
        element.append(el("span", "seq", "#" + event.seq));
        element.append(el("span", "kind k-" + event.kind, event.kind));
        const summary = el("div", "summary");
        summary.append(el("span", "what", title(event)));
        const meta = el("span", "meta");
        meta.append(el("span", "src", event.source));
        if (event.diff) {
          meta.append(document.createTextNode(event.diff.length === 0 ? "no changes"
            : event.diff.length + (event.diff.length === 1 ? " change: " : " changes: ")
              + event.diff.slice(0, 3).map((d) => d.path).join(", ")));
        }
        summary.append(meta);
        element.append(summary);
        element.append(el("span", "time", clock(event.time || 0)));
        if (state.selected === event.seq) element.classList.add("selected");
        return element;
      }

      function isNearBottom() {
        const list = $("timeline");
        return list.scrollHeight - list.scrollTop - list.clientHeight < 60;
      }

      function renderTimeline() {
        const list = $("timeline");
        list.textContent = "";
        const shown = state.events.filter(matches).slice(-MAX_ROWS);
        if (shown.length === 0) {
          list.append(el("div", "empty", state.events.length ? "No event matches the filters." : "Waiting for the first event…"));
          return;
        }
        const fragment = document.createDocumentFragment();
        shown.forEach((event) => fragment.append(row(event)));
        list.append(fragment);
        list.scrollTop = list.scrollHeight;
        markCurrent();
      }

      function addEvent(event) {
        if (event.kind !== "gap") {
          if (state.bySeq.has(event.seq)) return;
          state.bySeq.set(event.seq, event);
          state.last = Math.max(state.last, event.seq);
        } else {
          state.last = Math.max(state.last, event.seq);
        }
        state.events.push(event);
        if (state.events.length > MAX_EVENTS) {
          const dropped = state.events.splice(0, state.events.length - MAX_EVENTS);
          dropped.forEach((old) => state.bySeq.delete(old.seq));
        }
        if (event.kind === "jump" || event.kind === "note") refreshSources();
        if (!matches(event)) return;
        const list = $("timeline");
        const follow = isNearBottom();
        const empty = list.querySelector(".empty");
        if (empty) empty.remove();
        list.append(row(event));
        while (list.children.length > MAX_ROWS) list.firstChild.remove();
        if (follow) list.scrollTop = list.scrollHeight;
        $("counter").textContent = state.bySeq.size + " events";
      }

      $("timeline").addEventListener("click", (click) => {
        const target = click.target.closest(".row");
        if (target) select(Number(target.dataset.seq));
      });

      // MARK: - Detail

      function select(seq) {
        state.selected = seq;
        document.querySelectorAll(".row.selected").forEach((r) => r.classList.remove("selected"));
        const element = document.querySelector('.row[data-seq="' + seq + '"]');
        if (element) element.classList.add("selected");
        const event = state.bySeq.get(seq);
        if (!event) return;
        $("placeholder").hidden = true;
        $("detail").hidden = false;
        $("d-seq").textContent = "#" + event.seq;
        $("d-kind").className = "kind k-" + event.kind;
        $("d-kind").textContent = event.kind;
        $("d-title").textContent = event.type || (event.kind === "note" ? "Note" : event.kind === "jump" ? "Time travel" : "");
        $("d-source").textContent = event.source;
        $("d-time").textContent = clock(event.time || 0);
        $("d-action").textContent = title(event);
        const source = state.sources.find((s) => s.name === event.source);
        const hasState = !!(event.state || event.hasState);
        const jumpable = !!(source && source.canJump && hasState);
        $("jump-btn").hidden = !jumpable;
        $("diff-card").hidden = !event.diff;
        renderDiff(event.diff || []);
        $("state-card").hidden = !hasState;
        const changed = new Set((event.diff || []).map((d) => d.path));
        if (event.state || !hasState) {
          renderTree(event.state, changed);
          return;
        }
        // Events carry no state tree (a page catching up would render thousands): ask for
        // the one shown.
        $("d-state").textContent = "Loading the state…";
        api("/api/state?source=" + encodeURIComponent(event.source) + "&seq=" + event.seq)
          .then((body) => {
            event.state = body.state;
            if (state.selected === seq) renderTree(event.state, changed);
          })
          .catch((error) => { if (state.selected === seq) $("d-state").textContent = error.message; });
      }

      function renderDiff(diff) {
        const box = $("d-diff");
        box.textContent = "";
        $("d-diff-count").textContent = diff.length ? diff.length + (diff.length === 1 ? " path" : " paths") : "";
        if (diff.length === 0) {
          box.append(el("div", "nodiff", "The state did not change."));
          return;
        }
        const table = el("table", "diff");
        diff.forEach((change) => {
          const tr = el("tr", "diff-row");
          tr.append(el("td", "path", change.path));
          const values = el("td");
          values.append(change.old === null ? el("span", "none", "(none)") : el("span", "old", change.old));
          values.append(el("span", "arrow", "→"));
          values.append(change.new === null ? el("span", "none", "(removed)") : el("span", "new", change.new));
          tr.append(values);
          table.append(tr);
        });
        box.append(table);
      }

      function valueClass(text) {
        if (/^".*"$/s.test(text)) return "val str";
        if (/^-?[0-9][0-9_.e+-]*$/.test(text) || text === "true" || text === "false") return "val num";
        return "val";
      }

      function renderTree(root, changed) {
        const box = $("d-state");
        box.textContent = "";
        if (!root) return;
        const changedPrefixes = new Set();
        changed.forEach((path) => {
          const parts = path.split(/(?=[.\[])/);
          let prefix = "";
          parts.forEach((part) => { prefix += part; changedPrefixes.add(prefix); });
        });
        function node(item, path, depth) {
          const li = el("li");
          const hasChildren = Array.isArray(item.c);
          const twisty = el("span", "tw", hasChildren ? "▾" : "");
          li.append(twisty);
          if (item.k !== null && item.k !== undefined) {
            const key = el("span", "key" + (changedPrefixes.has(path) ? " changed" : ""), item.k);
            li.append(key, document.createTextNode(hasChildren ? "" : ": "));
          }
          if (hasChildren) {
            li.append(el("span", "ty", (item.t || "") + (item.case ? "." + item.case : "")
              + (item.s ? "  " + item.n + (item.n === 1 ? " item" : " items") : "")));
            const ul = el("ul");
            item.c.forEach((child) => {
              const isIndex = /^[0-9]+$/.test(child.k);
              ul.append(node(child, path + (isIndex ? "[" + child.k + "]" : "." + child.k), depth + 1));
            });
            li.append(ul);
            if (depth >= 2 && !changedPrefixes.has(path)) li.classList.add("collapsed");
            twisty.addEventListener("click", () => {
              li.classList.toggle("collapsed");
              twisty.textContent = li.classList.contains("collapsed") ? "▸" : "▾";
            });
            if (li.classList.contains("collapsed")) twisty.textContent = "▸";
          } else {
            li.append(el("span", valueClass(item.v || ""), item.v));
          }
          return li;
        }
        const ul = el("ul");
        const top = node(Object.assign({}, root, { k: "state" }), "", 0);
        top.querySelector(".key").classList.remove("changed");
        ul.append(top);
        box.append(ul);
      }

      function setAllCollapsed(collapsed) {
        $("d-state").querySelectorAll("li").forEach((li) => {
          if (!li.querySelector("ul")) return;
          if (li.parentElement.parentElement === $("d-state")) return;
          li.classList.toggle("collapsed", collapsed);
          const twisty = li.querySelector(".tw");
          if (twisty) twisty.textContent = collapsed ? "▸" : "▾";
        });
      }
      $("expand-all").onclick = () => setAllCollapsed(false);
      $("collapse-all").onclick = () => setAllCollapsed(true);

      // MARK: - Time travel

      $("jump-btn").onclick = () => {
        const event = state.bySeq.get(state.selected);
        if (!event) return;
        api("/api/jump", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ source: event.source, seq: event.seq }) })
          .then(() => { toast("Jumped to the state after #" + event.seq); refreshSources(); })
          .catch((error) => toast(error.message));
      };
      $("live-btn").onclick = () => {
        const travelling = state.sources.find((s) => s.jumpedTo);
        api("/api/jump", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ source: travelling ? travelling.name : undefined, live: true }) })
          .then(() => { toast("Back to live"); refreshSources(); })
          .catch((error) => toast(error.message));
      };

      function markCurrent() {
        document.querySelectorAll(".row.current").forEach((r) => r.classList.remove("current"));
        const travelling = state.sources.find((s) => s.jumpedTo);
        const banner = $("banner");
        banner.classList.toggle("shown", !!travelling);
        if (!travelling) return;
        $("banner-source").textContent = travelling.name;
        $("banner-seq").textContent = "#" + travelling.jumpedTo;
        const element = document.querySelector('.row[data-seq="' + travelling.jumpedTo + '"]');
        if (element) element.classList.add("current");
      }

      // MARK: - Sources, pause, export, import, dispatch

      function fillSelect(select, values, keep, first) {
        const current = select.value;
        select.textContent = "";
        if (first) select.append(new Option(first, ""));
        values.forEach((value) => select.append(new Option(value, value)));
        if (keep && values.includes(current)) select.value = current;
      }

      function refreshSources() {
        return api("/api/sources").then((info) => {
          state.sources = info.sources;
          state.paused = info.paused;
          state.actionTypes = info.actionTypes;
          const names = [...new Set(info.sources.map((s) => s.name))];
          fillSelect($("source-filter"), names, true, "All sources");
          const stores = info.sources.filter((s) => s.canDispatch).map((s) => s.name);
          fillSelect($("dispatch-source"), stores, true);
          fillSelect($("dispatch-type"), info.actionTypes, true);
          $("dispatch").style.display = stores.length && info.actionTypes.length ? "" : "none";
          $("dispatch-source").style.display = stores.length > 1 ? "" : "none";
          $("export-btn").disabled = $("import-btn").disabled = !info.actionTypes.length;
          $("pause-btn").textContent = info.paused ? "Resume" : "Pause";
          $("pause-btn").classList.toggle("warn", info.paused);
          $("title-sources").textContent = names.length ? "· " + names.join(", ") : "";
          setStatus();
          markCurrent();
        }).catch(() => {});
      }

      function setStatus() {
        const pill = $("status");
        pill.className = "pill " + (!state.connected ? "offline" : state.paused ? "paused" : "live");
        $("status-text").textContent = !state.connected ? "disconnected" : state.paused ? "paused" : "live";
      }

      $("pause-btn").onclick = () => {
        api(state.paused ? "/api/resume" : "/api/pause", { method: "POST" })
          .then(refreshSources).catch((error) => toast(error.message));
      };

      $("export-btn").onclick = () => {
        const source = $("dispatch-source").value;
        fetch("/api/export" + (source ? "?source=" + encodeURIComponent(source) : ""),
          { headers: { "Authorization": "Bearer " + token } })
          .then((response) => { if (!response.ok) throw new Error("HTTP " + response.status); return response.blob(); })
          .then((blob) => {
            const link = el("a");
            link.href = URL.createObjectURL(blob);
            link.download = (source || "store") + "-recording.jsonl";
            document.body.append(link);
            link.click();
            link.remove();
            toast("Recording exported");
          }).catch((error) => toast(error.message));
      };
      $("import-btn").onclick = () => $("import-file").click();
      $("import-file").onchange = () => {
        const file = $("import-file").files[0];
        if (!file) return;
        const source = $("dispatch-source").value;
        file.arrayBuffer().then((body) => api("/api/import" + (source ? "?source=" + encodeURIComponent(source) : ""),
          { method: "POST", headers: { "Content-Type": "application/x-ndjson" }, body }))
          .then((result) => toast("Replayed " + result.replayed + " actions"
            + (result.warning ? ". " + result.warning : "")))
          .catch((error) => toast(error.message))
          .finally(() => { $("import-file").value = ""; });
      };

      $("dispatch").onsubmit = (submit) => {
        submit.preventDefault();
        let action;
        const result = $("dispatch-result");
        try { action = JSON.parse($("dispatch-json").value || "null"); }
        catch (e) { result.textContent = "Not valid JSON: " + e.message; return; }
        api("/api/dispatch", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ source: $("dispatch-source").value || undefined,
            type: $("dispatch-type").value, action }) })
          .then(() => { result.textContent = "Dispatched " + $("dispatch-type").value + "."; })
          .catch((error) => { result.textContent = error.message; });
      };

      // MARK: - Filters

      KINDS.forEach((kind) => {
        const chip = el("button", "chip on");
        chip.type = "button";
        chip.dataset.kind = kind;
        const dot = el("i");
        dot.style.background = "var(--" + kind + ")";
        chip.append(dot, document.createTextNode(kind));
        chip.onclick = () => {
          if (state.kinds.has(kind)) state.kinds.delete(kind); else state.kinds.add(kind);
          chip.classList.toggle("on", state.kinds.has(kind));
          renderTimeline();
        };
        $("kind-chips").append(chip);
      });
      let searchTimer = null;
      $("search").oninput = () => {
        clearTimeout(searchTimer);
        searchTimer = setTimeout(() => { state.text = $("search").value.trim(); renderTimeline(); }, 120);
      };
      $("source-filter").onchange = () => { state.source = $("source-filter").value; renderTimeline(); };

      // MARK: - Live stream

      // The event stream is read with fetch, which sends the token as a bearer header
      // (EventSource can't send headers); it resumes after the last event it saw.
      function connect() {
        const controller = new AbortController();
        let retried = false;
        const retry = () => {
          if (retried) return;
          retried = true;
          state.connected = false;
          setStatus();
          controller.abort();
          setTimeout(connect, 1500);
        };
        fetch("/api/events?since=" + state.last, {
          headers: { "Authorization": "Bearer " + token }, signal: controller.signal, cache: "no-store",
        }).then((response) => {
          if (!response.ok || !response.body) throw new Error("HTTP " + response.status);
          state.connected = true;
          setStatus();
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          const pump = () => reader.read().then((chunk) => {
            if (chunk.done) throw new Error("the event stream ended");
            buffer += decoder.decode(chunk.value, { stream: true });
            let end;
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = block.split("\n").filter((line) => line.startsWith("data: "))
                .map((line) => line.slice(6)).join("\n");
              if (!data) continue;
              try { addEvent(JSON.parse(data)); } catch (e) { /* ignore a malformed entry */ }
            }
            return pump();
          });
          return pump();
        }).catch(retry);
      }

      if (!token) toast("Open the address the app printed: it ends with #token=…");
      refreshSources();
      setInterval(refreshSources, 2000);
      connect();
    })();
    </script>
    </body>
    </html>

    """#
}
