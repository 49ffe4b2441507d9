"""The enrich stage: one pass from the content model to the computed model (`model.computed`),
every derived fact computed once, then the facts every page must agree on checked.

- `enrich`: the pass, a list of derivations (`Session.derive`); release groupings,
  contributors, symbol pages, the upgrade guide between two releases.
- `backendviews`: each backend's view: its matrix, entries and changes by release, counted.
- `changeviews`, `lifecycle`, `families`: each change's anchor, backends, features and upgrade
  step; lifecycle strips, features and matrices; the families.
- `facts`: what the Atlas states, computed once: a feature's standing (overall and per
  backend), how a deprecation ends, the ledger.
- `supports`: where each Python, CUDA and ROCm version's wheels stop, with what that rests on
  (the environment box looks it up).
- `home`: the home page's view (the glance table, its legend, what is on its way out).
- `invariants`: the facts every page must agree on, checked by `check` on the real content.
"""
