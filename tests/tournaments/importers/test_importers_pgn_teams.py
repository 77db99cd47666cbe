"""Issue 26, section 0, PGN: the team tags. WhiteTeam/BlackTeam hold a federation's three letters in FIDE's
olympiad broadcasts and a club or team name elsewhere (league PGNs, ChessBase); ChessBase writes the team's
country in WhiteTeamCountry/BlackTeamCountry. No real example of examples/ carries them, so the file is
written here. A team name longer than three letters used to be dropped."""

from __future__ import annotations

from tournaments.importers.registry import read_result_file

LEAGUE = (
    '[Event "League"]\n[Round "1"]\n[White "Ivanov, Petr"]\n[Black "Petrov, Ivan"]\n[Result "1-0"]\n'
    '[WhiteTeam "NOR"]\n[BlackTeam "Kazan Chess Club"]\n[BlackTeamCountry "RUS"]\n\n1. e4 e5 1-0\n'
)


def test_it_reads_a_three_letter_team_as_the_federation_and_a_longer_one_as_the_club():
    parsed = read_result_file("league.pgn", LEAGUE.encode())
    assert not parsed.errors
    ivanov, petrov = parsed.player(1), parsed.player(2)
    assert (ivanov.family_name, ivanov.country, ivanov.club) == ("Ivanov", "NOR", "")
    assert (petrov.family_name, petrov.club, petrov.country) == ("Petrov", "Kazan Chess Club", "RUS")
