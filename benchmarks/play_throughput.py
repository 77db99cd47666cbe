"""200 messages a second sustained over 10,000 open games, with the real worker delivering.

    python -m benchmarks.play_throughput [--games 10000] [--rate 200] [--processes 4] [--seconds 30] [--smoke]

10,000 open games are made in bulk (20,000 players, one game each, both players on the console
channel). Then `--processes` processes send move messages through `message_receive` for
`--seconds`, together `--rate` a second on a fixed schedule (each process its own games, so the
games' row locks never collide; each message a legal move of a game drawn at random). A latency
counts from the message's scheduled moment, so a late answer delays the next message and counts
against it ("paced", as in benchmarks/load.py); the server time is the call alone.

A Celery worker (prefork, `--concurrency` children) delivers every message's two outbound rows
(`play.tasks.drain_outbox`: one task for the rows of the messages committed while it waited);
its console channel prints each message to its log file. After the sending stops the outbox is
watched until it drains (every outbound row `sent`). The floor is measured in the same run first
(`--floor-seconds`: the same processes writing the same rows by plain psycopg, unpaced).

`--smoke` (tests/benchmarks/test_smoke.py): the same path at a tiny size: 20 games, one sending
process at 10 messages/s for 2 s after a floor of 1 s, a worker with one child; the worker's log
goes to a temporary directory, not benchmarks/results/; it exits non-zero unless messages were
sent and the outbox drained with none failed.
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import queue
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import pipeline
from benchmarks.play_common import (
    RESULTS,
    machine_line,
    open_games,
    percentile,
    players,
    reset,
    setup,
    summary,
)


def numbered(board, move) -> str:
    ply = board.ply()
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'} {board.san(move)}"


def drive(index: int, processes: int, rate: float, seconds: float, start, results, floor: bool = False) -> None:
    """One sending process: its share of the games, its share of the rate, on schedule. Spawned,
    not forked: a forked child would share the parent's broker and database sockets. `start`:
    (ready queue, go event, began value): the process says it is ready (Django set up, its games
    read), then waits for the moment all start together."""
    try:
        results.put(_drive(index, processes, rate, seconds, start, floor))
    except BaseException as error:
        results.put((index, error))
        start[0].put(index)  # not ready, but done: the others need not wait for it
        raise


def _drive(index: int, processes: int, rate: float, seconds: float, start, floor: bool) -> tuple:
    import django

    django.setup()
    import chess
    from django.db.models import F

    from benchmarks.play_common import message_floor
    from play import services
    from play.models import MobileGame

    rng = random.Random(index)
    games = list(
        MobileGame.objects.filter(code__startswith="T")
        .annotate(share=F("id") % processes)
        .filter(share=index)
        .values_list("white__federation_id", "black__federation_id")
    )
    boards = [chess.Board() for _ in games]
    ready, go, shared_began = start
    ready.put(index)
    go.wait(timeout=600)
    began = shared_began.value
    latencies, service, late = [], [], 0
    step = processes / rate
    sent = 0
    while True:
        scheduled = began + sent * step
        # Over at the end of the time, sent or not: a process that falls behind sends fewer.
        if scheduled - began >= seconds or time.perf_counter() - began >= seconds:
            break
        pause = scheduled - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        else:
            late += 1
        number = rng.randrange(len(games))
        board = boards[number]
        move = rng.choice(list(board.legal_moves))
        text = numbered(board, move)
        if board.move_stack:  # the opponent's latest move repeated with its number first
            previous = board.pop()
            text = f"{numbered(board, previous)} {text}"
            board.push(previous)
        sender = games[number][0 if board.turn == chess.WHITE else 1]
        start = time.perf_counter()
        if floor:  # the same rows by plain psycopg: the board is not advanced in the database
            message_floor([sender])
            end = time.perf_counter()
            latencies.append((end - scheduled) * 1000)
            service.append((end - start) * 1000)
            sent += 1
            continue
        receipt = services.message_receive(
            channel="console", sender=str(sender), text=text, arrival=datetime.datetime.now(datetime.UTC)
        )
        end = time.perf_counter()
        if receipt.applied != "move":
            raise RuntimeError(f"{text!r}: {receipt.applied}")
        board.push(move)
        latencies.append((end - scheduled) * 1000)
        service.append((end - start) * 1000)
        sent += 1
    return index, latencies, service, late, time.perf_counter() - began


def send(processes: int, rate: float, seconds: float, *, floor: bool = False, startup: float = 120) -> list[tuple]:
    """The senders spawned; the schedule starts as soon as all of them are ready (Django set up,
    their games read), waiting at most `startup` seconds for them, not a fixed guess."""
    context = multiprocessing.get_context("spawn")
    results, ready, go = context.Queue(), context.Queue(), context.Event()
    began = context.Value("d", 0.0)
    senders = [
        context.Process(target=drive, args=(i, processes, rate, seconds, (ready, go, began), results, floor))
        for i in range(processes)
    ]
    for sender in senders:
        sender.start()
    deadline = time.perf_counter() + startup
    for _ in senders:
        try:
            ready.get(timeout=max(0.1, deadline - time.perf_counter()))
        except queue.Empty:
            break  # a sender failed to start: its error is on the results queue
    # perf_counter is the system's monotonic clock: the same moment in every process.
    began.value = time.perf_counter() + 0.1
    go.set()
    parts = [results.get(timeout=seconds + 120) for _ in senders]
    failed = [part for part in parts if len(part) == 2]
    if failed:
        raise SystemExit(f"a sending process failed: {failed}")
    for sender in senders:
        sender.join()
    return parts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--concurrency", type=int, default=2, help="the worker's prefork children")
    parser.add_argument("--floor-seconds", type=float, default=10, help="seconds of the floor's run")
    parser.add_argument("--drain", type=float, default=300, help="seconds to wait for the outbox to drain")
    parser.add_argument("--smoke", action="store_true", help="the same code path at a tiny size (tests)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games, args.rate, args.processes, args.seconds = 20, 10, 1, 2
        args.concurrency, args.floor_seconds, args.drain = 1, 1, 60
    env = setup()

    from benchmarks.pipeline import wait_for_worker
    from play.models import Transmission

    reset()
    people = players(2 * args.games)
    start = datetime.datetime.now(datetime.UTC).replace(microsecond=0) - datetime.timedelta(minutes=10)
    made = time.perf_counter()
    open_games(
        [(people[2 * i], people[2 * i + 1]) for i in range(args.games)],
        [start] * args.games,
        channel="console",
        prefix="T",
    )
    made = time.perf_counter() - made
    log_path = (Path(tempfile.mkdtemp()) if args.smoke else RESULTS) / "play-throughput-worker.log"
    worker = pipeline.start_worker(env, log_path, env["CELERY_TASK_DEFAULT_QUEUE"], concurrency=args.concurrency)
    try:
        wait_for_worker(worker, log_path)
        # The floor first, in the same run: the same processes writing each message's rows by
        # plain psycopg (benchmarks/play_common.message_floor) as fast as they can.
        floor_parts = send(args.processes, 1e6, args.floor_seconds, floor=True)
        Transmission.objects.all().delete()
        parts = send(args.processes, args.rate, args.seconds)
        stopped = time.perf_counter()
        outbound = Transmission.objects.filter(direction="out")
        pending_at_stop = outbound.filter(delivery="pending").count()
        while outbound.filter(delivery="pending").exists() and time.perf_counter() - stopped < args.drain:
            time.sleep(0.5)
        drained = time.perf_counter() - stopped
        counts = {k: outbound.filter(delivery=k).count() for k in ("sent", "pending", "failed")}
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
        worker.log.close()
    # Celery redirects the children's stdout into its log, each line behind its own prefix.
    printed = sum(1 for line in log_path.read_text(errors="replace").splitlines() if "[console -> " in line)
    latencies = [v for part in parts for v in part[1]]
    service = [v for part in parts for v in part[2]]
    late = sum(part[3] for part in parts)
    elapsed = max(part[4] for part in parts)
    if args.smoke and not (service and counts["sent"] and counts["pending"] == counts["failed"] == 0):
        raise SystemExit(f"smoke: {len(service)} messages sent, outbox {counts}")
    achieved = len(service) / elapsed
    p95 = percentile(latencies, 95)
    print(f"# Messages sustained over {args.games:,} open games ({machine_line()})")
    print()
    print(
        f"{args.games:,} open games made in bulk in {made:.1f} s. {args.processes} processes sent "
        f"{args.rate:.0f} messages/s in all on a fixed schedule for {args.seconds:.0f} s; a worker with "
        f"{args.concurrency} children delivered the outbound rows (console channel, printed to its log)."
    )
    print()
    print("| messages | achieved | sent late | latency p50 | p95 | p99 | max | server time p50 | p95 | p99 | max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {len(service):,} | {achieved:.0f}/s | {late:,} | {summary(latencies)} | {summary(service)} |")
    print()
    met = achieved >= 0.97 * args.rate and p95 < 300
    print(
        f"Target: {args.rate:.0f} messages/s sustained (p95 latency under 300 ms, as for the pages): "
        f"{'met' if met else '**not met**'}."
    )
    print()
    floor = [v for part in floor_parts for v in part[2]]
    floor_rate = len(floor) / max(part[4] for part in floor_parts)
    print(
        f"Floor, in the same run: the same {args.processes} processes writing each message's rows by plain "
        f"psycopg (one transaction a message) as fast as they can for {args.floor_seconds:.0f} s: "
        f"{floor_rate:.0f} messages/s, server time {summary(floor)} (p50, p95, p99, max). "
        f"Floor / achieved: **{floor_rate / achieved:.1f}x** (goal ≤ 4x: "
        f"{'met' if floor_rate <= 4 * achieved else '**not met**'})."
    )
    print()
    total = sum(counts.values())
    state = "drained" if counts["pending"] == 0 else "**did not drain**"
    print(
        f"Outbox: {total:,} outbound rows (2 a message); {pending_at_stop:,} pending when the sending stopped; "
        f"{state} {drained:.1f} s later: {counts['sent']:,} sent, {counts['pending']:,} pending, "
        f"{counts['failed']:,} failed; the console channel printed {printed:,} messages."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
