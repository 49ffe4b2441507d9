/* WCAG 2.2 SC 2.5.8 Target Size (Minimum), measured on the page as laid out: every visible link,
   button, form control and summary is at least 24×24 CSS px, or is exempt as the criterion allows:
   - inline: a link inside a sentence (its block holds other text on the same line), whose size the
     line height of the text sets;
   - spacing: a 24 px circle centred on it meets no other target and no other small target's circle.
   Returns the failures: [{tag, text, w, h, x, y}], at most 40. */
() => {
  const SEL = "a[href], button, select, input:not([type=hidden]), textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])";
  const all = Array.from(document.querySelectorAll(SEL)).filter(function (e) {
    if (e.closest("[hidden], .md-sidebar--primary:not(:has(:focus)) .md-nav--primary label")) return false;
    const s = getComputedStyle(e);
    if (s.visibility === "hidden" || s.display === "none") return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && !clipped(e, r);
  });
  /* Scrolled out of its sideways box, or under the box's sticky first column: not a target now. */
  function clipped(e, r) {
    const box = e.closest(".atlas-matrix-wrap, .md-typeset__scrollwrap");
    if (!box || e.closest("th.atlas-feature-col, thead")) return false;
    const b = box.getBoundingClientRect(), sticky = box.querySelector("tbody th");
    const from = sticky ? sticky.getBoundingClientRect().right : b.left, x = (r.left + r.right) / 2;
    return x < from || x > b.right;
  }
  const rects = all.map(function (e) { return e.getBoundingClientRect(); });
  const small = rects.map(function (r) { return r.width < 24 - 0.01 || r.height < 24 - 0.01; });
  function inline(e) {
    if (!/^inline/.test(getComputedStyle(e).display) || e.tagName === "SELECT" || e.tagName === "BUTTON") return false;
    let block = e.parentElement;
    while (block && /^inline/.test(getComputedStyle(block).display)) block = block.parentElement;
    if (!block) return false;
    const own = (e.textContent || "").trim();
    const text = (block.textContent || "").replace(own, "").replace(/[\s¶·|,;:()\[\]-]+/g, "");
    return text.length >= 3;
  }
  function meets(c, r) {  // circle c (x, y, radius 12) and rectangle r
    const dx = Math.max(r.left - c.x, 0, c.x - r.right), dy = Math.max(r.top - c.y, 0, c.y - r.bottom);
    return dx * dx + dy * dy < 144 - 0.01;
  }
  const out = [];
  all.forEach(function (e, i) {
    if (!small[i] || inline(e)) return;
    const r = rects[i], c = { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
    const crowded = rects.some(function (o, j) {
      if (j === i || all[j].contains(e) || e.contains(all[j])) return false;
      if (meets(c, o)) return true;
      if (!small[j]) return false;
      const oc = { x: (o.left + o.right) / 2, y: (o.top + o.bottom) / 2 };
      return Math.hypot(oc.x - c.x, oc.y - c.y) < 24 - 0.01;
    });
    if (crowded && out.length < 40) out.push({ tag: e.tagName, cls: e.className && String(e.className).slice(0, 40), text: (e.textContent || e.getAttribute("aria-label") || "").trim().slice(0, 30), w: Math.round(r.width), h: Math.round(r.height), x: Math.round(r.left), y: Math.round(r.top + scrollY) });
  });
  return out;
}
