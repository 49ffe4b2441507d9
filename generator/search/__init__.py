"""The search index: what it holds and how it is made.

- `records`: the names table (a name a reader types whole -> its page) and the full-text records.
- `indexing`: how it is made: beside a build (`Beside`, a child process at low priority while
  the pages render and MkDocs runs) or behind live preview's saves (`Indexer`).
- `child`: the child process that writes it.
- `fulltext`: the full-text index, written from the records (templates/assets/atlas-fulltext.js
  searches it).
"""
