"""The names a change mentions that a reader's code could use: `torch.*` names, identifiers in
code spans (functions, arguments, config keys), environment variables and CLI flags.

Search reads them (`tokens`, what a pasted query names; atlas-rules.js `pastedTokens` runs it in
the browser, held equal by tests/test_js_parity.py). What code must use for a change to apply to
it is the change's subject (below: `SUBJECT`, `propose_subject`, `subject_matches`), which
`generator scan` and the paste-your-code box read. The patterns are ASCII (`re.ASCII`), as
JavaScript's are, so a letter such as "é" next to a name counts the same in both.

The API symbol pages (/symbols/<page>/) list the `torch.*` names (`torch_names`), one page per
module. Which part of a name is its module is decided from the names alone, with no list of
PyTorch's modules to keep up to date:

- A name's *owner* is the dotted path it lives in: the part before its first CamelCase
  component, since a class and its members live in the class's module (`torch.Tensor.expand`
  -> `torch`, `torch.export.Dim.AUTO` -> `torch.export`); else the part before its last
  component (`torch.export.export` -> `torch.export`, `torch.cat` -> `torch`).
- A name is a *module* when the content names something inside it, i.e. it is an owner, or a
  prefix of one (`torch.export`, named alone, is a module because `torch.export.export` is
  named). A module named alone heads its own page; any other name sits on its owner's page.
  So a module of which nothing else is named (`torch.package`) is listed on its parent's page
  until something inside it is named.
- A page covers a module path cut to its first `PAGE_DEPTH` (3) components: `torch.nn.attention`
  and `torch.distributed.fsdp` get pages, while `torch.backends.cuda.matmul.allow_tf32` is on
  `torch.backends.cuda`. Deeper cuts would make dozens of one-name pages; shallower ones would
  put all of `torch.distributed` or `torch.nn` on one page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CODE = re.compile(r"`([^`\n]+)`")
# Not after '/' or '.': `docs/stable/torch.compiler.html` in a link target is not a name.
_TORCH = re.compile(r"(?<![\w/.])torch(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_URL = re.compile(r"\]\([^()\s]*\)|\bhttps?://\S+")
_ENV = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", re.ASCII)
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+", re.ASCII)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")

# Words too common to tell one change from another when a reader pastes code.
COMMON = frozenset(
    """torch true false none self this that with from import return class def lambda else elif
    none args kwargs model input inputs output outputs tensor tensors float int bool str list dict
    tuple type device cuda cpu default value values data name names mode module modules function
    functions python pytorch support supported when then also only true_ false_ print""".split()
)


def of_text(*texts: str | None) -> tuple[str, ...]:
    """Sorted distinct symbols named in Markdown texts (a change's record line, note, restore)."""
    found: set[str] = set()
    for text in texts:
        if not text:
            continue
        found.update(_TORCH.findall(text))
        found.update(_ENV.findall(text))
        found.update(_FLAG.findall(text))
        for span in _CODE.findall(text):
            for name in _IDENT.findall(span):
                if _distinctive(name):
                    found.add(name)
    return tuple(sorted(found - {"torch"}))


# Python's own capitalised names (its exceptions, warnings, constants): every codebase uses them,
# so a change naming one (`except RuntimeError`) is told by its other names. Written out, not read
# from `builtins`, so the symbols do not change with the Python that builds the site.
PYTHON = frozenset(
    """ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
    BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
    ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning
    EnvironmentError Exception ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError
    FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
    InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
    ModuleNotFoundError NameError None NotADirectoryError NotImplemented NotImplementedError OSError
    OverflowError PendingDeprecationWarning PermissionError ProcessLookupError RecursionError
    ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration
    SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError
    UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError
    UnicodeWarning UserWarning ValueError Warning ZeroDivisionError""".split()
)


FILE_TYPES = frozenset("py md txt rst cfg toml yaml yml json h hpp c cc cpp cu so dll whl log".split())
"""File name endings: `setup.py` or `RELEASE.md` in a code span is a file, not a name code uses."""


def _distinctive(name: str) -> bool:
    """A name in a code span tells a change apart when it is dotted, has an underscore, or is a
    capitalised name of 4 characters or more that is not Python's own (`DeviceMesh`, `TORCH`):
    a plain lower-case word (`item`, `open`, `except`, `clone`) is in every codebase, and a file
    name (`setup.py`) is no name at all."""
    last = name.rsplit(".", 1)[-1]
    if "." in name:
        return last not in FILE_TYPES
    if "_" in name:
        return True
    return len(last) >= 4 and not last.islower() and last.lower() not in COMMON and last not in PYTHON


def tokens(pasted: str) -> set[str]:
    """What a pasted snippet uses: every dotted name with its dotted prefixes and last parts,
    identifiers, environment variables and flags."""
    out: set[str] = set(_FLAG.findall(pasted)) | set(_ENV.findall(pasted))
    for name in _IDENT.findall(pasted):
        parts = name.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        out.update(parts)
    return out


PAGE_DEPTH = 3
"""Components of a module path that name its page: deeper modules share their ancestor's page."""


# How the notes write several names, or one cut short, in one code span:
# - braces list the alternatives, one alone is optional: `torch.cum{min,max}` names torch.cummin
#   and torch.cummax, `torch.{linalg.}norm` torch.linalg.norm and torch.norm;
# - a name the closing backtick cuts goes on after it (`torch.arang`e is torch.arange), except
#   for a plural "s" (`torch.autograd.Function`s);
# - a trailing `*` makes the name a pattern for several names, none of them itself
#   (`torch._foreach_*` is no torch._foreach_).
_BRACES = re.compile(r"(?<![\w/.])(torch(?:\.[A-Za-z_]\w*)*\.?\w*)\{([\w .,]+)\}(\w*)")
_CUT = re.compile(r"(?<![\w/.])(torch(?:\.[A-Za-z_]\w*)+)`(?!s\b)(\w+)")


def _expand(m: re.Match) -> str:
    parts = [p.strip() for p in m[2].split(",")]
    return " ".join(m[1] + p + m[3] for p in ([*parts, ""] if len(parts) == 1 else parts))


def torch_names(*texts: str | None) -> tuple[str, ...]:
    """Sorted distinct `torch.*` names in Markdown texts, leaving link targets and URLs out, and
    reading braces, names cut by a backtick and `*` patterns as the notes mean them (above)."""
    found: set[str] = set()
    for text in texts:
        if not text:
            continue
        text = _BRACES.sub(_expand, _CUT.sub(r"\1\2`", _URL.sub(" ", text)))
        found.update(m[0] for m in _TORCH.finditer(text) if not text.startswith("*", m.end()))
    return tuple(sorted(found))


def owner(name: str) -> str:
    """The dotted path a name lives in: before its first CamelCase component, else before its last."""
    parts = name.split(".")
    cut = next((i for i, part in enumerate(parts) if i and part[:1].isupper()), len(parts) - 1)
    return ".".join(parts[:cut])


def modules(names) -> frozenset[str]:
    """The module paths the names show: every owner and each of its dotted prefixes."""
    out: set[str] = set()
    for name in names:
        parts = owner(name).split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return frozenset(out)


def page_of(name: str, module_paths: frozenset[str]) -> str:
    """The module page a name is listed on (see the module docstring)."""
    path = name if name in module_paths else owner(name)
    return ".".join(path.split(".")[:PAGE_DEPTH])


# ---------------------------------------------------------------- what a change is about

# A change's subject says what a line of code must use for the change to apply to it. It is data
# on the change: `subject:` in content/changes/X.Y.yaml confirms it; where the content says
# nothing, `propose_subject` reads one from the record line. Each item is one of
#   torch.onnx.dynamo_export     a name: used through any import or alias (or a name inside it:
#                                `torch.ao.quantization` covers `torch.ao.quantization.quantize_dynamic`)
#   torch.onnx.export(fallback=) an argument: only a call of that name that passes it
#   torch.load(!weights_only=)   a call of that name that does not pass the argument (the change
#                                is to its default: a call that passes it already is unaffected)
#   export_memory_timeline       an undotted name: an attribute, a name or a keyword argument so called
#   TORCHINDUCTOR_FOO            an environment variable, read or set through os.environ / os.getenv
#   --flag                       a command-line flag, spelt in a string
SUBJECT = re.compile(
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?:\((?P<neg>!?)(?P<arg>[A-Za-z_][A-Za-z0-9_]*)=\))?"
    r"|(?P<flag>--[a-z][a-z0-9-]+)",
    re.ASCII,
)
FLAG_STRING = re.compile(r"--[a-z][a-z0-9-]+(?:=.*)?", re.ASCII | re.DOTALL)
"""A string that is a command-line flag (and its value)."""


