"""Hand-checked ORR histories across tournaments (orr.md 2.3-2.4).

Every expected number was computed by hand, step by step from the specification, with a
calculator that shares no code with the engine; the derivations are in the comments.
Everyone is born in 2016 with the day unknown (1 July), so on 10 January 2026 every age is
3480 days / 365.25 = 9.53 -> Yavg 9.5.
"""

import datetime
import json
from fractions import Fraction

from ratings.engines import orr
from ratings.engines.common import Game
from ratings.engines.orr import OrrParticipant, OrrState, OrrTournament

BIRTH = datetime.date(2016, 1, 1)


class Ledger:
    """What the database keeps between tournaments: each player's state after his last one."""

    def __init__(self, **ratings):
        self.states = {pid: OrrState(rating) for pid, rating in ratings.items()}

    def rate(self, start, games, extra=()):
        ids = {g.white for g in games} | {g.black for g in games} | set(extra)
        participants = tuple(
            OrrParticipant(pid, self.states.get(pid, OrrState()), birth_date=BIRTH, birth_precision="year")
            for pid in sorted(ids)
        )
        result = orr.rate_tournament(OrrTournament(start, participants, tuple(games), id=start))
        for pid, player in result.players.items():
            if player.state_after is not None:
                self.states[pid] = player.state_after
        return result


def test_it_rates_a_newcomer_who_scores_zero_then_two_of_five():
    ledger = Ledger(a=1200, b=1000, c1=900, c2=1000, c3=1100, c4=1200, c5=1300)
    first = ledger.rate(
        datetime.date(2026, 1, 10),
        [Game(1, "n", "a", "0-1"), Game(2, "b", "n", "1-0"), Game(3, "a", "b", "1/2-1/2")],
    )
    # Kt: Ki(a) = (20 e^1.4 - 5) / 9.5 = 8.01, Ki(b) = (20 e^1.2 - 5) / 9.5 = 6.46 -> [7.24] = 7 -> 8.
    assert first.kt == 8
    n = first.players["n"]
    # Rmax = round(1000 ln((8 * 9.5 + 5) / 20)) = 1399, Rmin 599, Rpmax (N 2) = 1399 - 50 * 5 = 1149.
    assert (n.corridor.rmax, n.corridor.rmin, n.corridor.rpmax) == (1399, 599, 1149)
    # 0 points: Rs = Rmin = 599 = Rp; no rating; his two games are kept with the opponents' ratings.
    assert (n.rs, n.rp, n.rsr) == (599, 599, 1100)
    assert n.rating_after is None and not n.enters_list
    assert [(g.opponent_rating, g.half_points) for g in ledger.states["n"].stored_games] == [(1200, 0), (1000, 0)]
    assert ledger.states["n"].tournaments == 0
    # a: PD vs 599 = 0.97, vs b = 0.76; SR = 0.03 - 0.26 = -0.23; K 25 -> -5.75 -> 1194.25 -> 1194.
    assert (first.players["a"].sr_cents, first.players["a"].rating_after) == (-23, 1194)
    # b: PD vs 599 = 0.91, vs a = 0.24; SR = 0.09 + 0.26 = 0.35; K 45 -> 45 * 0.35 * (1 - 0.35 / 40)
    # = 15.61 -> 1016.
    assert (first.players["b"].sr_cents, first.players["b"].rating_after) == (35, 1016)

    second = ledger.rate(
        datetime.date(2026, 2, 10),
        [
            Game(1, "n", "c1", "1-0"),
            Game(2, "c2", "n", "0-1"),
            Game(3, "n", "c3", "0-1"),
            Game(4, "c4", "n", "1-0"),
            Game(5, "n", "c5", "0-1"),
        ],
    )
    # Ages 9.61 -> Yavg 9.6. The five opponents' Ki average 8.44 -> Kt 8.
    assert second.kt == 8
    n = second.players["n"]
    # This tournament: Rmax 1409, Rmin 609, Rpmax (N 5) = 1409 - 50 * 2 = 1309; Rs = 609 + 700 * 2/5 = 889.
    assert (n.corridor.rmax, n.corridor.rmin, n.corridor.rpmax, n.rs) == (1409, 609, 1309, 889)
    # Opponents rate against his Rp of this tournament alone: Rsr 1100, Rp = 1100 - 400 lg(1.5) = 1030.
    assert n.rp == 1030
    assert second.players["c1"].lines[0].opponent_rating == 1030
    # His own rating over all 7 games: Rsr = 7700 / 7 = 1100, Rkor = 1100 - 400 lg(7/2 - 1) = 941;
    # SR over 7 games against 941 = -0.16, K 25 -> -4 -> 937*.
    assert (n.rsr, n.rkor, n.total_games, n.sr_cents, n.k) == (1100, 941, 7, -16, 25)
    assert (n.rating_after, n.provisional_after, n.enters_list) == (937, True, True)
    assert ledger.states["n"] == OrrState(937, True, ledger.states["n"].stored_games, 1)
    assert len(ledger.states["n"].stored_games) == 7
    # The opponents: c2 (1000) lost to 1030: SR -0.46, K 25 -> -11.5 -> 988.5 -> 989 (half up).
    expected = {"c1": 892, "c2": 989, "c3": 1116, "c4": 1211, "c5": 1306}
    assert {pid: second.players[pid].rating_after for pid in expected} == expected


