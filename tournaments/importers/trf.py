"""FIDE Tournament Report Files: TRF16 and TRF26 (fixed columns).

Player lines (001), 1-based columns: start rank 5-8, sex 10, title 11-13, name 15-47,
rating 49-52, federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84, rank
86-89; round r at 92 + 10 (r - 1): opponent 4 columns, colour, result. Tournament
lines 012-132 (132: round dates), TRF26's 142 (rounds), 162 (scoring) and 240 (byes).
Real files write dates in many forms and may end lines with CR alone.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext_noop

from tournaments.importers.base import (
    BYE,
    DRAW,
    HALF_BYE,
    UNPLAYED,
    WHITE_WINS,
    ParsedFile,
    ParsedPlayer,
    Place,
    Text,
    at_round,
    refusal,
)
from tournaments.importers.dates import ORDER_NAMES, UNKNOWN, has_two_digit_year, parse_date, read_file_dates
from tournaments.importers.naming import split_name, warn_guessed
from tournaments.importers.pairing import Cell, build_games, check_unique_start_numbers, drop_bye_placeholders
from tournaments.tiebreaks import codes as tiebreak_codes

LINE_BREAKS = re.compile(r"\r\n|\r|\n")
PLAYED_CODES = set("10=+-WDL")
BYE_CODES = set("HFUZ")
# Old one-letter title codes of TRF06/TRF16 files and the titles they stand for.
TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}
# Header records kept as they stand, and the field each fills.
HEADER_RECORDS = {"012": "name", "022": "city", "032": "federation", "102": "chief_arbiter", "122": "time_control"}
# TRF26's national rating records: the federation's code ("IND") in columns 1-3, then the 001 line's
# columns: start rank 5-8, sex 10, title 11-13, name 15-47, national rating 49-52, origin 54-56,
# national id 58-68, birth date 70-79. JaVaFo's XX? records are no federation.
NATIONAL_RECORD = re.compile(r"(?!XX)[A-Z]{3}")
KNOWN_TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "AGM", "AIM", "AFM", "ACM"}


def looks_like_trf(text: str) -> bool:
    lines = [line for line in LINE_BREAKS.split(text[:20000]) if line.strip()]
    records = sum(1 for line in lines[:400] if re.match(r"(0[0-9]{2}|[1-9][0-9]{2}|XX[A-Z]) ", line))
    return bool(lines) and records >= max(1, len(lines[:400]) // 2)


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM); otherwise Windows-1252, which every old pairing program wrote."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _field(line: str, first: int, last: int) -> str:
    """Columns first..last, 1-based and inclusive, as the format describes them."""
    return line[first - 1 : last]


KRAUSE_BYES = {"=": "H", "1": "F", "0": "Z"}
KRAUSE_BYE_NOTE = gettext_noop(
    'Results without an opponent ("0000 - =", "0000 - 1", "0000 - 0"), as older Krause files write byes, '
    "are read as half-point, full-point and zero-point byes; the points column is compared with them."
)


def parse(data: bytes, file_name: str) -> ParsedFile:
    text = decode(data)
    parsed = ParsedFile(file_name, "trf", view="TRF16")
    parsed.columns = {"family_name": "15-47", "given_names": "15-47", "title": "11-13", "country": "54-56"}
    cells: dict[tuple[int, int], Cell] = {}
    byes: list[tuple[str, int, list[int], Place]] = []
    rounds_seen = 0
    declared_rounds = None
    header_dates: dict[str, tuple[str, Place]] = {}
    round_texts: dict[int, tuple[str, Place]] = {}
    guessed: list[str] = []
    teams: list[str] = []
    teams26: list[str] = []
    national: list[tuple[str, Place]] = []
    for number, line in enumerate(LINE_BREAKS.split(text), start=1):
        if not line.strip() or line.startswith("###"):
            continue
        code = line[:3]
        place = Place(file_name, line=number)
        value = line[4:].strip()
        if code == "001":
            rounds_seen = max(rounds_seen, _player(parsed, line, place, cells, guessed))
        elif code in HEADER_RECORDS:
            setattr(parsed, HEADER_RECORDS[code], value)
            parsed.places[HEADER_RECORDS[code]] = place
        elif code in ("042", "052"):
            header_dates[code] = (value, _at(place, 5, max(5, len(line.rstrip()))))
        elif code == "112":
            parsed.deputy_arbiters.append(value)
            parsed.places.setdefault("deputy_arbiters", place)
        elif code == "092":
            parsed.details["type"] = value
        elif code == "132":
            _round_date_texts(line, place, round_texts)
        elif code == "013":
            teams.append(line)
        elif code == "310":
            teams26.append(line)
        elif code == "XXR":  # JaVaFo's record for the rounds announced
            declared_rounds = int(value) if value.isdigit() else declared_rounds
        elif code == "142":
            declared_rounds = int(value) if value.isdigit() else None
            parsed.view = "TRF26"
        elif code == "162":
            parsed.view = "TRF26"
            parsed.note(
                gettext_noop(
                    "The file declares its own point system (record 162); ratings use the game results, "
                    "the points are only compared."
                )
            )
        elif code == "240":
            parsed.view = "TRF26"
            _bye_record(parsed, line, place, byes)
        elif code == "202":  # TRF26: the tie-breaks in order (tournaments/tiebreaks/codes.py)
            parsed.tiebreaks = tiebreak_codes.from_trf(value)[0]
        elif code in ("062", "072", "082"):
            parsed.details[code] = value
        elif NATIONAL_RECORD.fullmatch(code):
            national.append((line, place))
    if not parsed.players:
        raise refusal(gettext_noop("no player lines (001) found"), Place(file_name), "no_players")
    read_dates(parsed, header_dates, round_texts)
    _teams(parsed, teams)
    _national_records(parsed, national)
    if teams26:
        _teams26(parsed, teams26, byes)
        byes = []
        parsed.tiebreaks = []  # the teams' tie-breaks, not the players'
    elif teams:
        parsed.tiebreaks = []
    warn_guessed(parsed, guessed)
    parsed.rounds = max(rounds_seen, declared_rounds or 0, max(parsed.round_dates, default=0))
    _apply_byes(parsed, byes, cells)
    if parsed.start_date is None and parsed.round_dates:
        parsed.start_date = min(parsed.round_dates.values())
    if parsed.end_date is None and parsed.round_dates:
        parsed.end_date = max(parsed.round_dates.values())
    check_unique_start_numbers(parsed)
    drop_bye_placeholders(parsed, cells)
    _warn_unfinished(parsed, cells, declared_rounds)
    if not parsed.errors:
        build_games(parsed, cells)
        _absences_counted_as_byes(parsed)
    return parsed


def _teams(parsed: ParsedFile, teams: list[str]) -> None:
    """Team TRF16: "013 <team name, columns 5-36> <start ranks of its players>". The individual games are
    what is rated; the team's name becomes each player's club."""
    for line in teams:
        name = _field(line, 5, 36).strip()
        for number in re.findall(r"\d+", line[36:]):
            player = parsed.player(int(number))
            if player is not None and not player.club:
                player.club = name
    if teams:
        parsed.view = "TRF16 team"
        parsed.note(
            gettext_noop("A team tournament: the individual board games are imported, %(teams)s teams as clubs."),
            teams=len(teams),
        )


def _teams26(parsed: ParsedFile, teams: list[str], byes) -> None:
    """TRF26 team records: "310 <id, columns 5-7> <name, 9-40> ... <rank, 69-71> <start ranks, from
    column 74, 5 columns each>". In such a file the bye records (240) name teams, not players (a
    team's bye is no game for anyone), so they are not applied to the players; the individual board
    games are what is rated, and a team's name becomes the club of a player without one."""
    for line in teams:
        name = _field(line, 9, 40).strip()
        for start in range(73, len(line), 5):
            number = line[start : start + 4].strip()
            player = parsed.player(int(number)) if number.isdigit() else None
            if player is not None and not player.club:
                player.club = name
    if parsed.view != "TRF16 team":  # 013 records, when the file has them too, have said it already
        parsed.note(
            gettext_noop("A team tournament: the individual board games are imported, %(teams)s teams as clubs."),
            teams=len(teams),
        )
    parsed.view = "TRF26 team"
    if byes:
        parsed.note(
            gettext_noop(
                "The bye records (240) of this TRF26 team file name teams, not players: no player is given a bye "
                "by them."
            )
        )


