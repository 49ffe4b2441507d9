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

  /* ---- /compare/: what an upgrade from one release to another brings ---- */
  const GROUPS = [
    ["bc", "Backwards-incompatible changes"],
    ["deprecated", "Deprecations"],
    ["removed", "Removals"],
    ["promoted", "Promotions"],
    ["new", "New features"],
  ];

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

  function initCompare() {
    rangeForm("atlas-compare", "atlas-compare-result", function (q) {
      const out = q.out, releases = q.releases, backend = q.backend, from = q.from, to = q.to, range = q.range, form = q.form;
      const groups = Object.fromEntries(GROUPS.map(function (g) { return [g[0], []]; }));
      const site = q.site;
      for (const rel of releases) {
        const page = site + "releases/" + rel.version + "/";
        for (const e of rel.entries) {
          if (backend && !e.backends.includes(backend)) continue;
          const item = { release: rel.version, text: e.title, href: page + "#" + e.id, prs: e.prs, kind: "entry" };
          if (e.change in groups) groups[e.change].push(item);
        }
        for (const c of rel.change_list) {
          if (backend && !c.backends.includes(backend)) continue;
          const href = page + "#" + c.anchor;  // the change's own anchor, from the API
          const item = { release: rel.version, text: plain(c.text), href: href, prs: c.prs, area: c.area, kind: "change" };
          if (c.section === "bc-breaking") groups.bc.push(item);
          else if (c.section === "deprecations") groups.deprecated.push(item);
        }
      }
      const label = backend ? form.elements.backend.selectedOptions[0].textContent : "all backends";
      out.append(el("p", { class: "atlas-compare-msg" },
        "Upgrading from " + from + " to " + to + " (" + range.join(", ") + "), " + label + "."));
      const noNotes = releases.filter(function (r) { return r.changes === 0; }).map(function (r) { return r.version; });
      if (noNotes.length) {
        out.append(el("p", { class: "atlas-compare-msg atlas-compare-gap" },
          "No release-note change list is imported for " + noNotes.join(", ") +
          ": for those, only the features their announcements name are listed."));
      }
      for (const [key, title] of GROUPS) {
        const items = groups[key];
        const section = el("section", { class: "atlas-compare-group", "data-group": key });
        section.append(el("h2", { id: "compare-" + key }, title + " (" + items.length + ")"));
        if (!items.length) section.append(el("p", {}, "None."));
        const list = el("ul");
        for (const it of items) {
          const li = el("li", { "data-release": it.release });
          li.append(el("span", { class: "atlas-tag" }, it.release), " ");
          if (it.area) li.append(el("span", { class: "atlas-area-name" }, it.area + ": "));
          li.append(el("a", { href: it.href }, it.text));
          list.append(li);
        }
        section.append(list);
        out.append(section);
      }
    });
  }

  /* ---- /upgrade/: the upgrade guide, grouped as a reader works through it, filtered to a
     backend and to pasted code. The paste never leaves the page. ---- */
  const STEPS = [
    ["breaking", "Breaking changes"],
    ["defaults", "Default and behaviour changes"],
    ["removals", "Removals"],
    ["deprecations", "Deprecations"],
    ["new", "New features and promotions"],
  ];
  const KINDS = {
    "api-removed": "API removed", "behaviour-change": "Behaviour change", "default-change": "Default change",
    "build-packaging": "Build and packaging", "numerics": "Numerics may differ",
  };

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
      const code = q.form.elements.code.value.trim();
      const tokens = code ? pastedTokens(code) : null;
      const steps = Object.fromEntries(STEPS.map(function (s) { return [s[0], []]; }));
      let dropped = 0;
      for (const rel of q.releases) {
        const page = q.site + "releases/" + rel.version + "/";
        for (const c of rel.change_list) {
          if (!c.group) continue;
          if (q.backend && c.backends.length && !c.backends.includes(q.backend)) continue;
          if (tokens && !usesAny(c.symbols, tokens)) { dropped++; continue; }
          steps[c.group].push({ release: rel.version, href: page + "#" + c.anchor, text: plain(c.text).concat(
            c.text.split("\n").length > 1 ? " " + plain(c.text.split("\n").slice(1).join(" ")) : ""),
            area: c.area, kind: c.kind, note: c.note, restore: c.restore, removal: c.removal, prs: c.prs });
        }
        if (tokens) continue;  // new features name no code of yours
        for (const e of rel.entries) {
          if (q.backend && e.backends.length && !e.backends.includes(q.backend)) continue;
          if (e.change !== "new" && e.change !== "promoted") continue;
          steps.new.push({ release: rel.version, href: page + "#" + e.id, text: e.title, kind: null, prs: e.prs,
            label: e.change === "new" ? "New" : "Promoted" });
        }
      }
      const label = q.backend ? q.form.elements.backend.selectedOptions[0].textContent : "any backend";
      const counts = STEPS.map(function (s) { return steps[s[0]].length + " " + s[1].toLowerCase(); }).join(" · ");
      q.out.append(el("p", { class: "atlas-compare-msg" }, "From " + q.from + " to " + q.to + " on " + label + ": " + counts + "."));
      if (tokens) q.out.append(el("p", { class: "atlas-compare-msg" },
        "Kept the changes that name something your pasted text uses; " + dropped + " others left out."));
      const missing = q.releases.filter(function (r) { return r.changes === 0; }).map(function (r) { return r.version; });
      if (missing.length) q.out.append(el("p", { class: "atlas-compare-msg atlas-compare-gap" },
        "No release-note change list is at hand for " + missing.join(", ") + ": only their announced features are listed."));
      for (const [key, title] of STEPS) {
        const items = steps[key];
        if (key !== "new") items.sort(function (a, b) { return (a.area || "").localeCompare(b.area || ""); });  // stable: by area, then release
        const section = el("section", { class: "atlas-compare-group", "data-group": key });
        section.append(el("h2", { id: "upgrade-" + key }, title + " (" + items.length + ")"));
        const list = el("ul");
        let area = null;
        for (const it of items) {
          const li = el("li", { "data-release": it.release, class: "atlas-upgrade-item" });
          li.append(el("span", { class: "atlas-tag" }, it.release), " ");
          if (it.kind) li.append(el("span", { class: "atlas-tag atlas-kind" }, KINDS[it.kind] || it.kind), " ");
          if (it.label) li.append(el("span", { class: "atlas-tag" }, it.label), " ");
          if (it.area && it.area !== area) li.append(el("span", { class: "atlas-area-name" }, it.area + ": "));
          area = it.area;
          li.append(el("a", { href: it.href }, it.text));
          if (it.note) { li.append(el("br")); li.append(el("strong", {}, "What to do: ")); li.append(it.note.replace(/`/g, "")); }
          if (it.restore) { li.append(" "); li.append(el("strong", {}, "Old behaviour back: ")); li.append(el("code", {}, it.restore)); }
          if (it.removal) { li.append(" "); li.append(el("strong", {}, "Removal planned in " + it.removal + ".")); }
          for (const pr of it.prs || []) { li.append(" "); li.append(el("a", { href: "https://github.com/pytorch/pytorch/pull/" + pr }, "PR #" + pr)); }
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

  /* First line of a release-note entry as plain text: no heading marks, bullets, links or backticks. */
  function plain(text) {
    return text.split("\n")[0].replace(/^#+\s*/, "").replace(/^[-*]\s+/, "")
      .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1").replace(/`/g, "");
  }

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

  /* ---- Home: the search box in the page hands its words to the site search in the header.
     The only hook between them: Material's search input and its overlay toggle. Where neither is
     on the page, the form submits as it does without JavaScript (to the features index). ---- */
  function initHomeSearch() {
    document.querySelectorAll("form[data-atlas-search]").forEach(function (form) {
      const box = form.elements.q;
      function handOver(event) {
        const header = document.querySelector(".md-search__input");
        if (!header) return;
        if (event.type === "submit") event.preventDefault();
        const toggle = document.getElementById("__search");
        if (toggle && !toggle.checked) {
          toggle.checked = true;
          toggle.dispatchEvent(new Event("change", { bubbles: true }));
        }
        header.value = box.value;
        box.value = "";
        header.focus();
        for (const type of ["input", "keyup"]) header.dispatchEvent(new Event(type, { bubbles: true }));
      }
      form.addEventListener("submit", handOver);
      box.addEventListener("input", handOver);
    });
  }

  function init() { initFilters(); initCompare(); initUpgrade(); initScrollwraps(); initMatrices(); initHomeSearch(); }
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);  // Material's instant navigation swaps pages without reloading
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
