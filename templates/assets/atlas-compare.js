/* /compare/?from=&to=&backend=: what an upgrade from one release to another brings, in the
   upgrade guide's groups and by the same rule (atlas.rules.collect), listed compactly. The
   groups' ids and titles are the build's (data-steps on the form). */
(function () {
  "use strict";
  const atlas = window.atlas, el = atlas.el;

  function initCompare() {
    atlas.rangeForm("atlas-compare", "atlas-compare-result", function (q) {
      const steps = atlas.data(q.form, "steps", []);
      const found = atlas.rules.collect(q.releases, steps, { backend: q.backend, labels: atlas.data(q.form, "labels", {}), everyBackend: atlas.data(q.form, "everyBackend", []) });
      const groups = found.groups;
      q.out.append(el("p", { class: "atlas-compare-msg" },
        "Upgrading from " + q.from + " to " + q.to + " (" + q.range.join(", ") + "), " + (q.backendName || "all backends") + "."));
      const gap = atlas.gapNote(q.releases);
      if (gap) q.out.append(gap);
      for (const [key, title] of steps) {
        const items = groups[key];
        const section = el("section", { class: "atlas-compare-group", "data-group": key });
        section.append(q.heading("compare-" + key, title + " (" + items.length + ")"));
        const list = el("ul");
        for (const it of items) {
          const li = el("li", { "data-release": it.release });
          li.append(el("span", { class: "atlas-tag" }, it.release), " ");
          if (it.label) li.append(el("span", { class: "atlas-tag" }, it.label), " ");
          if (it.area) li.append(el("span", { class: "atlas-area-name" }, it.area + ": "));
          li.append(el("a", { href: q.href(it.path) }, it.text));
          list.append(li);
        }
        section.append(items.length ? list : el("p", {}, "None."));
        const more = atlas.elsewhereNote(found.elsewhere[key]);
        if (more) section.append(more);
        q.out.append(section);
      }
    });
  }

  atlas.onPage(initCompare);
})();
