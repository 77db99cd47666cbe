"""Every tie-break of C.07 on a small tournament whose numbers are worked out by hand below.

No Django: tournaments.tiebreaks.rules is pure. The Tie-Break Regulations' own worked examples
were not available offline (see docs/decisions/tiebreaks.md); these tables are written out so each
number can be checked with a pencil.

Four players, three rounds (start numbers 1-4, ratings 2000, 1800, 1600, unrated):
  R1: 1-2 1-0, 3-4 ½-½      R2: 1-3 ½-½, 4 absent (zero-point bye), 2 full-point bye
  R3: 4-1 0-1 forfeit, 2-3 0-1
Final scores: 1: 2.5, 2: 1, 3: 2, 4: 0.5.
"""

from decimal import Decimal

from tournaments.tiebreaks import rules

RATINGS = {1: 2000, 2: 1800, 3: 1600, 4: None}
GAMES = [
    (1, 1, 2, "1-0", "played"),
    (1, 3, 4, "1/2-1/2", "played"),
    (2, 1, 3, "1/2-1/2", "played"),
    (2, 4, None, "0-0", "unplayed"),
    (2, 2, None, "1-0", "bye"),
    (3, 4, 1, "0-1", "forfeit"),
    (3, 2, 3, "0-1", "played"),
]


def value(code, number, virtual=False):
    rows = rules.standings(GAMES, RATINGS, 3, [code], virtual=virtual)
    return next(row["tiebreaks"][code] for row in rows if row["number"] == number)


def test_it_scores_points_with_byes_and_forfeits():
    rows = {row["number"]: row["points"] for row in rules.standings(GAMES, RATINGS, 3, [])}
    assert rows == {1: Decimal("2.5"), 2: Decimal(1), 3: Decimal(2), 4: Decimal("0.5")}


def test_it_counts_an_own_unplayed_round_as_a_dummy_with_the_own_score():
    # Player 1: opponents 2 (1) and 3 (2) over the board, round 3 a forfeit win: dummy with 2.5.
    assert value("BH", 1) == Decimal("5.5")
    # Player 4: opponent 3 (2), then absent and a forfeit loss: two dummies with his 0.5.
    assert value("BH", 4) == Decimal(3)


def test_it_cuts_voluntary_unplayed_rounds_before_the_lowest_score():
    # Player 4's contributions: 2 (played), 0.5 (absence, voluntary), 0.5 (forfeit loss, voluntary).
    assert value("BH-C1", 4) == Decimal("2.5")
    assert value("BH-C2", 4) == Decimal(2)
    # Player 1: 1, 2, 2.5 (forfeit win: not voluntary) -> cut the lowest, 1.
    assert value("BH-C1", 1) == Decimal("4.5")


def test_it_takes_the_highest_and_the_lowest_away_in_median_buchholz():
    # Player 3: opponents 4 (0.5), 1 (2.5), 2 (1): only the 1 stays.
    assert value("BH-M1", 3) == Decimal(1)


def test_it_weighs_opponents_scores_by_the_points_scored_in_sonneborn_berger():
    # Player 3: ½×1 + ½×2.5 + 1×1 = 2.75. Opponent 4 scored 0.5, but his round-2 absence, after his
    # last game (round 1) and with no opponent named, counts as a draw for others (16.3.2): 1.
    assert value("SB", 3) == Decimal("2.75")
    # Player 1: 1×1 + ½×2 + 1×2.5 (forfeit win, dummy with his own score) = 4.5.
    assert value("SB", 1) == Decimal("4.5")


def test_it_sums_the_running_score_in_the_progressive_score():
    # Player 1: 1, 1.5, 2.5 -> 5; player 2: 0, 1, 1 -> 2.
    assert value("PS", 1) == Decimal(5)
    assert value("PS", 2) == Decimal(2)


def test_it_counts_wins_with_and_without_unplayed_ones():
    assert value("WIN", 1) == 2  # the game against 2 and the forfeit
    assert value("WON", 1) == 1
    assert value("WIN", 2) == 1  # the full-point bye
    assert value("WON", 2) == 0


def test_it_counts_games_played_and_won_with_black():
    assert value("BPG", 3) == 2  # rounds 2 and 3
    assert value("BWG", 3) == 1  # round 3 against 2
    assert value("BPG", 1) == 0  # his black in round 3 was a forfeit, not a game