def _national_records(parsed: ParsedFile, records: list[tuple[str, Place]]) -> None:
    """TRF26's national records add what the 001 line lacks: the national rating, the federation's id
    (kept as `local_id` with its federation's code: another federation's id is no id of this site), and
    the full birth date where the 001 line gives only the year ("1987/00/00" there, "1987/07/05" here)."""
    for line, place in records:
        start = _field(line, 5, 8).strip()
        player = parsed.player(int(start)) if start.isdigit() else None
        if player is None:
            parsed.warn(
                gettext_noop("a national record (%(code)s) names start rank '%(text)s', which no player line has"),
                _at(place, 5, 8),
                "missing_player",
                code=line[:3],
                text=start,
            )
            continue
        rating = _number(parsed, line, 49, 52, place, gettext_noop("the rating '%(text)s' is not a number"))
        player.national_rating = player.national_rating or rating or None
        national_id = _field(line, 58, 68).strip()
        if national_id and not player.local_id:
            player.local_id = f"{line[:3]} {national_id}"
        birth, precision = parse_date(_field(line, 70, 79).strip())
        fuller = precision == "day" and player.birth_precision != "day"
        if fuller and (player.birth_date is None or player.birth_date.year == birth.year):
            player.birth_date, player.birth_precision = birth, precision
        if not player.sex:
            player.sex = {"m": "M", "w": "F", "f": "F"}.get(_field(line, 10, 10).strip().lower(), "")
        if not player.title:
            title = _field(line, 11, 13).strip()
            player.title = TITLES.get(title.lower(), title.upper() if title.upper() in KNOWN_TITLES else title)


