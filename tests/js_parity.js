/* Runs the browser's rules (templates/assets/atlas-rules.js) on inputs from tests/test_js_parity.py.
   stdin: {"normalise": [query...], "shard": [[key, count]...], "plain": [text...],
           "tokens": [paste...], "matches": [[symbols, paste]...], "env": [paste...],
           "answers": {"data": envpaste.view, "cases": [[paste, target]...]}, "kind": [key...],
           "symptom": [[symptom, paste]...], "forms": [key...], "call": [text...],
           "concerns": [[backends, backend]...],
           "collect": {"releases": [API release record...], "steps": [[id, title]...],
                       "every": [group id...], "cases": [[first, last, backend]...]}}
   stdout: the same keys, each with the outputs in order (token sets as sorted arrays; `collect`:
   each case's groups as {id: [[release, path]...]}, for the releases first..last, indexes into
   `releases`). */
"use strict";
const rules = require(process.argv[2]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const sorted = (set) => Array.from(set).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
process.stdout.write(JSON.stringify({
  normalise: input.normalise.map((q) => rules.normalise(q)),
  shard: input.shard.map(([key, count]) => rules.shard(key, count)),
  plain: input.plain.map((t) => rules.plain(t)),
  tokens: input.tokens.map((p) => sorted(rules.pastedTokens(p))),
  matches: input.matches.map(([symbols, paste]) => rules.usesAny(symbols, rules.pastedTokens(paste))),
  env: input.env.map((paste) => rules.readEnv(paste)),
  answers: input.answers.cases.map(([paste, target]) => rules.envAnswers(rules.readEnv(paste), input.answers.data, target)),
  kind: input.kind.map((q) => rules.queryKind(q)),
  symptom: input.symptom.map(([symptom, paste]) => rules.symptomMatches(symptom, paste)),
  forms: input.forms.map((key) => rules.nameForms(key)),
  call: input.call.map((text) => rules.pastedCall(text)),
  concerns: input.concerns.map(([backends, backend]) => rules.concerns({ backends: backends }, backend)),
  collect: input.collect.cases.map(([first, last, backend]) => {
    const picked = rules.collect(input.collect.releases.slice(first, last + 1), input.collect.steps,
      { backend: backend, everyBackend: input.collect.every });
    const order = new Map(input.collect.releases.map((r, i) => [r.version, i]));
    const key = (i) => [order.get(i.release), i.path];
    const before = (a, b) => (a[0] - b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
    return Object.fromEntries(Object.entries(picked.groups).map(([id, items]) =>
      [id, items.map(key).sort(before).map(([r, path]) => [input.collect.releases[r].version, path])]));
  }),
}));
