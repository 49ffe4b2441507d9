"""PyTorch Release Atlas's generator: content/ YAML -> a static MkDocs site (README, Layout)."""


def clear_caches() -> int:
    """Empty every functools memo of the package's loaded modules, module functions and
    methods alike, and return how many there were. Found by looking rather than listed, so a
    memo added tomorrow is emptied too: for a measurement that must do the whole work every
    time (tests/test_hostile.py's linear-work guard)."""
    import sys

    seen: set[int] = set()
    for name, module in list(sys.modules.items()):
        if name != __name__ and not name.startswith(__name__ + "."):
            continue
        for value in list(vars(module).values()):
            members = vars(value).values() if isinstance(value, type) else ()
            for candidate in (value, *members):
                if _is_generator_memo(candidate) and id(candidate) not in seen:
                    seen.add(id(candidate))
                    candidate.cache_clear()
    return len(seen)


def _is_generator_memo(value) -> bool:
    module = getattr(value, "__module__", None) or ""
    return hasattr(value, "cache_info") and (module == __name__ or module.startswith(__name__ + "."))
