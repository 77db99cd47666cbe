"""chess-results exports: the lines around the table (no Django beyond gettext_noop).

Above the table: the site's name, the tournament's name, "Label : value" details (chief arbiter,
rounds, dates, city, time control), "Last update ...", and the title of the view ("Starting rank
crosstable"), which may also stand under the table. The view says what the table holds; views
without the tournament's games are read as player lists or refused (chessresults.py decides).
Labels and titles are matched by patterns in English, German, Portuguese, Spanish and Russian.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_noop

from players.names import strip_invisible
from tournaments.importers.base import ParsedFile, refusal
from tournaments.importers.dates import parse_date
from tournaments.importers.spreadsheets import Grid

LABELS = (
    # Before the chief arbiter: "Deputy Chief Arbiter" contains "chief arbiter".
    ("deputy", r"deputy|stellvertret|заместитель|árbitro adjunto|arbitro adjunto|deputy chief arbiter"),
    ("chief_arbiter", r"chief arbiter|hauptschiedsrichter|главный судья|árbitro principal|arbitro principal"),
    ("rounds", r"number of rounds|rundenanzahl|anzahl runden|количество туров|число туров|número de rodadas|rounds"),
    ("dates", r"^date|^dates|^datum|^дата|^data|^period|^zeitraum|^сроки"),
    ("city", r"^location|^ort|^место проведения|^local|^город|^city|^venue"),
    ("time_control", r"time control|bedenkzeit|контроль времени|ritmo|tempo de reflexão|rate of play"),
    ("federation", r"^federation|^föderation|^федерация|^federação"),
)
# The names of the views are msgids too: the preview shows them translated.
VIEWS = (
    (
        gettext_noop("starting-rank crosstable"),
        r"starting rank crosstable|startrangliste.*kreuz|kreuztabelle nach startr|по стартовым",
    ),
    (
        gettext_noop("ranking crosstable"),
        r"ranking crosstable|rangliste.*kreuz|kreuztabelle nach rang|итоговая таблица|по местам",
    ),
    # Views without the tournament's games: a list of players at best (see NO_GAMES_VIEWS).
    (
        gettext_noop("pairings of a round"),
        # A round's title carries its date and time: "Тур 3 …" alone may be a tournament's name.
        r"pairings|results of round|^round \d+ on|paarungen|^\d+\. ?runde am|жеребь[её]вка|^тур \d+.* \d{1,2}:\d\d|"
        r"emparceiramentos|emparejamientos|emparelhamentos",
    ),
    (
        gettext_noop("team composition"),
        r"team-? ?composition|mannschaftsaufstellung|состав(?:ы)? команд|composição das equipas|composición de equipos",
    ),
    (
        gettext_noop("players not paired"),
        r"^not paired|^nicht ausgelost|^не спарен|^não emparceirad|^no emparejad",
    ),
    (gettext_noop("alphabetical list"), r"alphabetical list|alphabetische liste|алфавитный список|lista alfab[ée]tica"),
    (gettext_noop("starting-rank list"), r"starting rank|startrangliste|стартовый лист|ranking inicial|lista inicial"),
    (
        gettext_noop("ranking list"),
        r"final ranking|ranking list|rank after round|endstand|rangliste|итоговое положение|положение после|"
        r"classificação",
    ),
)
# Views that hold no player list this site could register either: refused, naming the export to save instead.
REFUSED_VIEWS = {
    "pairings of a round": gettext_noop(
        "this file is chess-results' %(view)s: it holds the games of one round only, not the tournament; save "
        "the 'Starting rank crosstable' or the 'Ranking crosstable' as Excel instead"
    ),
    "players not paired": gettext_noop(
        "this file is chess-results' %(view)s: it names the players who sat rounds out, not the games; save "
        "the 'Starting rank crosstable' or the 'Ranking crosstable' as Excel instead"
    ),
    "team composition": gettext_noop(
        "this file is chess-results' %(view)s: it lists each team's players without their opponents, so no game "
        "can be read; upload the Swiss-Manager team file (.TUMX) or a FIDE TRF of the tournament instead"
    ),
}
SITE_LINES = re.compile(r"chess-results|tournament-database|turnierdatenbank|schachturnier-ergebnisserver", re.I)
LAST_UPDATE = re.compile(r"^(last update|letzte aktualisierung|последнее обновление|última atualização)", re.I)
# A colon followed by a space: "Round 3 on 2025/04/30 at 18:00" is a title, not a label.
LABEL_LINE = re.compile(r"^([^:]{2,60}?)\s*:\s+(.+)$")
DATE_TEXT = re.compile(r"\d{1,4}\s?[./-]\s?\d{1,2}\s?[./-]\s?\d{1,4}")


def cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())  # str.split, not a regex: called for every cell of a crosstable


def view_of(line: str) -> str | None:
    lowered = line.lower()
    return next((name for name, pattern in VIEWS if re.search(pattern, lowered)), None)


def title_lines(rows):
    """(row number, text) of the lines of one cell (or a label and its value) above or below a table."""
    for row_number, values in rows:
        texts = [cell_text(v) for v in values if cell_text(v)]
        if texts and (len(texts) == 1 or texts[0].endswith(":")):
            yield row_number, " ".join(texts)


def refuse_view_without_games(grid: Grid) -> None:
    """A pairings list or a team composition is refused before its table is mistaken for a player list.

    The first title that names a view decides; "Label : value" lines are not titles (the navigation
    of a saved page lists every view, "Board Pairings: Rd.1, Rd.2, ...")."""
    for row_number, line in title_lines(grid.rows[:60]):
        view = None if LABEL_LINE.match(line) else view_of(line)
        if view in REFUSED_VIEWS:
            raise refusal(REFUSED_VIEWS[view], grid.place(row_number), "no_games", view=line)
        if view:
            return


def header_block(parsed: ParsedFile, grid: Grid, rows) -> None:
    for row_number, values in rows:
        texts = [cell_text(v) for v in values if cell_text(v)]
        if not texts:
            continue
        line = " ".join(texts) if len(texts) > 1 and ":" in texts[0] else texts[0]
        if len(texts) > 1 and texts[0].endswith(":"):
            line = f"{texts[0]} {' '.join(texts[1:])}"
        if SITE_LINES.search(line) or LAST_UPDATE.match(line):
            continue
        label_match = LABEL_LINE.match(line)
        if label_match:
            _label(parsed, label_match.group(1).strip(), label_match.group(2).strip(), grid.place(row_number))
            continue
        view = view_of(line)
        if view:
            parsed.view = view
            parsed.details["view title"] = line
            parsed.places["view"] = grid.place(row_number)
            continue
        if not parsed.name:
            parsed.name = line
            parsed.places["name"] = grid.place(row_number)


def _label(parsed: ParsedFile, label: str, value: str, place) -> None:
    lowered = strip_invisible(label)[0].lower()
    key = next((key for key, pattern in LABELS if re.search(pattern, lowered)), None)
    if key is not None:
        parsed.places.setdefault("deputy_arbiters" if key == "deputy" else key, place)
    if key == "chief_arbiter":
        parsed.chief_arbiter = value
    elif key == "deputy":
        parsed.deputy_arbiters.append(value)
    elif key == "rounds":
        digits = re.search(r"\d+", value)
        if digits:
            parsed.rounds = int(digits.group())
    elif key == "dates":
        dates = [parse_date(text)[0] for text in DATE_TEXT.findall(value)]
        dates = [d for d in dates if d is not None]
        if dates:
            parsed.start_date, parsed.end_date = min(dates), max(dates)
    elif key == "city":
        parsed.city = value
    elif key == "time_control":
        parsed.time_control = value
    elif key == "federation":
        parsed.federation = value
    parsed.details[label] = value
