"""Text cells of downloaded spreadsheets (CSV, xlsx), made inert.

Names come from uploaded files and public applications: a player named
``=HYPERLINK("http://x","y")`` would become a live formula in a spreadsheet program.
OWASP's rule for CSV injection: a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return gets a leading apostrophe, so the program shows it as text. Numbers stay
numbers (a negative rating change is a number, not a formula). Every CSV and xlsx writer of
the project passes its cells through :func:`safe_cell`.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """`value` as it may go into a spreadsheet cell: text that a program would read as a formula
    gets a leading apostrophe; anything else (numbers, dates, None) is returned unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def safe_row(values) -> list:
    return [safe_cell(value) for value in values]
