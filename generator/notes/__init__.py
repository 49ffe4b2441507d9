"""`import-notes` and `new-release`: release notes (GitHub Markdown, or an SQL copy) to
`content/changes/X.Y.yaml`, hand fields kept; a release's skeleton and to-do list.

- `importer`: the verb: parse, keep hand fields and anchors, write (refusing what `check` refuses).
- `parser`, `syntax`, `areas`, `highlights`: the notes' Markdown read into change records.
- `refs`: where a text cites PRs and issues (outside its code).
- `sql`: an SQL copy of the notes converted to their Markdown.
- `new_release`: a release's skeleton, its change list and the to-do list.
"""
