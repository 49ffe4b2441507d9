/* /timeline/: filter the static matrix by backend, area and tier; the choice lives in the URL. */
(function () {
  "use strict";
  const atlas = window.atlas;

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

  atlas.onPage(initFilters);
})();
