"""Text from the content on its way to a page: the only way YAML text reaches one. Imports
nothing of the package.

- `textfilters`: the escaping filters (`|text`, `|rich`, `|url` ...) and `plain`, a record line as
  the words a reader sees.
- `rawhtml`: the Markdown extension that passes the HTML blocks we rendered through unparsed.
"""
