"""The render stage: every file the site serves that we write, from the computed model and
the page list. Lays out views, computes none: it imports nothing from enrich (a test says so).

- `render`: the Jinja environment; renders every page, API file and feed through one memo of
  recorded reads.
- `reads`: what each rendering read of the model, so live preview re-renders exactly the pages
  an edit touches.
- `api`, `feeds`, `badges`, `card`, `ical`, `symbol_data`: the JSON API, the Atom feeds, the
  status badges, the link preview cards, `/calendar.ics`, `/api/v1/symbols.json` and TorchFix's
  `deprecated_symbols.yaml`.
- `browser`: the data the browser scripts read (`atlas-data.js`).
"""
