"""Tie-break names as result files write them, turned into the codes of rules.NAMES. Pure: no Django.

TRF-2026 record 202 lists the tie-breaks, comma-separated, each `NAME[:points system][/modifier...]`
(`BH/C1`, `BH:MP/C1/P`, `SB`): the cut and median modifiers `C1`, `C2`, `M1` make the codes
`BH-C1`, `BH-C2`, `BH-M1`; other modifiers (`P`: forfeits as played, and the like) are not applied.
"""

from __future__ import annotations

from tournaments.tiebreaks.rules import NAMES

# Names C.07 and the TRF give that mean one of ours.
ALIASES = {"PTS": None, "MBH": "BH-M1", "AOB": None, "REP": "BPG", "BWG": "BWG", "GE": None}


def from_trf(value: str) -> tuple[list[str], list[str]]:
    """(codes understood, in order; items not understood) of a 202 record's value."""
    codes: list[str] = []
    unknown: list[str] = []
    for item in (part.strip() for part in value.split(",")):
        if not item:
            continue
        name, *modifiers = item.split("/")
        name = name.split(":")[0].strip().upper()
        cut = next((m.upper() for m in modifiers if m.upper() in ("C1", "C2", "M1")), None)
        code = f"{name}-{cut}" if cut and name == "BH" else ALIASES.get(name, name)
        if code is None:
            continue  # the points themselves, or a tie-break the report does not compute
        if code in NAMES:
            if code not in codes:
                codes.append(code)
        else:
            unknown.append(item)
    return codes, unknown
