/* The rules the browser shares with Python, with no page in sight (Node loads this file in
   tests/test_js_parity.py and runs each function beside its Python reference on the same inputs):

     normalise     generator/search.py normalise: a query as the names table keys it
     shard         generator/search.py shard: the names file a key is in
     plain         generator/search.py plain: a record line as the words a reader sees
     pastedTokens  generator/symbols.py tokens: what pasted code uses
     usesAny       generator/symbols.py matches: does a change name something the paste uses
     queryKind     generator/search.py query_kind: a number, a version or text
     messageKey, symptomMatches   generator/search.py message_key, symptom_matches: does a
                   pasted message or traceback show a change's error text

   and the one rule by which /compare/ and /upgrade/ pick and group a range's changes (`collect`).
   In the browser it is window.atlas.rules; in Node, module.exports. */
(function (rules) {
  if (typeof module === "object" && module.exports) module.exports = rules;
  else (window.atlas = window.atlas || {}).rules = rules;
})((function () {
  "use strict";

  /* Python's whitespace (str.split() with no argument, and `\s` in its patterns): JavaScript's
     `\s` adds U+FEFF and leaves out U+001C–U+001F and U+0085. */
  const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const SPACES = new RegExp("[" + SPACE + "]+");

  function words(text) {  // " ".join(text.split())
    return text.split(SPACES).filter(Boolean).join(" ");
  }

  function normalise(query) {
    let out = words(query.toLowerCase()).replace(/^[`'" ]+|[`'" ]+$/g, "");
    if (out.endsWith("()")) out = out.slice(0, -2);
    out = out.replace(/^#+/, "").replace(/^ +| +$/g, "");
    return out.replace(/^(?:pr|pull|pull request) ?#? ?(?=[0-9]+$)/, "");  // "PR #158249" is 158249
  }

  /* What a normalised query is: "number" (a PR or issue number: found exactly or not at all),
     "version" (found as written), else "text". */
  function queryKind(key) {
    if (/^[0-9]+$/.test(key)) return "number";
    return /^v?[0-9]+(?:\.[0-9]+){1,3}$/.test(key) ? "version" : "text";
  }

  /* An error or warning text as symptoms are compared. */
  function messageKey(text) {
    return words(text.toLowerCase()).replace(/^[`'" ]+|[`'" ]+$/g, "");
  }

  /* Does a pasted text show this symptom: the whole message is in the paste, or the paste is a
     part of the message of three words and 12 characters (counted as Python counts, by code point). */
  function symptomMatches(symptom, pasted) {
    const message = messageKey(symptom), paste = messageKey(pasted);
    if (!message || !paste) return false;
    return paste.includes(message) || (Array.from(paste).length >= 12 && paste.split(" ").length >= 3 && message.includes(paste));
  }

  /* FNV-1a (32 bit) of the UTF-8 bytes, modulo the number of files the build wrote, in hex as
     wide as the largest file number (`count` is atlasData.search.shards). */
  function shard(key, count) {
    let h = 0x811c9dc5;
    for (const byte of new TextEncoder().encode(key)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
    return (h % count).toString(16).padStart((count - 1).toString(16).length, "0");
  }

  const MARKER = new RegExp("^[" + SPACE + "]*(?:[-*+]|#+)[" + SPACE + "]+");

  function plain(markdown) {
    const text = markdown.replace(MARKER, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/\*\*|`/g, "")
      .replace(/_\(from miscategorized\)_/g, "");
    return words(text);
  }

  const FLAG = /(?<![A-Za-z0-9_-])--[a-z][a-z0-9-]+/g;
  const ENV = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g;
  const IDENT = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/g;

  function pastedTokens(text) {
    const out = new Set();
    for (const m of text.matchAll(FLAG)) out.add(m[0]);
    for (const m of text.matchAll(ENV)) out.add(m[0]);
    for (const m of text.matchAll(IDENT)) {
      const parts = m[0].split(".");
      for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join("."));
      for (const p of parts) out.add(p);
    }
    return out;
  }

  /* The full name, or its last part when that part is distinctive (an underscore, or 8
     characters: counted as Python counts them, by code point). */
  function usesAny(symbols, tokens) {
    return symbols.some(function (s) {
      if (tokens.has(s)) return true;
      const last = s.split(".").pop();
      return s.includes(".") && (last.includes("_") || Array.from(last).length >= 8) && tokens.has(last);
    });
  }

  /* A change or entry concerns a backend when it names that backend or none (a change that
     names no backend is everyone's). */
  function concerns(item, backend) {
    return !backend || !item.backends.length || item.backends.includes(backend);
  }

  /* The changes and entries of a range (the API's release JSON, oldest first) grouped by the
     build's upgrade groups (`steps`: [[id, title], ...]), for /compare/ and /upgrade/ alike:
     a release-note change goes to its `group` (those with none ask nothing of an upgrade), an
     entry to the API's `group` too; with `tokens` (pasted code), only changes naming something it uses.
     Returns {groups: {id: [item]}, dropped}; an item's `path` is relative to the site root. */
  function collect(releases, steps, options) {
    const backend = options.backend || "", tokens = options.tokens || null, labels = options.labels || {};
    const everyBackend = options.everyBackend || [];
    const groups = Object.fromEntries(steps.map(function (s) { return [s[0], []]; }));
    let dropped = 0;
    for (const rel of releases) {
      for (const c of rel.change_list) {
        if (!c.group || !(c.group in groups)) continue;
        // Known issues show whatever the backend (the build's EVERY_BACKEND_GROUPS; each says whom it hits).
        if (!everyBackend.includes(c.group) && !concerns(c, backend)) continue;
        if (tokens && !usesAny(c.symbols, tokens)) { dropped++; continue; }
        groups[c.group].push({
          release: rel.version, path: c.path, text: plain(c.text), area: c.area, kind: c.kind,
          note: c.note, restore: c.restore, removal: c.removal, workaround: c.workaround,
          prs: c.prs, prUrls: c.pr_urls, issues: c.issues, issueUrls: c.issue_urls, backends: c.backends,
        });
      }
      if (tokens) continue;  // an announcement names no code of yours
      for (const e of rel.entries) {
        // The API's `group` (generator/enrich.py guide_entries): "" where a change record of the
        // same step already tells it, so the ledger, release pages and both views count it once.
        const group = e.group;
        if (!group || !(group in groups) || !concerns(e, backend)) continue;
        groups[group].push({
          release: rel.version, path: e.path, text: e.title, label: labels[e.change] || e.change,
          removal: e.removal, prs: e.prs, prUrls: e.pr_urls,
        });
      }
    }
    return { groups: groups, dropped: dropped };
  }

  return {
    normalise: normalise, shard: shard, plain: plain, pastedTokens: pastedTokens, usesAny: usesAny,
    queryKind: queryKind, messageKey: messageKey, symptomMatches: symptomMatches, concerns: concerns, collect: collect,
  };
})());
