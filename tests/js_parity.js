/* Runs the browser's rules (templates/assets/atlas-rules.js) on inputs from tests/test_js_parity.py.
   stdin: {"normalise": [query...], "shard": [[key, count]...], "plain": [text...],
           "tokens": [paste...], "env": [paste...],
           "answers": {"data": envpaste.view, "cases": [[paste, target]...]}, "kind": [key...],
           "symptom": [[symptom, paste]...], "forms": [key...], "call": [text...],
           "concerns": [[backends, backend]...], "uses": [paste...],
           "used": {"subjects": [[subject, group]...], "pastes": [paste...]},
           "collect": {"releases": [api release...], "steps": [[id, title]...],
                       "cases": [[start, end, backend]...], "everyBackend": [group...]}}
   stdout: the same keys, each with the outputs in order (token sets as sorted arrays). */
"use strict";
const rules = require(process.argv[2]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const sorted = (set) => Array.from(set).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
process.stdout.write(JSON.stringify({
  normalise: input.normalise.map((q) => rules.normalise(q)),
  shard: input.shard.map(([key, count]) => rules.shard(key, count)),
  plain: input.plain.map((t) => rules.plain(t)),
  tokens: input.tokens.map((p) => sorted(rules.pastedTokens(p))),
  env: input.env.map((paste) => rules.readEnv(paste)),
  answers: input.answers.cases.map(([paste, target]) => rules.envAnswers(rules.readEnv(paste), input.answers.data, target)),
  kind: input.kind.map((q) => rules.queryKind(q)),
  symptom: input.symptom.map(([symptom, paste]) => rules.symptomMatches(symptom, paste)),
  forms: input.forms.map((key) => rules.nameForms(key)),
  call: input.call.map((text) => rules.pastedCall(text)),
  concerns: input.concerns.map(([backends, backend]) => rules.concerns({ backends: backends }, backend)),
  uses: input.uses.map((paste) => rules.pasteUses(paste)),
  used: input.used.pastes.map((paste) => {
    const found = rules.pasteUses(paste);
    return input.used.subjects.map(([subject, group]) => rules.subjectUsed(subject, found, group));
  }),
  collect: input.collect.cases.map(([start, end, backend]) => {
    const versions = input.collect.releases.map((r) => r.version);
    const range = input.collect.releases.filter((r) => versions.indexOf(r.version) > versions.indexOf(start) && versions.indexOf(r.version) <= versions.indexOf(end));
    const found = rules.collect(range, input.collect.steps, { backend: backend, everyBackend: input.collect.everyBackend });
    const out = Object.fromEntries(Object.entries(found.groups).map(([g, items]) => [g, items.map((it) => it.path)]));
    return Object.assign(out, { elsewhere: found.elsewhere });
  }),
}));