def test_it_scores_koya_against_opponents_with_half_the_maximum():
    # Half of 3 is 1.5: player 3 (2 points) met 1 (2.5) - a draw - and 4 and 2 below it.
    assert value("KS", 3) == Decimal("0.5")


def test_it_averages_rated_opponents_over_the_board_only():
    assert value("ARO", 1) == 1700  # 1800 and 1600; the forfeit does not count
    assert value("ARO", 3) == 1900  # 2000 and 1800; the unrated 4 is left out
    assert value("ARO", 4) == 1600  # one game, against 3
    assert value("ARO", 2) == 1800 and value("TPR", 2) == 1800 - 800  # lost both games, to 1 and 3


def test_it_adds_the_fide_dp_to_the_average_in_the_performance():
    # Player 1: 1.5 of 2 = 0.75 -> dp 193; ARO 1700.
    assert value("TPR", 1) == 1893
    # Player 3: 1.5 of 2 against the rated -> 1900 + 193.
    assert value("TPR", 3) == 2093
    assert rules.dp(Decimal("0.25")) == -193
    assert rules.dp(Decimal(1)) == 800
    assert rules.dp(Decimal(0)) == -800


def test_it_breaks_a_tie_by_direct_encounter_only_when_all_tied_met():
    games = [
        (1, 1, 2, "1-0", "played"),
        (1, 3, 4, "1-0", "played"),
        (2, 2, 3, "1-0", "played"),
        (2, 4, 1, "1-0", "played"),
    ]
    rows = rules.standings(games, dict.fromkeys(range(1, 5)), 2, ["DE"])
    # 1 and 2 ... every player has 1 point; in the group of four not all met: nobody separated.
    assert {row["rank"] for row in rows} == {1}
    games.append((3, 1, 3, "1-0", "played"))
    games.append((3, 2, 4, "1-0", "played"))
    rows = rules.standings(games, dict.fromkeys(range(1, 5)), 3, ["DE"])
    # 1 and 2 have 2 points and met: 1 beat 2.
    assert [(row["number"], row["rank"]) for row in rows][:2] == [(1, 1), (2, 2)]


def test_it_ranks_by_the_tie_breaks_in_order_and_shares_a_rank_when_all_are_equal():
    games = [(1, 1, 2, "1/2-1/2", "played"), (1, 3, 4, "1/2-1/2", "played")]
    rows = rules.standings(games, dict.fromkeys(range(1, 5)), 1, ["BH", "SB"])
    assert [row["rank"] for row in rows] == [1, 1, 1, 1]


def test_it_counts_a_withdrawn_opponents_rounds_as_draws_and_nothing_else():
    games = [
        (1, 1, 2, "1-0", "played"),
        (1, 3, None, "1-0", "bye"),
        (2, 1, 3, "0-1", "played"),
        (2, 2, None, "0-0", "unplayed"),
        (3, 3, 1, "1/2-1/2", "played"),
        (3, 2, None, "0-0", "unplayed"),
    ]
    rows = {
        row["number"]: row["tiebreaks"]["BH"] for row in rules.standings(games, dict.fromkeys((1, 2, 3)), 3, ["BH"])
    }
    # 2 lost round 1 and withdrew: 0 points, 1 for his opponents (two rounds as draws).
    # 1: 2 (1) + 3 (2.5) + 3 (2.5) = 6.
    assert rows[1] == Decimal(6)
    # 3: full-point bye in round 1 (dummy with his 2.5), 1 twice (1.5 each) = 5.5.
    assert rows[3] == Decimal("5.5")


def test_it_uses_the_2009_virtual_opponent_when_asked():
    # Player 2's bye in round 2 of 3: 0 before + (1 - 1) reversed + ½ for round 3 = 0.5; opponents 1
    # and 3 with their unplayed rounds as draws: 1 (2.5, the forfeit as ½ -> 2) and 3 (2).
    assert value("BH", 2, virtual=True) == Decimal("4.5")
    # Player 2 in the 2023 rule: 2.5 + 1 (dummy with his own 1) + 2.
    assert value("BH", 2) == Decimal("5.5")
