/* The rules the browser shares with Python, with no page in sight (Node loads this file in
   tests/test_js_parity.py and runs each function beside its Python reference on the same inputs):

     normalise     generator/search/records.py normalise: a query as the names table keys it
     shard         generator/search/records.py shard: the names file a key is in
     plain         generator/markup/textfilters.py plain: a record line as the words a reader sees
     pastedTokens  generator/model/symbols.py tokens: what pasted code uses
     pasteUses     generator/tools/paste.py uses: what pasted code uses, read as code (no parser)
     subjectMatches, subjectUsed   generator/model/symbols.py subject_matches, generator/tools/paste.py
                   used: does a use match a change's subject, and which item
     queryKind     generator/search/records.py query_kind: a number, a version or text
     nameForms     generator/search/records.py name_forms: a plural or hyphenated query's other forms
     pastedCall    generator/search/records.py pasted_call: the callee and keyword arguments of a call
     messageKey, symptomMatches   generator/search/records.py message_key, symptom_matches: does a
                   pasted message or traceback show a change's error text

     readEnv       generator/pages/envpaste.py read: what a pasted environment says
     envAnswers    generator/pages/envpaste.py answers: what the compatibility data answers for it

   and the one rule by which /compare/ and /upgrade/ pick and group a range's changes (`collect`,
   generator/enrich/enrich.py guide; `concerns`, generator/model/content.py applies_to).
   tests/test_js_parity.py holds each to its Python. In the browser it is window.atlas.rules; in Node, module.exports. */
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

  /* The other forms of a normalised query that names nothing, in the order they are tried:
     hyphens as spaces, the last word's plural as its singular, those words joined ("cudagraph"). */
  function nameForms(key) {
    const spaced = words(key.replace(/-/g, " "));
    const singular = spaced.replace(/(?<=[a-z]{3})(?<!s)s$/, "");
    const forms = singular.includes(" ") ? [spaced, singular, singular.replace(/ /g, "")] : [spaced, singular];
    return Array.from(new Set(forms)).filter(function (f) { return f && f !== key; });
  }

  /* A pasted call: [the callee's last name, the keyword arguments it passes], or null. */
  const CALL = /^([A-Za-z_][A-Za-z0-9_.]*)[ \t]*\((.*)\)[ \t]*;?$/s;
  const KEYWORD = /(?:^|[,(])[ \t\n]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)/g;
  const TRIM = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g");  // str.strip()
  function pastedCall(text) {
    const m = CALL.exec(text.replace(TRIM, ""));
    if (!m) return null;
    const keywords = Array.from(new Set(Array.from(m[2].matchAll(KEYWORD), function (k) { return k[1]; })));
    return keywords.length ? [m[1].replace(/\.+$/, "").split(".").pop(), keywords] : null;
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

  const WS = "[" + SPACE + "]", NON_WS = "[^" + SPACE + "]";
  const MARKER = new RegExp("^" + WS + "*(?:[-*+]|#{1,6})" + WS + "+");
  const BOLD_HEADING = new RegExp("^" + WS + "*#{1,6}" + WS + "+(?:\\*\\*|__)(?=" + NON_WS + ")([^\\n]+?)(?<=" + NON_WS + ")(?:\\*\\*|__)" + WS + "*$");
  const EDITORS = new RegExp(WS + "*_\\(from miscategorized\\)_|" + WS + "*<br" + WS + "*/?>", "giu");

  function plain(markdown) {
    const text = markdown.replace(BOLD_HEADING, "$1").replace(MARKER, "").replace(EDITORS, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/\*\*|`/g, "");
    return words(text.replace(/\\([!-\/:-@\[-`{-~])/g, "$1"));
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

  /* ---- Pasted code (generator/tools/paste.py `uses`, `used`; generator/model/symbols.py
     `subject_matches`): what the paste uses, and whether a change's subject is among it. */
  const TOKEN = /(?<comment>#[^\n]*)|(?<str>[rRbBuUfF]{0,2}(?:"""[\s\S]*?(?:"""|(?![\s\S]))|'''[\s\S]*?(?:'''|(?![\s\S]))|"(?:\\[\s\S]|[^"\\\n])*"?|'(?:\\[\s\S]|[^'\\\n])*'?))|(?<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)|(?<num>[0-9][0-9A-Za-z_.]*)|(?<op>\*\*|==|!=|<=|>=|->|[()\[\]{}=:,.\n@])|(?<skip>[\s\S])/g;
  const KEYWORDS = new Set(("False None True and as assert async await break class continue def del elif else except " +
    "finally for from global if import in is lambda nonlocal not or pass raise return try while with yield").split(" "));
  const ENV_CALLS = new Set(["os.getenv", "os.putenv", "os.unsetenv", "os.environ.get", "os.environ.setdefault", "os.environ.pop"]);
  const OPEN = ["(", "[", "{"], CLOSE = [")", "]", "}"];
  const FLAG_STRING = /^--[a-z][a-z0-9-]+(?:=[\s\S]*)?$/;
  const SUBJECT = /^(?:([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?:\((!?)([A-Za-z_][A-Za-z0-9_]*)=\))?|(--[a-z][a-z0-9-]+))$/;
  const ENV_NAME = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/;

  function use(fields) {
    return Object.assign({ name: null, written: "", call: false, arg: null, args: [], some_args: false, env: null, flag: null, imported: false }, fields);
  }
  function same(t, kind, value) { return !!t && t[0] === kind && t[1] === value; }

  function codeTokens(text) {
    text = text.replace(/\r\n?/g, "\n");
    const out = [];
    for (const m of text.matchAll(TOKEN)) {
      const kind = Object.keys(m.groups).find(function (k) { return m.groups[k] !== undefined; }) || "skip";
      if (kind === "str") {
        const body = m[0].replace(/^[rRbBuUfF]+/, "");
        const q = (body.slice(0, 3) === '"""' || body.slice(0, 3) === "'''") ? 3 : 1;
        out.push([kind, body.length >= 2 * q ? body.slice(q, body.length - q) : ""]);
      } else if (kind !== "comment" && kind !== "skip") out.push([kind, m[0]]);
    }
    return out;
  }
  function statements(tokens) {
    const out = []; let cur = [], depth = 0;
    for (const t of tokens) {
      if (t[0] === "op" && OPEN.includes(t[1])) depth++;
      else if (t[0] === "op" && CLOSE.includes(t[1])) depth = Math.max(0, depth - 1);
      if (t[0] === "op" && t[1] === "\n") { if (depth === 0 && cur.length) { out.push(cur); cur = []; } continue; }
      cur.push(t);
    }
    if (cur.length) out.push(cur);
    return out;
  }
  function imports(st, aliases, found) {
    const names = st.filter(function (t) { return t[0] === "name"; }).map(function (t) { return t[1]; });
    if (!names.length || st[0][0] !== "name" || (names[0] !== "import" && names[0] !== "from")) return false;
    let module = "", rest;
    if (names[0] === "from") {
      if (st.length < 2 || st[1][0] !== "name" || names[2] !== "import") return true;
      module = names[1]; rest = names.slice(3);
    } else rest = names.slice(1);
    let i = 0;
    while (i < rest.length) {
      const name = rest[i], bound = i + 2 < rest.length && rest[i + 1] === "as" ? rest[i + 2] : "";
      const full = module ? module + "." + name : name;
      aliases[bound || (module ? name : name.split(".")[0])] = (bound || module) ? full : name.split(".")[0];
      found.push(use({ name: full, written: name, imported: true }));
      i += bound ? 3 : 1;
    }
    return true;
  }
  function body(st) {
    const first = st[0][0] === "name" ? st[0][1] : "";
    if (first === "class" || first === "def" || first === "async") {
      let depth = 0;
      for (let i = 0; i < st.length; i++) {
        if (st[i][0] === "op") depth += (OPEN.includes(st[i][1]) ? 1 : 0) - (CLOSE.includes(st[i][1]) ? 1 : 0);
        if (same(st[i], "op", ":") && depth === 0) return st.slice(i + 1);
      }
      return [];
    }
    if ((first === "else" || first === "try" || first === "finally") && same(st[1], "op", ":")) return st.slice(2);
    if (first && !KEYWORDS.has(first) && same(st[1], "op", ":")) {
      const rest = st.slice(2), at = rest.findIndex(function (t) { return same(t, "op", "="); });
      return at >= 0 ? st.slice(0, 1).concat(rest.slice(at)) : [];
    }
    return st;
  }
  function resolve(written, aliases, afterDot) {
    const dot = written.indexOf("."), first = dot < 0 ? written : written.slice(0, dot);
    if (afterDot || !Object.prototype.hasOwnProperty.call(aliases, first)) return null;
    return aliases[first] + (dot < 0 ? "" : written.slice(dot));
  }
  function envOf(t, found) { if (t && t[0] === "str") found.push(use({ env: t[1] })); }
  function walk(tokens, aliases, found) {
    const frames = [];
    for (let i = 0; i < tokens.length; i++) {
      const [kind, value] = tokens[i], prev = i ? tokens[i - 1] : ["", ""], next = tokens[i + 1] || ["", ""];
      const frame = frames.length ? frames[frames.length - 1] : null;
      if (kind === "name") {
        if (KEYWORDS.has(value)) continue;
        if (same(next, "op", "=") && frame && frame.call && (prev[1] === "(" || prev[1] === ",")) {
          frame.args.push(value);
          if (frame.written) found.push(use({ name: frame.name, written: frame.written, call: true, arg: value }));
          continue;
        }
        if (same(next, "op", "=") && !frames.length && !value.includes(".") && i === 0) continue;
        const afterDot = same(prev, "op", ".");  // a member of what an expression gives: `f(x).qr`
        found.push(use({ name: resolve(value, aliases, afterDot), written: (afterDot ? "." : "") + value }));
      } else if (kind === "op" && OPEN.includes(value)) {
        const callee = prev[0] === "name" && !KEYWORDS.has(prev[1]) && value === "(";
        const afterDot = i > 1 && same(tokens[i - 2], "op", ".");
        const written = callee ? (afterDot ? "." : "") + prev[1] : "";
        const name = callee ? resolve(written, aliases, afterDot) : null;
        frames.push({ call: value === "(", written: written, name: name, args: [], some: false });
        if (value === "[" && prev[0] === "name" && resolve(prev[1], aliases, false) === "os.environ") envOf(next, found);
        if (callee && ENV_CALLS.has(name)) envOf(next, found);
      } else if (kind === "op" && CLOSE.includes(value) && frames.length) {
        const done = frames.pop();
        if (done.written) found.push(use({ name: done.name, written: done.written, call: true, args: done.args.slice(), some_args: done.some }));
      } else if (kind === "op" && value === "**" && frame && frame.call && (prev[1] === "(" || prev[1] === ",")) {
        frame.some = true;
      } else if (kind === "str" && FLAG_STRING.test(value)) {
        found.push(use({ flag: value.split("=")[0] }));
      }
    }
  }
  function pasteUses(text) {
    const aliases = { os: "os" }, found = [];
    const rest = statements(codeTokens(text)).filter(function (st) { return !imports(st, aliases, found); });
    for (const st of rest) walk(body(st), aliases, found);
    return found;
  }
  function last(name) { return name.split(".").pop(); }
  function subjectMatches(item, u) {
    const m = SUBJECT.exec(item);
    if (!m) return false;
    if (m[4]) return u.flag === m[4];
    const name = m[1], neg = m[2], arg = m[3];
    if (u.env !== null || u.flag !== null) return u.env === name;
    if (arg && neg) return u.call && u.arg === null && u.name === name && !u.args.includes(arg) && !u.some_args;
    if (arg) return u.arg === arg && (name.includes(".") ? u.name : last(u.written)) === name;
    if (!name.includes(".")) {
      if (ENV_NAME.test(name)) return false;
      return u.arg ? u.arg === name : last(u.written) === name;
    }
    if (u.arg) return false;
    if (u.name !== null) return u.name === name || u.name.startsWith(name + ".");
    const member = name.split(".").slice(1, -1).some(function (p) { return /^[A-Z]/.test(p); });
    return member && u.written.includes(".") && last(u.written) === last(name);
  }
  /* The subject item the pasted uses match, "" when none (the most specific first; an import is
     no use for a default change). */
  function subjectUsed(subject, found, group) {
    const items = subject.slice().sort(function (a, b) { return b.length - a.length || (a < b ? -1 : a > b ? 1 : 0); });
    for (const item of items) {
      for (const u of found) {
        if (u.imported && group === "defaults") continue;
        if (subjectMatches(item, u)) return item;
      }
    }
    return "";
  }

  /* A change or entry concerns a backend when it names that backend or none (a change that
     names no backend is everyone's), or when its subject is Python code naming no backend
     (the API's `every_backend`: generator/model/content.py applies_to). */
  function concerns(item, backend) {
    return !backend || !item.backends.length || !!item.every_backend || item.backends.includes(backend);
  }

  /* The changes and entries of a range (the API's release JSON, oldest first) grouped by the
     build's upgrade groups (`steps`: [[id, title], ...]), for /compare/ and /upgrade/ alike:
     a release-note change goes to its `group` (those with none ask nothing of an upgrade), an
     entry to the API's `group` too; with `uses` (pasteUses of pasted code), only changes whose
     subject it uses, each with the subject item it `matched`.
     Returns {groups: {id: [item]}, dropped, elsewhere: {id: n}} (`elsewhere`: the known issues of
     the range for other platforms only); an item's `path` is relative to the site root. */
  function collect(releases, steps, options) {
    const backend = options.backend || "", uses = options.uses || null, labels = options.labels || {};
    const everyBackend = options.everyBackend || [];
    const groups = Object.fromEntries(steps.map(function (s) { return [s[0], []]; }));
    // A feature is told once per kind of step in a range (generator/enrich.py guide, _told_as):
    // the steps that ask something count as one kind.
    const acting = ["breaking", "defaults", "removals", "deprecations"], told = new Set();
    const toldAs = function (g) { return acting.includes(g) ? "acts" : g; };
    let dropped = 0;
    const elsewhere = {};
    for (const rel of releases) {
      for (const c of rel.change_list) {
        if (!c.group || !(c.group in groups)) continue;
        // Known issues (the build's EVERY_BACKEND_GROUPS) for other platforms are counted, not shown.
        if (!concerns(c, backend)) { if (everyBackend.includes(c.group)) elsewhere[c.group] = (elsewhere[c.group] || 0) + 1; continue; }
        const matched = uses ? subjectUsed(c.subject, uses, c.group) : "";
        if (uses && !matched) { dropped++; continue; }
        (c.features || []).forEach(function (f) { told.add(toldAs(c.group) + " " + f.id); });
        groups[c.group].push({ matched: matched,
          release: rel.version, path: c.path, text: plain(c.text), area: c.area, kind: c.kind,
          note: c.note, restore: c.restore, removal: c.removal, workaround: c.workaround,
          prs: c.prs, prUrls: c.pr_urls, issues: c.issues, issueUrls: c.issue_urls, backends: c.backends,
        });
      }
      if (uses) continue;  // an announcement names no code of yours
      for (const e of rel.entries) {
        // The API's `group` (generator/enrich/changeviews.py upgrade): "" where a change record of the
        // same step already tells it, so the ledger, release pages and both views count it once.
        // On a backend, what a release announced as improved for it alone is news there
        // (generator/enrich/enrich.py _with_news).
        const group = e.group || (backend && e.change === "improved" && (e.backends || []).includes(backend) ? "new" : "");
        if (!group || !(group in groups) || !concerns(e, backend)) continue;
        if (told.has(toldAs(group) + " " + e.id)) continue;
        told.add(toldAs(group) + " " + e.id);
        groups[group].push({
          release: rel.version, path: e.path, text: e.title, label: labels[e.change] || e.change,
          note: e.note, removal: e.removal, ending: e.ending, prs: e.prs, prUrls: e.pr_urls,
        });
      }
    }
    return { groups: groups, dropped: dropped, elsewhere: elsewhere };
  }

  /* ---- A pasted environment (generator/pages/envpaste.py: the patterns are ASCII and line-based). */
  const SP = "[ \\t]", NS = "[^ \\t\\r\\n]";
  const PASTED_ENV = {
    collect_torch: new RegExp("^PyTorch version:" + SP + "*(" + NS + "+)", "m"),
    collect_cuda: new RegExp("^CUDA used to build PyTorch:" + SP + "*([0-9]+\\.[0-9]+)", "m"),
    collect_rocm: new RegExp("^ROCM used to build PyTorch:" + SP + "*([0-9]+\\.[0-9]+)", "m"),
    collect_xpu: new RegExp("^Is XPU available:" + SP + "*True", "m"),
    collect_os: new RegExp("^OS:" + SP + "*([^\\r\\n(]*?)" + SP + "*(?:\\(([A-Za-z0-9_]+)\\))?" + SP + "*$", "m"),
    collect_python: new RegExp("^Python version:" + SP + "*([0-9]+\\.[0-9]+)(?:\\.[0-9]+)?([^\\r\\n]*)", "m"),
    collect_gpus: /^GPU models and configuration:([^\r\n]*)((?:\r?\n(?:GPU [0-9]+:|[ \t])[^\r\n]*)*)/m,
    collect_driver: new RegExp("^Nvidia driver version:" + SP + "*([0-9]+(?:\\.[0-9]+)*)" + SP + "*$", "m"),
    pin: new RegExp("^" + SP + "*(?:\\[[a-z0-9]+\\]" + SP + "+)?torch" + SP + "*(?:===?|~=|>=)" + SP + "*([0-9][0-9A-Za-z.+!_-]*)", "m"),
    listed: new RegExp("^" + SP + "*(?:py)?torch" + SP + "+([0-9][0-9A-Za-z.+!_-]*)(?:" + SP + "|$)", "m"),
    wheel: /torch-([0-9][0-9A-Za-z.!_]*)(?:(?:\+|%2B)([0-9A-Za-z.]+))?-cp([0-9])([0-9]+)t?-[0-9A-Za-z_]*?(t?)-([0-9A-Za-z_.]+)\.whl/,
    lock: /^name = "torch"\r?\nversion = "([^"]+)"/m,
    pipfile: /^[ \t]*"torch": \{[^}]*?"version": "==([^"]+)"/m,
  };

  const NOT_A_GPU = ["No CUDA", "Could not collect", "N/A"];  // collect_env's GPU line when it found none

  function torchOf(text) {
    for (const key of ["collect_torch", "lock", "pipfile", "pin", "listed"]) {
      const m = PASTED_ENV[key].exec(text);
      if (m) {
        const plus = m[1].indexOf("+");
        return plus < 0 ? [m[1], "", key] : [m[1].slice(0, plus), m[1].slice(plus + 1), key];
      }
    }
    const w = PASTED_ENV.wheel.exec(text);
    return w ? [w[1], w[2] || "", "wheel"] : ["", "", null];
  }

  function readEnv(text) {
    text = text.replace(/\r\n?|\u2028|\u2029/g, "\n");  // one kind of line end, as in Python
    const [version, local, how] = torchOf(text);
    const release = /^[0-9]+\.[0-9]+/.test(version) ? version.split(".").slice(0, 2).join(".") : "";
    const env = { torch: version, release: release, build: local, via: how || "", python: "", os: "", arch: "",
      cuda: "", rocm: "", backend: "", gpus: [], driver: "" };
    let m = PASTED_ENV.collect_python.exec(text);
    if (m) env.python = m[1] + (m[2].includes("free-threading") ? "t" : "");
    m = PASTED_ENV.collect_os.exec(text);
    if (m) { env.os = m[1].replace(/^[ \t]+|[ \t]+$/g, ""); env.arch = m[2] || ""; }
    if (how === "wheel") {
      m = PASTED_ENV.wheel.exec(text);
      env.python = m[3] + "." + m[4] + m[5];
      const platform = m[6];
      env.os = platform.startsWith("macosx") ? "macOS" : platform.startsWith("win") ? "Windows" : "Linux";
      env.arch = /arm64|aarch64/.test(platform) ? "arm64" : "x86_64";
    }
    m = PASTED_ENV.collect_gpus.exec(text);
    if (m) env.gpus = [m[1]].concat(m[2].split("\n")).map(function (l) { return l.replace(/^[ \t]+|[ \t]+$/g, "").replace(/^GPU [0-9]+: /, ""); }).filter(function (g) { return g && !NOT_A_GPU.includes(g); });
    m = PASTED_ENV.collect_driver.exec(text);
    if (m) env.driver = m[1];
    return Object.assign(env, buildOf(text, local, env.os, env.arch));
  }

  function buildOf(text, local, os, arch) {
    let cuda = /^cu[0-9]{2,4}$/.test(local) ? local.slice(2, -1) + "." + local.slice(-1) : "";
    let rocm = /^rocm[0-9]+(\.[0-9]+)+$/.test(local) ? local.slice(4) : "";  // as the compatibility rows write it
    if (!local) {
      const c = PASTED_ENV.collect_cuda.exec(text), r = PASTED_ENV.collect_rocm.exec(text);
      cuda = c ? c[1] : "";
      rocm = r ? r[1] : "";
    }
    const macArm = /mac/i.test(os) && arch === "arm64";
    const backend = cuda ? "cuda" : rocm ? "rocm" : (local === "xpu" || PASTED_ENV.collect_xpu.test(text)) ? "xpu"
      : macArm ? "mps" : local === "cpu" ? "cpu" : "";
    return { cuda: cuda, rocm: rocm, backend: backend };
  }

  /* The answers (generator/envpaste.py answers): each support's stop is looked up in the build's
     data (generator/enrich/supports.py), never computed here. */
  function vkey(v) { return /^[0-9]+(\.[0-9]+)*$/.test(v) ? v.split(".").map(Number) : [0]; }
  function vcmp(a, b) {
    const x = vkey(a), y = vkey(b);
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if (i >= x.length) return -1;
      if (i >= y.length) return 1;
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return 0;
  }
  function answer(topic, ok, text, evidence) { return { topic: topic, ok: ok, text: text, evidence: evidence }; }
  function said(stop, what, target) {
    if (stop && !stop.stop && stop.listed && !stop.ships.includes(target)) return " The compatibility matrix lists it last in " + stop.listed + ", and no source says it stopped.";
    if (stop && !stop.stop && stop.deprecated) return " It is deprecated since " + stop.deprecated + (stop.planned ? "; its removal is announced for " + stop.planned : "") + ".";
    if (!stop || !stop.stop) return "";
    let out = stop.last ? " The last release for " + what + " is " + stop.last + "; it stops in " + stop.stop + "."
      : " No release on the Atlas ships a wheel for " + what + "; it stopped in " + stop.stop + ".";
    if (stop.listed && stop.listed !== stop.last) out += " The release notes decide: the compatibility matrix lists it last in " + stop.listed + ".";
    if (stop.also.length) out += " Another source lists it for " + stop.also.join(", ") + " too.";
    return out;
  }
  const SUPPORT_NAMES = { python: "Python", cuda: "CUDA", rocm: "ROCm" };
  function support(topic, value, data, row) {
    const stop = Object.prototype.hasOwnProperty.call(data.stops[topic], value) ? data.stops[topic][value] : null;
    const ok = stop !== null && stop.ships.includes(row.version), target = row.version;
    let text;
    const unsaid = stop !== null && !ok && !stop.stop;  // the matrix silent, the notes too
    if (topic === "python") text = "Python " + value + ": " + (ok ? "supported" : unsaid ? "not listed" : "not supported") + " by " + target + " (" + row.python[0] + " to " + row.python[1] + ").";
    else if (topic === "cuda") text = "CUDA " + value + ": " + target + (ok ? " builds a wheel for it" : " builds no wheel for it") + " (" + row.cuda.join(", ") + ").";
    else text = "ROCm " + value + ": " + target + " is built for ROCm " + row.rocm + ".";
    // The target's row (what it builds) leads; then what the stop rests on, each URL once.
    const cited = stop ? stop.evidence.filter(function (e) { return e[1] !== row.url; }) : [];
    return answer(topic, ok, text + said(stop, SUPPORT_NAMES[topic] + " " + value, target), [rowCited(row)].concat(cited));
  }
  function rowCited(row) { return [row.version + " compatibility row", row.url]; }
  function archOf(model, data) {
    const hit = data.models.find(function (m) { return new RegExp(m[0]).test(model); });
    return hit ? hit[1] : "";
  }
  function gpuAnswers(env, data, row) {
    const target = row.version, out = [];
    const builds = Object.prototype.hasOwnProperty.call(data.builds, target) ? data.builds[target] : null;
    const platform = (env.arch === "arm64" || env.arch === "aarch64") && env.os !== "macOS" ? "aarch64" : "x86_64";
    const table = builds ? builds[platform] || [] : [];
    const archs = Array.from(new Set(env.gpus.map(function (g) { return archOf(g, data); }).filter(Boolean)));
    for (const arch of archs) {
      let text, ok, evidence;
      if (!table.length) {
        text = arch + " GPUs: no source at hand lists which architectures " + target + "'s CUDA builds cover."; ok = false; evidence = [rowCited(row)];
      } else {
        const cover = table.filter(function (b) { return b[1].includes(arch); }).map(function (b) { return b[0]; });
        const miss = table.filter(function (b) { return !b[1].includes(arch); }).map(function (b) { return b[0]; });
        text = arch + " GPUs: " + (cover.length ? target + "'s CUDA " + cover.join(", ") + " wheels cover them" : "none of " + target + "'s CUDA wheels covers them");
        text += miss.length && cover.length ? "; its CUDA " + miss.join(", ") + " wheels do not." : ".";
        ok = cover.length > 0 && !miss.includes(env.cuda);
        if (miss.includes(env.cuda)) text += " Your CUDA " + env.cuda + " build is one that does not.";
        evidence = [["CUDA support matrix (" + target + ")", builds.source]];
      }
      const left = Object.prototype.hasOwnProperty.call(data.left, arch) ? data.left[arch] : null;
      if (left) {
        text += " " + arch + " left the CUDA " + left.cuda.join(" and ") + " builds in " + left.release;
        text += left.first !== left.release ? " (the " + left.first + " notes said so first)." : ".";
        evidence = evidence.concat(left.evidence);
      }
      out.push(answer("gpu", ok, text, evidence));
    }
    return out;
  }
  function driverAnswers(env, data, row) {
    if (!env.driver || !env.gpus.length) return [];
    const out = [];
    for (const [cuda, linux, windows, release, source] of data.drivers) {
      const needing = row.cuda.filter(function (c) { return vcmp(c, cuda) >= 0; });
      if (!needing.length || vcmp(release, row.version) > 0) continue;
      const need = env.os.startsWith("Microsoft Windows") || env.os === "Windows" ? windows : linux;
      const ok = vcmp(env.driver, need) >= 0;
      let text = "NVIDIA driver " + env.driver + ": " + row.version + "'s CUDA " + needing.join(", ") + " wheels need " + need + " or newer";
      const older = row.cuda.filter(function (c) { return !needing.includes(c); });
      text += ok ? "; yours is." : "; yours is older" + (older.length ? ", so of its CUDA wheels only " + older.join(", ") + " runs on it." : ".");
      out.push(answer("driver", ok, text, [[release + " release post: CUDA " + cuda + "+ needs driver " + need, source]]));
    }
    return out;
  }
  function macosAnswers(env, data, target) {
    const m = /^macOS ([0-9]+(?:\.[0-9]+)*)/.exec(env.os);
    const rules = data.mps.filter(function (r) { return vcmp(r[0], target) <= 0; });
    if (!m || !rules.length) return [];
    const [release, macos, source] = rules[rules.length - 1];
    const ok = vcmp(vkey(m[1]).slice(0, 2).join("."), vkey(macos).slice(0, 2).join(".")) >= 0;
    let text = "macOS " + m[1] + ": " + target + "'s MPS (Apple GPU) needs macOS " + macos + " or newer, from " + release + " on.";
    const before = data.releases.filter(function (r) { return vcmp(r.version, release) < 0; });
    if (!ok && before.length) text += " The last release whose MPS runs on it is " + before[before.length - 1].version + ".";
    return [answer("macos", ok, text, [[release + " notes: MPS needs macOS " + macos, source]])];
  }
  function patchAnswers(env, data, target) {
    const patch = Object.prototype.hasOwnProperty.call(data.patches, target) ? data.patches[target] : null;
    if (!patch || !/^[0-9]+(\.[0-9]+)*$/.test(env.torch) || vcmp(env.torch, patch[0]) >= 0) return [];
    const why = patch[3].map(function (c) { return c[1] + " under \u201c" + c[0] + "\u201d"; }).join(", ");
    return [answer("patch", env.release !== target, "Take " + patch[0] + " (" + patch[1] + ") rather than " + target + ".0: its notes list " + why + ".",
      [["What " + patch[0] + " fixes", patch[2]]])];
  }

  function envAnswers(env, data, target) {
    const row = data.releases.find(function (r) { return r.version === target; });
    if (!row) return [];
    const out = ["python", "cuda", "rocm"].filter(function (t) { return env[t]; }).map(function (t) { return support(t, env[t], data, row); });
    return out.concat(gpuAnswers(env, data, row), driverAnswers(env, data, row), macosAnswers(env, data, target), patchAnswers(env, data, target));
  }

  return {
    normalise: normalise, shard: shard, plain: plain, pastedTokens: pastedTokens,
    concerns: concerns, collect: collect, pasteUses: pasteUses, subjectMatches: subjectMatches, subjectUsed: subjectUsed, readEnv: readEnv, envAnswers: envAnswers,
    queryKind: queryKind, messageKey: messageKey, symptomMatches: symptomMatches,
    nameForms: nameForms, pastedCall: pastedCall,
  };
})());
