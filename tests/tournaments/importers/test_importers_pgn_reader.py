"""The PGN importer reads each game in one pass (issue 35: the demo's Grand Swiss took twice as long
built as python-chess's tree and exported again): what it keeps of a game is what the tree gave."""

import io

import chess.pgn

from tournaments.importers import pgn

GAMES = """[Event "Sidelines"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 {best by test} e5 (1... c5 2. Nf3 (2. Nc3) d6) 2. Nf3 $1 Nc6 3. Bb5 a6 (3... Zz9 4. O-O) 4. Ba4 Nf6 5. O-O
Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 1-0

[Event "A position"]
[White "C"]
[Black "D"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K2R b K - 0 40"]

40... Kd7 41. Rh7+ Kd6 42. e4 Ke5 43. Kf2 1/2-1/2

[Event "An illegal move"]
[White "E"]
[Black "F"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 3. Kf1 0-1

[Event "?"]
[White "G"]
[Black "H"]

1. d4 d5 2. Bg5 Qxg5 *

"""


def test_it_keeps_what_python_chess_tree_gives_of_each_game():
    ours, theirs = io.StringIO(GAMES), io.StringIO(GAMES)
    count = 0
    while (tree := chess.pgn.read_game(theirs)) is not None:
        game = chess.pgn.read_game(ours, Visitor=pgn._Game)
        exported = tree.accept(chess.pgn.StringExporter(headers=False, variations=False, comments=False))
        assert game.text == exported
        assert dict(game.headers) == dict(tree.headers)
        assert [str(error) for error in game.errors] == [str(error) for error in tree.errors]
        assert (game.moves == 0) == (tree.next() is None)
        count += 1
    assert chess.pgn.read_game(ours, Visitor=pgn._Game) is None
    assert count == 4