@dataclass(frozen=True)
class Use:
    """One thing a line of code uses (generator.tools.pycode reads them; atlas-rules.js `pasteUses`
    reads the same from pasted text)."""

    name: str | None = None  # the qualified name, imports resolved; None when its base is no import
    written: str = ""  # the name as the code spells it (`F.scaled_dot_product_attention`)
    call: bool = False  # a call of `name`
    arg: str | None = None  # a keyword argument passed (to `name`, when it is a resolved call)
    args: tuple[str, ...] = ()  # a call: the keyword arguments it passes
    some_args: bool = False  # a call passing **kwargs: which arguments it passes is not known
    env: str | None = None  # an environment variable read or set
    flag: str | None = None  # a command-line flag spelt in a string
    imported: bool = False  # an import of `name`: a removal breaks it, a default change does not

    def shown(self) -> str:
        """The use as a finding names it."""
        if self.env or self.flag:
            return self.env or self.flag or ""
        name = self.name or self.written
        return f"{name}({self.arg}=)" if self.arg and name else self.arg if self.arg else name


def subject_problem(item: str) -> str | None:
    """Why a `subject:` item is not one (None when it is)."""
    if SUBJECT.fullmatch(item):
        return None
    return "a subject is a name (torch.x.y), a call's argument (torch.x.y(arg=), or torch.x.y(!arg=) for a call that does not pass it), an environment variable or a --flag"


