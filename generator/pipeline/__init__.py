"""The build's order, in one place every entry point calls: `build.build_site` (load,
enrich, check, render, MkDocs, the atomic site swap) and the live preview's state.

- `build`: the pipeline; `Preview` (owned by `serve`); MkDocs; the atomic swap.
- `manifest`: the URL promise (`generator/published_urls.txt`) and the redirects of former ids.
- `pagesize`: a built site's largest page, and its largest of each kind, for `make bench`.
"""
