"""Swiss-Manager's binary files of examples/ (.TUNX, .TURX, .TUMX) and damaged copies of them.

The files store no totals or ranks (checked: Swiss-Manager recomputes them on opening), so the
points below were counted by hand from the raw 21-byte pairing records (white, black, result),
and every complete round must name every player exactly once.
"""

import datetime
import struct
from collections import Counter, defaultdict
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.base import ArbiterTestCase
from tests.players.factories import PlayerFactory
from tests.tournaments.files import earned, example
from tournaments import services
from tournaments.importers.base import ResultFileError
from tournaments.importers.registry import read_result_file, sniff
from tournaments.models import Tournament, Upload

FILES = (
    "sm-circuito-sesc-2026.TUNX",
    "sm-elllobregat-open-2023.TUNX",
    "sm-sesc-women-2026-unfinished.TUNX",
    "sm-feldkirch-club-2025.TUNX",
    "sm-round-robin-6.TURX",
    "sm-team-swiss-93.TUMX",
    "sm-russian-blitz-2026.TUNX",
    "sm-passover-rapid-2026.TUNX",
)


def read(name):
    return read_result_file(name, example(name))


@pytest.mark.parametrize("name", FILES)
def test_it_reads_every_swiss_manager_file_by_its_content(name):
    assert sniff(example(name)) == "swissmanager"
    # The content decides, never the name.
    parsed = read_result_file("results.txt", example(name))
    assert not parsed.errors
    # The format says what the file holds: Feldkirch's club round robin was saved as a .TUNX.
    expected = "turx" if "feldkirch" in name else name.rsplit(".", 1)[1].lower()
    assert parsed.format == expected


def test_it_reads_the_circuito_sesc_header_and_players():
    parsed = read("sm-circuito-sesc-2026.TUNX")
    assert (parsed.name, parsed.city, parsed.federation) == ("Circuito Sesc de Xadrez - 2026", "Curitiba-PR", "BRA")
    assert (parsed.start_date, parsed.end_date, parsed.rounds) == (datetime.date(2026, 3, 28),) * 2 + (7,)
    assert parsed.time_control == "7'+5'' ou 12' KO"
    assert parsed.details["organiser"] == "FEXPAR, SESC"
    assert len(parsed.players) == 29
    first = parsed.player(1)
    assert (first.family_name, first.given_names, first.fide_id) == ("Aloisio", "Ponti Lopes", 2108372)
    assert (first.rating, first.national_rating, first.national_id) == (1959, 1869, "8818")
    assert (first.country, first.club) == ("BRA", "Clube De Xadrez De Curitiba")
    assert (first.birth_date, first.birth_precision) == (datetime.date(1967, 1, 1), "year")
    fifth = parsed.player(5)
    assert (fifth.display_name, fifth.rating, fifth.fide_id) == ("Luciano, Fier", 1835, 2120526)


def test_it_imports_every_round_of_the_circuito_sesc():
    parsed = read("sm-circuito-sesc-2026.TUNX")
    kinds = Counter(game.kind for game in parsed.games)
    # 114 records: 86 games, 3 forfeits (codes 4 and 5), 3 byes (FFFF, 9), 22 absences (FFFE, 3).
    assert kinds == {"played": 86, "forfeit": 3, "bye": 3, "unplayed": 22}
    per_round = Counter(game.round for game in parsed.games)
    assert per_round == {1: 15, 2: 16, 3: 16, 4: 16, 5: 17, 6: 17, 7: 17}
    for rnd in range(1, 8):
        named = [n for g in parsed.games if g.round == rnd for n in (g.white, g.black) if n is not None]
        assert sorted(named) == list(range(1, 30))
    # Round 1, first record 0f 00 01 00 03 00: 15 (white) lost to 1.
    first = next(g for g in parsed.games if g.round == 1 and 1 in (g.white, g.black))
    assert (first.white, first.black, first.result, first.kind) == (15, 1, "0-1", "played")
    # Round 1, 0a 00 18 00 04 00: 10 won by forfeit against 24.
    forfeit = next(g for g in parsed.games if g.round == 1 and g.white == 10)
    assert (forfeit.black, forfeit.result, forfeit.kind) == (24, "1-0", "forfeit")
    # Round 5, 1b 00 ff ff 09 00: 27 had the bye, one point.
    bye = next(g for g in parsed.games if g.round == 5 and g.white == 27)
    assert (bye.black, bye.result, bye.kind) == (None, "1-0", "bye")
    won = earned(parsed)
    assert (won[4], won[22], won[7], won[1], won[2]) == (
        6,
        Decimal("5.5"),
        Decimal("5.5"),
        Decimal("4.5"),
        0,
    )
    assert sum(won.values()) == 86 + 3 + 3  # a point per game and per forfeit or bye
    # 2, 3 and 24 are listed but absent every round.
    assert sorted(p.code for p in parsed.warnings) == ["no_played_game"] * 3


