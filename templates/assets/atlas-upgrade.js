/* /upgrade/?from=&to=&backend=: the upgrade guide, grouped as a reader works through it
   (atlas.rules.collect, the rule /compare/ uses too), filtered to a backend and to pasted code.
   The paste never leaves the page. The steps, change kinds and entry labels are the build's
   (generator.model UPGRADE_GROUPS and CHANGE_KINDS, CHANGE_LABELS), written on the form as
   data-steps, data-kinds and data-labels; PR and issue links are the API's pr_urls and issue_urls. */
(function () {
  "use strict";
  const atlas = window.atlas, el = atlas.el;

  /* A backend's name as the form's backend menu spells it. */
  function backendName(id) {
    const select = document.querySelector("#atlas-upgrade select[name=backend]");
    const option = select && Array.from(select.options).find(function (o) { return o.value === id; });
    return option ? option.textContent : id;
  }

  /* Inline Markdown of our notes as DOM nodes, never HTML: `code`, **strong**, *em*; a link
     keeps its text (generator/markup/textfilters.py `rich` renders the same marks on the pages). */
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

  function item(it, href) {
    const li = el("li", { "data-release": it.release, class: "atlas-upgrade-item" });
    li.append(el("span", { class: "atlas-tag" }, it.release), " ");
    if (it.kind) li.append(el("span", { class: "atlas-tag atlas-kind" }, it.kindName), " ");
    if (it.label) li.append(el("span", { class: "atlas-tag" }, it.label), " ");
    if (it.areaShown) li.append(el("span", { class: "atlas-area-name" }, it.area + ": "));
    if (it.matched) li.append(el("span", { class: "atlas-tag" }, "uses " + it.matched), " ");
    li.append(el("a", { href: href(it.path) }, it.text));
    if (it.forEvery && it.backends && it.backends.length) li.append(el("span", { class: "atlas-area-name" },
      " · for " + it.backends.map(function (b) { return backendName(b); }).join(", ")));
    if (it.note) { li.append(el("br")); li.append(el("strong", {}, it.forEvery ? "What fails: " : "What to do: ")); li.append.apply(li, inline(it.note)); }
    if (it.workaround) { li.append(" "); li.append(el("strong", {}, "Workaround: ")); li.append.apply(li, inline(it.workaround)); }
    (it.issues || []).forEach(function (n, k) { li.append(" "); li.append(el("a", { href: it.issueUrls[k] }, "issue #" + n)); });
    if (it.restore) { li.append(" "); li.append(el("strong", {}, "Old behaviour back: ")); li.append(el("code", {}, it.restore)); }
    if (it.ending) { li.append(" "); li.append(el("strong", {}, it.ending + ".")); }
    else if (it.removal) { li.append(" "); li.append(el("strong", {}, "Removal planned in " + it.removal + ".")); }
    (it.prs || []).forEach(function (pr, k) { li.append(" "); li.append(el("a", { href: it.prUrls[k] }, "PR #" + pr)); });
    return li;
  }

  /* A pasted error or warning whose text a change gives (its `symptom:`): that change first,
     with what to do, whatever the range (atlas.causes reads the whole Atlas's list). */
  function causes(code, out) {
    const box = el("div", { class: "atlas-upgrade-cause", "aria-live": "polite" });
    out.append(box);
    atlas.causes(code).then(function (found) {
      if (!found.length) return;
      box.append(el("p", { class: "atlas-compare-msg atlas-upgrade-headline" },
        "Your paste shows the message of " + (found.length === 1 ? "this change:" : "these changes:")));
      const list = el("ul");
      for (const c of found) {
        const li = el("li", { class: "atlas-upgrade-item" });
        li.append(el("a", { href: c.url }, c.title + ": " + c.text));
        li.append(el("br"), el("strong", {}, "Message: "), el("code", {}, c.message));
        if (c.todo) { li.append(el("br"), el("strong", {}, "What to do: ")); li.append.apply(li, inline(c.todo)); }
        list.append(li);
      }
      box.append(list);
    });
  }

  function initUpgrade() {
    const form = atlas.rangeForm("atlas-upgrade", "atlas-upgrade-result", function (q) {
      const steps = atlas.data(q.form, "steps", []), kinds = atlas.data(q.form, "kinds", {});
      const everyBackend = atlas.data(q.form, "everyBackend", []);
      const code = q.form.elements.code.value.trim();
      const uses = code ? atlas.rules.pasteUses(code) : null;
      const found = atlas.rules.collect(q.releases, steps, { backend: q.backend, uses: uses, labels: atlas.data(q.form, "labels", {}), everyBackend: everyBackend });
      if (code) causes(code, q.out);
      const counts = steps.map(function (s) { return found.groups[s[0]].length + " " + s[1].toLowerCase(); }).join(" · ");
      // The answer first: what can break code (the build's BREAKING_GROUPS, data-breaking).
      const breaks = atlas.data(q.form, "breaking", []).reduce(function (n, k) { return n + (found.groups[k] || []).length; }, 0);
      q.out.append(el("p", { class: "atlas-compare-msg atlas-upgrade-headline" }, breaks + (breaks === 1 ? " change" : " changes") +
        " can break your code (breaking changes, removals, default and behaviour changes)."));
      q.out.append(el("p", { class: "atlas-compare-msg" }, "From " + q.from + " to " + q.to + " on " + (q.backendName || "any backend") + ": " + counts + "."));
      if (uses) q.out.append(el("p", { class: "atlas-compare-msg" },
        "Kept the changes whose subject your pasted code uses (each says which); " + found.dropped + " others left out."));
      const gap = atlas.gapNote(q.releases);
      if (gap) q.out.append(gap);
      for (const [key, title] of steps) {
        const items = found.groups[key];
        // By release, then area (stable: the notes' order within an area).
        items.sort(function (a, b) { return q.range.indexOf(a.release) - q.range.indexOf(b.release) || (a.area || "").localeCompare(b.area || ""); });
        const section = el("section", { class: "atlas-compare-group", "data-group": key });
        section.append(q.heading("upgrade-" + key, title + " (" + items.length + ")"));
        // The table of contents lists the steps (upgrade.md.j2): give each its count. Material
        // rewrites the links to absolute URLs, so match the anchor at the end.
        document.querySelectorAll('.md-nav--secondary a[href$="#upgrade-' + key + '"]').forEach(function (a) {
          (a.querySelector(".md-ellipsis") || a).textContent = title + " (" + items.length + ")";
        });
        const list = el("ul");
        let area = null, release = null;
        for (const it of items) {
          const fresh = it.release !== release;
          list.append(item(Object.assign({}, it, { kindName: kinds[it.kind] || it.kind, forEvery: everyBackend.includes(key), areaShown: it.area && (fresh || it.area !== area) }), q.href));
          area = it.area;
          release = it.release;
        }
        section.append(items.length ? list : el("p", {}, "None."));
        const more = atlas.elsewhereNote(found.elsewhere[key]);
        if (more) section.append(more);
        q.out.append(section);
      }
    });
    let timer = null;
    if (form) form.elements.code.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { form.requestSubmit(); }, 250);
    });
    if (form) initEnv(form);
  }

  /* "Paste your environment": read it (atlas.rules.readEnv, generator/pages/envpaste.py's rules), set
     the guide's from-release, backend and target (the newest release), and say what the
     compatibility rows answer for it (atlas.rules.envAnswers). Everything shown is text nodes. */
  function initEnv(form) {
    const box = document.getElementById("atlas-env"), out = document.getElementById("atlas-env-result");
    if (!box || !out) return;
    const data = JSON.parse(box.dataset.env);
    let timer = null;
    box.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { apply(form, box.value, data, out); }, 250);
    });
  }

  /* Is release a (X.Y) newer than b? */
  function newer(a, b) {
    const x = a.split(".").map(Number), y = b.split(".").map(Number);
    return x[0] !== y[0] ? x[0] > y[0] : x[1] > y[1];
  }

  function described(env) {
    const parts = ["torch " + env.torch + (env.build ? "+" + env.build : "")];
    if (env.python) parts.push("Python " + env.python);
    if (env.os || env.arch) parts.push([env.os, env.arch].filter(Boolean).join(" "));
    if (env.gpus.length) parts.push("GPUs: " + Array.from(new Set(env.gpus)).join(", "));
    return parts.join(" · ");
  }

  function apply(form, text, data, out) {
    out.replaceChildren();
    if (!text.trim()) return;
    const env = atlas.rules.readEnv(text);
    if (!env.release) {
      out.append(el("p", { class: "atlas-compare-msg atlas-env-unread" }, data.looked_for));
      return;
    }
    const versions = atlas.data(form, "releases", []), target = versions[versions.length - 1];
    out.append(el("p", { class: "atlas-compare-msg" }, "Read: " + described(env) + "."));
    const covers = "The Atlas covers releases " + versions[0] + " to " + target + ", not " + env.release;
    if (versions.includes(env.release)) form.elements.from.value = env.release;
    else if (newer(env.release, target)) {
      // A release newer than the newest: no guide to open, and the newest's answers are not its.
      out.append(el("p", { class: "atlas-compare-msg atlas-env-uncovered" }, covers + ": there is no guide from it yet."));
      return;
    } else {
      form.elements.from.value = versions[0];
      out.append(el("p", { class: "atlas-compare-msg" }, covers + ": the guide opens from " + versions[0] + ", the oldest it covers."));
    }
    form.elements.to.value = target;
    const backends = Array.from(form.elements.backend.options).map(function (o) { return o.value; });
    if (env.backend && backends.includes(env.backend)) form.elements.backend.value = env.backend;
    const answers = atlas.rules.envAnswers(env, data, target);
    if (answers.length) {
      out.append(el("p", { class: "atlas-compare-msg" }, "On " + target + ", the newest release:"));
      const list = el("ul", { class: "atlas-env-answers" });
      const site = new URL(form.dataset.site, location.href);
      for (const a of answers) {
        // What the answer rests on (generator/enrich/supports.py evidence): pages of the Atlas are
        // site-relative, sources absolute.
        const li = el("li", { "data-topic": a.topic, "data-ok": String(a.ok) }, a.text);
        if (a.evidence.length) {
          const from = el("span", { class: "atlas-env-evidence" }, " Rests on: ");
          a.evidence.forEach(function (e, k) { from.append(k ? "; " : "", el("a", { href: new URL(e[1], site).href }, e[0])); });
          li.append(from);
        }
        list.append(li);
      }
      out.append(list);
    }
    form.requestSubmit();
  }

  atlas.onPage(initUpgrade);
})();
