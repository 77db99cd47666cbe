"""chess-results Excel exports in every view: crosstables are read with their games, lists without
games are read as players or refused with the export to save instead (issue 18).

The Keshmat files are real exports (examples/README.md); the other views are built here in the
layout chess-results gives them, since no freely licensed real file of those views was found."""

import io
from collections import Counter
from decimal import Decimal

import openpyxl
import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from tests.tournaments.files import EXAMPLES, earned, example, xlsx
from tournaments.importers.base import PLAYER_LIST, RESULTS, ResultFileError
from tournaments.importers.registry import read_result_file, sniff
from tournaments.models import Tournament, Upload

APRIL = "cr-keshmat-rapid-2025-04-ranking-crosstable.xlsx"
MAY = "cr-keshmat-rapid-2025-05-ranking-crosstable.xlsx"
DECEMBER = "cr-keshmat-rapid-2024-12-ranking-crosstable.xlsx"
SITE = "From the Tournament-Database of Chess-Results https://chess-results.com"
FOOTER = [[], ["You find all details to this tournament under  https://chess-results.com/tnr1.aspx?lan=1"]]


def read(name: str, data: bytes | None = None):
    return read_result_file(name, example(name) if data is None else data)


def file_table(name: str) -> list[dict]:
    """The table of the file as the file itself gives it: the rank and points of every row."""
    sheet = openpyxl.load_workbook(io.BytesIO(example(name)), read_only=True).active
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    start = next(i for i, row in enumerate(rows) if row and row[0] == "Rk.")
    header = [str(v or "").strip() for v in rows[start]]
    table = []
    for row in rows[start + 1 :]:
        if not row or row[header.index("Name")] is None:
            break
        table.append({"rank": row[0], "points": Decimal(str(row[header.index("Pts.")]))})
    return table


@pytest.mark.parametrize(("name", "players", "games"), [(APRIL, 67, 240), (MAY, 53, 202), (DECEMBER, 100, 368)])
def test_it_checks_every_keshmat_player_against_the_files_points_and_ranks(name, players, games):
    parsed = read(name)
    assert sniff(example(name)) == "xlsx"
    assert (parsed.content, parsed.view, parsed.rounds) == (RESULTS, "ranking crosstable", 7)
    assert (len(parsed.players), len(parsed.games)) == (players, games)
    assert not parsed.errors
    table, points = file_table(name), earned(parsed)
    assert len(table) == players
    previous = None
    for player, row in zip(parsed.players, table, strict=True):
        assert player.points == row["points"] == points[player.start_number], player.display_name
        # A blank rank is a tie with the row above.
        previous = row["rank"] or previous
        assert player.rank == previous, player.display_name


def test_it_reads_the_keshmat_header_block():
    parsed = read(APRIL)
    assert parsed.name == "Keshmat Circuit - Rapid - April 2025"
    assert parsed.details["view title"] == "Final Ranking crosstable after 7 Rounds"
    assert (parsed.chief_arbiter, parsed.deputy_arbiters) == (
        "IA Abou Jaoude, Elias (5301920)",
        ["IA Jawhar, Oussama (5302137)"],
    )
    assert (parsed.city, parsed.time_control) == ("Keshmat Chess Center (Dekweneh)", "10 minutes + 3 secs per move")
    assert str(parsed.start_date) == str(parsed.end_date) == "2025-04-30"
    assert parsed.details["FIDE-Event-ID"] == "420215"
    assert parsed.details["Tournament type"] == "Swiss-System"
    # "Last update 30.04.2025 21:49:26" and the site line are not taken for the name or a detail.
    assert not any("Last update" in key or "Chess-Results" in key for key in parsed.details)