def test_it_imports_the_elllobregat_open_with_its_accents():
    parsed = read("sm-elllobregat-open-2023.TUNX")
    assert parsed.name == "IV Elllobregat Open Chess Tmnt Grupo A"
    assert parsed.city == "Sant Boi de Llobregat"
    assert (parsed.start_date, parsed.end_date, parsed.rounds) == (
        datetime.date(2023, 11, 30),
        datetime.date(2023, 12, 8),
        9,
    )
    assert parsed.chief_arbiter == "IA Siludakis, Hernan 127965"
    assert parsed.deputy_arbiters == ["IA Ramos Vizuete, Miguel 22232656", "NA Pardina Albert 54597471"]
    assert len(parsed.players) == 210
    first = parsed.player(1)
    assert (first.display_name, first.title, first.rating, first.fide_id, first.country) == (
        "Fedoseev, Vladimir",
        "GM",
        2675,
        24130737,
        "SLO",
    )
    assert (first.sex, parsed.player(40).sex) == ("M", "F")  # Khademalsharieh has the "female" mark
    assert sum(1 for p in parsed.players if p.sex == "F") == 15
    # UTF-16 in the file: accents and Turkish letters arrive as they are.
    assert parsed.player(23).club == "Barberá"
    assert parsed.player(34).club == "Bursa Büyükşehir Belediyespor"
    assert parsed.player(37).club == "L'Echiquier Châlonnais"
    assert Counter(g.kind for g in parsed.games) == {"played": 906, "forfeit": 7, "bye": 5, "unplayed": 59}
    assert Counter(g.round for g in parsed.games) == {
        1: 106,
        2: 106,
        3: 106,
        4: 107,
        5: 107,
        6: 110,
        7: 110,
        8: 110,
        9: 115,
    }
    for rnd in range(1, 10):
        named = [n for g in parsed.games if g.round == rnd for n in (g.white, g.black) if n is not None]
        assert sorted(named) == list(range(1, 211))
    won = earned(parsed)
    assert (won[3], won[1], won[2], won[4]) == (Decimal("7.5"), 7, Decimal("6.5"), 6)
    assert not parsed.problems


def test_it_warns_that_the_women_section_is_unfinished_and_keeps_only_the_results():
    parsed = read("sm-sesc-women-2026-unfinished.TUNX")
    assert parsed.rounds == 7
    unfinished = [p for p in parsed.warnings if p.code == "unfinished"]
    # One for the file (7 announced, 4 with results), one per game paired in round 5 without a result.
    assert "7 rounds are announced, results are in the file for 4" in unfinished[-1].message
    assert "sm-sesc-women-2026-unfinished.TUNX" in str(unfinished[-1])
    assert len(unfinished) == 13
    assert "round 5" in str(unfinished[0].place)
    assert max(g.round for g in parsed.games) == 4
    assert Counter(g.kind for g in parsed.games) == {"played": 50, "forfeit": 3, "unplayed": 10}
    assert not parsed.errors


