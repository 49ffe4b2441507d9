"""Each backend's view (/backends/<id>/ and its pages by span of releases): its matrix, its
entries and changes by release, counted. Part of the enrich stage."""

from __future__ import annotations

from ..model.computed import BackendPage, BackendView, ChangeCount, Feature, Matrix
from ..model.content import Backend, Content, Release
from . import lifecycle


def backend_views(d, content: Content, features: tuple[Feature, ...], views: tuple, eras) -> tuple:
    """Each backend's view, its matrix a derivation of its own, its entries and changes read from
    each release's share (`_backend_shares`, a derivation per release: an edit to one release
    sorts only that release's changes by backend again)."""
    ids = tuple(b.id for b in content.backends)
    releases = content.releases
    shares = tuple(d(_backend_shares, ids, r, vs, key=r.version) for r, vs in zip(releases, views, strict=True))
    return tuple(
        d(
            _backend_view,
            b,
            d(lifecycle.backend_matrix, b.id, features, eras, content.tiers, key=b.id),
            d(lifecycle.backend_pages, b.id, features, eras, content.tiers, key=b.id),
            tuple((r, share[n]) for r, share in zip(releases, shares, strict=True)),
            key=b.id,
        )
        for n, b in enumerate(content.backends)
    )


def _backend_shares(backend_ids: tuple[str, ...], release: Release, views: tuple) -> tuple:
    """One release's share of each backend's view, in `backend_ids`' order: (its entries naming
    the backend, its changes there, their ChangeCount or None)."""
    out = []
    for bid in backend_ids:
        mine = tuple(v for v in views if bid in v.backends)
        count = None
        if mine:
            sections = [v.change.section for v in mine]
            count = ChangeCount(release, len(mine), sections.count("bc-breaking"), sections.count("deprecations"))
        out.append((tuple(e for e in release.entries if bid in e.backends), mine, count))
    return tuple(out)


def _backend_view(backend: Backend, matrix: Matrix, matrices: tuple[Matrix, ...], shares: tuple) -> BackendView:
    """A backend's entries and changes by release, counted, and its pages (`matrices`: its
    timeline by span, lifecycle.backend_pages), from each release's share, oldest release first."""
    newest_first = shares[::-1]
    entries = tuple((r, es) for r, (es, _, _) in newest_first)
    counts = tuple(count for _, (_, _, count) in newest_first if count is not None)
    return BackendView(
        backend=backend,
        matrix=matrix,
        entries_by_release=tuple((r, es) for r, es in entries if es),
        changes_by_release=tuple((r, mine) for r, (_, mine, _) in newest_first if mine),
        change_counts=counts,
        change_total=sum(c.total for c in counts),
        pages=_backend_spans(matrices, entries, counts),
    )


def _backend_spans(matrices: tuple[Matrix, ...], entries: tuple, counts: tuple[ChangeCount, ...]) -> tuple:
    """A BackendPage per span (newest first), with the entries and change counts of its releases;
    an earlier span that has none of the three is left out."""
    out = []
    for n, m in enumerate(matrices):
        shown = frozenset(m.releases)
        mine = tuple((r, es) for r, es in entries if es and r.version in shown)
        counted = tuple(c for c in counts if c.release.version in shown)
        if n == 0 or m.rows or mine or counted:
            out.append(BackendPage(m.releases[0], m.releases[-1], m, mine, counted))
    return tuple(out)
