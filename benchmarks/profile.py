"""Where a full re-rating of the scale federation spends its time: a py-spy profile, summarised.

    python -m benchmarks.profile [--rate 100] [--smoke]

Uses the federation of benchmarks.scale (generated first if missing), re-rates it from scratch
with `manage.py rerate` under py-spy (the forked ORR process included), keeps the raw stacks in
benchmarks/results/profile-rerate.folded (for flamegraph tools or speedscope.app) and prints the
functions that take the most time, with and without what they call.

`--smoke` (tests/benchmarks/test_smoke.py): the same for a federation of 200 players and 5
tournaments, the stacks kept in a temporary directory; where py-spy cannot attach (no ptrace for an
unprivileged user), the smoke run re-rates without it, says so, and still exits 0 if the re-rating did.
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

from benchmarks.pipeline import ROOT
from benchmarks.scale import DEFAULT_DB, RESULTS, prepare_database

PROJECT = ("ratings/", "federation/", "tournaments/", "players/")


def summarise(path, rate: int, top: int = 25) -> list[str]:
    own: collections.Counter = collections.Counter()
    inclusive: collections.Counter = collections.Counter()
    total = 0
    with open(path) as folded:
        for line in folded:
            stack, _, count = line.rstrip().rpartition(" ")
            count = int(count)
            frames = stack.split(";")
            total += count
            own[frames[-1]] += count
            for frame in set(frames):
                inclusive[frame] += count
    out = [f"{total / rate:.1f} s of samples at {rate} Hz (every process).", ""]
    out += ["## The functions themselves (self time)", "", "| share | seconds | function |", "|---|---|---|"]
    for frame, count in own.most_common(top):
        out.append(f"| {100 * count / total:.1f} % | {count / rate:.1f} | `{frame}` |")
    out += ["", "## The project's functions with what they call (inclusive)", ""]
    out += ["| share | seconds | function |", "|---|---|---|"]
    shown = 0
    for frame, count in inclusive.most_common():
        if any(part in frame for part in PROJECT) and ".venv" not in frame:
            out.append(f"| {100 * count / total:.1f} % | {count / rate:.1f} | `{frame}` |")
            shown += 1
            if shown == top:
                break
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=100, help="samples per second")
    parser.add_argument("--smoke", action="store_true", help="the same code path at a tiny size (tests)")
    args = parser.parse_args(argv)
    spy = shutil.which("py-spy") or str(ROOT / ".venv" / "bin" / "py-spy")
    if args.smoke and not os.path.exists(spy):  # the interpreter's own bin/, as when run by the tests
        spy = str(Path(sys.executable).with_name("py-spy"))
    if not os.path.exists(spy):
        raise SystemExit("py-spy is not installed: pip install -e '.[bench]'")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "federation.settings", "LOG_LEVEL": "INFO", "DEBUG": "false"}
    env["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    env.pop("CELERY_BROKER_URL", None)
    RESULTS.mkdir(exist_ok=True)
    size = {"players": 200, "tournaments": 5} if args.smoke else {"players": 100_000, "tournaments": 10_000}
    scale = SimpleNamespace(reuse=True, seed=1, **size)
    prepare_database(env["DATABASE_URL"], scale, env)
    folded = (Path(tempfile.mkdtemp()) if args.smoke else RESULTS) / "profile-rerate.folded"
    command = [
        spy,
        "record",
        "--subprocesses",
        "--rate",
        str(args.rate),
        "--format",
        "raw",
        "--output",
        str(folded),
        "--",
        sys.executable,
        "manage.py",
        "rerate",
    ]
    run = subprocess.run(  # noqa: S603
        command, cwd=ROOT, env=env, check=not args.smoke, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    if run.returncode:  # only in smoke mode: py-spy may not attach here; the profiled path alone
        sys.stderr.write(run.stdout)
        print(f"py-spy failed (exit {run.returncode}): the re-rating runs without it (smoke mode)")
        run = subprocess.run(  # noqa: S603
            command[command.index("--") + 1 :], cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        folded = None
    sys.stderr.write(run.stdout)  # py-spy's own messages, the replay's log
    print("# Profile of a full re-rating (ORR, Mchess, PlayChess) of the scale federation")
    print()
    for line in run.stdout.splitlines():
        if "replayed" in line or "re-rated" in line:
            print(line.split(" INFO ", 1)[-1].strip())
            print()
    if folded is not None:
        print("\n".join(summarise(folded, args.rate)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
