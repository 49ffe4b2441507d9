/* PyTorch Release Atlas, in the browser: what every page shares, and the page behaviours.

   The other scripts (atlas-search.js, cite.js, and atlas-compare.js, atlas-upgrade.js and
   atlas-timeline.js, which this one loads on their pages: ONE_PAGE) register with `atlas.onPage`. Content reaches the
   page through textContent only, never innerHTML. */
(function () {
  "use strict";
  const atlas = (window.atlas = window.atlas || {});

  /* An element with attributes and text (text as textContent, so it is never read as HTML). */
  atlas.el = function (tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  /* A JSON table the build wrote on an element (data-<key>), e.g. a form's data-steps. */
  atlas.data = function (node, key, fallback) {
    return node.dataset[key] ? JSON.parse(node.dataset[key]) : fallback;
  };

  /* Run init on every page Material's document$ announces (live preview swaps pages in). */
  atlas.onPage = function (init) {
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(init);
    } else if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", init);
    } else {
      init();
    }
  };

  /* ---- /compare/ and /upgrade/: a from/to/backend form whose choice lives in the URL (so it
     can be pasted into a wiki). run(q) gets the API JSON of every release in (from, to]: the
     files' addresses are the form's data-release-files (version -> URL), as the build wrote them. ---- */
  atlas.rangeForm = function (formId, outId, run) {
    const form = document.getElementById(formId);
    const out = document.getElementById(outId);
    if (!form || !out) return null;
    const el = atlas.el;
    const versions = atlas.data(form, "releases", []);
    const files = atlas.data(form, "releaseFiles", {});
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
    // The page's headings as built, kept by id: a result reuses the element (`heading`), so the
    // table of contents, which Material maps to these elements on load, follows the reader
    // (new elements left it measuring detached ones: every entry "passed", the last one lit).
    const headings = new Map(Array.from(out.querySelectorAll("h2[id]")).map(function (h) { return [h.id, h]; }));
    function heading(id, text) {
      const h = headings.get(id) || el("h2", { id: id });
      headings.set(id, h);
      h.textContent = text;
      return h;
    }
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
          return fetch(new URL(files[v], location.href)).then(function (r) {
            if (!r.ok) throw new Error(v + ": HTTP " + r.status);
            return r.json();
          });
        }));
      } catch (err) {
        out.replaceChildren(el("p", { class: "atlas-compare-msg" }, "Could not load release data (" + err.message + ")."));
        return;
      }
      out.replaceChildren();
      const site = new URL(form.dataset.site, location.href);
      const label = backend ? form.elements.backend.selectedOptions[0].textContent : "";
      run({ form: form, out: out, heading: heading, from: from, to: to, backend: backend, backendName: label, range: range,
        releases: releases, href: function (path) { return new URL(path, site).href; } });
    }
    return form;
  };

  /* The releases of a range that have no imported change list, said once under the summary. */
  atlas.gapNote = function (releases) {
    const missing = releases.filter(function (r) { return r.changes === 0; }).map(function (r) { return r.version; });
    return missing.length ? atlas.el("p", { class: "atlas-compare-msg atlas-compare-gap" },
      "No release-note change list is at hand for " + missing.join(", ") + ": only their announced features are listed.") : null;
  };

  /* Under a group filtered to one backend: how many of its reports of what fails (the build's
     EVERY_BACKEND_GROUPS) are for other platforms, counted by atlas.rules.collect. */
  atlas.elsewhereNote = function (count) {
    return count ? atlas.el("p", { class: "atlas-compare-msg atlas-compare-elsewhere" },
      count + " more for other platforms: pick any backend to see " + (count === 1 ? "it." : "them.")) : null;
  };

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

  /* ---- Matrices: the sticky feature column never half-covers a release column. Columns differ
     in width, so the box is cut to the width at which, scrolled to its newest end, it begins on a
     release column's start: every release column shown is shown whole, the newest one included.
     (A reader who scrolls by hand can still stop between two columns.) ---- */
  function fitMatrix(wrap) {
    const table = wrap.querySelector("table"), heads = wrap.querySelectorAll("thead th");
    if (!table || heads.length < 3) return;
    wrap.style.maxWidth = "";
    const room = wrap.clientWidth, total = wrap.scrollWidth;
    if (total <= room) return;
    const origin = table.getBoundingClientRect().left;
    const left = function (th) { return th.getBoundingClientRect().left - origin; };
    const sticky = left(heads[1]);  // the feature column's width: where release columns begin
    for (let k = 1; k < heads.length; k++) {
      const width = total + sticky - left(heads[k]);  // begins on column k once scrolled to the end
      if (width <= room) { wrap.style.maxWidth = width + "px"; return; }
    }
  }

  /* Release columns narrowed (down to 4/5 of their width, which still holds a tier's name) so
     that the columns from `cell`'s release to the newest fit beside the feature column. */
  function narrowTo(wrap, cell) {
    const table = wrap.querySelector("table"), heads = wrap.querySelectorAll("thead th");
    if (heads.length < 3) return;
    const origin = table.getBoundingClientRect();
    const sticky = heads[1].getBoundingClientRect().left - origin.left;
    const column = heads[1].getBoundingClientRect().width;
    const span = (origin.right - cell.getBoundingClientRect().left) / column;  // columns to show
    const fits = (wrap.clientWidth - sticky - 4) / span;
    if (fits < column && fits >= 0.8 * column) table.style.width = sticky + fits * (heads.length - 1) + "px";
  }

  function initMatrices() {
    document.querySelectorAll(".atlas-matrix-wrap").forEach(function (wrap) {
      fitMatrix(wrap);
      // The first release of the first row's feature at the left edge, beside the sticky feature
      // column, where the newest then shows too (the newest end alone hid FlexAttention's 2.5
      // under the column); else the newest end, the release readers come for.
      const first = wrap.querySelector("tbody tr td.atlas-cell a, tbody tr td.atlas-cell:not(:empty)");
      const sticky = wrap.querySelector("thead th:nth-child(2)");
      if (!first || !sticky) { wrap.scrollLeft = wrap.scrollWidth; return; }
      narrowTo(wrap, first.closest("td"));
      const origin = wrap.querySelector("table").getBoundingClientRect().left;
      const at = first.closest("td").getBoundingClientRect().left - origin;
      const left = Math.max(0, at - (sticky.getBoundingClientRect().left - origin));
      // Where the span does not fit (a phone; a backend's many features), the newest end.
      wrap.scrollLeft = left + wrap.clientWidth >= wrap.scrollWidth - 1 ? left : wrap.scrollWidth;
    });
  }
  window.addEventListener("resize", function () { document.querySelectorAll(".atlas-matrix-wrap").forEach(fitMatrix); });

  /* ---- Long pages (release pages, marked data-atlas-jump): a section menu that stays at the top
     of the screen where Material shows no table of contents (phones, tablets), built from the
     page's own headings; and on a phone the change lists' areas start folded (the one a link
     points to opens). ---- */
  const SMALL = window.matchMedia("(max-width: 44.9375em)");

  function initJumpMenu() {
    const menu = document.querySelector("[data-atlas-jump]");
    if (!menu || menu.dataset.built) return;
    menu.dataset.built = "1";
    const list = menu.querySelector("ul");
    document.querySelectorAll(".md-content article h2[id], .md-content article .atlas-changes h3[id]").forEach(function (h) {
      const item = atlas.el("li", { class: h.tagName === "H3" ? "atlas-jump__sub" : "" });
      item.append(atlas.el("a", { href: "#" + h.id }, h.textContent.replace(/\u00b6$/, "").trim()));
      list.append(item);
    });
    if (!list.children.length) return;
    // The jump is made here, not left to the browser or to Material. Material's instant navigation
    // (off since issue 47; mkdocs.yml) reads a link to this same page, or the popstate event of a browser's own jump to a fragment,
    // as a navigation, and on the first one fetches the page again and swaps it in: on a phone the
    // change lists above the target fold again after the swap, and the heading ends off the screen
    // ("Bug fixes" 36 px above it, measured at 390 px). pushState fires neither event.
    list.addEventListener("click", function (e) {
      const a = e.target.closest("a");
      if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      const target = document.getElementById(decodeURIComponent(a.hash.slice(1)));
      if (!target) return;
      e.preventDefault();
      e.stopPropagation();
      menu.open = false;  // first, so the jump measures the page without the open list
      history.pushState(null, "", a.hash);
      openTarget();
      target.scrollIntoView();  // its scroll-margin clears the header and the menu
      target.setAttribute("tabindex", "-1");  // the keyboard goes on from the heading
      target.focus({ preventScroll: true });
    });
    menu.hidden = false;
  }

  function openTarget() {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    const fold = target && target.closest("details.atlas-area");
    if (fold) fold.open = true;
    if (target && target.tagName === "H4" && target.nextElementSibling && target.nextElementSibling.matches("details")) {
      target.nextElementSibling.open = true;
    }
  }

  const BREAKING = (window.atlasData || {}).breaking;

  /* An area of the breaking changes: the section heading (h3) before it is theirs. */
  function breaking(details) {
    let node = details.previousElementSibling;
    while (node && node.tagName !== "H3") node = node.previousElementSibling;
    return !!node && node.id === BREAKING;
  }

  function initFolds() {
    // Breaking changes stay open: a reader upgrading reads them all, not one tap per area.
    if (SMALL.matches) document.querySelectorAll("details.atlas-area[open]").forEach(function (d) { if (!breaking(d)) d.open = false; });
    openTarget();
  }
  window.addEventListener("hashchange", openTarget);

  /* The change lists render lazily (atlas.css: content-visibility on open areas), so a long page
     shows at once. Until an area comes near the screen it stands at a guessed height, and
     whatever measures the page sees its changes' PR links and ¶ overlap the next area's heading
     (axe's target-size rule counted 73 such on /releases/2.14/). So, while the browser is idle,
     the areas are laid out for good, a few per idle moment (laying out the 2.12 page at once
     held the main thread 0.8 s on a busy machine); the article is marked atlas-laid-out once
     every box stands where it is drawn. */
  function idle(step) {
    if ("requestIdleCallback" in window) return requestIdleCallback(step, { timeout: 250 });
    setTimeout(function () {
      const start = performance.now();
      step({ didTimeout: false, timeRemaining: function () { return Math.max(0, 8 - (performance.now() - start)); } });
    }, 16);
  }

  function layOut() {
    const article = document.querySelector(".md-content article");
    const areas = article ? Array.from(article.querySelectorAll("details.atlas-area")) : [];
    if (!areas.length) return;
    let next = 0;
    function step(deadline) {
      // An idle moment's time, or, on a browser too busy to idle (the callback's timeout), 10 ms.
      const start = performance.now();
      const left = function () { return deadline.didTimeout ? 10 - (performance.now() - start) : deadline.timeRemaining(); };
      do {
        areas[next++].classList.add("atlas-laid-out");
        areas[next - 1].getBoundingClientRect();  // its layout now, in this moment
      } while (next < areas.length && left() > 4);
      if (next < areas.length) idle(step);
      else article.classList.add("atlas-laid-out");
    }
    idle(step);
  }

  /* A page whose answer is in its query (/upgrade/?from=…&to=…, /compare/): its canonical link
     keeps the query, so what is shared from the page is that range (the build names no og:url
     for these pages, generator.pages.describe.QUERY_PAGES). */
  function keepQuery() {
    if (!location.search || !document.querySelector("#atlas-upgrade, #atlas-compare")) return;
    const link = document.querySelector("link[rel=canonical]");
    if (link) link.href = location.href.split("#")[0];
  }

  /* ---- Scripts that serve one page each, loaded when that page is shown (its load, or live
     preview's swap), not by every page's first visit: the element each one drives, and its file
     beside this one. Each registers with atlas.onPage, and Material's document$ hands a late
     subscriber the page already shown. ---- */
  const ONE_PAGE = [
    ["#atlas-upgrade", "atlas-upgrade.js"],
    ["#atlas-compare", "atlas-compare.js"],
    ["form[data-atlas-filter]", "atlas-timeline.js"],
  ];
  const HERE = document.currentScript ? document.currentScript.src : location.href;
  const loaded = new Set();

  function loadScripts() {
    for (const [selector, file] of ONE_PAGE) {
      if (loaded.has(file) || !document.querySelector(selector)) continue;
      loaded.add(file);
      document.body.append(atlas.el("script", { src: new URL(file, HERE).href }));
    }
  }

  atlas.onPage(function () { keepQuery(); initScrollwraps(); initMatrices(); initJumpMenu(); initFolds(); layOut(); loadScripts(); });
})();