def test_it_reads_keshmat_byes_forfeits_and_rounds_left_out():
    parsed = read(APRIL)
    kinds = Counter((game.kind, game.result) for game in parsed.games)
    assert kinds == {
        ("played", "1-0"): 104,
        ("played", "0-1"): 109,
        ("played", "1/2-1/2"): 11,
        ("bye", "1-0"): 7,  # -1 in the file
        ("unplayed", "0-0"): 4,  # 0 in the file: no opponent, no point
        ("forfeit", "1-0"): 2,
        ("forfeit", "0-1"): 3,
    }
    # Row 67, Saab Karim: round 3 "-1", a bye worth a point.
    saab = parsed.player(47)
    assert (saab.family_name, saab.given_names, saab.points) == ("Saab", "Karim", Decimal(3))
    bye = next(g for g in parsed.games if g.round == 3 and g.white == 47)
    assert (bye.black, bye.kind, bye.result) == (None, "bye", "1-0")
    # Row 83, El Solh Samih: lost three forfeits (" 30w-", " 53b-", " 55w-").
    forfeits = sorted(g.round for g in parsed.games if 63 in (g.white, g.black) and g.kind == "forfeit")
    assert forfeits == [1, 2, 3]
    assert parsed.player(1).title == "CM" and parsed.player(8).title == "WCM"


def test_it_keeps_a_double_forfeit_of_may_without_a_point_for_either():
    parsed = read(MAY)
    double = [g for g in parsed.games if g.kind == "forfeit" and g.result == "0-0"]
    assert len(double) == 1
    players = {parsed.player(double[0].white).display_name, parsed.player(double[0].black).display_name}
    assert players == {"Ghrayeb, Zayn", "Darwiche, Mohamad"}


def test_it_names_the_december_players_without_a_played_game():
    parsed = read(DECEMBER)
    silent = [p for p in parsed.warnings if p.code == "no_played_game"]
    # Rows 114-118: every round a forfeit lost or not paired.
    assert [p.place.row for p in silent] == [114, 115, 116, 117, 118]
    assert "Karam, Mark has no played game" in silent[0].message
    # Rows 115-118 (ranks 96-99) are tied with rank 95: their rank cells are blank.
    assert [p.rank for p in parsed.players[94:]] == [95, 95, 95, 95, 95, 100]


# The views that no real file of a permissive licence was found for: built in chess-results' layout.


def _round_robin() -> bytes:
    # Keshmat Winter Festival 2026 Group A's layout: the view's title under the table, not above it.
    return xlsx(
        [
            [SITE],
            ["Первенство клуба - 2026 - Группа А  "],
            ["Last update 08.02.2026 16:45:19"],
            ["No.", None, "Name", "Rtg", "FED", 1, 2, 3, 4, "Pts. ", "Rk.", "TB1"],
            [1, "CM", "Иванов  Пётр ", 2081, "RUS", "*", 1, 1, 0, 2, 2, 0],
            [2, "FM", "Šimková  Zoë ", 2111, "CZE", 0, "*", "½", "+", 1.5, 3, 0],
            [3, None, "Петрова  Анна ", 1963, "RUS", 0, "½", "*", 0, 0.5, 4, 0],
            [4, None, "Müller  Jürgen ", 1987, "GER", 1, "-", 1, "*", 2, 1, 0],
            ["Starting rank crosstable"],
            *FOOTER,
        ]
    )


def test_it_reads_a_round_robin_crosstable_by_the_berger_tables():
    parsed = read("rr.xlsx", _round_robin())
    assert (parsed.content, parsed.view, parsed.rounds) == (RESULTS, "starting-rank crosstable", 3)
    assert parsed.name == "Первенство клуба - 2026 - Группа А"
    assert any("Berger" in str(note) for note in parsed.notes)
    assert [(p.family_name, p.given_names) for p in parsed.players] == [
        ("Иванов", "Пётр"),
        ("Šimková", "Zoë"),
        ("Петрова", "Анна"),
        ("Müller", "Jürgen"),
    ]
    assert len(parsed.games) == 6 and not parsed.errors
    points = earned(parsed)
    assert all(points[p.start_number] == p.points for p in parsed.players)
    # Berger tables for four players: 1-4, 2-3 | 4-3, 1-2 | 2-4, 3-1. Šimková's "+" against Müller is
    # a forfeit won in round 3, with white.
    forfeit = next(g for g in parsed.games if {g.white, g.black} == {2, 4})
    assert (forfeit.round, forfeit.white, forfeit.black, forfeit.kind, forfeit.result) == (3, 2, 4, "forfeit", "1-0")


