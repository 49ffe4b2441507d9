/* PyTorch Release Atlas: copy buttons for the "Link or embed" blocks, and a change's ¶ menu.
   A block's snippets are in the page (generator/pages/cite.py) and selectable without this file.
   A change's menu is one shared element per page, filled here when its ¶ is activated, from
   the formats the page carries (data-cite-formats, the same table Python renders blocks from):
   this file only escapes characters as the table says and fills {title} and {url}.
   Text reaches the page through textContent only. */
(function () {
  "use strict";

  const LIMIT = 100;  // characters of a change's record line kept in its link text
  // A change's ¶: the last link of its PR line (the item's last paragraph), to its own anchor (a
  // change with an anchor: one of a release page's). Not found by its href, which Material makes
  // absolute on every page.
  const PILCROW = ".atlas-changes li[id] > p:last-of-type > a:last-child";

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    const area = el("textarea", { readonly: "", style: "position:fixed;opacity:0" });
    area.value = text;
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  /* A copy button after each snippet; the block's status line says what was copied. */
  function addButtons(root) {
    let status = root.querySelector(".atlas-cite-status");
    if (!status) {
      status = el("p", { class: "atlas-cite-status", role: "status" });
      root.appendChild(status);
    }
    root.querySelectorAll("pre.atlas-cite-text").forEach(function (pre) {
      if (pre.nextElementSibling && pre.nextElementSibling.matches("button.atlas-cite-copy")) return;
      const dd = pre.closest("dd");
      const label = dd && dd.previousElementSibling ? dd.previousElementSibling.textContent : "snippet";
      const button = el("button", { type: "button", class: "atlas-cite-copy", "aria-label": "Copy " + label }, "Copy");
      button.addEventListener("click", function () {
        copy(pre.textContent).then(
          function () {
            button.textContent = "Copied";
            status.textContent = label + " copied.";
            setTimeout(function () { button.textContent = "Copy"; }, 2000);
          },
          function () { status.textContent = "Could not copy: select the text and copy it."; }
        );
      });
      pre.after(button);
    });
  }

  /* ---- a change's ¶ menu ---- */
  function fill(template, escapes, title, url) {
    const escaped = Array.from(title, function (ch) { return Object.prototype.hasOwnProperty.call(escapes, ch) ? escapes[ch] : ch; }).join("");
    const values = { title: escaped, url: url, badge: "" };
    return template.replace(/\{(title|url|badge)\}/g, function (_, key) { return values[key]; });
  }

  function changeTitle(change) {
    const first = change.querySelector("p") || change;
    let text = first.textContent.replace(/\s+/g, " ").trim();
    if (text.length > LIMIT) {
      const cut = text.slice(0, LIMIT);
      text = (cut.includes(" ") ? cut.slice(0, cut.lastIndexOf(" ")) : cut) + " …";
    }
    return text;
  }

  let opener = null;

  function closeMenu(menu, refocus) {
    menu.hidden = true;
    if (opener) {
      opener.setAttribute("aria-expanded", "false");
      if (refocus) opener.focus();
    }
    opener = null;
  }

  function openMenu(menu, link, change) {
    if (opener === link && !menu.hidden) { closeMenu(menu, true); return; }
    if (opener) opener.setAttribute("aria-expanded", "false");
    const formats = JSON.parse(menu.dataset.citeFormats);
    const url = menu.dataset.citePage + "#" + change.id;
    const title = menu.dataset.citePrefix + changeTitle(change);
    menu.replaceChildren();
    const head = el("p", { class: "atlas-cite-head" });
    head.appendChild(el("strong", {}, "Link or embed this change"));
    const close = el("button", { type: "button", class: "atlas-cite-close", "aria-label": "Close the menu" }, "Close");
    close.addEventListener("click", function () { closeMenu(menu, true); });
    head.appendChild(close);
    menu.appendChild(head);
    const list = el("dl", { class: "atlas-cite-list" });
    for (const f of formats) {
      list.appendChild(el("dt", {}, f.label));
      const dd = el("dd");
      dd.appendChild(el("pre", { class: "atlas-cite-text", tabindex: "0", "data-cite": f.id }, fill(f.link, f.escapes, title, url)));
      list.appendChild(dd);
    }
    menu.appendChild(list);
    addButtons(menu);
    change.appendChild(menu);
    menu.hidden = false;
    opener = link;
    link.setAttribute("aria-expanded", "true");
    link.setAttribute("aria-controls", menu.id);
    menu.querySelector("button.atlas-cite-copy").focus();
  }

  document.addEventListener("click", function (event) {
    const link = event.target.closest && event.target.closest(PILCROW);
    const menu = document.getElementById("atlas-cite-menu");
    if (!link || !menu || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    // Captured before the browser or Material's instant navigation (off; mkdocs.yml) acts on it.
    event.preventDefault();
    event.stopPropagation();
    const change = link.closest(".atlas-changes li");
    history.replaceState(history.state, "", "#" + change.id);  // the address still names the change
    openMenu(menu, link, change);
  }, true);

  document.addEventListener("keydown", function (event) {
    const menu = document.getElementById("atlas-cite-menu");
    if (event.key === "Escape" && menu && !menu.hidden) closeMenu(menu, true);
  });

  function init() {
    document.querySelectorAll("details.atlas-cite").forEach(addButtons);
    // Its tooltip, given here once rather than written beside each of a page's hundreds of ¶.
    document.querySelectorAll(PILCROW).forEach(function (link) { link.title = "Link to this change"; });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);  // each page Material announces (live preview swaps pages in)
  } else {
    document.addEventListener("DOMContentLoaded", init);
  }
})();