def _absences_counted_as_byes(parsed: ParsedFile) -> None:
    """Absences ("      -", "0000 - -") that the file's own points count as half or full point byes.

    Krause files from Ireland and team TRF files give a player who sits a round out a half point without
    a bye code; the points column shows it. Where a player's points exceed his games' by exactly half
    (or one) point per absence, the absences are read as such byes and the preview says so; any other
    difference stays a "points differ" warning."""
    changed = []
    for player in parsed.players:
        absent = [g for g in parsed.games if g.white == player.start_number and g.black is None and g.kind == UNPLAYED]
        if player.points is None or not absent:
            continue
        own = [g for g in parsed.games if player.start_number in (g.white, g.black)]
        earned = sum((g.points(player.start_number) for g in own), Decimal(0))
        worth = (player.points - earned) / len(absent)
        if worth not in (Decimal("0.5"), Decimal(1)):
            continue
        for game in absent:
            game.kind, game.result = (HALF_BYE, DRAW) if worth == Decimal("0.5") else (BYE, WHITE_WINS)
        parsed.problems = [p for p in parsed.problems if not (p.code == "points_differ" and p.place == player.place)]
        changed.append(f"{player.display_name} ({', '.join(str(g.round) for g in absent)}: {worth})")
    if changed:
        parsed.warn(
            gettext_noop("the points in the file count these absences as byes, and they are read so: %(players)s"),
            Place(parsed.file_name),
            "absences_as_byes",
            players="; ".join(changed),
        )


def _warn_unfinished(parsed: ParsedFile, cells, declared_rounds: int | None) -> None:
    """Fewer rounds with results than announced (142 or XXR): the arbiter must know before confirming.

    Absences written ahead for the rounds after the last one played ("0000 - Z") are left out: those
    rounds give no games, so nothing is rated as a loss or an absence. Byes asked for ahead ("0000 - H")
    stay, as the file's points count them."""
    played = max((rnd for (_, rnd), cell in cells.items() if cell.opponent is not None), default=0)
    if declared_rounds and played < declared_rounds:
        for key in [key for key, cell in cells.items() if key[1] > played and cell.code == "Z"]:
            del cells[key]
        parsed.warn(
            gettext_noop(
                "the tournament is unfinished: %(announced)s rounds are announced but only %(played)s have "
                "results; only those are imported, the unplayed rounds are not games"
            ),
            Place(parsed.file_name),
            "unfinished_tournament",
            announced=declared_rounds,
            played=played,
        )