def test_it_reads_a_russian_starting_rank_crosstable():
    data = xlsx(
        [
            [SITE],
            ["Кубок города по быстрым шахматам"],
            ["Главный судья : Сидоров, Илья"],
            ["Количество туров : 2"],
            ["Дата : 2026/03/01"],
            ["Итоговая таблица по стартовым номерам"],
            ["Ст.ном.", None, "Имя", "Рейт.", "ФЕД.", "1.Тур", "2.Тур", "Очки", "Место"],
            [1, None, "Ёлкин  Семён ", 2010, "RUS", "3w1", "2b½", 1.5, 1],
            [2, None, "Şahin  Ayşe ", 1900, "TUR", "4b1", "1w½", 1.5, 2],
            [3, None, "Ким  Ли ", 1800, "KAZ", "1b0", "-1", 1, 3],
            [4, None, "Горький  Максим ", 1700, "RUS", "2w0", 0, 0, 4],
            *FOOTER,
        ]
    )
    parsed = read("ru.xlsx", data)
    assert (parsed.content, parsed.view, parsed.chief_arbiter, parsed.rounds) == (
        RESULTS,
        "starting-rank crosstable",
        "Сидоров, Илья",
        2,
    )
    assert [p.display_name for p in parsed.players] == ["Ёлкин, Семён", "Şahin, Ayşe", "Ким, Ли", "Горький, Максим"]
    assert Counter(g.kind for g in parsed.games) == {"played": 3, "bye": 1, "unplayed": 1}
    points = earned(parsed)
    assert all(points[p.start_number] == p.points for p in parsed.players)


def _list(title: str, name: str = "Keshmat Circuit - Rapid - June 2025 ") -> bytes:
    return xlsx(
        [
            [SITE],
            [name],
            ["Chief Arbiter : IA Kayle, Charles (11500140)"],
            ["Last update 30.06.2025 21:49:26"],
            [title],
            ["Rk.", "SNo", None, "Name", "FED", "Rtg", "Pts. ", "TB1", "TB2"],
            [1, 2, "FM", "Khoder  Akram ", "LBN", 2238, 6, 0, 28.5],
            [2, 1, None, "Kaloust  Giorgio ", "LBN", 2041, 6, 0, 27],
            [None, 3, None, "Ḥaddād  Ṣūfī ", "LBN", 0, 6, 0, 27],
            *FOOTER,
        ]
    )


@pytest.mark.parametrize(
    ("title", "view"),
    [("Final Ranking after 7 Rounds", "ranking list"), ("Ranking list after Round 5", "ranking list")],
)
def test_it_reads_a_ranking_list_as_players_and_says_which_export_to_save(title, view):
    parsed = read("ranking.xlsx", _list(title))
    assert (parsed.content, parsed.view, parsed.games) == (PLAYER_LIST, view, [])
    assert [str(p) for p in parsed.problems] == [
        f"ranking.xlsx, sheet 'Sheet1', row 5: this file is chess-results' {title}: it holds no games, so it is "
        "read as a list of players only; to import the results, save the 'Starting rank crosstable' or the "
        "'Ranking crosstable' as Excel instead"
    ]
    assert [(p.start_number, p.family_name, p.rank, p.points) for p in parsed.players] == [
        (2, "Khoder", 1, Decimal(6)),
        (1, "Kaloust", 2, Decimal(6)),
        (3, "Ḥaddād", 2, Decimal(6)),  # blank rank: tied with the row above
    ]


def test_it_does_not_take_a_tournament_named_after_a_round_for_a_pairings_list():
    parsed = read("tur.xlsx", _list("Starting rank", name="Тур 3 Кубка города"))
    assert (parsed.content, parsed.view, parsed.name) == (PLAYER_LIST, "starting-rank list", "Тур 3 Кубка города")


def test_it_reads_an_alphabetical_list_as_players_without_a_warning():
    parsed = read("alpha.xlsx", _list("Alphabetical list"))
    assert (parsed.content, parsed.view) == (PLAYER_LIST, "alphabetical list")
    assert not parsed.problems and len(parsed.players) == 3


def _pairings(title: str, header: list) -> bytes:
    return xlsx(
        [
            [SITE],
            ["Keshmat Circuit - Rapid - June 2025 "],
            ["Last update 30.06.2025 21:49:26"],
            [title],
            header,
            [1, 2, "Khoder  Akram ", 2238, 3, "1 - 0", 3, "Kaloust  Giorgio ", 2041, 1],
            *FOOTER,
        ]
    )