def test_it_keeps_a_rating_provisional_until_eleven_games_and_two_tournaments():
    ledger = Ledger(
        o1=1000, o2=1100, o3=1200, o4=1300, q1=1150, q2=1250, q3=1350, q4=1450, r1=1100, r2=1200, r3=1300, r4=1400
    )

    def four(prefix, results):
        return [
            Game(k, "p", f"{prefix}{k}", res) if k % 2 else Game(k, f"{prefix}{k}", "p", _flip(res))
            for k, res in enumerate(results, start=1)
        ]

    t1 = ledger.rate(datetime.date(2026, 1, 10), four("o", ["1-0", "1-0", "1/2-1/2", "0-1"]))
    p = t1.players["p"]
    # Kt 10; corridor 1609 / 809 / Rpmax 1459; Rs = 809 + 650 * 5/8 = 1215; Rsr 1150;
    # Rp = 1150 - 400 lg(8/5 - 1) = 1238.7 -> 1239; SR 0.04, K 40 -> 1241*.
    assert t1.kt == 10
    assert (p.rs, p.rsr, p.rp, p.rating_after, p.provisional_after) == (1215, 1150, 1239, 1241, True)
    assert ledger.states["p"].tournaments == 1

    t2 = ledger.rate(datetime.date(2026, 3, 10), four("q", ["1-0", "0-1", "1/2-1/2", "1/2-1/2"]))
    p = t2.players["p"]
    # Provisional: opponents use 1241; his own: 8 games, 4.5 points, Rsr 9800 / 8 = 1225,
    # Rkor = 1225 - 400 lg(8/4.5 - 1) = 1268.7 -> 1269; SR 0.05, K 40 -> 1271*.
    assert t2.players["q1"].lines[0].opponent_rating == 1241
    assert (p.rsr, p.rkor, p.total_games, p.rating_after) == (1225, 1269, 8, 1271)
    # Two tournaments but 8 games: still provisional.
    assert p.provisional_after
    assert ledger.states["p"].tournaments == 2

    t3 = ledger.rate(datetime.date(2026, 5, 10), four("r", ["1-0", "1-0", "1-0", "0-1"]))
    p = t3.players["p"]
    # 12 games, 7.5 points: Rsr 14800 / 12 = 1233, Rkor = 1233 - 400 lg(12/7.5 - 1) = 1321.7 -> 1322;
    # SR 0.18 over 12 games, K 35 -> 6.27 -> 1328, established: the star and the stored games go.
    assert t3.kt == 11
    assert (p.rsr, p.rkor, p.total_games, p.sr_cents, p.k) == (1233, 1322, 12, 18, 35)
    assert (p.rating_after, p.provisional_after) == (1328, False)
    assert ledger.states["p"] == OrrState(1328)
    expected = {"r1": 1093, "r2": 1190, "r3": 1287, "r4": 1411}
    assert {pid: t3.players[pid].rating_after for pid in expected} == expected