def test_it_imports_the_feldkirch_round_robin_with_its_free_rounds_and_umlauts():
    parsed = read("sm-feldkirch-club-2025.TUNX")
    assert (parsed.name, parsed.rounds, len(parsed.players)) == ("Vereinsmeisterschaft 2025/2026", 9, 9)
    assert parsed.chief_arbiter == "Dr. Felix Graf"
    assert parsed.player(2).display_name == "Knabl, Günter"
    assert parsed.player(5).display_name == "Hürlimann, Wolfgang"
    # Nine players: each round one has the free round, which earns nothing in a round robin.
    free = [g for g in parsed.games if g.black is None]
    assert len(free) == 9 and {g.kind for g in free} == {"unplayed"}
    # Four games of the season have no result yet: left out, each named.
    assert [p.code for p in parsed.warnings] == ["unfinished"] * 4
    assert Counter(g.kind for g in parsed.games) == {"played": 32, "unplayed": 9}
    assert earned(parsed)[6] == 7


def test_it_imports_the_six_player_round_robin():
    parsed = read("sm-round-robin-6.TURX")
    assert (parsed.name, parsed.rounds, len(parsed.players)) == ("Torneio Aniversário JTC 2025", 5, 6)
    assert Counter(g.kind for g in parsed.games) == {"played": 10, "forfeit": 5}
    # Round 1, 02 00 05 00 04 00: 2 won by forfeit against 5.
    forfeit = next(g for g in parsed.games if g.round == 1 and g.white == 2)
    assert (forfeit.black, forfeit.result, forfeit.kind) == (5, "1-0", "forfeit")
    won = earned(parsed)
    assert [won[n] for n in range(1, 7)] == [2, Decimal("3.5"), Decimal("2.5"), Decimal("4.5"), Decimal("2.5"), 0]
    assert sum(won.values()) == 15
    assert not parsed.problems


def test_it_rates_the_board_games_of_the_team_swiss():
    parsed = read("sm-team-swiss-93.TUMX")
    assert (parsed.name, parsed.rounds, len(parsed.players)) == ("48 Interclubes FEXERJ 2025", 6, 93)
    assert parsed.chief_arbiter == "IA Marcelo Einhorn"
    # 192 board records: 16 teams, 8 matches of 4 boards a round.
    assert Counter(g.round for g in parsed.games) == dict.fromkeys(range(1, 7), 32)
    assert Counter(g.kind for g in parsed.games) == {"played": 183, "forfeit": 4, "bye": 5}
    # Round 3, 00 00 3f 00 05 00: the white board was empty; 63 wins without a game.
    empty = next(g for g in parsed.games if g.round == 3 and g.white == 63)
    assert (empty.black, empty.result, empty.kind) == (None, "1-0", "bye")
    won = earned(parsed)
    assert (won[4], won[71], won[1]) == (Decimal("5.5"), Decimal("5.5"), 0)
    assert not parsed.errors


def test_it_reads_the_teams_and_matches_of_the_team_swiss():
    parsed = read("sm-team-swiss-93.TUMX")
    # 16 team records (name, short name, captain), 48 match records: 8 a round for 6 rounds.
    assert [str(note) for note in parsed.notes] == [
        "A Swiss-Manager team tournament: 16 teams (TTC-A01, NXN-A01, ALEX-A01, CMUN-A01, AFLUX-A01, CXG-A01, "
        "CXP-A01, ICC-A01, …) in 48 matches; the individual board games are imported and rated, the match "
        "results are not."
    ]
    assert "teams_unread" not in {p.code for p in parsed.problems}


def _team_swiss_with(change):
    data = bytearray(example("sm-team-swiss-93.TUMX"))
    change(data)
    return read_result_file("teams.TUMX", bytes(data))


