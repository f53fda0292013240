// sitetxt tester: the page of GET / on "sitetxt serve".
//
// Everything a site or a user wrote (the file, URLs, agents, reasons,
// messages) reaches the page as text nodes only (textContent,
// createTextNode): never as markup. The page's state lives in its address
// (?robots=...&agent=...&url=...&url=..., or site=...; a large file in the
// fragment), so that a result is a link to share.
"use strict";

// count writes n and a word that agrees with it: "1 URL", "2 URLs".
function count(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

(function () {
  const $ = (id) => document.getElementById(id);
  const PROFILES = ["rfc9309", "google", "draft", "norobots"];
  const FRAGMENT_OVER = 1500; // a file longer than this (encoded) goes in the fragment

  // el builds an element: cls its class, kids strings (made text nodes)
  // or nodes.
  function el(tag, cls, ...kids) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    for (const k of kids) {
      if (k === null || k === undefined) continue;
      e.appendChild(typeof k === "string" || typeof k === "number" ? document.createTextNode(String(k)) : k);
    }
    return e;
  }

  // lineLink links to line n of the file: a click selects it in the
  // editor (pasted text) or scrolls the file view to it (a fetched file),
  // without touching the address (whose fragment may hold the file).
  function lineLink(n, label) {
    const a = el("a", "line-link", label || "line " + n);
    a.href = "#L" + Number(n);
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      if (from() === "text") {
        selectLine(Number(n));
        return;
      }
      const li = $("L" + Number(n));
      if (!li) return;
      for (const t of document.querySelectorAll(".file li.target")) t.classList.remove("target");
      li.classList.add("target");
      li.scrollIntoView({ block: "center" });
      li.focus({ preventScroll: true });
    });
    return a;
  }

  // ---- the editor: the pasted file, its lines marked ------------------

  let editorMarks = new Map(); // the marks of the last answer, by line

  // paintEditor numbers the editor's lines in its gutter and marks them:
  // the deciding lines highlighted under the text, problems in the
  // gutter's numbers.
  function paintEditor(marks) {
    editorMarks = marks;
    const lines = $("text").value.split("\n"); // a textarea's value ends lines with LF only
    const gutter = el("div"), layer = el("div");
    lines.forEach((line, i) => {
      const cls = marks.get(i + 1) || [];
      gutter.appendChild(el("div", cls.join(" "), String(i + 1)));
      layer.appendChild(el("div", cls.includes("decides") ? "decides" : "", line === "" ? " " : line));
    });
    $("gutter").replaceChildren(...gutter.childNodes);
    $("editor").style.setProperty("--gw", String(lines.length).length + 2.5 + "ch"); // CSSOM: allowed by the page's CSP
    $("marks").replaceChildren(...layer.childNodes);
    followScroll();
  }

  // followScroll keeps the gutter and the marks where the text is.
  function followScroll() {
    const ta = $("text");
    $("marks").scrollTop = ta.scrollTop;
    $("marks").scrollLeft = ta.scrollLeft;
    $("gutter").scrollTop = ta.scrollTop;
  }

  function lineHeight() {
    return parseFloat(getComputedStyle($("text")).lineHeight) || 20;
  }

  // scrollEditorTo scrolls the editor so that line n shows, a third of
  // the way down, unless it shows already.
  function scrollEditorTo(n) {
    const ta = $("text"), lh = lineHeight(), top = (n - 1) * lh;
    if (top < ta.scrollTop || top + 2 * lh > ta.scrollTop + ta.clientHeight) ta.scrollTop = Math.max(0, top - ta.clientHeight / 3);
    followScroll();
  }

  // selectLine selects line n in the editor, ready to be edited.
  function selectLine(n) {
    const ta = $("text"), lines = ta.value.split("\n");
    let start = 0;
    for (let i = 0; i < n - 1 && i < lines.length; i++) start += lines[i].length + 1;
    ta.focus({ preventScroll: true });
    ta.setSelectionRange(start, start + (lines[n - 1] || "").length);
    scrollEditorTo(n);
    for (const t of document.querySelectorAll(".marks div.target")) t.classList.remove("target");
    const d = $("marks").children[n - 1];
    if (d) d.classList.add("target");
  }

  // reveal shows the deciding line n: scrolled into view in the editor
  // (not while the file is being typed in) or in the file view.
  function reveal(n) {
    if (!n) return;
    if (from() === "text") {
      if (document.activeElement !== $("text")) scrollEditorTo(n);
      return;
    }
    const li = $("L" + n), ol = $("file");
    if (li) ol.scrollTop = Math.max(0, li.offsetTop - ol.clientHeight / 3);
  }

  function verdict(allowed) {
    return el("span", "verdict " + (allowed ? "allowed" : "disallowed"), allowed ? "allowed" : "disallowed");
  }

  // ---- state: the form <-> the address -------------------------------

  const texts = { robots: "", datatxt: "" };
  const sites = { robots: "", datatxt: "" };
  let tab = "robots";
  let withAudit = false; // the audit table was asked for (audit=1 in the address)
  let addressNotes = []; // what the address asked for that the page cannot do
  const kind = (t) => (t === "datatxt" ? "datatxt" : "robots");

  function from() {
    return document.querySelector('input[name="from"]:checked').value;
  }
  function setFrom(v) {
    for (const r of document.querySelectorAll('input[name="from"]')) r.checked = r.value === v;
    document.body.dataset.from = v;
  }
  function profiles() {
    return [...document.querySelectorAll('input[name="profile"]:checked')].map((c) => c.value);
  }
  function urls() {
    return $("urls").value.split("\n").map((s) => s.trim()).filter((s) => s !== "");
  }
  function saveInputs() {
    texts[kind(tab)] = $("text").value;
    sites[kind(tab)] = $("site").value.trim();
  }

  function readAddress() {
    const q = new URLSearchParams(location.search);
    const h = new URLSearchParams(location.hash.replace(/^#/, ""));
    const get = (k) => (h.has(k) ? h.get(k) : q.get(k));
    const all = (k) => (h.has(k) ? h.getAll(k) : q.getAll(k));
    const t = get("tab");
    tab = t === "datatxt" || t === "agents" ? t : "robots";
    texts.robots = get("robots") || "";
    texts.datatxt = get("datatxt") || "";
    sites[kind(tab)] = get("site") || "";
    $("agent").value = get("agent") || "";
    $("base").value = get("base") || "";
    $("publisher").value = get("publisher") || "";
    $("urls").value = all("url").join("\n");
    const asked = all("profile").map((p) => p.toLowerCase());
    const ps = asked.filter((p) => PROFILES.includes(p));
    addressNotes = asked.filter((p) => !PROFILES.includes(p)).map((p) =>
      "The address names the profile \u201c" + p + "\u201d, which does not exist" + meant(p, PROFILES) + ": it is left out (the profiles are " + PROFILES.join(", ") + ").");
    for (const c of document.querySelectorAll('input[name="profile"]')) c.checked = ps.length === 0 || ps.includes(c.value);
    setFrom(sites[kind(tab)] !== "" ? "site" : "text");
    withAudit = get("audit") === "1";
    return texts[kind(tab)] !== "" || sites[kind(tab)] !== "";
  }

  function writeAddress() {
    saveInputs();
    const q = new URLSearchParams();
    const h = new URLSearchParams();
    if (tab !== "robots") q.set("tab", tab);
    const k = kind(tab);
    if (from() === "site") {
      if (sites[k]) q.set("site", sites[k]);
    } else if (texts[k]) {
      const big = encodeURIComponent(texts[k]).length > FRAGMENT_OVER;
      (big ? h : q).set(k, texts[k]);
    }
    const agent = $("agent").value.trim();
    if (agent) q.set("agent", agent);
    if (k === "datatxt") {
      if ($("base").value.trim()) q.set("base", $("base").value.trim());
      if ($("publisher").value.trim()) q.set("publisher", $("publisher").value.trim());
    } else {
      for (const u of urls()) q.append("url", u);
    }
    if (tab === "robots" && withAudit) q.set("audit", "1");
    const ps = profiles();
    if (tab === "robots" && ps.length > 0 && ps.length < PROFILES.length) for (const p of ps) q.append("profile", p);
    const qs = q.toString(), hs = h.toString();
    history.replaceState(null, "", location.pathname + (qs ? "?" + qs : "") + (hs ? "#" + hs : ""));
  }

  // ---- talking to the service ----------------------------------------

  async function api(path, body) {
    const headers = { "Content-Type": "application/json" };
    const token = $("token").value || sessionStorage.getItem("sitetxt-token") || "";
    if (token) headers.Authorization = "Bearer " + token;
    const r = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    if (r.status === 401) {
      document.querySelector(".token").hidden = false;
      throw new Error("this server asks for a bearer token: enter it and test again");
    }
    if (!r.ok) {
      let msg = "HTTP " + r.status;
      try { msg = (await r.json()).error || msg; } catch (e) { /* not JSON */ }
      throw new Error(msg);
    }
    if (token) sessionStorage.setItem("sitetxt-token", token);
    return r;
  }

  function source(k) {
    if (from() !== "site") return { [k]: texts[k] };
    const s = { site: sites[k] };
    if (k === "datatxt" && $("discover").checked) s.discover = ["all"]; // POST /v1/datasets reads every source
    return s;
  }

  function agentField() {
    const a = $("agent").value.trim();
    return a === "" ? "*" : a;
  }

  let generation = 0; // answers to an older request are dropped

  async function run(audit) {
    if (audit !== undefined) withAudit = audit;
    $("audit").setAttribute("aria-pressed", withAudit ? "true" : "false");
    writeAddress();
    const k = kind(tab);
    if (texts[k] === "" && sites[k] === "") return;
    const mine = ++generation;
    status("Testing…", false);
    $("out").setAttribute("aria-busy", "true");
    try {
      let render, body;
      if (tab === "robots") {
        body = Object.assign(source("robots"), { agent: agentField(), urls: urls(), profiles: profiles(), audit: !!withAudit });
        render = renderRobots;
      } else if (tab === "agents") {
        body = Object.assign(source("robots"), { agent: agentField(), urls: urls() });
        render = renderAgents;
      } else {
        body = Object.assign(source("datatxt"), { agent: agentField() });
        if ($("base").value.trim() && !body.discover) body.base = $("base").value.trim();
        render = renderDatasets;
      }
      const path = { robots: "/v1/test", agents: "/v1/agents", datatxt: "/v1/datasets" }[tab];
      const resp = await (await api(path, body)).json();
      if (mine !== generation) return;
      render(resp);
    } catch (e) {
      if (mine === generation) status(String(e.message || e), true);
    } finally {
      if (mine === generation) $("out").setAttribute("aria-busy", "false");
    }
  }

  function status(msg, isError) {
    const s = $("status");
    s.textContent = msg;
    s.className = "status" + (isError ? " error" : "");
  }

  // ---- rendering ------------------------------------------------------

  // renderFile shows the file with its lines marked (marks maps a line to
  // classes): pasted text in its editor, a fetched file line-numbered
  // beside the results.
  function renderFile(text, marks) {
    const ol = $("file");
    ol.replaceChildren();
    if (from() === "text") {
      paintEditor(marks);
      return;
    }
    const lines = text === "" ? [] : text.replace(/\r\n?/g, "\n").split("\n");
    if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    // No file read (a fetch that failed): no empty view of it.
    ol.hidden = lines.length === 0;
    document.querySelector(".fileview-title").hidden = lines.length === 0;
    lines.forEach((line, i) => {
      const n = i + 1;
      const li = el("li", (marks.get(n) || []).join(" "), el("span", "n", String(n)), el("span", "t", line));
      li.id = "L" + n;
      li.tabIndex = -1;
      ol.appendChild(li);
    });
  }

  function mark(marks, line, cls) {
    if (!line) return;
    if (!marks.has(line)) marks.set(line, []);
    if (!marks.get(line).includes(cls)) marks.get(line).push(cls);
  }

  function fileText(resp, k) {
    return resp.text !== undefined ? resp.text : texts[k];
  }

  // meant names the word of known nearest to w (at most two edits), as
  // the command line suggests a mistyped one: " (did you mean rfc9309?)".
  function meant(w, known) {
    const dist = (a, b) => {
      let prev = [...Array(b.length + 1).keys()];
      for (let i = 1; i <= a.length; i++) {
        const cur = [i];
        for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = cur;
      }
      return prev[b.length];
    };
    let best = "", bd = 3;
    for (const k of known) { const d = dist(w, k); if (d < bd) { best = k; bd = d; } }
    return best ? " (did you mean " + best + "?)" : "";
  }

  // failed reports whether the file could not be fetched: the command
  // line's "cannot fetch" (exit 2), which the page shows as an error panel.
  const failed = (f) => !!(f && f.error);

  // errorPanel says that the file could not be fetched, and why, as the
  // command line does; what the standards derive from the failure is
  // shown under it, folded.
  function errorPanel(f) {
    return el("div", "error-panel", el("h2", "", "Cannot fetch " + f.url),
      el("p", "", f.error),
      el("p", "muted", (f.http_status ? "HTTP " + f.http_status + ": " : "No HTTP answer: ") + "no file was read. What each standard derives from the failure (" + f.meaning + ") is folded below."));
  }

  // refusedPanel says that serve refused to fetch the file at all (the
  // site gave an address that is not public): no standard's rule for an
  // unreachable site applies, so nothing is decided.
  function refusedPanel(resp) {
    return el("div", "refused-panel", el("h2", "", "Refused: " + resp.fetch.url + " was not fetched"),
      el("p", "", resp.fetch.error),
      el("p", "muted", "This server never asked the site, so no URL is decided: a standard's rule for an unreachable site does not apply to a site that was not asked."));
  }

  function fetchNote(f) {
    if (!f) return null;
    let s = "Fetched " + f.url + ": " + (f.http_status ? "HTTP " + f.http_status : "no HTTP answer") + ", " + f.meaning;
    if (f.error) s += " (" + f.error + ")";
    return el("p", "muted", s);
  }

  // where is a diagnostic's place: a link to its line, or "the file" for
  // one about the whole file (line 0, as the command line prints it
  // without a position).
  function where(d) {
    return d.line ? lineLink(d.line, "line " + d.line + ":" + d.column) : el("span", "muted", "the file");
  }

  function diagnosticsList(ds, marks) {
    const box = el("div", "", el("h2", "", "Diagnostics (" + ds.length + ")"));
    if (ds.length === 0) {
      box.appendChild(el("p", "muted", "No problems found."));
      return box;
    }
    const ul = el("ul", "diags");
    for (const d of ds) {
      mark(marks, d.line, "diag-" + d.severity);
      ul.appendChild(el("li", "diag", el("span", "sev " + d.severity, d.severity), " ",
        where(d), " ", d.message, " ", el("span", "muted", "[" + d.code + "]")));
    }
    box.appendChild(ul);
    return box;
  }

  function ruleCell(v, marks) {
    if (v.rule) {
      mark(marks, v.rule.line, "decides");
      return el("td", "rule", lineLink(v.rule.line), ": " + v.rule.directive + ": " + v.rule.pattern);
    }
    return el("td", "rule muted", "no rule");
  }

  function groupCell(v) {
    if (!v.group) return el("td", "group muted", "none");
    return el("td", "group", lineLink(v.group.line), " (" + (v.group.agents.join(", ") || "no agent") + ")");
  }

  // verdictRows merges the profiles whose verdicts are the same in every
  // column: one row when they all agree, a row for each outcome where
  // they differ.
  function verdictRows(verdicts) {
    const rows = [];
    for (const v of verdicts) {
      const key = JSON.stringify([v.allowed, v.rule && [v.rule.line, v.rule.directive, v.rule.pattern], v.group && v.group.line, v.reason]);
      const row = rows.find((r) => r.key === key);
      if (row) row.profiles.push(v.profile);
      else rows.push({ key, v, profiles: [v.profile] });
    }
    return rows;
  }

  function resultCard(r, marks, licenses) {
    const card = el("section", "card" + (r.agree ? "" : " differ"));
    card.dataset.url = r.url;
    card.appendChild(el("h3", "", r.url, el("span", "muted", " for " + r.agent)));
    if (r.error) {
      // A URL that could not be decided: its error, as the command line names it.
      card.classList.add("error");
      card.appendChild(el("p", "error", r.error));
      return card;
    }
    const tbl = el("table", "verdicts", el("thead", "", el("tr", "", el("th", "", "Profile"), el("th", "", "Verdict"),
      el("th", "", "Deciding line"), el("th", "", "Group"), el("th", "", "Reason"))));
    const tb = el("tbody");
    const rows = verdictRows(r.verdicts);
    for (const { v, profiles } of rows) {
      const who = rows.length === 1 && profiles.length > 1 ? el("td", "profile", el("span", "all", "all: "), profiles.join(", ")) : el("td", "profile", profiles.join(", "));
      const tr = el("tr", "", who, el("td", "", verdict(v.allowed)), ruleCell(v, marks), groupCell(v), el("td", "reason", v.reason));
      tr.dataset.profile = profiles.join(" ");
      tb.appendChild(tr);
    }
    tbl.appendChild(tb);
    card.appendChild(el("div", "table-wrap", tbl));
    if (!r.agree) {
      const ul = el("ul");
      for (const w of r.why) ul.appendChild(el("li", "", w));
      card.appendChild(el("div", "why", "The profiles disagree:", ul));
    }
    const ref = r.verdicts[0];
    const f = ref ? facts(ref, ref.allowed ? licenses : []) : null;
    if (f) card.appendChild(f);
    return card;
  }

  // facts lists the pace and usage preference of the reference verdict,
  // and the file's License and LLM-Policy lines, which apply to every path
  // it may fetch; a row only where the group or a line says something
  // (null when nothing does). Usage is there only where a usage line
  // applies.
  function facts(v, licenses) {
    const dl = el("dl", "facts");
    const add = (k, ...val) => { dl.appendChild(el("dt", "", k)); dl.appendChild(el("dd", "", ...val)); };
    if (v.crawl_delay !== undefined) add("Crawl-delay", v.crawl_delay + " s");
    if (v.request_rate) add("Request-rate", v.request_rate.requests + " per " + v.request_rate.seconds + " s");
    const u = v.usage;
    if (u) {
      const cu = u.content_usage, cs = u.content_signal, d = u.derived;
      if (cu.lines.length) add("Content-Usage", "train-ai " + cu.train_ai + ", ai-use " + cu.ai_use + ", search " + cu.search, ...lineRefs(cu.lines));
      if (cs.lines.length) add("Content-Signal", "search " + cs.search + ", ai-input " + cs.ai_input + ", ai-train " + cs.ai_train + ", use " + cs.use, ...lineRefs(cs.lines));
      let derived = "train-ai " + d.train_ai + " (from " + d.train_ai_from + "), ai-use " + d.ai_use + " (from " + d.ai_use_from + "), search " + d.search + " (from " + d.search_from + ")";
      if (d.purpose) derived += "; this crawler's use (" + d.purpose + "): " + d.answer + (d.overridden ? " (search governs it whatever " + d.overridden.join(" and ") + " say: vocab-08 4.3)" : "");
      // sitetxt's reading adds something where both fields speak, or
      // for a crawler whose use it can name.
      if ((cu.lines.length && cs.lines.length) || (d.purpose && d.answer !== "unknown")) add("Derived (sitetxt)", derived);
    }
    for (const l of licenses) add(l.field || "License", l.value + " · ", lineLink(l.line));
    return dl.firstChild ? dl : null;
  }

  function lineRefs(lines) {
    const out = [];
    for (const l of lines || []) out.push(" · ", lineLink(l.line));
    return out;
  }

  // startResults empties the results and the side column for a new
  // answer and shows how its file was fetched, if it was.
  function startResults(resp) {
    const res = $("results"), extra = $("extra");
    res.replaceChildren();
    extra.replaceChildren();
    for (const n of addressNotes) res.appendChild(el("p", "note", n));
    // A fetch that failed is said once, in its panel: the status line
    // does not repeat it, and no diagnostics of a file never read follow.
    if (resp.refused) {
      res.appendChild(refusedPanel(resp));
      status("", false);
      return { marks: new Map(), res, extra, refused: true, failedFetch: true };
    }
    if (failed(resp.fetch)) {
      res.appendChild(errorPanel(resp.fetch));
      status("", false);
      const d = el("details", "derived", el("summary", "", "Decisions derived from the failure"));
      res.appendChild(d);
      return { marks: new Map(), res: d, extra, failedFetch: true };
    }
    const fn = fetchNote(resp.fetch);
    if (fn) res.appendChild(fn);
    return { marks: new Map(), res, extra };
  }

  function renderRobots(resp) {
    const { marks, res, extra, failedFetch, refused } = startResults(resp);
    if (refused) {
      renderFile("", marks);
      return;
    }
    for (const n of resp.notes || []) res.appendChild(el("p", "note", "Note: " + n));
    if (resp.results.length === 0 && !failedFetch) res.appendChild(el("p", "muted", "No URL given: the diagnostics and sitemaps of the file are below."));
    const fileWide = resp.licenses.concat((resp.llm_policy || []).map((l) => Object.assign({ field: "LLM-Policy" }, l)));
    for (const r of resp.results) res.appendChild(resultCard(r, marks, fileWide));
    if (failedFetch) {
      renderFile("", marks);
      return;
    }
    extra.appendChild(diagnosticsList(resp.diagnostics, marks));
    const sm = el("div", "", el("h2", "", "Sitemaps (" + resp.sitemaps.length + ")"));
    const ul = el("ul");
    for (const s of resp.sitemaps) ul.appendChild(el("li", "mono", lineLink(s.line), " " + s.value));
    sm.appendChild(ul);
    extra.appendChild(sm);
    if (resp.audit) extra.appendChild(auditTable(resp.audit, marks));
    renderFile(fileText(resp, "robots"), marks);
    markOverflow();
    const first = resp.results.find((r) => r.verdicts.length > 0 && r.verdicts[0].rule);
    reveal(first && first.verdicts[0].rule.line);
    const differ = resp.results.filter((r) => !r.agree).length;
    status(count(resp.results.length, "URL") + " under " + resp.profiles.join(", ") + (differ ? "; the profiles disagree on " + differ : "") +
      "; " + count(resp.diagnostics.length, "diagnostic") + ".", false);
  }

  function auditTable(rep, marks) {
    const box = el("div", "audit", el("h2", "", "All known crawlers (" + rep.crawlers.length + ", under " + rep.profile + ")"));
    for (const c of rep.categories) box.appendChild(el("p", "", c.verdict));
    const head = el("tr", "", el("th", "", "Crawler"), el("th", "", "Category"));
    for (const p of rep.paths) head.appendChild(el("th", "mono", p));
    head.appendChild(el("th", "", "Profiles"));
    const tb = el("tbody");
    for (const c of rep.crawlers) {
      const tr = el("tr", "", el("td", "mono", c.token), el("td", "", c.category));
      for (const p of c.by_path) {
        const td = el("td", "", verdict(p.allowed));
        if (p.rule) { mark(marks, p.rule.line, "decides"); td.append(" ", lineLink(p.rule.line)); }
        tr.appendChild(td);
      }
      tr.appendChild(el("td", c.disagree ? "" : "muted", c.disagree ? "differ" : "agree"));
      tr.dataset.token = c.token;
      tb.appendChild(tr);
    }
    box.appendChild(el("div", "table-wrap", el("table", "", el("thead", "", head), tb)));
    return box;
  }

  // serverCell says which server takes a mobile agent for an answer: a
  // server, the server "none" a line names (no agent is sent), or no line
  // at all (the file says nothing about this URL), told apart.
  function serverCell(a) {
    if (a.error) return el("td", "error", a.error);
    if (a.server !== null) return el("td", "mono", a.server);
    if (a.line) return el("td", "", el("code", "server-none", "none"), ": line " + a.line + " names no server, so no mobile agent is sent");
    return el("td", "muted", "no Mobile-agent-server line matches this URL");
  }

  function renderAgents(resp) {
    const { marks, res, extra, failedFetch, refused } = startResults(resp);
    if (refused) {
      renderFile("", marks);
      return;
    }
    const tb = el("tbody");
    for (const a of resp.answers) {
      mark(marks, a.line, "decides");
      const tr = el("tr", "", el("td", "mono", a.url), el("td", "", a.error ? el("span", "muted", "not decided") : verdict(a.allowed)),
        serverCell(a), el("td", "", a.line ? lineLink(a.line) : el("span", "muted", "\u2014")));
      tr.dataset.url = a.url;
      tb.appendChild(tr);
    }
    res.appendChild(el("div", "table-wrap card", el("table", "answers", el("thead", "", el("tr", "", el("th", "", "URL"),
      el("th", "", "robots.txt"), el("th", "", "Mobile-agent server"), el("th", "", "Deciding line"))), tb)));
    if (!failedFetch) extra.appendChild(diagnosticsList(resp.diagnostics, marks));
    renderFile(fileText(resp, "robots"), marks);
    const first = resp.answers.find((a) => a.line);
    reveal(first && first.line);
    if (!failedFetch) status(count(resp.answers.length, "URL") + " dispatched for " + agentField() + ".", false);
  }

  function renderDatasets(resp) {
    const { marks, res, extra, failedFetch } = startResults(resp);
    const tb = el("tbody");
    for (const d of resp.datasets) {
      mark(marks, d.line, "decides");
      const access = d.allowed === null ? el("span", "muted", "unknown") : verdict(d.allowed);
      const from = d.sources ? " (" + [...new Set(d.sources.map((f) => f.kind))].join(", ") + ")" : "";
      const tr = el("tr", "", el("td", "", (d.name || "(no name)") + from), el("td", "mono", d.urls.length ? d.urls.join("\n") : d.paths.join("\n")),
        el("td", "", access, d.denied_by ? " " + d.denied_by : ""), el("td", "", lineLink(d.line)));
      tb.appendChild(tr);
    }
    res.appendChild(el("div", "table-wrap card", el("table", "datasets", el("thead", "", el("tr", "", el("th", "", "Dataset"),
      el("th", "", "URLs"), el("th", "", "Access for " + agentField()), el("th", "", "Line"))), tb)));
    if (!failedFetch) extra.appendChild(diagnosticsList(resp.diagnostics, marks));
    renderFile(fileText(resp, "datatxt"), marks);
    if (!failedFetch) status(count(resp.datasets.length, "dataset") + " listed.", false);
  }

  async function exportCatalog() {
    saveInputs();
    try {
      const body = Object.assign(source("datatxt"), { agent: agentField(), format: $("format").value });
      if ($("base").value.trim() && !body.discover) body.base = $("base").value.trim();
      if ($("publisher").value.trim()) body.publisher = $("publisher").value.trim();
      const r = await api("/v1/datasets", body);
      showExportDiagnostics(r);
      const blob = await r.blob();
      const a = el("a");
      a.href = URL.createObjectURL(blob);
      a.download = $("format").value + ".json";
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    } catch (e) {
      status(String(e.message || e), true);
    }
  }

  // showExportDiagnostics lists what a catalog export could not write, as
  // "sitetxt datasets -o FORMAT" prints it (the answer's Sitetxt-Errors
  // and Sitetxt-Diagnostics headers).
  function showExportDiagnostics(r) {
    let ds = [];
    try { ds = JSON.parse(r.headers.get("Sitetxt-Diagnostics") || "[]"); } catch (e) { /* none */ }
    const errors = Number(r.headers.get("Sitetxt-Errors") || "0");
    const box = el("div", "export-diags", el("h2", "", "Export to " + $("format").value + " (" + count(errors, "error") + ")"));
    const ul = el("ul", "diags");
    for (const d of ds) ul.appendChild(el("li", "diag", el("span", "sev " + d.severity, d.severity), " ", where(d), " ", d.message));
    if (ds.length === 0) box.appendChild(el("p", "muted", "Nothing missing: the catalog has every field its format requires."));
    else box.appendChild(ul);
    const old = document.querySelector(".export-diags");
    if (old) old.remove();
    $("extra").prepend(box);
    status(errors ? "Exported " + $("format").value + ", but " + count(errors, "field") + " it requires could not be written: see below." : "Exported " + $("format").value + ".", errors > 0);
  }

  // markOverflow marks each table that does not fit its column (it then
  // scrolls sideways), after the browser has laid it out.
  function markOverflow() {
    requestAnimationFrame(() => {
      for (const w of document.querySelectorAll(".table-wrap")) w.classList.toggle("overflows", w.scrollWidth > w.clientWidth + 1);
    });
  }

  // ---- tabs and input -------------------------------------------------

  function showTab(t, focus) {
    if (document.body.dataset.tab) saveInputs(); // not on load: the address filled texts

    tab = t;
    document.body.dataset.tab = t;
    for (const b of document.querySelectorAll('[role="tab"]')) {
      const on = b.dataset.tab === t;
      b.setAttribute("aria-selected", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
      if (on) {
        $("panel").setAttribute("aria-labelledby", b.id);
        if (focus) b.focus();
      }
    }
    $("text").value = texts[kind(t)];
    paintEditor(new Map());
    $("site").value = sites[kind(t)];
    $("text-label").textContent = kind(t) === "datatxt" ? "data.txt" : "robots.txt";
    $("results").replaceChildren();
    $("extra").replaceChildren();
    $("file").replaceChildren();
    status("", false);
  }

  let timer = 0;
  function soon() {
    clearTimeout(timer);
    timer = setTimeout(() => run(), 400);
  }

  async function loadCrawlers() {
    try {
      const r = await fetch("/v1/crawlers");
      if (!r.ok) return;
      const dl = $("crawlers");
      for (const c of (await r.json()).crawlers) {
        const o = document.createElement("option");
        o.value = c.token;
        o.label = c.operator + " · " + c.category;
        dl.appendChild(o);
      }
    } catch (e) { /* suggestions are a help, not a need */ }
  }

  function init() {
    const has = readAddress();
    showTab(tab, false);
    document.body.dataset.from = from();
    $("form").addEventListener("submit", (ev) => { ev.preventDefault(); run(); });
    $("audit").addEventListener("click", () => run(!withAudit));
    $("export").addEventListener("click", exportCatalog);
    for (const r of document.querySelectorAll('input[name="from"]')) r.addEventListener("change", () => { document.body.dataset.from = from(); writeAddress(); });
    for (const id of ["text", "site", "agent", "urls", "base", "publisher"]) $(id).addEventListener("input", () => { writeAddress(); soon(); });
    // Typing moves lines: the last answer's marks no longer fit them.
    $("text").addEventListener("input", () => paintEditor(new Map()));
    $("text").addEventListener("scroll", followScroll);
    for (const c of document.querySelectorAll('input[name="profile"]')) c.addEventListener("change", () => { writeAddress(); soon(); });
    for (const id of ["text", "urls"]) $(id).addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(); }
    });
    const tabs = [...document.querySelectorAll('[role="tab"]')];
    tabs.forEach((b, i) => {
      b.addEventListener("click", () => { showTab(b.dataset.tab, false); writeAddress(); run(); });
      b.addEventListener("keydown", (ev) => {
        const d = ev.key === "ArrowRight" ? 1 : ev.key === "ArrowLeft" ? -1 : 0;
        if (!d) return;
        ev.preventDefault();
        const next = tabs[(i + d + tabs.length) % tabs.length];
        showTab(next.dataset.tab, true);
        writeAddress();
        run();
      });
    });
    loadCrawlers();
    if (has) run();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