def is_code(item: str) -> bool:
    """Whether a subject item is Python code (a name or a call's argument), not an environment
    variable or a command-line flag: what code uses the same way on every backend."""
    m = SUBJECT.fullmatch(item)
    return m is not None and not m["flag"] and ("." in m["name"] or not _ENV.fullmatch(m["name"]))


def _class_member(name: str) -> bool:
    """`torch.Tensor.foo`, `torch.nn.Module.bar`: a member of a class, used on an object of it."""
    return any(part[:1].isupper() for part in name.split(".")[1:-1])


def subject_matches(item: str, use: Use) -> bool:
    """Whether a line's use is a use of one subject item (the grammar above)."""
    m = SUBJECT.fullmatch(item)
    if m is None:
        return False
    if m["flag"]:
        return use.flag == m["flag"]
    name, arg = m["name"], m["arg"]
    if use.env is not None or use.flag is not None:
        return use.env == name
    if arg and m["neg"]:
        return use.call and use.arg is None and use.name == name and arg not in use.args and not use.some_args
    if arg:  # an undotted name's argument: a method of an object (`to_local(grad_placements=)`)
        called = use.name if "." in name else use.written.rsplit(".", 1)[-1]
        return use.arg == arg and called == name
    if "." not in name:
        if _ENV.fullmatch(name):
            return False
        return use.arg == name if use.arg else use.written.rsplit(".", 1)[-1] == name
    if use.arg:
        return False
    if use.name is not None:
        return use.name == name or use.name.startswith(name + ".")
    return _class_member(name) and "." in use.written and use.written.rsplit(".", 1)[-1] == name.rsplit(".", 1)[-1]


def propose_subject(record: str) -> tuple[str, ...]:
    """What a change is about, read from its record line (the notes' words, not our note, which
    names replacements): its `torch.*` names but a module whose member it also names, the
    undotted names with an underscore in its code spans, environment variables and flags."""
    names = set(torch_names(record))
    found = {n for n in names if not any(o.startswith(n + ".") for o in names)}
    found.update(_ENV.findall(_URL.sub(" ", record)))
    found.update(_FLAG.findall(record))
    for span in _CODE.findall(record):
        for name in _IDENT.findall(span):
            if "." not in name and "_" in name.strip("_") and name not in PYTHON:
                found.add(name)
    return tuple(sorted(found - {"torch"}))