def test_it_refuses_board_games_outside_the_matches_of_their_round():
    def move_a_match(data):
        # Round 1's first match, teams 1 v 9, made 1 v 3: its four boards no longer belong to a match.
        matches = data.find(b"\xc3\xff\x89\x44") + 4
        assert struct.unpack_from("<HH", data, matches) == (1, 9)
        struct.pack_into("<H", data, matches + 2, 3)

    parsed = _team_swiss_with(move_a_match)
    # The four boards of TTC-A01 v CMUN-A02 are no longer part of a match; nothing else changed.
    assert [str(p) for p in parsed.errors] == [
        f"teams.TUMX, round 1: the board game of players {white} ({home}) and {black} ({away}) is not part of a "
        "match of that round; the team file is damaged"
        for white, home, black, away in (
            (88, "TTC-A01", 30, "CMUN-A02"),
            (31, "CMUN-A02", 89, "TTC-A01"),
            (90, "TTC-A01", 32, "CMUN-A02"),
            (33, "CMUN-A02", 91, "TTC-A01"),
        )
    ]
    assert {p.code for p in parsed.errors} == {"board_outside_match"}


def test_it_imports_the_board_games_when_the_team_names_cannot_be_read():
    def damage_the_teams(data):
        teams = data.find(b"\xb5\xff\x89\x44") + 4
        struct.pack_into("<H", data, teams, 3000)  # the first team's name claims 3000 characters

    parsed = _team_swiss_with(damage_the_teams)
    assert [str(p) for p in parsed.problems if p.code == "teams_unread"] == [
        "teams.TUMX: the team names in this Swiss-Manager file could not be read; the board games are imported "
        "without them"
    ]
    assert len(parsed.games) == 192
    assert not parsed.errors


def every_player_once_a_round(parsed):
    seen = defaultdict(Counter)
    for game in parsed.games:
        seen[game.round][game.white] += 1
        if game.black is not None:
            seen[game.round][game.black] += 1
    return all(sorted(counts) == [p.start_number for p in parsed.players] and set(counts.values()) == {1}
               for counts in seen.values())  # fmt: skip


def test_it_imports_the_russian_blitz_with_its_cyrillic_names_and_patronymics():
    parsed = read("sm-russian-blitz-2026.TUNX")
    assert (parsed.name, parsed.rounds, len(parsed.players)) == ("Весенний блиц ДДС 1200+", 11, 14)
    first, last = parsed.players[0], parsed.players[-1]
    assert (first.family_name, first.given_names, first.rating, first.fide_id) == (
        "Калинин", "Никита Андреевич", 2309, 34233512,
    )  # fmt: skip
    assert (first.birth_date, first.birth_precision) == (datetime.date(2009, 1, 1), "year")
    assert last.display_name == "Котова, Ирина Станиславовна"
    # 11 rounds of 7 boards, all played: 77 points shared, every player once a round.
    assert Counter(g.kind for g in parsed.games) == {"played": 77}
    assert every_player_once_a_round(parsed)
    won = earned(parsed)
    assert sum(won.values()) == 77
    assert (won[1], won[2], won[14]) == (11, 10, Decimal("0.5"))
    assert not parsed.problems


def test_it_ends_the_pairings_where_the_next_section_starts_whatever_it_is():
    # The Passover rapid goes on after its pairings with a C5 section (no teams, no D3 next).
    parsed = read("sm-passover-rapid-2026.TUNX")
    assert (parsed.name, parsed.rounds, len(parsed.players)) == ("Passover rapid Kfar Saba", 5, 71)
    assert Counter(g.round for g in parsed.games) == dict.fromkeys(range(1, 6), 36)
    assert Counter(g.kind for g in parsed.games) == {"played": 174, "unplayed": 4, "forfeit": 1, "bye": 1}
    assert every_player_once_a_round(parsed)
    assert [p.code for p in parsed.problems] == ["no_played_game"]  # the top seed never came


