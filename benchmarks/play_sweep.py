"""One pass of the mobile-chess sweeper over 100,000 open games, on PostgreSQL + Redis.

    python -m benchmarks.play_sweep [--games 100000] [--due 0.01] [--runs 3] [--smoke]

100,000 open games are made in bulk; most started minutes ago (nothing due for hours). A share
`--due` is due: half have their player on move past his 80 % reminder, half have a fallen flag
(the failure-to-reply claim is filed, its notices to the player and the TD written). Timed:
`play.services.games_sweep(now=...)` with that share due, and the pass right after it, when
nothing is due (what the beat's pass costs every minute in the steady state). Between runs the
due games are put back as they were. The delivery tasks are queued on Redis (no worker runs;
they are dropped at the end). Target (issue 14): under 1 s for the pass. `--smoke`: the same
path over 200 games (10 % due, 40 players) in 2 runs, so the put-back between runs runs too
(tests/benchmarks/test_smoke.py); it prints the same report and writes no file.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time

from benchmarks.play_common import Split, machine_line, open_games, players, purge_queue, reset, setup, sweep_floor


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--due", type=float, default=0.01)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="the same code path at a tiny size (tests)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games, args.due, args.runs = 200, 0.1, 2
    setup()
    from django.db import connection, transaction
    from django.db.models import Count

    from play import services, sweep
    from play.models import MobileGame, Transmission

    reset()
    side = 20 if args.smoke else 1000  # players a side: the pairs below cycle over them
    people = players(2 * side)
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    due = round(args.games * args.due)
    reminders, flags = due - due // 2, due // 2
    # Reminder due (145 min after a start + N) but no flag (182 min); a flag fallen and its claim
    # not filed yet; and the rest started ten minutes ago.
    starts = (
        [now - datetime.timedelta(minutes=150)] * reminders
        + [now - datetime.timedelta(hours=4)] * flags
        + [now - datetime.timedelta(minutes=10)] * (args.games - due)
    )
    pairs = [(people[i % side], people[side + (i * 7) % side]) for i in range(args.games)]
    made = time.perf_counter()
    open_games(pairs, starts, prefix="S")
    made = time.perf_counter() - made
    due_codes = [f"S{number:07d}" for number in range(due)]
    fields = ("state", "rules_version", "result", "termination", "status", "on_move", "next_due", "on_move_since")
    original = {
        row["code"]: row for row in MobileGame.objects.filter(code__in=due_codes).values("code", "start", *fields)
    }
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE play_mobilegame")
    with transaction.atomic():  # the pass's own query (it locks, so in a transaction)
        plan = sweep.due_query(now, [], 500).explain().splitlines()

    split = Split("advance")
    split.install()
    rows = []
    for run in range(args.runs):
        if run:
            Transmission.objects.filter(game__code__in=due_codes).delete()
            for start in {row["start"] for row in original.values()}:
                group = [row for row in original.values() if row["start"] == start]
                MobileGame.objects.filter(code__in=[row["code"] for row in group]).update(
                    **{name: group[0][name] for name in fields}
                )
        # The floor first, in the same run on the same due games (it writes back what it reads).
        floor = sweep_floor(now)
        split.reset()
        with connection.execute_wrapper(split.sql):
            began = time.perf_counter()
            advanced = services.games_sweep(now=now)
            due_pass = time.perf_counter() - began
            parts, statements = dict(split.seconds), split.statements
            began = time.perf_counter()
            again = services.games_sweep(now=now)
            idle_pass = time.perf_counter() - began
        rows.append((advanced, due_pass, again, idle_pass, parts, statements, floor))
    kinds = dict(Transmission.objects.filter(direction="out").values_list("kind").annotate(n=Count("id")))
    claims = MobileGame.objects.filter(termination="pending claim").count()
    purge_queue()
    if args.smoke and not all(row[0] == due and row[2] == 0 for row in rows):
        raise SystemExit(f"the sweeper advanced {[(row[0], row[2]) for row in rows]} (due {due}, then 0 expected)")

    print(f"# The sweeper's pass over {args.games:,} open games ({machine_line()})")
    print()
    print(
        f"{args.games:,} open games made in bulk in {made:.1f} s; due: {due:,} ({args.due:.1%}): {reminders:,} "
        f"reminders and {flags:,} fallen flags; not due: {args.games - due:,}."
    )
    print()
    print(
        "| run | games advanced | pass with them due | per due game | pass with nothing due | target | met "
        "| floor (same rows, plain SQL) | pass / floor | goal | met |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for number, (advanced, due_pass, again, idle_pass, _, _, floor) in enumerate(rows, start=1):
        per = f"{due_pass / advanced * 1000:.2f} ms" if advanced else "–"
        ratio = due_pass / floor[0] if floor[0] else float("nan")
        print(
            f"| {number} | {advanced:,} (then {again}) | {due_pass * 1000:.0f} ms | {per} | {idle_pass * 1000:.1f} ms "
            f"| < 1000 ms | {'yes' if due_pass < 1 else '**no**'} | {floor[0] * 1000:.0f} ms ({floor[1]:,} games) "
            f"| {ratio:.1f}x | ≤ 3x | {'yes' if ratio <= 3 else '**no**'} |"
        )
    print()
    best = min(rows, key=lambda row: row[1])
    print(f"Where the pass with {best[0]:,} due games spends its time (best run; {best[5]:,} SQL statements):")
    print()
    print("| part | time | per due game | share |")
    print("|---|---|---|---|")
    for key, seconds in best[4].items():
        print(
            f"| {key} | {seconds * 1000:.0f} ms | {seconds / max(best[0], 1) * 1000:.2f} ms | {seconds / best[1]:.0%} |"
        )
    rest = best[1] - sum(best[4].values())
    print(f"| ORM and the service's Python | {rest * 1000:.0f} ms | {rest / max(best[0], 1) * 1000:.2f} ms "
          f"| {rest / best[1]:.0%} |")  # fmt: skip
    print()
    print(f"Outbound rows written by the last run: {kinds}; games with a pending claim: {claims:,}.")
    print()
    print("The pass's query (play.sweep.due_query) finds the due games through the partial index on next_due:")
    print()
    print("```")
    print("\n".join(plan))
    print("```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
