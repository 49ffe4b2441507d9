"""What release notes are written in, as the importer's modules read it: area separators and word
limits, and the patterns of headings, fences, list items, bold labels and PR references. One home
for the notes' syntax, shared by the parser (_notes_parser), the area wording (_notes_areas) and
the Highlights reader (_notes_highlights)."""

from __future__ import annotations

import re

AREA_SEPARATOR = " › "
LABEL_WORDS = 4  # a group label of more words is a sentence: kept in the text, not the area
SENTENCE_WORDS = 6  # a heading of more words, or with a full stop, is a sentence: never an area

HEADING = re.compile(r"^ {0,3}(#{1,6})(?=[ \t]|$)[ \t]*(.*?)(?:[ \t]+#+)?[ \t]*$")
FENCE_OPEN = re.compile(r"^[ \t]*(`{3,}(?=[^`]*$)|~{3,})")
FENCE_CLOSE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*$")
ITEM = re.compile(r"^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)")
BOLD_LINE = re.compile(r"^ {0,3}(\*\*|__)(?![*_\s])(.+?)\1[ \t]*:?[ \t]*$")
TOC_LINE = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[[^\]]+\]\(#[A-Za-z][\w-]*\)[ \t]*$")

# A PR reference, scanning left to right (the test suite re-states this rule independently):
# - a link whose text is "#N" counts once as PR N, unless it targets a pytorch/pytorch issue or
#   another repository;
# - a bare https://github.com/pytorch/pytorch/pull/N URL;
# - "#N" anywhere else, unless an issue keyword stands before it ("issue #1", "fixes #1",
#   "closes #1", "resolves #1"): GitHub's closing keywords mark an issue, not the change's PR.
# Fenced code and inline code spans (``Misaligned Tensor data on argument #0``) are not searched.
REF = re.compile(
    r"\[#(?P<link>\d+)\]\((?P<url>[^)]*)\)"
    r"|https?://github\.com/pytorch/pytorch/pull/(?P<pull>\d+)"
    r"|(?P<kw>\b(?:issues?|fix(?:e[sd])?|close[sd]?|resolve[sd]?)[ \t]+)?(?<![\w&#])#(?P<num>\d+)(?!\d)",
    re.IGNORECASE,
)
# An inline code span: a run of backticks, then text, then a run of the same length (CommonMark),
# on one line (so a stray backtick never hides the references of the lines below it). A span
# holding "(#N" is no code but a stray backtick pairing with the next one across a PR list (2.0's
# "torch.sparse.sampled_addmm`(#86401),`frac`"): the backtick is left unpaired, as it is unbalanced.
INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)((?:(?!\(#\d)[^\n])+?)(?<!`)\1(?!`)")
NOT_A_PR_URL = re.compile(r"github\.com/(?:pytorch/pytorch/issues/|(?!pytorch/pytorch(?:/|$))[^/\s]+/)", re.IGNORECASE)