def test_it_refuses_result_codes_it_cannot_read_and_says_to_export_trf():
    parsed = read("sm-bar-rapid-2026-unknown-codes.TUNX")
    assert parsed.name == "м. Бар, відкритий турнір по швидким шахам"
    assert [(p.place.render(False), dict(p.params)["code"]) for p in parsed.errors] == [
        ("sm-bar-rapid-2026-unknown-codes.TUNX, round 3, board 6", 17),
        ("sm-bar-rapid-2026-unknown-codes.TUNX, round 4, board 6", 15),
        ("sm-bar-rapid-2026-unknown-codes.TUNX, round 5, board 8", 17),
        ("sm-bar-rapid-2026-unknown-codes.TUNX, round 6, board 8", 15),
        ("sm-bar-rapid-2026-unknown-codes.TUNX, round 7, board 8", 15),
        ("sm-bar-rapid-2026-unknown-codes.TUNX, round 8, board 8", 17),
    ]
    assert "export the tournament from Swiss-Manager as a FIDE TRF file" in str(parsed.errors[0])


@pytest.mark.django_db
def test_it_saves_nothing_of_a_file_with_unreadable_codes(django_user_model):
    arbiter = django_user_model.objects.create_user("arbiter", password="x")
    with pytest.raises(services.UploadRefused) as refused:
        services.upload_create(user=arbiter, file_name="bar.TUNX", data=example("sm-bar-rapid-2026-unknown-codes.TUNX"))
    assert [p.code for p in refused.value.problems] == ["bad_code"] * 6
    assert not Upload.objects.exists()


def test_it_refuses_a_tournament_without_players():
    with pytest.raises(ResultFileError) as refused:
        read("sm-empty-team-2026.TUMX")
    assert str(refused.value) == (
        "sm-empty-team-2026.TUMX: the Swiss-Manager file has no players yet: upload it once the tournament has "
        "been played"
    )


def test_it_reads_a_double_round_robin_cycle_by_cycle():
    # No real double round robin .TURX is public: the real six-player file with its own records
    # played again, colours reversed, and ten rounds announced, as Swiss-Manager stores a second cycle.
    data = bytearray(example("sm-round-robin-6.TURX"))
    config = data.find(b"\x95\xff\x89\x44") + 4
    start = data.find(b"\xb3\xff\x89\x44") + 4
    end = data.find(b"\xd3\xff\x89\x44", start)
    records = [bytes(data[at : at + 21]) for at in range(start, end, 21)]
    reversed_colours = {1: 3, 2: 2, 3: 1, 4: 5, 5: 4}
    second = [
        record if black >= 0xFFFE else struct.pack("<HHH", black, white, reversed_colours[result]) + record[6:]
        for record in records
        for white, black, result in [struct.unpack_from("<HHH", record)]
    ]
    double = data[:end] + b"".join(second) + data[end:]
    struct.pack_into("<H", double, config, 10)
    double[config + 0x11] = 10
    single, parsed = read("sm-round-robin-6.TURX"), read_result_file("double.TURX", bytes(double))
    assert (parsed.rounds, len(parsed.games), parsed.problems) == (10, 30, [])
    meetings = Counter((min(g.white, g.black), max(g.white, g.black), g.white) for g in parsed.games)
    assert set(meetings.values()) == {1} and len({pair[:2] for pair in meetings}) == 15  # twice, once each colour
    assert every_player_once_a_round(parsed)
    assert earned(parsed) == {number: 2 * points for number, points in earned(single).items()}


def test_it_refuses_a_cut_short_file_naming_it():
    data = example("sm-elllobregat-open-2023.TUNX")
    with pytest.raises(ResultFileError) as refused:
        read_result_file("cut.TUNX", data[:20000])
    (problem,) = refused.value.problems
    assert problem.code == "truncated"
    assert str(problem) == "cut.TUNX: the Swiss-Manager file is cut short or damaged: its pairings section is missing"
    # Cut inside the pairings (no end marker): a record is half there.
    pairings = data.find(b"\xb3\xff\x89\x44")
    with pytest.raises(ResultFileError) as refused:
        read_result_file("cut.TUNX", data[: pairings + 4 + 21 * 10 + 5])
    assert "the pairings ends too early" in str(refused.value)
    assert "cut.TUNX" in str(refused.value)