def test_it_adds_a_fictitious_draw_for_a_provisional_player_with_all_wins():
    ledger = Ledger(a=1000, b=1100, c=1200, d=1050, e=1150, f=1250)
    t1 = ledger.rate(
        datetime.date(2026, 1, 10), [Game(1, "p", "a", "1-0"), Game(2, "b", "p", "0-1"), Game(3, "p", "c", "1-0")]
    )
    p = t1.players["p"]
    # Kt 13; Rmax 1860, Rmin = min(1060, 1000) = 1000, Rpmax = 1860 - 53 * 4 = 1648 = Rs (3/3);
    # fictitious draw against Rs: Rsr = (3300 + 1648) / 4 = 1237, Rp = 1237 - 400 lg(4/3.5 - 1) = 1575.
    assert t1.kt == 13
    assert (p.corridor.rmin, p.corridor.rpmax, p.rs) == (1000, 1648, 1648)
    assert (p.fictitious_opponent, p.rsr, p.rp) == (1648, 1237, 1575)
    # SR 0.20 against the three, K 30 -> 5.97 -> 1581*. The opponents: 1100 -1.5 -> 1098.5 -> 1099.
    assert (p.rating_after, p.provisional_after) == (1581, True)
    assert {pid: t1.players[pid].rating_after for pid in "abc"} == {"a": 999, "b": 1099, "c": 1198}

    t2 = ledger.rate(
        datetime.date(2026, 2, 10), [Game(1, "p", "d", "1-0"), Game(2, "e", "p", "0-1"), Game(3, "p", "f", "1-0")]
    )
    p = t2.players["p"]
    # 6/6: the fictitious draw is against his provisional rating at the start, 1581:
    # Rsr = (6600 + 1581) / 7 = 1190, Rkor = 1190 - 400 lg(7/6.5 - 1) = 1635.6 -> 1636;
    # SR 0.34 over 6 games, K 30 -> 10.11 -> 1646*, still provisional (6 games).
    assert (p.fictitious_opponent, p.rsr, p.rkor, p.rating_after) == (1581, 1190, 1636, 1646)
    assert p.provisional_after
    # The opponents rate against 1581, never against Rkor.
    assert {pid: t2.players[pid].rating_after for pid in "def"} == {"d": 1049, "e": 1148, "f": 1247}


def test_it_rates_a_newcomer_with_twenty_six_of_twenty_six():
    """Seed example 3 as a real tournament: 14 seven-year-old newcomers, a double round robin,
    one wins all 26 games and every other game is drawn."""
    start = datetime.date(2026, 6, 1)
    born = datetime.date(2019, 6, 1)  # 2557 days: 7.0007 years
    names = ["w"] + [f"x{k:02}" for k in range(13)]
    games = []
    rnd = 0
    for cycle in range(2):
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                rnd += 1
                white, black = (a, b) if cycle == 0 else (b, a)
                result = "1/2-1/2"
                if "w" in (white, black):
                    result = "1-0" if white == "w" else "0-1"
                games.append(Game(rnd, white, black, result))
    participants = tuple(OrrParticipant(pid, birth_date=born) for pid in names)
    result = orr.rate_tournament(OrrTournament(start, participants, tuple(games)))
    w = result.players["w"]
    assert result.kt == 8
    assert (w.games, w.score, w.yavg) == (26, 26, Fraction(7))
    assert (w.corridor.rmax, w.corridor.rmin, w.corridor.rpmax) == (1115, 315, 1115)
    # Others: Rs = round(315 + 800 * 12/26) = 684. Rsr = (26 * 684 + 1115) / 27 = 699.96 -> 700.
    assert w.rs == 1115
    assert (w.rsr, w.rp_uncorrected, w.rp) == (700, 1390, 1239)
    # The others: Rsr = (2 * 1115 + 24 * 684) / 26 = 717, Rp = 717 - 400 lg(26/12 - 1) = 690.
    other = result.players["x00"]
    assert (other.rs, other.rsr, other.rp) == (684, 717, 690)
    # w: PD 0.96 against 690 in 26 games: SR 1.04, K 40 -> 40.52 -> 1280*.
    assert (w.sr_cents, w.k, w.rating_after, w.provisional_after) == (104, 40, 1280, True)
    # The others: two losses at PD 0.04, 24 draws at 0.5: SR -0.08, K 25 -> -2 -> 688*.
    assert (other.sr_cents, other.rating_after, other.provisional_after) == (-8, 688, True)
    # 26 games but one tournament: provisional, all games stored.
    assert w.state_after.tournaments == 1
    assert len(w.state_after.stored_games) == 26


def test_it_uses_a_fide_rating_as_an_established_orr_rating():
    participants = (
        OrrParticipant("f", fide_rating=1800, birth_date=datetime.date(1990, 1, 1)),
        OrrParticipant("e", OrrState(1800), birth_date=datetime.date(1990, 1, 1)),
    )
    games = (Game(1, "f", "e", "1-0"),)
    result = orr.rate_tournament(OrrTournament(datetime.date(2026, 1, 10), participants, games, fide_rated=True))
    f = result.players["f"]
    assert (f.category, f.rating_before, f.provisional_before) == ("fide", 1800, False)
    # 1800 beats 1800: SR 0.5, K 25 -> 12.34 -> 1812, established at once.
    assert (f.rating_after, f.provisional_after) == (1812, False)
    assert f.state_after == OrrState(1812)
    assert result.players["e"].rating_after == 1790  # SR -0.5, K 20 -> -10


