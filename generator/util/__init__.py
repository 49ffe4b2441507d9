"""The build's machinery, no content knowledge. Imports nothing of the package.

- `session`: the build session: `derive(fn, *args)` memoises a derivation on exactly its
  arguments; `serve` keeps one, a build makes a fresh one.
- `forked`: the one helper for the other core (`beside`): work handed to a forked child, its
  result pickled back.
- `writer`: the one atomic file writer.
- `project`: where the repository is (`ROOT`), the default content folder, the site's name.
"""
