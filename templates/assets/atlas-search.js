/* Search, in three places that share one engine:

   - the box in every page's header (partials/atlas-search.html): the first results in a panel
     under it, and a link to all of them;
   - the home page's box: its results under itself, in the page (not in the header's panel,
     which would cover the page's buttons);
   - the results page /search/?q=…: every hit, sortable by release, with the header's filters.

   First the names table (generator/search.py: one of atlasData.search.shards small files, the
   one atlas.rules.shard picks for the normalised query) gives the pages a known name points to,
   the "exact match"; then Pagefind's full-text results follow. The query and the filters live in
   the URL (?q=&q-release=&q-backend=&q-section=&q-sort=). Where the index lives comes from
   atlasData.search (generator/browser.py). Text from the index reaches the page through
   textContent only; Pagefind's excerpts are parsed inert and only their text and <mark> survive. */
(function () {
  "use strict";
  const atlas = window.atlas, el = atlas.el, rules = atlas.rules, DATA = window.atlasData.search;
  const FILTERS = { "q-release": "release", "q-backend": "backend", "q-section": "section" };
  const SHOWN = 10;  // in the header's panel and under the home page's box
  const BATCH = 25;  // the results page shows hits as each batch of this many loads

  /* ---- The engine: Pagefind and the names table, loaded once per site root ---- */
  const engines = new Map();

  function engine(base) {
    const key = new URL(DATA.pagefind, base).href;
    if (!engines.has(key)) engines.set(key, makeEngine(base));
    return engines.get(key);
  }

  function makeEngine(base) {
    const shards = new Map();
    let pagefind = null, filterCounts = null;
    function pf() {
      pagefind = pagefind || import(new URL(DATA.pagefind, base).href).then(async function (mod) {
        await mod.options({ excerptLength: 22 });
        mod.init();
        return mod;
      });
      return pagefind;
    }
    function names(key) {
      if (!key) return Promise.resolve([]);
      const part = rules.shard(key, DATA.shards);
      if (!shards.has(part)) {
        shards.set(part, fetch(new URL(DATA.names + part + ".json", base)).then(function (r) { return r.ok ? r.json() : {}; }));
      }
      return shards.get(part).then(function (table) { return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : []; });
    }
    /* The query's hits: the exact matches (the names table; not consulted when a filter is set,
       since its pages carry no release, backend or section), then the full-text results with
       their data loaded for the first `limit` (the rest load with `more`). */
    async function search(q, filters, limit) {
      const filtered = Object.keys(filters).length > 0;
      const mod = await pf();
      const [known, found] = await Promise.all([filtered ? [] : names(rules.normalise(q)), mod.search(q, { filters: filters })]);
      const hits = known.map(function (h) { return { url: new URL(h[0], base).href, title: h[1], line: h[2], exact: true }; });
      const seen = new Set(hits.map(function (h) { return h.url; }));
      const results = found.results;
      let next = 0, repeated = 0;
      async function more(count) {
        const batch = results.slice(next, next + count);
        next += batch.length;
        const data = await Promise.all(batch.map(function (r) { return r.data(); }));
        const out = [];
        for (const d of data) {
          const url = new URL(d.meta.url, base).href;
          if (seen.has(url)) { repeated += 1; continue; }
          seen.add(url);
          out.push({ url: url, title: d.meta.title, excerpt: d.excerpt, release: ((d.filters || {}).release || [])[0] || "" });
        }
        return out;
      }
      hits.push.apply(hits, await more(limit + hits.length));
      return {
        filtered: filtered, exact: known.length > 0, hits: hits, more: more,
        left: function () { return results.length - next; },
        total: function () { return known.length + results.length - repeated; },
      };
    }
    async function filterValues() {
      filterCounts = filterCounts || (await pf()).filters();
      return filterCounts;
    }
    return { search: search, filterValues: filterValues, warm: pf };
  }

  /* ---- Drawing results ---- */
  function excerptNodes(excerpt) {
    const doc = new DOMParser().parseFromString("<p>" + excerpt + "</p>", "text/html");
    return Array.from(doc.body.firstChild.childNodes).map(function (node) {
      return node.nodeName === "MARK" ? el("mark", {}, node.textContent) : document.createTextNode(node.textContent);
    });
  }

  function hitItem(hit, rank) {
    const link = el("a", { href: hit.url, class: "atlas-search__hit" });
    link.append(el("span", { class: "atlas-search__title" }, hit.title));
    const line = el("span", { class: "atlas-search__line" });
    hit.excerpt ? line.append.apply(line, excerptNodes(hit.excerpt)) : (line.textContent = hit.line || "");
    link.append(line);
    const item = el("li", { "data-rank": String(rank) });
    if (hit.release) item.dataset.release = hit.release;
    if (hit.exact) item.dataset.exact = "1";
    item.append(link);
    return item;
  }

  function countText(total) {
    return total === 1 ? "1 result" : total + " results";
  }

  /* The filter selects of a form, filled with the index's values (releases newest first). */
  async function fillFilters(form, eng) {
    if (form.dataset.filled) return;
    form.dataset.filled = "1";
    const counts = await eng.filterValues();
    for (const [param, name] of Object.entries(FILTERS)) {
      const select = form.elements[param];
      const values = Object.keys(counts[name] || {});
      values.sort(name === "release" ? byRelease : undefined);
      if (name === "release") values.reverse();
      const wanted = select.value;
      select.replaceChildren(select.options[0]);  // "any"; a value from the address comes back in order
      for (const value of values) select.append(el("option", { value: value }, value));
      select.value = wanted;
    }
  }

  function byRelease(a, b) {
    const x = a.split(".").map(Number), y = b.split(".").map(Number);
    return x[0] - y[0] || x[1] - y[1] || a.localeCompare(b);
  }

  function chosen(form) {
    const out = {};
    for (const [param, name] of Object.entries(FILTERS)) if (form.elements[param] && form.elements[param].value) out[name] = form.elements[param].value;
    return out;
  }

  /* The results page's address for a query and a form's filters. */
  function resultsUrl(base, q, form) {
    const url = new URL(DATA.page, base);
    url.searchParams.set("q", q);
    for (const param of Object.keys(FILTERS)) if (form.elements[param] && form.elements[param].value) url.searchParams.set(param, form.elements[param].value);
    return url.href;
  }

  /* The query and filters from the address into a form (a filter's value is kept until the
     index's values are listed). */
  function fromUrl(form, box) {
    const params = new URLSearchParams(location.search);
    box.value = params.get("q") || "";
    for (const param of Object.keys(FILTERS)) {
      const value = params.get(param);
      if (!value || !form.elements[param]) continue;
      form.elements[param].append(el("option", { value: value }, value));
      form.elements[param].value = value;
    }
    if (form.elements["q-sort"] && params.get("q-sort")) form.elements["q-sort"].value = params.get("q-sort");
    return box.value.trim();
  }

  function keepInUrl(form, q, extra) {
    const url = new URL(location.href);
    q ? url.searchParams.set("q", q) : url.searchParams.delete("q");
    for (const param of Object.keys(FILTERS).concat(extra || [])) {
      q && form.elements[param] && form.elements[param].value ? url.searchParams.set(param, form.elements[param].value) : url.searchParams.delete(param);
    }
    history.replaceState(history.state, "", url);
  }

  /* Arrow keys move between the box and the result links. */
  function arrowKeys(form, box, list) {
    form.addEventListener("keydown", function (e) {
      const links = Array.from(list.querySelectorAll("a"));
      const at = links.indexOf(document.activeElement);
      if (e.key === "ArrowDown" && links.length) { e.preventDefault(); links[Math.min(at + 1, links.length - 1)].focus(); }
      else if (e.key === "ArrowUp" && links.length && at >= 0) { e.preventDefault(); at === 0 ? box.focus() : links[at - 1].focus(); }
    });
  }

  /* The parts every search box has (the header's, the home page's, /search/'s): its site root,
     its engine, its form and query box, its status line and its list of results (emptied). */
  function searchParts(root) {
    const base = new URL(root.dataset.base, location.href);
    const form = root.querySelector("form");
    const list = root.querySelector(".atlas-search__results");
    list.dataset.query = "";
    return { base: base, eng: engine(base), form: form, box: form.elements.q,
             status: root.querySelector(".atlas-search__status"), list: list };
  }

  /* ---- A box with its first results (the header's, the home page's) ---- */
  function bindBox(root, options) {
    const { base, eng, form, box, status, list } = searchParts(root);
    const all = root.querySelector(".atlas-search__all");
    let sequence = 0;

    async function run() {
      const mine = ++sequence;
      const q = box.value.trim();
      const filters = chosen(form);
      if (!q) {
        if (options.url) keepInUrl(form, "");
        list.replaceChildren();
        list.dataset.query = "";
        status.textContent = "";
        all.hidden = true;
        return;
      }
      options.open(true);
      status.textContent = "Searching…";
      if (Object.keys(filters).length) fillFilters(form, eng);
      const found = await eng.search(q, filters, SHOWN);
      if (mine !== sequence) return;
      const hits = found.hits.slice(0, SHOWN), total = found.total();
      list.replaceChildren.apply(list, hits.map(function (hit, i) { return hitItem(hit, i + 1); }));
      list.dataset.query = q;  // which query the list shows (the browser tests wait for it)
      status.textContent = total ? countText(total) + (total > hits.length ? ", the first " + hits.length + " shown" : "") : "No results";
      if (total && !found.exact && !found.filtered) status.textContent += " · no exact match";
      all.hidden = total <= hits.length;
      all.href = resultsUrl(base, q, form);
      all.textContent = "All " + countText(total) + " →";
      if (options.url) keepInUrl(form, q);  // once the results are in, not on every key (each change of address costs a request)
    }
    let timer = 0;
    // 100 ms: a word typed at an even pace is searched once, not once per letter.
    box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 100); });
    box.addEventListener("focus", function () { if (box.value.trim()) options.open(true); eng.warm(); });
    form.addEventListener("change", function (e) { if (e.target !== box) run(); });
    const filters = root.querySelector(".atlas-search__filters");
    // The filters' values (three small files) load when a reader reaches for one: the pointer
    // comes over them, a finger touches one, or the keyboard gets there.
    if (filters) for (const type of ["pointerenter", "pointerdown", "focusin"]) {
      filters.addEventListener(type, function () { fillFilters(form, eng); });
    }
    arrowKeys(form, box, list);
    return { form: form, box: box, list: list, run: run };
  }

  function initHeader() {
    const root = document.querySelector("[data-atlas-search-root]");
    if (!root || root.dataset.bound) return;
    root.dataset.bound = "1";  // the header outlives instant navigation: bind once
    const panel = root.querySelector(".atlas-search__panel");
    function open(yes) { panel.hidden = !yes; }
    const s = bindBox(root, { open: open, url: true });
    s.form.addEventListener("submit", function (e) {
      e.preventDefault();
      const first = s.list.querySelector("a");
      if (first) first.click(); else s.run();
    });
    s.form.addEventListener("keydown", function (e) { if (e.key === "Escape") { open(false); s.box.blur(); } });
    s.list.addEventListener("click", function (e) { if (e.target.closest("a")) open(false); });
    root.querySelector(".atlas-search__all").addEventListener("click", function () { open(false); });
    document.addEventListener("click", function (e) { if (!root.contains(e.target)) open(false); });
    document.addEventListener("keydown", function (e) {
      const typing = e.target.closest && e.target.closest("input, textarea, select, [contenteditable]");
      if (!typing && (e.key === "/" || e.key === "s") && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        s.box.focus();
      }
    });
    if (document.querySelector("[data-atlas-search-page]")) return;  // the results page reads ?q itself
    if (fromUrl(s.form, s.box)) s.run();
  }

  /* The home page's box: results under it; Enter (or its button) opens the results page. */
  function initHome() {
    document.querySelectorAll("[data-atlas-search-home]").forEach(function (root) {
      if (root.dataset.bound) return;
      root.dataset.bound = "1";
      const out = root.querySelector(".atlas-search__inline");
      bindBox(root, { open: function (yes) { out.hidden = !yes; }, url: false });
    });
  }

  /* ---- /search/?q=…: every hit ---- */
  function initResultsPage() {
    const root = document.querySelector("[data-atlas-search-page]");
    if (!root || root.dataset.bound) return;
    root.dataset.bound = "1";
    const { base, eng, form, box, status, list } = searchParts(root);
    const exact = root.querySelector(".atlas-search__exact");
    let sequence = 0;

    function sortHits(hits) {
      const order = form.elements["q-sort"].value;
      if (!order) return hits;
      const sign = order === "oldest" ? -1 : 1;
      return hits.slice().sort(function (a, b) {  // stable: relevance within a release
        if (a.exact !== b.exact) return a.exact ? -1 : 1;  // the exact match stays first
        if (!a.release !== !b.release) return a.release ? -1 : 1;  // pages without a release last
        return a.release ? sign * byRelease(b.release, a.release) : 0;
      });
    }
    async function run() {
      const mine = ++sequence;
      const q = box.value.trim();
      keepInUrl(form, q, ["q-sort"]);
      list.replaceChildren();
      exact.textContent = "";
      if (!q) { list.dataset.query = ""; status.textContent = "Type what you are looking for."; return; }
      status.textContent = "Searching…";
      const found = await eng.search(q, chosen(form), BATCH);
      if (mine !== sequence) return;
      let hits = found.hits;
      while (found.left() > 0) {  // every hit, drawn as each batch arrives
        list.replaceChildren.apply(list, sortHits(hits).map(function (h, i) { return hitItem(h, i + 1); }));
        status.textContent = "Loading " + countText(found.total()) + "… " + hits.length + " shown";
        hits = hits.concat(await found.more(BATCH * 4));
        if (mine !== sequence) return;
      }
      list.replaceChildren.apply(list, sortHits(hits).map(function (h, i) { return hitItem(h, i + 1); }));
      list.dataset.query = q;  // every hit is listed (the browser tests wait for it)
      status.textContent = hits.length ? countText(hits.length) + " for “" + q + "”" : "No results for “" + q + "”";
      if (!found.filtered && hits.length) {
        exact.textContent = found.exact ? "The first " + (found.hits.filter(function (h) { return h.exact; }).length > 1 ? "results are pages" : "result is the page") + " named “" + q + "”."
          : "No exact match: no page is named “" + q + "”; these pages mention it.";
      }
    }
    fillFilters(form, eng);
    let timer = 0;
    box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 250); });
    form.addEventListener("change", function (e) { if (e.target !== box) run(); });
    form.addEventListener("submit", function (e) { e.preventDefault(); run(); });
    arrowKeys(form, box, list);
    fromUrl(form, box);
    run();
  }

  atlas.onPage(function () { initHeader(); initHome(); initResultsPage(); });
})();
