/* Search, in three places that share one engine:

   - the box in every page's header (partials/atlas-search.html): the first results in a panel
     under it, and a link to all of them;
   - the home page's box: its results under itself, in the page (not in the header's panel,
     which would cover the page's buttons);
   - the results page /search/?q=…: every hit, sortable by release, with the header's filters.

   First the names table (generator/search/records.py: one of atlasData.search.shards small files, the
   one atlas.rules.shard picks for the normalised query) gives the pages a known name points to,
   the "exact match"; then the full-text results follow. The query and the filters live in
   the URL (?q=&q-release=&q-backend=&q-section=&q-sort=). Where the index lives comes from
   atlasData.search (generator/render/browser.py). Text from the index reaches the page through
   textContent only; the full-text excerpts are parsed inert and only their text and <mark> survive. */
(function () {
  "use strict";
  const atlas = window.atlas, el = atlas.el, rules = atlas.rules, DATA = window.atlasData.search;
  const FILTERS = { "q-release": "release", "q-backend": "backend", "q-section": "section" };
  const SHOWN = 10;  // in the header's panel and under the home page's box
  const BATCH = 25;  // the results page shows hits as each batch of this many loads

  /* ---- The engine: the full-text index (atlas-fulltext.js) and the names table, loaded once per site root ---- */
  const engines = new Map();

  function engine(base) {
    const key = new URL(DATA.index, base).href;
    if (!engines.has(key)) engines.set(key, makeEngine(base));
    return engines.get(key);
  }

  function makeEngine(base) {
    const shards = new Map();
    let fulltext = null, filterCounts = null;
    function pf() {
      fulltext = fulltext || import(new URL(DATA.engine, base).href).then(async function (mod) {
        await mod.options({ excerptLength: 22, index: new URL(DATA.index, base).href });
        mod.init();
        return mod;
      });
      return fulltext;
    }
    function names(key) {
      if (!key) return Promise.resolve([]);
      const part = rules.shard(key, DATA.shards);
      if (!shards.has(part)) {
        shards.set(part, fetch(new URL(DATA.names + part + ".json", base)).then(function (r) { return r.ok ? r.json() : {}; }));
      }
      return shards.get(part).then(function (table) { return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : []; });
    }
    /* The names table's hits for a text query, else for the first of its other forms that
       names something (rules.nameForms: "CUDA graphs" is "cuda graph", then "cudagraph");
       [hits, the form found]. */
    async function namesOrForms(key, kind) {
      const hits = await names(key);
      if (hits.length || kind !== "text") return [hits, ""];
      for (const form of rules.nameForms(key)) {
        const found = await names(form);
        if (found.length) return [found, form];
      }
      return [[], ""];
    }
    /* A pasted call's hits (rules.pastedCall): the changes naming an argument it passes, those
       whose line names the callee too first ("profile(use_cuda=True)": the removal of use_cuda
       from torch.profiler.profile). */
    async function callHits(call) {
      const found = (await Promise.all(call[1].slice(0, 8).map(function (a) { return names(a.toLowerCase()); }))).flat();
      const callee = new RegExp("(^|[^A-Za-z0-9_])" + call[0] + "(?![A-Za-z0-9_])");
      const about = function (h) { return callee.test(h[2] || ""); };
      return found.filter(about).concat(found.filter(function (h) { return !about(h); }));
    }
    let symptomList = null;
    /* The changes whose error or warning text (`symptom:`) the query shows: a pasted message or
       traceback, or a part of one (generator/search/records.py symptoms). */
    async function causes(q) {
      symptomList = symptomList || fetch(new URL(DATA.symptoms, base)).then(function (r) { return r.ok ? r.json() : []; });
      const list = await symptomList;
      return list.filter(function (s) { return rules.symptomMatches(s.message, q); }).map(function (s) {
        return { url: new URL(s.url, base).href, title: s.title, line: "Causes “" + s.message + "”. " + s.todo, exact: true, cause: true, path: s.url, message: s.message, todo: s.todo, text: s.line };
      });
    }
    /* The full-text results for the words of a query no page holds all of: the pages holding all
       but one word (each word left out in turn), or, failing that, the code-like names of a
       pasted message one by one; a page first by the sum of its scores in these searches
       (its own weighing of titles, word rarity and record length), so a page found by more of
       them, or by a rarer word or in its title, leads. */
    async function partial(mod, q, filters) {
      const words = Array.from(new Set(q.split(/\s+/).filter(Boolean)));
      if (words.length < 2) return null;
      let tries = words.length <= 6 ? words.map(function (_, i) { return words.filter(function (__, j) { return j !== i; }).join(" "); }) : [];
      const named = Array.from(rules.pastedTokens(q)).filter(function (t) { return /[._]/.test(t.replace(/^_+/, "")) || /(Error|Warning)$/.test(t); });
      for (let round = 0; round < 2; round++) {
        const scores = new Map();
        const found = await Promise.all(tries.map(function (t) { return mod.search(t, { filters: filters }); }));
        found.forEach(function (f) {
          f.results.slice(0, 30).forEach(function (r) {
            const seen = scores.get(r.id) || { result: r, score: 0 };
            seen.score += r.score;
            scores.set(r.id, seen);
          });
        });
        if (scores.size) return { results: Array.from(scores.values()).sort(function (a, b) { return b.score - a.score; }).map(function (x) { return x.result; }) };
        tries = named.slice(0, 8);
      }
      return null;
    }
    /* A query of words and a dotted name (`torch.cat empty`) that no page holds as typed:
       The full-text search of the name's parts as words, the pages naming it first (its parts in
       order, joined by punctuation and at most one word: "torch.[con]cat[enate]" names
       torch.cat), then the rest in the index's order; null when no page holds them all. */
    async function withName(mod, q, filters, preloaded) {
      const tokens = q.split(/\s+/).filter(Boolean);
      const dotted = tokens.filter(function (t) { return /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(t); });
      if (!dotted.length || dotted.length === tokens.length) return null;
      const found = await mod.search(tokens.map(function (t) { return t.replace(/\./g, " "); }).join(" "), { filters: filters });
      if (!found.results.length) return null;
      const naming = dotted.map(function (t) {
        return new RegExp("(^|[^A-Za-z0-9_.])" + t.split(".").join("[^A-Za-z0-9_\\s]+(?:[A-Za-z0-9_]+[^A-Za-z0-9_\\s]+)?") + "(?![A-Za-z0-9_])", "i");
      });
      const first = found.results.slice(0, 50);
      const data = await Promise.all(first.map(function (r) { return r.data(); }));
      first.forEach(function (r, i) { preloaded.set(r, data[i]); });
      const names = first.filter(function (r, i) { return naming.every(function (n) { return n.test(data[i].content || ""); }); });
      const rest = found.results.filter(function (r) { return names.indexOf(r) < 0; });
      return { results: names.concat(rest), naming: names.length ? dotted : [] };
    }
    /* The words of a query a hit must hold as written (at the start of a word: "optimizer" is in
       "optimizers", not in "optimization", which a search by stems and word starts may match): those of
       letters, of a query of two to six words (a longer one is a pasted message). */
    function plainWords(q) {
      const words = Array.from(new Set(q.toLowerCase().split(/\s+/).filter(Boolean)));
      return words.length >= 2 && words.length <= 6 && words.every(function (w) { return /^[a-z]{2,}$/.test(w); }) ? words : [];
    }
    function holdsWords(content, words) {
      const text = content.toLowerCase();
      return words.every(function (w) { return new RegExp("(^|[^a-z0-9])" + w).test(text); });
    }
    /* The names table's hits with those whose line writes the query as typed ahead of those
       writing it in another case (USE_CUDA and use_cuda share a key); the others keep their places. */
    function asTyped(hits, q) {
      const typed = q.trim().replace(/^[`'"]+|[`'"]+$/g, ""), lower = typed.toLowerCase();
      const slots = [];
      hits.forEach(function (h, i) { if (lower && (h[2] || "").toLowerCase().includes(lower)) slots.push(i); });
      const order = slots.map(function (i) { return hits[i]; });
      order.sort(function (a, b) { return (b[2].includes(typed) ? 1 : 0) - (a[2].includes(typed) ? 1 : 0); });
      const out = hits.slice();
      slots.forEach(function (i, k) { out[i] = order[k]; });
      return out;
    }
    /* A full-text hit contains the query as written (a version "13.2.2" is not "13.2" or #1322xx). */
    function holds(content, key) {
      const at = content.toLowerCase().indexOf(key);
      return at >= 0;
    }
    function versionIn(content, key) {
      const escaped = key.replace(/[.]/g, "\\.");
      return new RegExp("(^|[^0-9A-Za-z.])" + escaped + "(?![0-9A-Za-z]|\\.[0-9])").test(content.toLowerCase());
    }
    /* The query's hits: the changes whose error text it shows, the exact matches (the names
       table; neither consulted when a filter is set, since their pages carry no release, backend
       or section), then the full-text results with their data loaded for the first `limit` (the
       rest load with `more`). A number is found exactly or not at all; a version only where it is
       written whole; a query no page holds every word of, or whose first hits hold a word only
       through its stem (`plainWords`), gets the pages holding most of them (`partial`). */
    async function search(q, filters, limit) {
      const filtered = Object.keys(filters).length > 0;
      const key = rules.normalise(q), kind = rules.queryKind(key);
      const call = kind === "text" ? rules.pastedCall(q) : null;
      const mod = await pf();
      const [caused, [named0, form]] = await Promise.all([
        filtered ? [] : causes(q),
        filtered ? [[], ""] : call ? callHits(call).then(function (h) { return [h, ""]; }) : namesOrForms(key, kind),
      ]);
      const known = asTyped(named0, q);
      const asked = call ? [call[0]].concat(call[1]).join(" ") : q;  // a call's callee and arguments, as words
      let found = kind === "number" ? { results: [] } : await mod.search(asked, { filters: filters });
      let partly = false, naming = [];
      const preloaded = new Map();
      let stemmed = false;  // the first hits hold the query's words only through their stems
      const words = kind === "text" ? plainWords(q) : [];
      if (words.length && found.results.length) {
        const first = found.results.slice(0, limit);
        const data = await Promise.all(first.map(function (r) { return r.data(); }));
        first.forEach(function (r, i) { preloaded.set(r, data[i]); });
        stemmed = !data.some(function (d) { return holdsWords(d.content || "", words); });
      }
      const spelled = kind === "text" && !found.results.length ? await withName(mod, q, filters, preloaded) : null;
      if (spelled) { found = spelled; naming = spelled.naming; }
      else if (kind === "text" && (!found.results.length || stemmed)) {
        const most = await partial(mod, q, filters);
        if (most) { found = most; partly = true; }
      }
      let results = found.results;
      if (kind === "version") {  // only the pages that write it whole; the first 100 the index finds
        const data = await Promise.all(results.slice(0, 100).map(function (r) { return r.data(); }));
        results = results.slice(0, 100).filter(function (r, i) { preloaded.set(r, data[i]); return versionIn(data[i].content || "", key.replace(/^v/, "")); });
      }
      let named = [];
      if (partly && !filtered) {  // the names its code-like words are (torch.cat of "torch.cat empty")
        const tokens = Array.from(new Set(q.split(/\s+/).map(rules.normalise))).filter(function (t) { return /[._]/.test(t); });
        named = (await Promise.all(tokens.slice(0, 8).map(names))).flat().map(function (h) { return { url: new URL(h[0], base).href, title: h[1], line: h[2], partial: true }; });
      }
      const hits = caused.concat(known.map(function (h) { return { url: new URL(h[0], base).href, title: h[1], line: h[2], exact: true }; }), named);
      const seen = new Set();
      const first = hits.filter(function (h) { if (seen.has(h.url)) return false; seen.add(h.url); return true; });
      hits.length = 0;
      hits.push.apply(hits, first);
      let next = 0, repeated = 0, verbatim = false;
      async function more(count) {
        const batch = results.slice(next, next + count);
        next += batch.length;
        const data = await Promise.all(batch.map(function (r) { return preloaded.get(r) || r.data(); }));
        const out = [];
        for (const d of data) {
          const url = new URL(d.meta.url, base).href;
          if (seen.has(url)) { repeated += 1; continue; }
          seen.add(url);
          const contains = holds(d.content || "", key);
          verbatim = verbatim || contains;
          out.push({ url: url, title: d.meta.title, excerpt: d.excerpt, content: d.content || "", release: ((d.filters || {}).release || [])[0] || "", partial: partly, verbatim: contains });
        }
        return out;
      }
      hits.push.apply(hits, await more(limit + hits.length));
      return {
        filtered: filtered, exact: known.length > 0, cause: caused.length > 0, hits: hits, more: more,
        partial: partly, kind: kind, key: key, form: form, call: known.length ? call : null, naming: naming,
        verbatim: function () { return verbatim; },
        left: function () { return results.length - next; },
        total: function () { return first.length + results.length - repeated; },
      };
    }
    async function filterValues() {
      filterCounts = filterCounts || (await pf()).filters();
      return filterCounts;
    }
    return { search: search, causes: causes, filterValues: filterValues, warm: pf };
  }

  /* ---- Drawing results ---- */
  function excerptNodes(excerpt) {
    const doc = new DOMParser().parseFromString("<p>" + excerpt + "</p>", "text/html");
    return Array.from(doc.body.firstChild.childNodes).map(function (node) {
      return node.nodeName === "MARK" ? el("mark", {}, node.textContent) : document.createTextNode(node.textContent);
    });
  }

  /* An excerpt's nodes without the title it may start with (a page's record opens with its
     title, which the hit shows above it), ending at a word with "…" where the excerpt cut it. */
  function trimmed(nodes, title, content) {
    const text = nodes.map(function (n) { return n.textContent; }).join("");
    const t = (title || "").trim().toLowerCase();
    // The title, as often as the excerpt opens with it (a page's heading, then its description
    // that starts with its name), and the punctuation after it.
    let drop = 0;
    for (let k = 0; k < 3 && t; k++) {
      const rest = text.slice(drop), lead = rest.length - rest.replace(/^[\s:·.,-]+/, "").length;
      if (!rest.slice(lead).toLowerCase().startsWith(t)) { drop += k ? lead : 0; break; }
      drop += lead + t.length;
    }
    const out = [];
    let left = drop, cut = drop > 0;
    for (const node of nodes) {
      const len = node.textContent.length;
      if (left >= len) { left -= len; continue; }
      if (cut) {
        node.textContent = node.textContent.slice(left).replace(/^[\s:·.,-]+/, "");
        cut = false;
        left = 0;
        if (!node.textContent) continue;
      }
      out.push(node);
    }
    if (!out.length) return nodes;
    const last = out[out.length - 1], all = out.map(function (n) { return n.textContent; }).join("").trim();
    const ends = content ? content.trim().endsWith(all.slice(-20)) : false;
    if (!/[.!?…)]$/.test(all) && !ends) out.push(document.createTextNode(" …"));
    if (last.nodeType === 3) last.textContent = last.textContent.replace(/\s+$/, "");
    return out;
  }

  /* A page's description without the title it starts with ("nccl2 backend: API-Unstable …"). */
  function untitled(text, title) {
    const t = (title || "").trim().toLowerCase();
    const rest = t && text.toLowerCase().startsWith(t) ? text.slice(t.length).replace(/^[\s:·.,-]+/, "") : "";
    return rest || text;
  }

  function hitItem(hit, rank) {
    const link = el("a", { href: hit.url, class: "atlas-search__hit" });
    link.append(el("span", { class: "atlas-search__title" }, hit.title));
    const line = el("span", { class: "atlas-search__line" });
    hit.excerpt ? line.append.apply(line, trimmed(excerptNodes(hit.excerpt), hit.title, hit.content)) : (line.textContent = untitled(hit.line || "", hit.title));
    link.append(line);
    const item = el("li", { "data-rank": String(rank) });
    if (hit.release) item.dataset.release = hit.release;
    if (hit.exact) item.dataset.exact = "1";
    if (hit.cause) item.dataset.cause = "1";
    if (hit.partial) item.dataset.partial = "1";
    item.append(link);
    return item;
  }

  /* What the status line says beside the count: the query is a pasted error's cause, a number
     the Atlas lacks, an unknown name, a query no page holds every word of, or one no page names
     (said only when no hit holds it as written either). Returns [text, link or null]. */
  function remark(found, q) {
    if (found.cause) return ["the first result is the change that causes this message", null];
    if (found.kind === "number" && !found.hits.length) {
      const n = found.key;
      return ["PR or issue #" + n + " is not in the Atlas's change lists", el("a", { href: DATA.pr.replace("{}", n) }, "#" + n + " on GitHub")];
    }
    if (found.call && !found.filtered) return ["the first results name " + found.call[1].join(", ") + ", what this call passes to " + found.call[0], null];
    if (found.form && !found.filtered) return ["exact match for “" + found.form + "”", null];
    if (found.filtered || found.exact) return ["", null];
    if (found.kind === "version" && !found.hits.length) return ["no page of the Atlas writes " + found.key + " whole", null];
    const name = /^(torch\.)?[a-z_][a-z0-9_]*(\.[a-z0-9_]+)*$/.test(found.key) && /[._]/.test(found.key);
    if (!found.exact && !found.verbatim() && name) return ["the Atlas has no change naming “" + q.trim() + "”" + (found.hits.length ? "; these are near spellings" : ""), null];
    if (found.naming.length) return ["the pages naming " + found.naming.join(" and ") + " come first", null];
    if (found.partial) return ["no page holds every word; these hold most of them", null];
    if (!found.exact && !found.verbatim() && found.hits.length) return ["no exact match", null];
    return ["", null];
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
      const [said, link] = remark(found, q);
      if (said) status.append(" · " + said);
      if (link) status.append(": ", link);
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
    root.dataset.bound = "1";  // the header outlives a swapped-in page (live preview): bind once
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
      exact.textContent = "";
      const [said, link] = remark(found, q);
      if (found.cause) exact.textContent = "The first result is the change that causes this message.";
      else if (link) exact.replaceChildren(said[0].toUpperCase() + said.slice(1) + ": ", link);
      else if (!found.filtered && hits.length) {
        exact.textContent = found.exact ? "The first " + (found.hits.filter(function (h) { return h.exact; }).length > 1 ? "results are pages" : "result is the page") + " named “" + q + "”."
          : said === "no exact match" ? "No exact match: no page is named “" + q + "”, and none writes it as typed; these pages come closest."
          : said ? said[0].toUpperCase() + said.slice(1) + "." : "No page is named “" + q + "”; these pages mention it.";
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

  /* The changes whose error text a pasted message shows, for the upgrade guide's paste box
     (whatever range it shows): [{url, title, text, message, todo}]. */
  atlas.causes = function (text) {
    const root = document.querySelector("[data-atlas-search-root]");
    if (!root || !text.trim()) return Promise.resolve([]);
    return engine(new URL(root.dataset.base, location.href)).causes(text);
  };

  atlas.onPage(function () { initHeader(); initHome(); initResultsPage(); });
})();
