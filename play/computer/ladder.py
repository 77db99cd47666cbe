"""The default ladder of computer levels (no Django): what migration 0006 created, and what
`levels_ensure` makes again on a database that has none (a test database flushed by a
transactional test, a site whose levels were removed by hand).

Stockfish 15.1 turns UCI_Elo into a Skill Level of ((Elo - 1346.6) / 143.4) ** (1 / 0.806): 2000
is about 6.3, 2300 about 10.5, 2600 about 14.8, so levels 5-7 stay above level 4 (a first
calibration with 1500, about Skill 1, put level 5 below level 4).
"""

# number, name, engine settings, think time in seconds
LADDER = [
    (1, "Beginner", {"skill": 0, "depth": 1}, 5),
    (2, "Novice", {"skill": 1, "depth": 2}, 5),
    (3, "Casual", {"skill": 3, "depth": 3}, 5),
    (4, "Improver", {"skill": 5, "depth": 5}, 6),
    (5, "Club player", {"elo": 2000, "movetime_ms": 200}, 8),
    (6, "Strong club player", {"elo": 2300, "movetime_ms": 300}, 8),
    (7, "Expert", {"elo": 2600, "movetime_ms": 500}, 10),
    (8, "Full strength", {"movetime_ms": 1000}, 10),
]
