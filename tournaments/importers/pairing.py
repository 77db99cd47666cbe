"""From each player's round cells to games, checking that both sides tell the same story.

Crosstables and TRF files describe every game twice, once in each player's row.
`build_games` pairs the two descriptions, refuses what cannot be true (A's row says
he played B, B's row says he played C; both won) and turns byes and absences into
their kinds. The codes are TRF's, which every importer translates its cells to:

    1 = 0   played (win, draw, loss)        + -   forfeit win / loss
    W D L   played, under one move (short)  H     half-point bye
    F U     full-point / pairing-allocated bye  Z   zero-point bye or absent
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext_noop

from players.names import strip_invisible
from tournaments.importers.base import (
    BLACK_WINS,
    BYE,
    DRAW,
    FORFEIT,
    HALF_BYE,
    NO_RESULT,
    PLAYED,
    SHORT,
    UNPLAYED,
    WHITE_WINS,
    ParsedFile,
    ParsedGame,
    Place,
    Text,
)

UNFINISHED = "?"  # paired, no result yet
# What pairing programs call the pseudo-player that stands for the bye.
BYE_PLACEHOLDERS = {"spielfrei", "freilos", "bye", "bye player", "свободен", "пропуск", "exempt", "libre", "vrij"}


@dataclass
class Cell:
    """One player's entry for one round, as the file shows it."""

    opponent: int | None  # start number; None for byes and absences
    colour: str | None  # "w", "b" or None
    code: str  # a TRF result code, or UNFINISHED
    place: Place


def _result_and_kind(code: str, other: str) -> tuple[str, str] | None:
    """The game from the lower-numbered player's code and his opponent's; None if impossible."""
    pair = (code, other)
    table = {
        ("1", "0"): (WHITE_WINS, PLAYED),
        ("=", "="): (DRAW, PLAYED),
        ("0", "1"): (BLACK_WINS, PLAYED),
        ("+", "-"): (WHITE_WINS, FORFEIT),
        ("-", "+"): (BLACK_WINS, FORFEIT),
        ("-", "-"): (NO_RESULT, FORFEIT),
        ("W", "L"): (WHITE_WINS, SHORT),
        ("D", "D"): (DRAW, SHORT),
        ("L", "W"): (BLACK_WINS, SHORT),
    }
    return table.get(pair)


def _flip(result: str) -> str:
    return {WHITE_WINS: BLACK_WINS, BLACK_WINS: WHITE_WINS}.get(result, result)


def check_unique_start_numbers(parsed: ParsedFile) -> None:
    """Two players with one start number make every reference to it ambiguous: an error."""
    seen: dict[int, Place | None] = {}
    for player in parsed.players:
        if player.start_number in seen:
            parsed.error(
                gettext_noop("start number %(number)s is used twice (also at %(where)s)"),
                player.place,
                "duplicate_start_number",
                number=player.start_number,
                where=seen[player.start_number],
            )
        else:
            seen[player.start_number] = player.place


def drop_bye_placeholders(parsed: ParsedFile, cells: dict[tuple[int, int], Cell]) -> None:
    """Leave out the pseudo-player some programs list for the bye ('spielfrei'): a name like that,
    no FIDE id, no rating and no game against a real opponent."""
    for player in list(parsed.players):
        name = " ".join(part for part in (player.family_name, player.given_names) if part)
        name = strip_invisible(name)[0].strip().lower()
        if name not in BYE_PLACEHOLDERS or player.fide_id or player.rating:
            continue
        own = [cell for (number, _), cell in cells.items() if number == player.start_number]
        if any(cell.opponent is not None for cell in own):
            continue
        parsed.players.remove(player)
        for key in [key for key in cells if key[0] == player.start_number]:
            del cells[key]
        parsed.note(
            gettext_noop(
                "'%(name)s' (start number %(number)s) is the pairing program's stand-in for the bye, not a player: "
                "it is left out."
            ),
            name=player.display_name,
            number=player.start_number,
        )