def _number(parsed: ParsedFile, line: str, first: int, last: int, place: Place, msgid: str) -> int | None:
    """The number in the columns; `msgid` says it is not one ("the rating '%(text)s' is not a number")."""
    text = _field(line, first, last).strip()
    if not text:
        return None
    if not text.isdigit():
        parsed.error(msgid, _at(place, first, last), "bad_number", text=text)
        return None
    return int(text)


def _at(place: Place, first: int, last: int, detail=None) -> Place:
    return Place(place.file, line=place.line, column=f"{first}-{last}", detail=detail)


def _player(parsed: ParsedFile, line: str, place: Place, cells, guessed: list[str]) -> int:
    start = _number(parsed, line, 5, 8, place, gettext_noop("the start rank '%(text)s' is not a number"))
    if start is None:
        if not _field(line, 5, 8).strip():
            parsed.error(gettext_noop("the start rank (columns 5-8) is empty"), _at(place, 5, 8), "bad_number")
        return 0
    name = _field(line, 15, 47).strip()
    if "," in name:
        family, _, given = name.partition(",")
    else:
        family, given = split_name(name, guessed)
    birth_text = _field(line, 70, 79).strip()
    birth, precision = parse_date(birth_text)
    if birth_text and precision == UNKNOWN and birth_text.strip("0/.- "):
        parsed.warn(
            gettext_noop("the birth date '%(text)s' cannot be read"), _at(place, 70, 79), "bad_date", text=birth_text
        )
    points = None
    points_text = _field(line, 81, 84).strip()
    if points_text:
        try:
            points = Decimal(points_text.replace(",", "."))
        except InvalidOperation:
            parsed.error(
                gettext_noop("the points '%(text)s' are not a number"),
                _at(place, 81, 84),
                "bad_number",
                text=points_text,
            )
    sex = _field(line, 10, 10).strip().lower()
    title = _field(line, 11, 13).strip()
    title = TITLES.get(title.lower(), title.upper() if title.upper() in KNOWN_TITLES else title)
    player = ParsedPlayer(
        start_number=start,
        family_name=family.strip(),
        given_names=given.strip(),
        fide_id=_number(parsed, line, 58, 68, place, gettext_noop("the FIDE id '%(text)s' is not a number")) or None,
        rating=_number(parsed, line, 49, 52, place, gettext_noop("the rating '%(text)s' is not a number")) or None,
        country=_field(line, 54, 56).strip().upper(),
        birth_date=birth,
        birth_precision=precision,
        sex={"m": "M", "w": "F", "f": "F"}.get(sex, ""),
        title=title,
        points=points,
        rank=_number(parsed, line, 86, 89, place, gettext_noop("the rank '%(text)s' is not a number")) or None,
        place=place,
    )
    if not player.family_name:
        parsed.error(gettext_noop("the name (columns 15-47) is empty"), _at(place, 15, 47), "no_name")
    parsed.players.append(player)
    rounds = 0
    rnd = 0
    while True:
        first = 92 + 10 * rnd
        if len(line) < first:
            break
        rnd += 1
        block = _field(line, first, first + 7)
        opponent_text, colour, code = block[0:4].strip(), block[5:6].strip().lower(), block[7:8].strip().upper()
        cell_place = _at(place, first, first + 7, at_round(rnd))
        if not (opponent_text or colour or code):
            continue  # not paired: an absence
        rounds = rnd
        if opponent_text and not opponent_text.isdigit():
            parsed.error(
                gettext_noop("the opponent '%(text)s' is not a number"), cell_place, "bad_number", text=opponent_text
            )
            continue
        opponent = int(opponent_text) if opponent_text else 0
        if code not in PLAYED_CODES | BYE_CODES | {""}:
            parsed.error(gettext_noop("unknown result code '%(code)s'"), cell_place, "bad_code", code=code)
            continue
        if colour not in ("w", "b", "-", ""):
            parsed.error(gettext_noop("unknown colour '%(colour)s'"), cell_place, "bad_code", colour=colour)
            continue
        if opponent == 0:
            # 0000: a bye or an absence; '+' alone is a bye, '-' alone an absence.
            code = {"+": "F", "-": "Z", "": "Z"}.get(code, code)
            if code in KRAUSE_BYES:
                # Irish Krause files write a bye as a result without an opponent: "0000 - =".
                code = KRAUSE_BYES[code]
                if not any(note.msgid == KRAUSE_BYE_NOTE for note in parsed.notes):
                    parsed.note(KRAUSE_BYE_NOTE)
            if code not in BYE_CODES:
                parsed.error(gettext_noop("result '%(code)s' without an opponent"), cell_place, "bad_code", code=code)
                continue
            cells[(start, rnd)] = Cell(None, None, code, cell_place)
        else:
            if code in BYE_CODES or code == "":
                parsed.error(
                    gettext_noop("opponent %(opponent)s with the bye code '%(code)s'"),
                    cell_place,
                    "bad_code",
                    opponent=opponent,
                    code=code or " ",
                )
                continue
            cells[(start, rnd)] = Cell(opponent, colour if colour in ("w", "b") else None, code, cell_place)
    return rounds