def test_it_refuses_a_damaged_player_list():
    data = bytearray(example("sm-round-robin-6.TURX"))
    players = data.find(b"\xa5\xff\x89\x44") + 4
    struct.pack_into("<H", data, players, 5000)  # the first family name claims 5000 characters
    with pytest.raises(ResultFileError) as refused:
        read_result_file("bad.TURX", bytes(data))
    assert str(refused.value) == (
        f"bad.TURX: the Swiss-Manager file is cut short or damaged: player 1 ends too early (byte {players})"
    )


def test_it_refuses_an_unknown_result_code():
    data = bytearray(example("sm-round-robin-6.TURX"))
    pairings = data.find(b"\xb3\xff\x89\x44") + 4
    struct.pack_into("<H", data, pairings + 4, 8)
    parsed = read_result_file("odd.TURX", bytes(data))
    assert [(p.code, str(p)) for p in parsed.errors] == [
        (
            "bad_code",
            "odd.TURX, round 1, board 1: result code 8 is not one this site can read in Swiss-Manager files; "
            "export the tournament from Swiss-Manager as a FIDE TRF file and upload that instead",
        )
    ]


@pytest.mark.django_db
def test_it_saves_nothing_for_a_damaged_file(django_user_model):
    arbiter = django_user_model.objects.create_user("arbiter", password="x")
    data = example("sm-circuito-sesc-2026.TUNX")
    with pytest.raises(services.UploadRefused) as refused:
        services.upload_create(user=arbiter, file_name="circuito.TUNX", data=data[: len(data) // 3])
    assert "circuito.TUNX" in str(refused.value.problems[0])
    assert not Upload.objects.exists()


class SwissManagerUploadTestCase(ArbiterTestCase):
    def test_it_previews_a_tunx_with_its_matches_and_new_players(self):
        known = PlayerFactory(family_name="Aloisio", given_names="Ponti Lopes", fide_id=2108372)
        self.login(self.arbiter)
        response = self.post_file("circuito.TUNX", example("sm-circuito-sesc-2026.TUNX"))
        upload = Upload.objects.get()
        self.assertRedirects(response, reverse("arbiter:preview", args=[upload.pk]))
        assert upload.format == "tunx"
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]))
        self.assertContains(response, "Circuito Sesc de Xadrez - 2026")
        self.assertContains(response, "Swiss-Manager Swiss (TUNX)")
        self.assertContains(response, f"(#{known.federation_id})")  # found by the FIDE id
        self.assertContains(response, "Luciano, Fier")
        self.assertContains(response, "new player")
        summary = response.context["summary"]
        assert (summary["matched"], summary["new"]) == (1, 28)
        assert (summary["played"], summary["not_rated"]) == (86, 28)

    def test_it_saves_the_round_robin_with_its_games(self):
        self.login(self.arbiter)
        self.post_file("jtc.TURX", example("sm-round-robin-6.TURX"))
        upload = Upload.objects.get()
        data = {
            "action": "confirm",
            "name": "Torneio Aniversário JTC 2025",
            "start_date": "2025-06-24",
            "end_date": "2025-07-22",
            "rounds": 5,
            "time_control": "rapid",
            "time_control_detail": "45+15",
            "mchess_weight": 250,
        }
        response = self.client.post(reverse("arbiter:preview", args=[upload.pk]), data, follow=True)
        self.assertContains(response, "is saved with 15 games")
        tournament = Tournament.objects.get()
        assert tournament.games.count() == 15
        assert tournament.games.filter(kind="forfeit").count() == 5

    def test_it_shows_a_damaged_tunx_and_saves_nothing(self):
        self.login(self.arbiter)
        data = example("sm-circuito-sesc-2026.TUNX")
        response = self.post_file("circuito.TUNX", data[:9000])
        self.assertContains(response, "nothing was saved", status_code=400)
        self.assertContains(
            response,
            "<strong>circuito.TUNX</strong>: the Swiss-Manager file is cut short or damaged: "
            "its pairings section is missing",
            status_code=400,
        )
        assert not Upload.objects.exists()
