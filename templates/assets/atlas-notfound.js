/* PyTorch Release Atlas: the page-not-found page (templates/overrides/404.html). It puts the words
   of the missing address into the page's search box and, at the address of a release the Atlas
   does not cover (releases/2.15/), says so with the coverage statement, read from the API's
   release listing (paths from window.atlasData.notfound, written by generator/render/browser.py). */
(function () {
  "use strict";
  function run() {
    const root = document.querySelector("[data-atlas-notfound]");
    if (!root || !window.atlasData) return;
    const data = window.atlasData.notfound;
    const base = new URL(root.dataset.base, location.href);
    const path = decodeURIComponent(location.pathname);
    const rel = path.startsWith(base.pathname) ? path.slice(base.pathname.length) : path.replace(/^\/+/, "");
    const words = rel.split("/").filter(Boolean).pop() || "";
    const box = root.querySelector("input[name=q]");
    if (box && !box.value) box.value = words.replace(/\.html$/, "").replace(/[-_]+/g, " ");
    if (!rel.startsWith(data.releases)) return;
    const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(rel.slice(data.releases.length).split("/")[0]);
    if (!match) return;
    const version = match[1] + "." + match[2];
    fetch(new URL(data.listing, base))
      .then(function (r) { return r.ok ? r.json() : Promise.reject(new Error(String(r.status))); })
      .then(function (listing) { say(root, base, data, version, listing); })
      .catch(function () { /* the static text and its link to the releases still stand */ });
  }

  function say(root, base, data, version, listing) {
    const known = listing.releases.some(function (r) { return r.version === version; });
    const line = root.querySelector(".atlas-notfound__release");
    const link = document.createElement("a");
    if (known) {
      link.href = new URL(data.releases + version + "/", base).href;
      link.textContent = "PyTorch " + version + "'s page";
      line.append("PyTorch " + version + " is on the Atlas, but not at this address: see ", link, ".");
    } else {
      link.href = new URL(data.coverage, base).href;
      link.textContent = "What the Atlas covers";
      const text = listing.coverage && listing.coverage.text ? " " + listing.coverage.text + " " : " ";
      line.append("The Atlas does not cover PyTorch " + version + "." + text, link, ".");
    }
    line.hidden = false;
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