def build_games(parsed: ParsedFile, cells: dict[tuple[int, int], Cell]) -> None:
    """Fill parsed.games from the cells and add every inconsistency to parsed.problems."""
    numbers = {p.start_number for p in parsed.players}
    done: set[tuple[int, int]] = set()
    meetings: dict[frozenset, list[tuple[int, str]]] = defaultdict(list)
    for (number, rnd), cell in sorted(cells.items()):
        if (number, rnd) in done:
            continue
        done.add((number, rnd))
        if cell.opponent is None:
            parsed.games.append(_bye(number, rnd, cell))
            continue
        other_number = cell.opponent
        if other_number not in numbers:
            parsed.error(
                gettext_noop("the opponent %(number)s is not in the file"),
                cell.place,
                "missing_opponent",
                number=other_number,
            )
            continue
        if other_number == number:
            parsed.error(gettext_noop("the player is paired with himself"), cell.place, "self_pairing")
            continue
        other = cells.get((other_number, rnd))
        done.add((other_number, rnd))
        if other is None or other.opponent != number:
            if other is None or (other.opponent is None and other.code == "Z"):
                msgid = gettext_noop(
                    "player %(number)s played %(other)s, but the entry of %(other)s (%(where)s) shows nothing"
                )
            elif other.opponent is not None:
                msgid = gettext_noop(
                    "player %(number)s played %(other)s, but the entry of %(other)s (%(where)s) shows "
                    "opponent %(opponent)s"
                )
            else:
                msgid = gettext_noop(
                    "player %(number)s played %(other)s, but the entry of %(other)s (%(where)s) shows a bye"
                )
            parsed.error(
                msgid,
                cell.place,
                "inconsistent_pairing",
                number=number,
                other=other_number,
                where=other.place if other is not None else cell.place,
                opponent=other.opponent if other is not None else None,
            )
            continue
        if UNFINISHED in (cell.code, other.code):
            parsed.warn(
                gettext_noop("%(number)s – %(other)s has no result yet; the game is left out"),
                cell.place,
                "unfinished",
                number=number,
                other=other_number,
            )
            continue
        combined = _result_and_kind(cell.code, other.code)
        if combined is None:
            parsed.error(
                gettext_noop("impossible result: %(number)s scored '%(code)s' and %(other)s scored '%(other_code)s'"),
                cell.place,
                "impossible_result",
                number=number,
                code=cell.code,
                other=other_number,
                other_code=other.code,
            )
            continue
        result, kind = combined
        white, black = number, other_number
        colours = (cell.colour, other.colour)
        if colours in (("b", "w"), ("b", None), (None, "w")):
            white, black, result = other_number, number, _flip(result)
        elif colours not in (("w", "b"), ("w", None), (None, "b")) and kind in (PLAYED, SHORT):
            parsed.warn(
                gettext_noop(
                    "the colours of %(number)s – %(other)s are missing or contradict each other; "
                    "%(number)s is taken as white"
                ),
                cell.place,
                "colour_missing",
                number=number,
                other=other_number,
            )
        parsed.games.append(ParsedGame(rnd, white, black, result, kind, place=cell.place))
        if kind == PLAYED:
            meetings[frozenset((number, other_number))].append((rnd, "w" if white == number else "b"))
    _check_repeats(parsed, meetings)
    _check_points(parsed)
    _check_players_without_games(parsed)


def _bye(number: int, rnd: int, cell: Cell) -> ParsedGame:
    if cell.code in ("F", "U", "+"):
        return ParsedGame(rnd, number, None, WHITE_WINS, BYE, place=cell.place)
    if cell.code in ("H", "="):
        return ParsedGame(rnd, number, None, DRAW, HALF_BYE, place=cell.place)
    return ParsedGame(rnd, number, None, NO_RESULT, UNPLAYED, place=cell.place)


def _check_repeats(parsed: ParsedFile, meetings) -> None:
    # In a round robin players meet again by design; in a Swiss a repeat is a mistake.
    swiss = len(parsed.players) > (parsed.rounds or 0) + 1
    for pair, games in meetings.items():
        if len(games) < 2:
            continue
        colours = {c for _, c in games}
        if swiss or len(colours) == 1:
            a, b = sorted(pair)
            rounds = ", ".join(str(r) for r, _ in sorted(games))
            parsed.warn(
                gettext_noop("%(a)s and %(b)s were paired %(times)s times (rounds %(rounds)s)"),
                Place(parsed.file_name, detail=Text.of(gettext_noop("players %(a)s and %(b)s"), a=a, b=b)),
                "repeated_pairing",
                a=a,
                b=b,
                times=len(games),
                rounds=rounds,
            )


def _check_points(parsed: ParsedFile) -> None:
    earned: dict[int, Decimal] = defaultdict(Decimal)
    for game in parsed.games:
        earned[game.white] += game.points(game.white)
        if game.black is not None:
            earned[game.black] += game.points(game.black)
    for player in parsed.players:
        if player.points is not None and player.points != earned[player.start_number]:
            parsed.warn(
                gettext_noop("%(name)s has %(points)s points in the file but %(earned)s from the games"),
                player.place or Place(parsed.file_name),
                "points_differ",
                name=player.display_name,
                points=player.points,
                earned=earned[player.start_number],
            )


def _check_players_without_games(parsed: ParsedFile) -> None:
    played = set()
    for game in parsed.games:
        if game.kind == PLAYED:
            played.add(game.white)
            played.add(game.black)
    for player in parsed.players:
        if player.start_number not in played:
            parsed.warn(
                gettext_noop("%(name)s has no played game: nothing of his will be rated"),
                player.place or Place(parsed.file_name),
                "no_played_game",
                name=player.display_name,
            )
