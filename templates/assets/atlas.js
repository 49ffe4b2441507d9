/* PyTorch Release Atlas: timeline filters and the release comparison.
   Content reaches the page through textContent only, never innerHTML. */
(function () {
  "use strict";

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* ---- /timeline/: filter the static matrix by backend, area and tier ---- */
  function initFilters() {
    document.querySelectorAll("form[data-atlas-filter]").forEach(function (form) {
      const table = document.getElementById(form.dataset.atlasFilter);
      if (!table) return;
      const rows = Array.from(table.querySelectorAll("tbody tr"));
      const params = new URLSearchParams(location.search);
      for (const name of ["backend", "area", "tier"]) {
        if (params.get(name)) form.elements[name].value = params.get(name);
      }
      function apply() {
        const want = { backend: form.elements.backend.value, area: form.elements.area.value, tier: form.elements.tier.value };
        let shown = 0;
        rows.forEach(function (row) {
          const ok = (!want.backend || row.dataset.backends.split(" ").includes(want.backend)) &&
            (!want.area || row.dataset.area === want.area) &&
            (!want.tier || row.dataset.tiers.split(" ").includes(want.tier));
          row.hidden = !ok;
          if (ok) shown += 1;
        });
        form.elements.count.value = shown + " of " + rows.length + " features";
        const url = new URL(location.href);
        for (const [k, v] of Object.entries(want)) v ? url.searchParams.set(k, v) : url.searchParams.delete(k);
        history.replaceState(history.state, "", url);
      }
      form.addEventListener("change", apply);
      form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
      apply();
    });
  }

  /* ---- /compare/: what an upgrade from one release to another brings. A view of the upgrade
     guide's grouping: the same steps (data-steps), the same `group` of every change and entry
     (from the API), the same backend rule, so both pages count the same. ---- */

  /* A from/to/backend form whose choice lives in the URL (so it can be pasted into a wiki).
     run(from, to, backend, releases) is called with the API JSON of every release in (from, to]. */
  function rangeForm(formId, outId, run) {
    const form = document.getElementById(formId);
    const out = document.getElementById(outId);
    if (!form || !out) return;
    const versions = JSON.parse(form.dataset.releases);
    const params = new URLSearchParams(location.search);
    if (versions.includes(params.get("from"))) form.elements.from.value = params.get("from");
    if (versions.includes(params.get("to"))) form.elements.to.value = params.get("to");
    if (params.get("backend") !== null) form.elements.backend.value = params.get("backend");
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      const url = new URL(location.href);
      url.searchParams.set("from", form.elements.from.value);
      url.searchParams.set("to", form.elements.to.value);
      form.elements.backend.value ? url.searchParams.set("backend", form.elements.backend.value) : url.searchParams.delete("backend");
      history.replaceState(history.state, "", url);
      load();
    });
    if (params.get("from") || params.get("to")) load();

    async function load() {
      const from = form.elements.from.value, to = form.elements.to.value, backend = form.elements.backend.value;
      const i = versions.indexOf(from), j = versions.indexOf(to);
      out.replaceChildren();
      if (j <= i) {
        out.append(el("p", { class: "atlas-compare-msg" }, "Pick a 'to' release newer than the 'from' release."));
        return;
      }
      const range = versions.slice(i + 1, j + 1);
      out.append(el("p", { class: "atlas-compare-msg" }, "Loading " + range.length + " releases…"));
      let releases;
      try {
        releases = await Promise.all(range.map(function (v) {
          return fetch(form.dataset.api + "releases/" + v + ".json").then(function (r) {
            if (!r.ok) throw new Error(v + ": HTTP " + r.status);
            return r.json();
          });
        }));
      } catch (err) {
        out.replaceChildren(el("p", { class: "atlas-compare-msg" }, "Could not load release data (" + err.message + ")."));
        return;
      }
      out.replaceChildren();
      run({ form: form, out: out, from: from, to: to, backend: backend, range: range, releases: releases, site: form.dataset.site });
    }
    return form;
  }

  /* generator/enrich.py `applies_to`: a change or entry naming no backend concerns every backend. */
  function forBackend(backends, backend) { return !backend || !backends.length || backends.includes(backend); }

  /* Every change and entry of the releases in range, by upgrade step (generator/enrich.py `guide`). */
  function byStep(q, steps, keep) {
    const out = Object.fromEntries(steps.map(function (s) { return [s[0], []]; }));
    for (const rel of q.releases) {
      const page = q.site + "releases/" + rel.version + "/";
      for (const c of rel.change_list) {
        if (c.group && forBackend(c.backends, q.backend) && keep(c)) out[c.group].push({ rel: rel, page: page, change: c });
      }
      for (const e of rel.entries) {
        if (e.group && forBackend(e.backends, q.backend) && keep(null)) out[e.group].push({ rel: rel, page: page, entry: e });
      }
    }
    return out;
  }

  function initCompare() {
    rangeForm("atlas-compare", "atlas-compare-result", function (q) {
      const STEPS = formTable(q.form, "steps");
      const groups = byStep(q, STEPS, function () { return true; });
      const label = q.backend ? q.form.elements.backend.selectedOptions[0].textContent : "all backends";
      q.out.append(el("p", { class: "atlas-compare-msg" },
        "Upgrading from " + q.from + " to " + q.to + " (" + q.range.join(", ") + "), " + label + "."));
      const noNotes = q.releases.filter(function (r) { return r.changes === 0; }).map(function (r) { return r.version; });
      if (noNotes.length) {
        q.out.append(el("p", { class: "atlas-compare-msg atlas-compare-gap" },
          "No release-note change list is imported for " + noNotes.join(", ") +
          ": for those, only the features their announcements name are listed."));
      }
      for (const [key, title] of STEPS) {
        const items = groups[key];
        const section = el("section", { class: "atlas-compare-group", "data-group": key });
        section.append(el("h2", { id: "compare-" + key }, title + " (" + items.length + ")"));
        if (!items.length) section.append(el("p", {}, "None."));
        const list = el("ul");
        for (const it of items) {
          const li = el("li", { "data-release": it.rel.version });
          li.append(el("span", { class: "atlas-tag" }, it.rel.version), " ");
          if (it.change && it.change.area) li.append(el("span", { class: "atlas-area-name" }, it.change.area + ": "));
          const link = el("a", { href: it.page + "#" + (it.change ? it.change.anchor : it.entry.id) });
          link.append.apply(link, inline(it.change ? plain(it.change.text) : it.entry.title));
          li.append(link);
          list.append(li);
        }
        section.append(list);
        q.out.append(section);
      }
    });
  }

  /* ---- /upgrade/: the upgrade guide, grouped as a reader works through it, filtered to a
     backend and to pasted code. The paste never leaves the page. ---- */
  /* The steps and kinds are the build's (generator.model UPGRADE_GROUPS and CHANGE_KINDS),
     written on the form as data-steps and data-kinds. */
  function formTable(form, key) { return JSON.parse(form.dataset[key] || "[]"); }

  /* What pasted code uses: dotted names with their prefixes and parts, env vars, --flags
     (generator/symbols.py `tokens` is the reference). */
  function pastedTokens(text) {
    const out = new Set();
    for (const m of text.matchAll(/(?<![\w-])--[a-z][a-z0-9-]+/g)) out.add(m[0]);
    for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/g)) {
      const parts = m[0].split(".");
      for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join("."));
      for (const p of parts) out.add(p);
    }
    return out;
  }

  /* generator/symbols.py `matches`: the full name, or a distinctive last part. */
  function usesAny(symbols, tokens) {
    return symbols.some(function (s) {
      if (tokens.has(s)) return true;
      const last = s.split(".").pop();
      return s.includes(".") && (last.includes("_") || last.length >= 8) && tokens.has(last);
    });
  }

  function initUpgrade() {
    const form = rangeForm("atlas-upgrade", "atlas-upgrade-result", function (q) {
      const STEPS = formTable(q.form, "steps"), KINDS = formTable(q.form, "kinds");
      const code = q.form.elements.code.value.trim();
      const tokens = code ? pastedTokens(code) : null;
      let dropped = 0;
      const found = byStep(q, STEPS, function (c) {
        if (!tokens) return true;
        if (!c) return false;  // new features and announced entries name no code of yours
        if (usesAny(c.symbols, tokens)) return true;
        dropped++;
        return false;
      });
      const steps = {};
      for (const [key, items] of Object.entries(found)) {
        steps[key] = items.map(function (it) {
          const c = it.change, e = it.entry, rel = it.rel;
          if (e) return { release: rel.version, href: it.page + "#" + e.id, text: e.title, kind: null, prs: e.prs, prUrls: e.pr_urls,
            label: CHANGE_LABEL[e.change] || e.change, removal: e.removal };
          return { release: rel.version, href: it.page + "#" + c.anchor, text: plain(c.text).concat(
            c.text.split("\n").length > 1 ? " " + plain(c.text.split("\n").slice(1).join(" ")) : ""),
            area: c.area, kind: c.kind, note: c.note, restore: c.restore, removal: c.removal,
            workaround: c.workaround, prs: c.prs, prUrls: c.pr_urls, issues: c.issues, issueUrls: c.issue_urls };
        });
      }
      const label = q.backend ? q.form.elements.backend.selectedOptions[0].textContent : "any backend";
      const counts = STEPS.map(function (s) { return steps[s[0]].length + " " + s[1].toLowerCase(); }).join(" · ");
      const breaks = ["breaking", "removals", "defaults"].reduce(function (n, k) { return n + (steps[k] || []).length; }, 0);
      q.out.append(el("p", { class: "atlas-compare-msg atlas-upgrade-headline" }, breaks + (breaks === 1 ? " change" : " changes") +
        " can break your code (breaking changes, removals, default and behaviour changes)."));
      q.out.append(el("p", { class: "atlas-compare-msg" }, "From " + q.from + " to " + q.to + " on " + label + ": " + counts + "."));
      if (tokens) q.out.append(el("p", { class: "atlas-compare-msg" },
        "Kept the changes that name something your pasted text uses; " + dropped + " others left out."));
      const missing = q.releases.filter(function (r) { return r.changes === 0; }).map(function (r) { return r.version; });
      if (missing.length) q.out.append(el("p", { class: "atlas-compare-msg atlas-compare-gap" },
        "No release-note change list is at hand for " + missing.join(", ") + ": only their announced features are listed."));
      for (const [key, title] of STEPS) {
        const items = steps[key];
        const order = q.range;  // by release, then area (stable: notes order within an area)
        items.sort(function (a, b) { return order.indexOf(a.release) - order.indexOf(b.release) || (a.area || "").localeCompare(b.area || ""); });
        const section = el("section", { class: "atlas-compare-group", "data-group": key });
        section.append(el("h2", { id: "upgrade-" + key }, title + " (" + items.length + ")"));
        document.querySelectorAll('.md-nav--secondary a[href$="#upgrade-' + key + '"]').forEach(function (a) { (a.querySelector(".md-ellipsis") || a).textContent = title + " (" + items.length + ")"; });
        const list = el("ul");
        let area = null, release = null;
        for (const it of items) {
          if (it.release !== release) area = null;
          release = it.release;
          const li = el("li", { "data-release": it.release, class: "atlas-upgrade-item" });
          li.append(el("span", { class: "atlas-tag" }, it.release), " ");
          if (it.kind) li.append(el("span", { class: "atlas-tag atlas-kind" }, KINDS[it.kind] || it.kind), " ");
          if (it.label) li.append(el("span", { class: "atlas-tag" }, it.label), " ");
          if (it.area && it.area !== area) li.append(el("span", { class: "atlas-area-name" }, it.area + ": "));
          area = it.area;
          const link = el("a", { href: it.href });
          link.append.apply(link, inline(it.text));
          li.append(link);
          if (it.note) { li.append(el("br")); li.append(el("strong", {}, key === "known-issues" ? "What fails: " : "What to do: ")); li.append.apply(li, inline(it.note)); }
          if (it.workaround) { li.append(" "); li.append(el("strong", {}, "Workaround: ")); li.append.apply(li, inline(it.workaround)); }
          (it.issues || []).forEach(function (n, k) { li.append(" "); li.append(el("a", { href: it.issueUrls[k] }, "issue #" + n)); });
          if (it.restore) { li.append(" "); li.append(el("strong", {}, "Old behaviour back: ")); li.append(el("code", {}, it.restore)); }
          if (it.removal) { li.append(" "); li.append(el("strong", {}, "Removal planned in " + it.removal + ".")); }
          (it.prs || []).forEach(function (pr, k) { li.append(" "); li.append(el("a", { href: it.prUrls[k] }, "PR #" + pr)); });
          list.append(li);
        }
        section.append(items.length ? list : el("p", {}, "None."));
        q.out.append(section);
      }
    });
    let timer = null;
    if (form) form.elements.code.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { form.requestSubmit(); }, 250);
    });
  }

  /* First line of a release-note entry: no heading marks, bullets or links (inline() renders the rest). */
  function plain(text) {
    return text.trim().split("\n")[0].replace(/^#+\s*/, "").replace(/^[-*]\s+/, "")
      .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1").replace(/\s*_\(from miscategorized\)_/g, "");  // textfilters._EDITORS
  }

  /* Inline Markdown as DOM nodes, never HTML: `code`, **strong**, *em*; links keep their text
     (generator/textfilters.py `rich` renders the same marks on the pages). */
  function inline(text) {
    const out = [];
    const re = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\([^)]*\)/g;
    let at = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > at) out.push(document.createTextNode(text.slice(at, m.index)));
      if (m[1] !== undefined) out.push(el("code", {}, m[1]));
      else if (m[2] !== undefined) out.push(el("strong", {}, m[2]));
      else if (m[3] !== undefined) out.push(el("em", {}, m[3]));
      else out.push(document.createTextNode(m[4]));
      at = re.lastIndex;
    }
    if (at < text.length) out.push(document.createTextNode(text.slice(at)));
    return out;
  }

  const CHANGE_LABEL = { new: "New", promoted: "Promoted", deprecated: "Deprecated", removed: "Removed" };

  /* ---- Wide Markdown tables: Material wraps each in a sideways-scrolling box, which keyboard
     users can scroll only if it takes focus (WCAG 2.1.1; axe scrollable-region-focusable). ---- */
  function initScrollwraps() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrap) {
      if (wrap.scrollWidth <= wrap.clientWidth) {
        if (wrap.dataset.atlasFocusable) {
          for (const name of ["tabindex", "role", "aria-label", "data-atlas-focusable"]) wrap.removeAttribute(name);
        }
        return;
      }
      if (wrap.hasAttribute("tabindex")) return;
      let heading = wrap.previousElementSibling;
      while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
      const title = heading ? heading.textContent.replace(/\u00b6$/, "").trim() : "";
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", (title ? title + ": " : "") + "table, scrolls sideways");
      wrap.dataset.atlasFocusable = "1";
    });
  }
  window.addEventListener("resize", initScrollwraps);

  /* ---- Matrices open on the newest releases: the newest column is the one readers want. ---- */
  function initMatrices() {
    document.querySelectorAll(".atlas-matrix-wrap").forEach(function (wrap) {
      wrap.scrollLeft = wrap.scrollWidth;
    });
  }

  /* ---- Search: the box in the header (partials/atlas-search.html). First the names table
     (generator/search.py: one of 1,024 small files, chosen by a hash of what was typed) gives the
     page a known name points to; then Pagefind's full-text results follow. The query and the
     filters live in the URL (?q=&q-release=&q-backend=&q-section=). Text from the index reaches
     the page through textContent only; Pagefind's excerpts are parsed inert and only their text
     and <mark> survive. ---- */
  const FILTERS = { "q-release": "release", "q-backend": "backend", "q-section": "section" };
  const SHOWN = 10;

  function normalise(query) {  // generator/search.py normalise(), the same steps
    let out = query.toLowerCase().split(/\s+/).filter(Boolean).join(" ").replace(/^[`'" ]+|[`'" ]+$/g, "");
    if (out.endsWith("()")) out = out.slice(0, -2);
    out = out.replace(/^#+/, "").trim();
    return out.replace(/^(?:pr|pull|pull request)\s*#?\s*(?=\d+$)/, "");
  }

  function shard(key) {  // generator/search.py shard(): FNV-1a of the UTF-8 bytes, low 10 bits
    let h = 0x811c9dc5;
    for (const byte of new TextEncoder().encode(key)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
    return (h & 0x3ff).toString(16).padStart(3, "0");
  }

  function excerptNodes(excerpt) {
    const doc = new DOMParser().parseFromString("<p>" + excerpt + "</p>", "text/html");
    return Array.from(doc.body.firstChild.childNodes).map(function (node) {
      return node.nodeName === "MARK" ? el("mark", {}, node.textContent) : document.createTextNode(node.textContent);
    });
  }

  function initSearch() {
    const root = document.querySelector("[data-atlas-search-root]");
    if (!root || root.dataset.bound) return;
    root.dataset.bound = "1";  // the header outlives instant navigation: bind once
    const base = new URL(root.dataset.base, location.href);
    const form = root.querySelector("form");
    const box = form.elements.q;
    const panel = root.querySelector(".atlas-search__panel");
    const status = root.querySelector(".atlas-search__status");
    const list = root.querySelector(".atlas-search__results");
    list.dataset.query = "";
    const shards = new Map();
    let engine = null, filled = false, sequence = 0;

    function pagefind() {
      engine = engine || import(new URL("pagefind/pagefind.js", base).href).then(async function (pf) {
        await pf.options({ excerptLength: 22 });
        pf.init();
        return pf;
      });
      return engine;
    }
    function names(key) {
      const part = shard(key);
      if (!shards.has(part)) {
        shards.set(part, fetch(new URL("search-names/" + part + ".json", base)).then(function (r) { return r.ok ? r.json() : {}; }));
      }
      return shards.get(part).then(function (table) { return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : []; });
    }
    async function fillFilters(pf) {
      if (filled) return;
      filled = true;
      const counts = await pf.filters();
      for (const [param, name] of Object.entries(FILTERS)) {
        const select = form.elements[param];
        const values = Object.keys(counts[name] || {});
        values.sort(name === "release" ? function (a, b) { return a.split(".")[1] - b.split(".")[1] || a.localeCompare(b); } : undefined);
        if (name === "release") values.reverse();
        const wanted = select.value;
        select.replaceChildren(select.options[0]);  // "any"; a value from the address comes back in order
        for (const value of values) select.append(el("option", { value: value }, value));
        select.value = wanted;
      }
    }
    function chosen() {
      const out = {};
      for (const [param, name] of Object.entries(FILTERS)) if (form.elements[param].value) out[name] = form.elements[param].value;
      return out;
    }
    function keepInUrl() {
      const url = new URL(location.href);
      const q = box.value.trim();
      q ? url.searchParams.set("q", q) : url.searchParams.delete("q");
      for (const param of Object.keys(FILTERS)) {
        q && form.elements[param].value ? url.searchParams.set(param, form.elements[param].value) : url.searchParams.delete(param);
      }
      history.replaceState(history.state, "", url);
    }
    function open(yes) {
      panel.hidden = !yes;
    }
    function show(q, hits, total) {
      list.replaceChildren();
      list.dataset.query = q;  // which query the list shows (the browser tests wait for it)
      hits.forEach(function (hit, i) {
        const link = el("a", { href: hit.url, class: "atlas-search__hit" });
        link.append(el("span", { class: "atlas-search__title" }, hit.title));
        const line = el("span", { class: "atlas-search__line" });
        hit.excerpt ? line.append.apply(line, excerptNodes(hit.excerpt)) : (line.textContent = hit.line || "");
        link.append(line);
        const item = el("li", { "data-rank": String(i + 1) });
        item.append(link);
        list.append(item);
      });
      status.textContent = total ? (total === 1 ? "1 result" : total + " results") + (total > hits.length ? ", the first " + hits.length + " shown" : "") : "No results";
    }
    async function run() {
      const mine = ++sequence;
      const q = box.value.trim();
      const filters = chosen();
      if (!q) {
        keepInUrl();
        list.replaceChildren();
        list.dataset.query = "";
        status.textContent = "";
        return;
      }
      open(true);
      status.textContent = "Searching…";
      const pf = await pagefind();
      if (Object.keys(filters).length) fillFilters(pf);
      const [known, found] = await Promise.all([
        Object.keys(filters).length ? [] : names(normalise(q)),
        pf.search(q, { filters: filters }),
      ]);
      if (mine !== sequence) return;
      const hits = known.map(function (h) { return { url: new URL(h[0], base).href, title: h[1], line: h[2] }; });
      const seen = new Set(hits.map(function (h) { return h.url; }));
      const more = await Promise.all(found.results.slice(0, SHOWN + hits.length).map(function (r) { return r.data(); }));
      if (mine !== sequence) return;
      let repeated = 0;
      for (const data of more) {
        const url = new URL(data.meta.url, base).href;
        if (seen.has(url)) { repeated += 1; continue; }
        seen.add(url);
        hits.push({ url: url, title: data.meta.title, excerpt: data.excerpt });
      }
      show(q, hits.slice(0, SHOWN), known.length + found.results.length - repeated);
      keepInUrl();  // once the results are in, not on every key (each change of address costs a request)
    }
    let timer = 0;
    // 100 ms: a word typed at an even pace is searched once, not once per letter.
    box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 100); });
    // The filters' values (three small files) load when a reader reaches for one: the pointer
    // comes over them, a finger touches one, or the keyboard gets there.
    for (const type of ["pointerenter", "pointerdown", "focusin"]) {
      panel.querySelector(".atlas-search__filters").addEventListener(type, function () { pagefind().then(fillFilters); });
    }
    box.addEventListener("focus", function () { if (box.value.trim()) open(true); pagefind(); });
    form.addEventListener("change", function (e) { if (e.target !== box) run(); });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      const first = list.querySelector("a");
      if (first) first.click(); else run();
    });
    form.addEventListener("keydown", function (e) {
      const links = Array.from(list.querySelectorAll("a"));
      const at = links.indexOf(document.activeElement);
      if (e.key === "Escape") { open(false); box.blur(); }
      else if (e.key === "ArrowDown" && links.length) { e.preventDefault(); links[Math.min(at + 1, links.length - 1)].focus(); }
      else if (e.key === "ArrowUp" && links.length) { e.preventDefault(); at <= 0 ? box.focus() : links[at - 1].focus(); }
    });
    list.addEventListener("click", function (e) { if (e.target.closest("a")) open(false); });
    document.addEventListener("click", function (e) { if (!root.contains(e.target)) open(false); });
    document.addEventListener("keydown", function (e) {
      const typing = e.target.closest && e.target.closest("input, textarea, select, [contenteditable]");
      if (!typing && (e.key === "/" || e.key === "s") && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        box.focus();
      }
    });
    const params = new URLSearchParams(location.search);
    if (params.get("q")) {
      box.value = params.get("q");
      for (const param of Object.keys(FILTERS)) {
        const value = params.get(param);
        if (!value) continue;
        form.elements[param].append(el("option", { value: value }, value));  // until fillFilters lists them all
        form.elements[param].value = value;
      }
      run();
    }
  }

  /* ---- Home: the search box in the page hands its words to the search in the header ---- */
  function initHomeSearch() {
    document.querySelectorAll("form[data-atlas-search]").forEach(function (form) {
      const box = form.elements.q;
      function handOver(event) {
        const header = document.getElementById("atlas-q");
        if (!header) return;
        if (event.type === "submit") event.preventDefault();
        header.value = box.value;
        box.value = "";
        header.focus();
        header.dispatchEvent(new Event("input", { bubbles: true }));
      }
      form.addEventListener("submit", handOver);
      box.addEventListener("input", handOver);
    });
  }

  function init() { initSearch(); initFilters(); initCompare(); initUpgrade(); initScrollwraps(); initMatrices(); initHomeSearch(); }
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);  // Material's instant navigation swaps pages without reloading
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
