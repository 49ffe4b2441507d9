"""Text from the content on its way to a page: the only way YAML text reaches one. Imports
nothing of the package.

- `textfilters`: the escaping filters (`|text`, `|rich`, `|url` ...); `record_line`, a change's
  first line as the notes write it, and `plain`, Markdown as the words a reader sees: every
  surface (feeds, calendar, search, the ledger's rules, scan) reads a record line through them.
- `rawhtml`: the Markdown extension that passes the HTML blocks we rendered through unparsed.
"""