def _round_date_texts(line: str, place: Place, round_texts: dict) -> None:
    rnd = 0
    while len(line) >= 92 + 10 * rnd:
        text = _field(line, 92 + 10 * rnd, 99 + 10 * rnd).strip()
        rnd += 1
        if text:
            round_texts[rnd] = (text, _at(place, 82 + 10 * rnd, 89 + 10 * rnd))


def read_dates(parsed: ParsedFile, header_dates: dict, round_texts: dict) -> None:
    """Start, end (042, 052) and round dates (132), two-digit years read in the order every date allows.

    Krause files write "10.09.13" for 13 September 2010 and round dates "11.25.02" (YY.DD.MM); the
    order is the one under which the start is no later than the rounds and the end no earlier, then the
    one matching the year in the tournament's name, then one lasting a year at most, else day first;
    the preview says which and why. When no order gives such a tournament, the file is refused at the
    date that does not fit."""
    header = {code: text for code, (text, _) in header_dates.items()}
    rounds = {rnd: text for rnd, (text, _) in round_texts.items()}
    short = [text for text in [*header.values(), *rounds.values()] if has_two_digit_year(text)]
    reading = read_file_dates(header, rounds, name=parsed.name) if short else None
    if isinstance(reading, tuple):
        key = reading[0]
        text, place = header_dates[key] if key in header_dates else round_texts[key]
        parsed.error(
            gettext_noop(
                "the date '%(text)s' does not fit: in no order of day, month and two-digit year do the "
                "start (042), end (052) and round dates (132) give a tournament that starts no later than "
                "its rounds and ends no earlier"
            ),
            place,
            "bad_date",
            text=text,
        )
        return
    header_order = reading.header_order if reading else None
    round_order = reading.round_order if reading else None
    for code, (text, place) in header_dates.items():
        date, precision = parse_date(text, two_digit_order=header_order or "dmy")
        if text and precision != "day":
            parsed.warn(gettext_noop("the date '%(text)s' cannot be read"), place, "bad_date", text=text)
        if code == "042":
            parsed.start_date = date
        else:
            parsed.end_date = date
    for rnd, (text, place) in sorted(round_texts.items()):
        date, precision = parse_date(text, two_digit_order=round_order or "dmy")
        if precision != "day":
            parsed.warn(
                gettext_noop("round %(round)s: the date '%(text)s' cannot be read"),
                place,
                "bad_date",
                round=rnd,
                text=text,
            )
            continue
        parsed.round_dates[rnd] = date
    if reading:
        _say_date_order(parsed, reading, header_dates, round_texts)


DATE_ORDER_NOTES = {
    "only": gettext_noop(
        "Dates read as %(order)s (%(example)s): no other order gives a tournament that starts no later than "
        "its rounds and ends no earlier. All dates: %(dates)s."
    ),
    "name": gettext_noop(
        "Dates read as %(order)s (%(example)s): of the orders that give a possible tournament, the one that "
        "agrees with the year in its name. All dates: %(dates)s."
    ),
    "span": gettext_noop(
        "Dates read as %(order)s (%(example)s): of the orders that give a possible tournament, the only one "
        "in which it lasts a year at most. All dates: %(dates)s."
    ),
    "ambiguous": gettext_noop(
        "Dates read as %(order)s (%(example)s), day first as usual, though %(others)s would give a possible "
        "tournament too: check the dates before confirming. All dates: %(dates)s."
    ),
}


