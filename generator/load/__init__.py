"""The load stage: every content file read, checked and built into the content model
(`model.content`); every problem collected, each at `path:line:col`.

- `load`: the entry point, `load(content_dir, session)`: reads every file (half in a forked child).
- `releases`, `changes`, `catalogue`, `common`: each kind built into the model and checked across files.
- `yamlsrc`: reading YAML with the position of every node, refusing what content never needs.
- `schema`: the JSON Schemas (`generator/schemas/`, which every content file names for editors)
  and their errors as positioned problems.
- `upgrade_rules`: what `restore` and `kind` may say.
"""
