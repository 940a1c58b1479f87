"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("goblin-data").textContent);
  const STATUSES = ["clean", "recovered", "ocr", "empty", "corrupt", "failed"];
  const ICONS = { clean: "\u2713", recovered: "\u21bb", ocr: "\u25ce", empty: "\u25cb",
                  corrupt: "\u2717", failed: "\u203c", partially_recovered: "\u25d0",
                  corrupt_unrecoverable: "\u2717" };
  const PAGE_SIZE = 50;
  const state = { search: "", status: "", engine: "", type: "", view: "documents",
                  sort: "name", dir: 1, page: 0, open: null, openPage: null };

  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children || []) if (child) node.appendChild(child);
    return node;
  }
  function statusLabel(status) {
    return el("span", { className: "status status-" + status,
                        text: (ICONS[status] || "\u2022") + " " + status.replace("_", " ") });
  }
  function pct(x) { return (100 * x).toFixed(1) + "%"; }

  // Derived per-document fields, computed once: pages by status, engines, lowercase name.
  const docs = DATA.documents.map((d, index) => {
    const counts = Object.assign({}, d.page_statuses);
    const engines = new Set(d.pages.length ? d.pages.map((p) => p.engine).filter(Boolean) : d.engines);
    return Object.assign({}, d, { index, counts, engineSet: engines, lower: d.name.toLowerCase() });
  });

  function renderSummary() {
    const s = DATA.summary;
    $("title").textContent = DATA.title;
    $("generated").textContent = "Generated " + DATA.generated;
    const cards = $("cards");
    const add = (label, value) => cards.appendChild(
      el("div", { className: "card" }, [el("div", { className: "value", text: String(value) }),
                                        el("div", { className: "label", text: label })]));
    add("documents", s.documents);
    add("pages", s.pages);
    for (const st of STATUSES) add(st + " pages", s.page_statuses[st] + " (" + pct(s.page_shares[st]) + ")");
    add("seconds", s.seconds);
    const bar = $("share-bar");
    for (const st of STATUSES) {
      if (!s.page_statuses[st]) continue;
      bar.appendChild(el("span", { style: "width:" + pct(s.page_shares[st]) + ";background:var(--" + st + ")",
                                   title: st + ": " + s.page_statuses[st] }));
    }
    const legend = $("legend");
    for (const st of STATUSES) {
      legend.appendChild(el("li", {}, [el("span", { className: "swatch", style: "background:var(--" + st + ")" }),
                                      statusLabel(st),
                                      document.createTextNode(" " + s.page_statuses[st])]));
    }
    const engines = $("engines");
    for (const [name, n] of Object.entries(s.engines)) engines.appendChild(el("li", { text: name + ": " + n + " pages" }));
    if (!Object.keys(s.engines).length) engines.appendChild(el("li", { text: "none" }));
    const errors = $("errors-by-kind");
    for (const [kind, n] of Object.entries(s.errors_by_kind)) errors.appendChild(el("li", { text: kind + ": " + n }));
    if (!Object.keys(s.errors_by_kind).length) errors.appendChild(el("li", { text: "none" }));
  }

  function fillSelect(id, values) {
    const select = $(id);
    for (const value of values) select.appendChild(el("option", { value, text: value }));
  }

  function pageMatches(doc, page) {
    if (state.status && page.status !== state.status) return false;
    if (state.engine && page.engine !== state.engine) return false;
    return true;
  }
  function docMatches(doc) {
    if (state.search && !doc.lower.includes(state.search)) return false;
    if (state.type && doc.type !== state.type) return false;
    if (state.engine && !doc.engineSet.has(state.engine)) return false;
    if (state.status) {
      if (doc.pages.length) return doc.pages.some((p) => pageMatches(doc, p));
      if ((doc.counts[state.status] || 0) > 0) return true;
      return state.status === "failed" && doc.status === "failed";
    }
    return true;
  }

  const COLUMNS = [
    ["name", "Document", false], ["type", "Type", false], ["status", "Status", false],
    ["page_count", "Pages", true], ["clean", "Clean", true], ["recovered", "Recovered", true],
    ["ocr", "OCR", true], ["corrupt", "Corrupt", true], ["failed", "Failed", true],
    ["engines", "Engines", false], ["seconds", "Seconds", true],
  ];
  function sortValue(doc, key) {
    if (STATUSES.includes(key)) return doc.counts[key] || 0;
    if (key === "engines") return Array.from(doc.engineSet).join(",");
    return doc[key];
  }

  function renderTable() {
    const rows = docs.filter(docMatches);
    rows.sort((a, b) => {
      const x = sortValue(a, state.sort), y = sortValue(b, state.sort);
      return (x < y ? -1 : x > y ? 1 : 0) * state.dir || a.index - b.index;
    });
    const head = $("doc-head");
    head.replaceChildren();
    const tr = el("tr");
    for (const [key, label, numeric] of COLUMNS) {
      const sorted = state.sort === key;
      const th = el("th", { scope: "col", className: numeric ? "num" : "",
                            "aria-sort": sorted ? (state.dir > 0 ? "ascending" : "descending") : "none" },
        [el("button", { type: "button", text: label + (sorted ? (state.dir > 0 ? " \u25b2" : " \u25bc") : ""),
                        onclick: () => { state.dir = sorted ? -state.dir : 1; state.sort = key; state.page = 0; renderTable(); } })]);
      tr.appendChild(th);
    }
    head.appendChild(tr);
    const body = $("doc-body");
    body.replaceChildren();
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
    state.page = Math.min(state.page, pages - 1);
    for (const doc of rows.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE)) {
      const open = () => openDocument(doc.index, null);
      const row = el("tr", { className: "row", tabindex: "0", "data-name": doc.name,
                             onclick: open, onkeydown: (e) => { if (e.key === "Enter") open(); } }, [
        el("td", { text: doc.name }), el("td", { text: doc.type }),
        el("td", {}, [statusLabel(doc.status || "unknown")]),
        el("td", { className: "num", text: String(doc.page_count) }),
        ...["clean", "recovered", "ocr", "corrupt", "failed"].map(
          (st) => el("td", { className: "num", text: String(doc.counts[st] || 0) })),
        el("td", { text: Array.from(doc.engineSet).join(", ") }),
        el("td", { className: "num", text: Number(doc.seconds || 0).toFixed(2) }),
      ]);
      body.appendChild(row);
    }
    $("doc-count").textContent = rows.length + " of " + docs.length + " documents";
    pager("doc-pager", pages, renderTable);
  }

  function matchingPages() {
    const found = [];
    for (const doc of docs) {
      if (!docMatches(doc)) continue;
      for (const page of doc.pages) if (pageMatches(doc, page)) found.push([doc, page]);
    }
    return found;
  }

  function renderPageList() {
    const rows = matchingPages();
    const body = $("page-body");
    body.replaceChildren();
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
    state.page = Math.min(state.page, pages - 1);
    for (const [doc, page] of rows.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE)) {
      const open = () => openDocument(doc.index, page.number);
      body.appendChild(el("tr", { className: "row", tabindex: "0", "data-status": page.status,
                                  onclick: open, onkeydown: (e) => { if (e.key === "Enter") open(); } }, [
        el("td", { text: doc.name }), el("td", { className: "num", text: String(page.number) }),
        el("td", {}, [statusLabel(page.status)]), el("td", { text: page.engine || "\u2014" }),
        el("td", { className: "num", text: Number(page.confidence).toFixed(2) }),
        el("td", { text: page.reason || "" }),
      ]));
    }
    $("page-count").textContent = rows.length + " pages";
    pager("page-pager", pages, renderPageList);
  }

  function pager(id, pages, again) {
    const box = $(id);
    box.replaceChildren(
      el("button", { type: "button", text: "Previous",
                     onclick: () => { state.page -= 1; again(); } }),
      el("span", { text: "Page " + (state.page + 1) + " of " + pages }),
      el("button", { type: "button", text: "Next",
                     onclick: () => { if (state.page + 1 < pages) { state.page += 1; again(); } } }));
    if (state.page === 0) box.firstChild.setAttribute("disabled", "");
    else box.firstChild.removeAttribute("disabled");
  }

  function openDocument(index, pageNumber) {
    state.open = index;
    state.openPage = pageNumber;
    renderDetails();
    $("details").scrollIntoView({ block: "start" });
  }

  function renderDetails() {
    const box = $("details");
    box.replaceChildren();
    if (state.open === null) { box.hidden = true; return; }
    box.hidden = false;
    const doc = docs[state.open];
    box.appendChild(el("h2", { id: "details-title", text: doc.name }));
    box.appendChild(el("p", {}, [statusLabel(doc.status || "unknown"),
      document.createTextNode(" \u00b7 " + (doc.mime || doc.type) + " \u00b7 " + doc.page_count + " pages \u00b7 "
                              + Number(doc.seconds || 0).toFixed(2) + " s")]));
    if (doc.errors.length) {
      box.appendChild(el("h3", { text: "Errors" }));
      box.appendChild(el("ul", { className: "errors" }, doc.errors.map((e) => el("li", { text: e.kind + ": " + e.message }))));
    }
    if (doc.warnings.length) {
      box.appendChild(el("h3", { text: "Warnings" }));
      box.appendChild(el("ul", { className: "warnings" }, doc.warnings.map((e) => el("li", { text: e.kind + ": " + e.message }))));
    }
    const shown = doc.pages.filter((p) => pageMatches(doc, p));
    box.appendChild(el("h3", { text: "Pages" + (shown.length !== doc.pages.length ? " (" + shown.length + " of " + doc.pages.length + " match the filters)" : "") }));
    if (!doc.pages.length) box.appendChild(el("p", { className: "muted", text: "No page detail for this document." }));
    const list = el("ul", { className: "thumbs", "aria-label": "Pages of " + doc.name });
    for (const page of shown) {
      const picture = page.thumbnail
        ? el("img", { src: page.thumbnail, alt: "Page " + page.number + " of " + doc.name })
        : el("span", { className: "placeholder", text: "no image (" + (doc.type || "text") + ")" });
      const button = el("button", { type: "button", className: "thumb frame-" + page.status,
                                    "aria-pressed": String(state.openPage === page.number),
                                    "data-page": String(page.number), "data-status": page.status,
                                    onclick: () => { state.openPage = page.number; renderDetails(); } },
        [picture, el("span", { className: "caption" },
          [document.createTextNode("p. " + page.number + " "), statusLabel(page.status)])]);
      list.appendChild(el("li", {}, [button]));
    }
    box.appendChild(list);
    const page = doc.pages.find((p) => p.number === state.openPage);
    if (page) box.appendChild(pageView(doc, page));
  }

  function pageView(doc, page) {
    const attempts = el("table", {}, [
      el("caption", { className: "sr-only", text: "Engines tried on page " + page.number }),
      el("thead", {}, [el("tr", {}, ["Engine", "Version", "Verdict", "Score", "Chars", "Seconds", "Error or reasons"]
        .map((h) => el("th", { scope: "col", text: h })))]),
      el("tbody", {}, page.attempts.map((a) => el("tr", {}, [
        el("td", { text: a.engine }), el("td", { text: a.distribution }), el("td", { text: a.verdict || "\u2014" }),
        el("td", { className: "num", text: Number(a.score).toFixed(2) }), el("td", { className: "num", text: String(a.chars) }),
        el("td", { className: "num", text: Number(a.seconds).toFixed(3) }), el("td", { text: a.error })])))]);
    const info = el("p", {}, [statusLabel(page.status),
      document.createTextNode(" \u00b7 engine " + (page.engine || "none") + " \u00b7 confidence "
                              + Number(page.confidence).toFixed(2)
                              + (page.reason ? " \u00b7 reason " + page.reason : "")
                              + (page.reasons.length ? " \u00b7 " + page.reasons.join(", ") : "")
                              + (page.hidden_chars ? " \u00b7 " + page.hidden_chars
                                 + " characters of its text the document does not show (an OCR"
                                 + " layer drawn invisible over a scan, hidden Word text, or words"
                                 + " its reader does not see)" : ""))]);
    const text = el("pre", { id: "page-text", tabindex: "0", "aria-label": "Text of page " + page.number,
                             text: page.text + (page.text_truncated ? "\n[\u2026 " + page.chars + " characters in all]" : "") });
    const image = page.thumbnail ? el("img", { src: page.thumbnail, alt: "Page " + page.number + " image" }) : null;
    return el("section", { id: "page-detail", "aria-labelledby": "page-detail-title" }, [
      el("h3", { id: "page-detail-title", text: "Page " + page.number }), info,
      el("div", { className: "page-view" }, [el("div", {}, [image || el("p", { className: "muted", text: "No page image." })]),
                                             el("div", {}, [text])]),
      el("h3", { text: "Attempts" }), attempts]);
  }

  function render() {
    const documentsView = state.view === "documents";
    $("documents-view").hidden = !documentsView;
    $("pages-view").hidden = documentsView;
    if (documentsView) renderTable(); else renderPageList();
    if (state.open !== null) renderDetails();
  }

  function bind() {
    const set = (key, value) => { state[key] = value; state.page = 0; render(); };
    $("search").addEventListener("input", (e) => set("search", e.target.value.trim().toLowerCase()));
    $("filter-status").addEventListener("change", (e) => set("status", e.target.value));
    $("filter-engine").addEventListener("change", (e) => set("engine", e.target.value));
    $("filter-type").addEventListener("change", (e) => set("type", e.target.value));
    $("filter-view").addEventListener("change", (e) => set("view", e.target.value));
  }

  renderSummary();
  fillSelect("filter-status", STATUSES);
  fillSelect("filter-engine", Object.keys(DATA.summary.engines).sort());
  fillSelect("filter-type", Object.keys(DATA.summary.file_types).sort());
  bind();
  render();
  document.body.setAttribute("data-ready", "true");
})();
