"""A move message applied and its two outbound messages committed, on PostgreSQL + Redis.

    python -m benchmarks.play_move [--games 100] [--plies 20] [--smoke]

`play.services.message_receive` (console channel) is timed around the call: the game's row
locked and read, the message parsed and checked, the clock and the board advanced, the snapshot
written, the inbound row and the two outbound rows (acknowledgement, move) inserted, the commit,
and the delivery task queued on Redis after it. 100 games x 20 plies = 2,000 moves, the games
interleaved; random legal moves that do not end the game. No worker runs: the queued deliveries
are dropped at the end. Target (issue 14): p95 < 20 ms. `--smoke`: the same path over 2 games x
3 plies (tests/benchmarks/test_smoke.py); it prints the same report and writes no file.
"""

from __future__ import annotations

import argparse
import datetime
import random
import sys
import time

from benchmarks.play_common import (
    Split,
    machine_line,
    message_floor,
    open_games,
    percentile,
    players,
    purge_queue,
    reset,
    setup,
    summary,
)


def texts_for(board, move, previous: str | None) -> tuple[str, str]:
    """The message for `move` (the opponent's latest repeated with its number) and the move's own
    numbered form for the next message."""
    ply = board.ply()
    label = f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'} {board.san(move)}"
    return (f"{previous} {label}" if previous else label), label


def ends(board, move) -> bool:
    board.push(move)
    try:
        return board.is_game_over(claim_draw=True)
    finally:
        board.pop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="the same code path at a tiny size (tests)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games, args.plies = 2, 3  # the SQL of one message is captured at the third ply
    setup()
    import chess
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from play import services
    from play.models import MobileGame, Transmission

    reset()
    people = players(2 * args.games)
    start = datetime.datetime.now(datetime.UTC).replace(microsecond=0) - datetime.timedelta(days=2)
    open_games([(people[2 * i], people[2 * i + 1]) for i in range(args.games)], [start] * args.games)
    games = list(MobileGame.objects.order_by("pk").select_related("white", "black"))
    boards = {g.pk: chess.Board() for g in games}
    previous: dict[int, str | None] = {g.pk: None for g in games}
    rng = random.Random(1)
    times: list[float] = []
    cpu: list[float] = []
    queries = None
    split = Split("receive", sql="SQL (PostgreSQL round trips)", delivery="delivery queued on Redis")
    split.install()
    wrapped = connection.execute_wrapper(split.sql)
    wrapped.__enter__()
    for ply in range(args.plies):
        arrival = start + datetime.timedelta(seconds=60 + 120 * (ply + 1))
        for game in games:
            board = boards[game.pk]
            move = rng.choice([m for m in board.legal_moves if not ends(board, m)])
            text, previous[game.pk] = texts_for(board, move, previous[game.pk])
            sender = game.white if board.turn == chess.WHITE else game.black
            began, began_cpu = time.perf_counter(), time.process_time()
            if queries is None and ply == 2:
                with CaptureQueriesContext(connection) as captured:
                    receipt = services.message_receive(
                        channel="console", sender=str(sender.federation_id), text=text, arrival=arrival
                    )
                queries = [q["sql"] for q in captured.captured_queries]
            else:
                receipt = services.message_receive(
                    channel="console", sender=str(sender.federation_id), text=text, arrival=arrival
                )
            times.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - began_cpu) * 1000)
            if receipt.applied != "move" or len(receipt.replies) != 2:
                raise SystemExit(f"#{game.code} {text!r}: {receipt.applied}, {len(receipt.replies)} replies")
            board.push(move)
    wrapped.__exit__(None, None, None)
    pending = Transmission.objects.filter(direction="out", delivery="pending").count()
    purge_queue()
    # The floor, in the same run on the same games: as many messages' rows by plain psycopg.
    floor = message_floor([g.white.federation_id for _ in range(args.plies) for g in games])
    print(f"# A move message applied and its two outbound messages committed ({machine_line()})")
    print()
    print(f"{len(times)} moves: {args.games} open games x {args.plies} plies, interleaved; server time")
    print()
    print("| moves | p50 | p95 | p99 | max | mean | target p95 | met |")
    print("|---|---|---|---|---|---|---|---|")
    p95 = percentile(times, 95)
    print(
        f"| {len(times)} | {summary(times)} | {sum(times) / len(times):.1f} ms | < 20 ms | "
        f"{'yes' if p95 < 20 else '**no**'} |"
    )
    print(f"| (this process's CPU time) | {summary(cpu)} | {sum(cpu) / len(cpu):.1f} ms | | |")
    print(f"| floor: the same rows by plain psycopg | {summary(floor)} | {sum(floor) / len(floor):.1f} ms | | |")
    print()
    ratio = (sum(times) / len(times)) / (sum(floor) / len(floor))
    print(
        f"Message path / floor (mean): **{ratio:.1f}x** (goal ≤ 4x: {'met' if ratio <= 4 else '**not met**'}). "
        "The floor reads the player, locks the game with both players, writes its saved columns back and "
        "inserts the three transmission rows, one transaction a message (benchmarks/play_common.message_floor)."
    )
    print()
    total = sum(times)
    print("Where the time goes (mean per move; the rest is the ORM and the service's own Python):")
    print()
    print("| part | mean per move | share |")
    print("|---|---|---|")
    for key, seconds in split.seconds.items():
        print(f"| {key} | {seconds * 1000 / len(times):.2f} ms | {seconds * 1000 / total:.0%} |")
    print()
    print(f"Outbound rows committed and waiting for the worker: {pending} (2 per move).")
    print()
    print(f"SQL statements of one move message: {len(queries)}")
    print()
    for sql in queries:
        print(f"- `{sql[:150]}{'…' if len(sql) > 150 else ''}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
