"""The model layer: what the content says and what enrich computes of it, and the names every
layer shares. Imports nothing of the package.

- `content`: the frozen content model (what the YAML says) and the one table of each concept:
  sections, change kinds, upgrade groups, entry labels, hand-written change fields, the tier ids
  the rules need (tests/test_tables.py pins every copy to them); `applies_to`, the guide's
  backend rule.
- `computed`: the frozen computed model enrich builds and templates receive (`Feature`,
  `Standing`, `Ending`, `ReleaseView`, `Site` ...).
- `stops`: `SupportStop`, where a Python, CUDA or ROCm version's wheels stop (enrich.supports).
- `errors`: `Problem`, `ContentError`, `UsageError`, did-you-mean, and the one mapping of errors
  to exit codes.
- `urls`: every page path, anchor and relative link (imports nothing at all).
- `symbols`: the `torch.*` names and other identifiers a text names, and which symbol page lists each.
"""
