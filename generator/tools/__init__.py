"""Verbs that read a built model or site for a reader's own code.

- `scan`: a codebase's lines that touch a change of an upgrade.
"""
