/* The Atlas's full-text search: the index generator/search/fulltext.py writes, searched here.
   atlas-search.js imports this module once per site root and tells it where the index is
   (`options({index})`); a search fetches the chunks holding its words' terms, and a hit's
   fragment (in a file of meta.json's `per` records) only when it is shown. Its functions are
   named as Pagefind's module's were (options, init, search, filters), which made the index
   before. `stem` and `terms` are fulltext.py's. */
let base = null;  // the index's folder, from `options`
let excerptLength = 30;
const cache = new Map();

function get(path) {
  if (!cache.has(path)) cache.set(path, fetch(new URL(path, base)).then(function (r) { return r.ok ? r.json() : null; }));
  return cache.get(path);
}

export function stem(word) {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) word = word.slice(0, -3) + "y";
  else if (word.endsWith("sses")) word = word.slice(0, -2);
  else if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) word = word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5) word = word.slice(0, -3);
  else if (word.endsWith("ed") && word.length > 4) word = word.slice(0, -2);
  if (word.endsWith("e") && word.length > 4) word = word.slice(0, -1);
  return word;
}

const TOKEN = /[a-z0-9][a-z0-9_.+#-]*[a-z0-9+#]|[a-z0-9]/g;

export function terms(text) {
  const out = [];
  for (const token of text.toLowerCase().match(TOKEN) || []) {
    const parts = token.split(/[._\-]+/).filter(Boolean);
    parts.forEach(function (p) { out.push(stem(p)); });
    if (parts.length > 1) out.push(parts.join(""));
  }
  return out;
}

export async function options(o) {
  if (o && o.excerptLength) excerptLength = o.excerptLength;
  if (o && o.index) base = new URL(o.index);
}
export function init() { get("meta.json"); }
export async function preload() {}

/* The chunk that would hold term `q` (the last whose first term is not after it), and the list
   of every chunk's first term. */
async function chunkAt(q) {
  const firsts = (await get("meta.json")).chunks;
  let lo = 0, hi = firsts.length - 1, at = 0;
  while (lo <= hi) { const mid = (lo + hi) >> 1; if (firsts[mid] <= q) { at = mid; lo = mid + 1; } else hi = mid - 1; }
  return [at, firsts];
}

/* The postings of `q` itself, from the one chunk that would hold it: [[q, postings]] or []. */
async function exact(q) {
  const chunk = await get("c" + (await chunkAt(q))[0] + ".json");
  return Object.prototype.hasOwnProperty.call(chunk, q) ? [[q, chunk[q]]] : [];
}

/* The postings of every term starting with `q`: [[term, postings], …]. */
async function expand(q) {
  const [at, firsts] = await chunkAt(q);
  const out = [];
  for (let c = at; c < firsts.length; c++) {
    if (c > at && !firsts[c].startsWith(q)) break;
    const chunk = await get("c" + c + ".json");
    for (const term of Object.keys(chunk)) if (term.startsWith(q)) out.push([term, chunk[term]]);
  }
  return out;
}

let filterIndex = null;

export async function filters() {
  filterIndex = filterIndex || get("filters.json");
  const all = await filterIndex, out = {};
  for (const [name, values] of Object.entries(all)) {
    out[name] = {};
    for (const [value, ids] of Object.entries(values)) out[name][value] = ids.length;
  }
  return out;
}

function escapeHtml(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }

function excerpt(content, stems) {
  const words = content.split(/\s+/).filter(Boolean);
  const hit = words.map(function (w) { return terms(w).some(function (t) { return stems.some(function (s) { return t.startsWith(s); }); }); });
  let best = 0, bestCount = -1;
  for (let i = 0; i < Math.max(1, words.length - excerptLength + 1); i++) {
    let n = 0;
    for (let j = i; j < Math.min(words.length, i + excerptLength); j++) if (hit[j]) n++;
    if (n > bestCount) { bestCount = n; best = i; }
  }
  return words.slice(best, best + excerptLength).map(function (w, k) {
    return hit[best + k] ? "<mark>" + escapeHtml(w) + "</mark>" : escapeHtml(w);
  }).join(" ");
}

export async function search(q, opts) {
  const meta = await get("meta.json");
  const wanted = Array.from(new Set(terms(q || "")));
  if (!wanted.length) return { results: [], unfilteredResultCount: 0, filters: {}, totalFilters: {} };
  const n = meta.count;
  // The words still being typed, matched by their start: the last word's last part and, for a
  // word with parts (torch.lo), its joined form. A word before it is matched as itself when the
  // index has it ("torch" in "torch.load" is not every torchaudio, torchcompile …), else by its start.
  const tokens = (q || "").toLowerCase().match(TOKEN) || [];
  const tail = tokens.length ? terms(tokens[tokens.length - 1]) : [];
  const open = new Set(tail.length > 1 ? tail.slice(-2) : tail);
  // Every word's records and scores; the records holding every word the index knows, by the
  // sum (a query no record holds whole gets none: atlas-search.js then looks for partial ones).
  const each = [];
  for (const q1 of wanted) {
    let found = open.has(q1) ? [] : await exact(q1), asked = q1;
    if (!found.length) found = await expand(q1);
    // A word no term starts with, as Pagefind did (Pagefind/pagefind#329): the longest start of it that is a term of
    // its own ("flexatention": "flex"), else the word is left out of the search.
    for (let k = q1.length - 1; !found.length && k >= 2; k--) {
      const start = q1.slice(0, k);
      found = (await expand(start)).filter(function (f) { return f[0] === start; });
      asked = start;
    }
    if (!found.length) continue;
    const mine = new Map();
    for (const [term, flat] of found) {
      const pairs = flat.split(" ");
      const df = pairs.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const similar = asked.length / term.length;
      let id = 0;
      for (const pair of pairs) {
        const colon = pair.indexOf(":");
        id += parseInt(pair.slice(0, colon), 36);
        const s = idf * similar * parseInt(pair.slice(colon + 1), 36) / 100;
        if (!mine.has(id) || mine.get(id) < s) mine.set(id, s);
      }
    }
    each.push(mine);
  }
  let scores = new Map();
  if (each.length) {
    for (const [id, s] of each[0]) if (each.every(function (m) { return m.has(id); })) scores.set(id, each.reduce(function (sum, m) { return sum + m.get(id); }, 0));
  }
  let ids = Array.from(scores.keys());
  const chosen = (opts && opts.filters) || {};
  if (Object.keys(chosen).length) {
    filterIndex = filterIndex || get("filters.json");
    const all = await filterIndex;
    for (const [name, value] of Object.entries(chosen)) {
      const allowed = new Set(((all[name] || {})[value]) || []);
      ids = ids.filter(function (id) { return allowed.has(id); });
    }
  }
  ids.sort(function (a, b) { return scores.get(b) - scores.get(a) || a - b; });
  const results = ids.map(function (id) {
    return {
      id: String(id),
      score: scores.get(id),
      data: async function () {
        const f = (await get("f/" + Math.floor(id / meta.per) + ".json"))[id % meta.per];
        return { url: f.url, meta: { title: f.title, url: f.url }, content: f.content, excerpt: excerpt(f.content, wanted), filters: f.filters };
      },
    };
  });
  return { results: results, unfilteredResultCount: scores.size, filters: {}, totalFilters: {} };
}