def test_it_ignores_the_files_fide_rating_unless_the_tournament_is_fide_rated():
    participants = (OrrParticipant("f", fide_rating=1800), OrrParticipant("e", OrrState(1800)))
    games = (Game(1, "f", "e", "1-0"),)
    result = orr.rate_tournament(OrrTournament(datetime.date(2026, 1, 10), participants, games))
    assert result.players["f"].category == "newcomer"
    # An approved import counts in any tournament.
    approved = (OrrParticipant("f", approved_fide_rating=1750), OrrParticipant("e", OrrState(1800)))
    result = orr.rate_tournament(OrrTournament(datetime.date(2026, 1, 10), approved, games))
    assert (result.players["f"].category, result.players["f"].rating_before) == ("fide", 1750)


def test_it_rates_a_guest_for_the_event_without_entering_him():
    participants = (
        OrrParticipant("guest", fide_rating=1900, guest=True),
        OrrParticipant("newguest", guest=True),
        OrrParticipant("e", OrrState(1800)),
    )
    games = (Game(1, "guest", "e", "0-1"), Game(2, "newguest", "e", "1/2-1/2"))
    result = orr.rate_tournament(OrrTournament(datetime.date(2026, 1, 10), participants, games, fide_rated=True))
    guest = result.players["guest"]
    assert guest.rating_after is not None and not guest.enters_list
    assert guest.state_after is None
    newguest = result.players["newguest"]
    assert newguest.category == "newcomer" and newguest.rp is not None
    assert not newguest.enters_list and newguest.state_after is None
    # Both guests count for the calculation of e: against 1900 and the newcomer's Rp.
    assert [line.opponent_rating for line in result.players["e"].lines] == [1900, newguest.rp]
    # The FIDE-rated guest gives a Ki; the newcomer guest does not.
    assert result.coefficient.i == 2


def test_it_shows_forfeits_and_byes_without_rating_them():
    participants = (OrrParticipant("a", OrrState(1500)), OrrParticipant("b", OrrState(1400)), OrrParticipant("c"))
    games = (
        Game(1, "a", "b", "1-0", kind="forfeit"),
        Game(1, "c", None, "1-0", kind="bye"),
        Game(2, "a", "c", "1/2-1/2", kind="short"),
    )
    result = orr.rate_tournament(OrrTournament(datetime.date(2026, 1, 10), participants, games))
    for pid, rating in (("a", 1500), ("b", 1400), ("c", None)):
        player = result.players[pid]
        assert (player.category, player.games, player.rating_after) == ("no_games", 0, rating)
    assert result.players["c"].state_after == OrrState()
    assert result.kt == 8


def test_it_rejects_games_of_strangers_and_duplicate_participants():
    import pytest

    with pytest.raises(ValueError, match="not a participant"):
        orr.rate_tournament(
            OrrTournament(datetime.date(2026, 1, 1), (OrrParticipant("a"),), (Game(1, "a", "z", "1-0"),))
        )
    with pytest.raises(ValueError, match="listed twice"):
        orr.rate_tournament(OrrTournament(datetime.date(2026, 1, 1), (OrrParticipant("a"), OrrParticipant("a")), ()))


def test_it_gives_every_number_to_the_report():
    ledger = Ledger(a=1200, b=1000)
    result = ledger.rate(datetime.date(2026, 1, 10), [Game(1, "n", "a", "1-0"), Game(2, "b", "n", "1/2-1/2")])
    details = result.players["n"].details()
    for key in ("Yavg", "Rmax", "Rmin", "Rpmax", "Rs", "Rsr", "Rp", "SR", "K", "R_change", "N", "S", "games"):
        assert details[key] is not None, key
    first = orr.GameLine(*details["games"][0])  # stored as a JSON array in GameLine's field order
    assert (first.round, first.opponent, first.opponent_rating, first.half_points) == (1, "a", 1200, 2)
    assert first.pd_cents + first.dr_cents == 100
    assert json.loads(json.dumps(details["games"]))[0] == [1, "a", 1200, 2, first.pd_cents, False]
    assert result.players["a"].details()["Ki"] is not None


def _flip(result):
    return {"1-0": "0-1", "0-1": "1-0"}.get(result, result)
