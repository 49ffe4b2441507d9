"""What each page is and says, from the computed model: the page list and the words a link
to a page carries.

- `pagelist`: the page list: every page's URL, template, title, description and view, listed
  once per model by the pipeline (`listed`, into `Site.pages`) and read by the render, the search
  index and the URL manifest.
- `describe`, `cite`: what a link to a page says (description, the head's fields: `page_head`,
  citation).
- `envpaste`: the environment box's rules and data (held to the browser's copy by a parity test).
"""
