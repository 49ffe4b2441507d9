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

     readEnv       generator/envpaste.py read: what a pasted environment says
     envAnswers    generator/envpaste.py answers: what the compatibility data answers for it

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
    // A feature is told once per kind of step in a range (generator/enrich.py guide, _told_as):
    // the steps that ask something count as one kind.
    const acting = ["breaking", "defaults", "removals", "deprecations"], told = new Set();
    const toldAs = function (g) { return acting.includes(g) ? "acts" : g; };
    let dropped = 0;
    for (const rel of releases) {
      for (const c of rel.change_list) {
        if (!c.group || !(c.group in groups)) continue;
        // Known issues show whatever the backend (the build's EVERY_BACKEND_GROUPS; each says whom it hits).
        if (!everyBackend.includes(c.group) && !concerns(c, backend)) continue;
        if (tokens && !usesAny(c.symbols, tokens)) { dropped++; continue; }
        (c.features || []).forEach(function (f) { told.add(toldAs(c.group) + " " + f.id); });
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
        if (told.has(toldAs(group) + " " + e.id)) continue;
        told.add(toldAs(group) + " " + e.id);
        groups[group].push({
          release: rel.version, path: e.path, text: e.title, label: labels[e.change] || e.change,
          note: e.note, removal: e.removal, ending: e.ending, prs: e.prs, prUrls: e.pr_urls,
        });
      }
    }
    return { groups: groups, dropped: dropped };
  }

  /* ---- A pasted environment (generator/envpaste.py: the patterns are ASCII and line-based). */
  const SP = "[ \\t]", NS = "[^ \\t\\r\\n]";
  const PASTED_ENV = {
    collect_torch: new RegExp("^PyTorch version:" + SP + "*(" + NS + "+)", "m"),
    collect_cuda: new RegExp("^CUDA used to build PyTorch:" + SP + "*([0-9]+\\.[0-9]+)", "m"),
    collect_rocm: new RegExp("^ROCM used to build PyTorch:" + SP + "*([0-9]+\\.[0-9]+)", "m"),
    collect_xpu: new RegExp("^Is XPU available:" + SP + "*True", "m"),
    collect_os: new RegExp("^OS:" + SP + "*([^\\r\\n(]*?)" + SP + "*(?:\\(([A-Za-z0-9_]+)\\))?" + SP + "*$", "m"),
    collect_python: new RegExp("^Python version:" + SP + "*([0-9]+\\.[0-9]+)(?:\\.[0-9]+)?([^\\r\\n]*)", "m"),
    collect_gpus: /^GPU models and configuration:([^\r\n]*)((?:\r?\n(?:GPU [0-9]+:|[ \t])[^\r\n]*)*)/m,
    pin: new RegExp("^" + SP + "*(?:\\[[a-z0-9]+\\]" + SP + "+)?torch" + SP + "*(?:===?|~=|>=)" + SP + "*([0-9][0-9A-Za-z.+!_-]*)", "m"),
    listed: new RegExp("^" + SP + "*(?:py)?torch" + SP + "+([0-9][0-9A-Za-z.+!_-]*)(?:" + SP + "|$)", "m"),
    wheel: /torch-([0-9][0-9A-Za-z.!_]*)(?:(?:\+|%2B)([0-9A-Za-z.]+))?-cp([0-9])([0-9]+)t?-[0-9A-Za-z_]*?(t?)-([0-9A-Za-z_.]+)\.whl/,
    lock: /^name = "torch"\r?\nversion = "([^"]+)"/m,
    pipfile: /^[ \t]*"torch": \{[^}]*?"version": "==([^"]+)"/m,
  };

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
      cuda: "", rocm: "", backend: "", gpus: [] };
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
    if (m) env.gpus = [m[1]].concat(m[2].split("\n")).map(function (l) { return l.replace(/^[ \t]+|[ \t]+$/g, "").replace(/^GPU [0-9]+: /, ""); }).filter(Boolean);
    return Object.assign(env, buildOf(text, local, env.os, env.arch));
  }

  function buildOf(text, local, os, arch) {
    let cuda = /^cu[0-9]{2,4}$/.test(local) ? local.slice(2, -1) + "." + local.slice(-1) : "";
    let rocm = local.startsWith("rocm") ? local.slice(4).split(".").slice(0, 2).join(".") : "";
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
  function pythonOk(row, py) {
    const [low, high, experimental] = row.python;
    if (experimental.includes(py) || py.endsWith("t")) return experimental.includes(py);
    return vcmp(low, py) <= 0 && vcmp(py, high) <= 0;
  }
  function minor(v) { return v.split(".").slice(0, 2).join("."); }
  function stopOf(rows, since, ok) {
    const r = rows.find(function (r) { return vcmp(r.version, since) > 0 && !ok(r); });
    return r ? r.version : "";
  }
  function said(rows, stop, what) {
    if (!stop) return "";
    const before = rows.filter(function (r) { return vcmp(r.version, stop) < 0; });
    const last = before.length ? before[before.length - 1].version : "";
    return " The last release for " + what + " is " + last + "; it stops in " + stop + ".";
  }
  function archOf(model, data) {
    const hit = data.models.find(function (m) { return new RegExp(m[0]).test(model); });
    return hit ? hit[1] : "";
  }
  function buildsFor(cuda, arch, release, data, order) {
    if (vcmp(cuda, "13") >= 0 && order.indexOf(arch) < order.indexOf(data.cuda13[0])) return false;
    return !data.leaves.some(function (l) { return l[2].includes(arch) && l[1].includes(cuda) && vcmp(l[0], release) <= 0; });
  }

  function envAnswers(env, data, target) {
    const rows = data.releases, row = rows.find(function (r) { return r.version === target; });
    if (!row) return [];
    const since = env.release || rows[0].version, out = [];
    const py = env.python, cu = env.cuda, ro = env.rocm;
    if (py) {
      const ok = pythonOk(row, py);
      out.push({ topic: "python", ok: ok, text: "Python " + py + ": " + (ok ? "supported" : "not supported") + " by " + target +
        " (" + row.python[0] + " to " + row.python[1] + ")." + said(rows, stopOf(rows, since, function (r) { return pythonOk(r, py); }), "Python " + py) });
    }
    if (cu) {
      const ok = row.cuda.includes(cu);
      out.push({ topic: "cuda", ok: ok, text: "CUDA " + cu + ": " + target + (ok ? " builds a wheel for it" : " builds no wheel for it") +
        " (" + row.cuda.join(", ") + ")." + said(rows, stopOf(rows, since, function (r) { return r.cuda.includes(cu); }), "CUDA " + cu) });
    }
    if (ro) {
      out.push({ topic: "rocm", ok: minor(row.rocm) === ro, text: "ROCm " + ro + ": " + target + " is built for ROCm " + row.rocm + "." +
        said(rows, stopOf(rows, since, function (r) { return minor(r.rocm) === ro; }), "ROCm " + ro) });
    }
    const order = data.archs;
    const archs = Array.from(new Set(env.gpus.map(function (g) { return archOf(g, data); }).filter(Boolean)));
    for (const arch of archs) {
      const builds = row.cuda.filter(function (v) { return buildsFor(v, arch, row.version, data, order); });
      const gone = data.leaves.filter(function (l) { return l[2].includes(arch) && vcmp(since, l[0]) < 0 && vcmp(l[0], row.version) <= 0; })
        .map(function (l) { return " " + arch + " left the CUDA " + l[1].join(" and ") + " builds in " + l[0] + "."; });
      out.push({ topic: "gpu", ok: builds.length > 0, text: arch + " GPUs: " + (builds.length ? row.version + " builds for them with CUDA " +
        builds.join(", ") + "." : "no CUDA wheel of " + row.version + " builds for them.") + gone.join("") });
    }
    return out;
  }

  return {
    normalise: normalise, shard: shard, plain: plain, pastedTokens: pastedTokens, usesAny: usesAny,
    concerns: concerns, collect: collect, readEnv: readEnv, envAnswers: envAnswers,
    queryKind: queryKind, messageKey: messageKey, symptomMatches: symptomMatches,
  };
})());