@pytest.mark.parametrize(
    ("title", "header"),
    [
        (
            "Round 3 on 2025/06/30 at 18:00",
            ["Bo.", "No.", "White", "Rtg", "Pts.", "Result", "Pts.", "Black", "Rtg", "No."],
        ),
        ("Pairings/Results", ["Bo.", "No.", "Name", "Rtg", "Pts.", "Result", "Pts.", "Name", "Rtg", "No."]),
        ("Paarungen/Ergebnisse", ["Br.", "Nr.", "Name", "Elo", "Pkt.", "Ergebnis", "Pkt.", "Name", "Elo", "Nr."]),
    ],
)
def test_it_refuses_the_pairings_of_a_round_naming_the_export_to_save(title, header):
    with pytest.raises(ResultFileError) as refused:
        read("pairings.xlsx", _pairings(title, header))
    [problem] = refused.value.problems
    assert problem.code == "no_games"
    assert str(problem) == (
        f"pairings.xlsx, sheet 'Sheet1', row 4: this file is chess-results' {title}: it holds the games of one "
        "round only, not the tournament; save the 'Starting rank crosstable' or the 'Ranking crosstable' as "
        "Excel instead"
    )


def test_it_refuses_a_team_composition_naming_the_files_to_upload():
    data = xlsx(
        [
            [SITE],
            ["Club League 2025"],
            ["Team-Composition with round-results"],
            ["1. Rankweil 1 (RtgAvg:2125, TB1: 18 / TB2: 48)"],
            ["Bo.", None, "Name", "Rtg", "FED", 1, 2, 3, "Pts.", "Games"],
            [1, "FM", "Huber  Jörg ", 2300, "AUT", 1, "½", 1, 2.5, 3],
        ]
    )
    with pytest.raises(ResultFileError) as refused:
        read("teams.xlsx", data)
    assert str(refused.value.problems[0]).startswith(
        "teams.xlsx, sheet 'Sheet1', row 3: this file is chess-results' Team-Composition with round-results: it "
        "lists each team's players without their opponents"
    )
    assert "(.TUMX) or a FIDE TRF" in refused.value.problems[0].message


@pytest.fixture
def arbiter(django_user_model):
    user = django_user_model.objects.create_user("arbiter")
    user.groups.add(Group.objects.get(name="Arbiters"))
    return user


@pytest.mark.django_db
def test_it_saves_nothing_of_a_refused_view_and_registers_a_ranking_list(arbiter, tmp_path):
    (tmp_path / "pairings.xlsx").write_bytes(_pairings("Pairings/Results", ["Bo.", "No.", "Name", "Name"]))
    (tmp_path / "ranking.xlsx").write_bytes(_list("Final Ranking after 7 Rounds"))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command(
            "import_results",
            str(tmp_path / "pairings.xlsx"),
            str(tmp_path / "ranking.xlsx"),
            "--arbiter",
            "arbiter",
            "--confirm",
            stdout=out,
            stderr=err,
        )
    assert "pairings.xlsx: not imported" in err.getvalue()
    assert "save the 'Starting rank crosstable' or the 'Ranking crosstable' as Excel instead" in err.getvalue()
    assert "ranking.xlsx: 3 players registered" in out.getvalue()
    assert (Upload.objects.count(), Tournament.objects.count()) == (1, 0)  # the player list only


@pytest.mark.django_db
def test_it_imports_a_keshmat_crosstable_with_the_dates_of_its_header(arbiter):
    out, err = io.StringIO(), io.StringIO()
    call_command("import_results", str(EXAMPLES / APRIL), "--arbiter", "arbiter", "--confirm", stdout=out, stderr=err)
    assert not err.getvalue()
    tournament = Tournament.objects.get()
    assert (tournament.name, str(tournament.start_date), tournament.rounds) == (
        "Keshmat Circuit - Rapid - April 2025",
        "2025-04-30",
        7,
    )
    assert (tournament.participants.count(), tournament.games.count()) == (67, 240)  # byes and forfeits kept