def _say_date_order(parsed: ParsedFile, reading, header_dates: dict, round_texts: dict) -> None:
    """The preview's note: the order used for the two-digit years (one for the start and end, one for the
    round dates where they differ), an example, why, and every date as read."""
    header = {"042": parsed.start_date, "052": parsed.end_date}
    read = [(text, header[code]) for code, (text, _) in header_dates.items() if header[code]]
    read += [(text, parsed.round_dates[r]) for r, (text, _) in sorted(round_texts.items()) if r in parsed.round_dates]
    short = [(text, date) for text, date in read if has_two_digit_year(text)]
    orders = [o for o in dict.fromkeys([reading.header_order, reading.round_order]) if o]
    order = (
        Text.of(ORDER_NAMES[orders[0]])
        if len(orders) == 1
        else Text.of(
            gettext_noop("%(header)s (start and end), %(rounds)s (rounds)"),
            header=Text.of(ORDER_NAMES[orders[0]]),
            rounds=Text.of(ORDER_NAMES[orders[1]]),
        )
    )
    params = {
        "order": order,
        "example": "; ".join(f"{text} = {date.isoformat()}" for text, date in short[:1]),
        "dates": "; ".join(f"{text} = {date.isoformat()}" for text, date in read),
    }
    if reading.reason == "ambiguous":
        others = Text.of(ORDER_NAMES[reading.others[-1]])
        for other in reversed(reading.others[:-1]):
            others = Text.of(gettext_noop("%(first)s or %(rest)s"), first=Text.of(ORDER_NAMES[other]), rest=others)
        params["others"] = others
    parsed.note(DATE_ORDER_NOTES[reading.reason], **params)


def _bye_record(parsed: ParsedFile, line: str, place: Place, byes) -> None:
    kind = _field(line, 5, 5).strip().upper()
    round_text = _field(line, 7, 9).strip()
    if kind not in ("F", "H", "Z") or not round_text.isdigit():
        parsed.error(
            gettext_noop("a bye record (240) needs a type F, H or Z and a round number"), place, "bad_bye_record"
        )
        return
    numbers = [int(n) for n in re.findall(r"\d+", line[10:])]
    byes.append((kind, int(round_text), numbers, place))


def _apply_byes(parsed: ParsedFile, byes, cells) -> None:
    """240 records name the byes that a player line may leave blank."""
    for kind, rnd, numbers, place in byes:
        for number in numbers:
            if parsed.player(number) is None:
                parsed.error(
                    gettext_noop("round %(round)s: bye for player %(number)s, who is not in the file"),
                    place,
                    "missing_player",
                    round=rnd,
                    number=number,
                )
                continue
            cell = cells.get((number, rnd))
            if cell is None or (cell.opponent is None and cell.code == "Z"):
                cells[(number, rnd)] = Cell(None, None, kind, place)
            elif cell.opponent is not None or cell.code != kind:
                parsed.warn(
                    gettext_noop(
                        "round %(round)s: the bye record gives %(number)s a '%(kind)s' bye "
                        "but his line shows '%(code)s'"
                    ),
                    place,
                    "bye_conflict",
                    round=rnd,
                    number=number,
                    kind=kind,
                    code=cell.code,
                )
        parsed.rounds = max(parsed.rounds, rnd)


def format_player_line(
    start: int,
    name: str,
    rating: int | str = "",
    fed: str = "",
    fide_id: int | str = "",
    birth: str = "",
    points: str = "",
    rank: int | str = "",
    rounds=(),
    sex: str = " ",
    title: str = "",
) -> str:
    """A 001 line at its exact columns; `rounds` holds (opponent or "0000", colour, result) per round."""
    line = f"001 {start:>4} {sex:1}{title:>3} {name:<33} {rating!s:>4} {fed:>3} {fide_id!s:>11} {birth:>10} "
    line += f"{points:>4} {rank!s:>4}  "
    for opponent, colour, result in rounds:
        line += f"{opponent!s:>4} {colour:1} {result:1}  "  # 10 columns a round, from column 92
    return line.rstrip()
