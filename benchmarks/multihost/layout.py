"""The multi-host layout of docs/operators/multi-host.md, run on one machine: each part in its own
process group on its own loopback address, PostgreSQL and Redis shared.

    python -m benchmarks.multihost [--reduced]          (make multihost)

    127.0.0.2   web 1     gunicorn
    127.0.0.3   web 2     gunicorn
    127.0.0.10  proxy     benchmarks/multihost/proxy.py (nginx's part), in front of both web servers
    127.0.0.4   host 4    worker ratings@host4 (queues: ratings, default) + celery beat
    127.0.0.5   host 5    worker messages@host5 (queue: messages) + celery beat (the standby)
    127.0.0.6   host 6    worker engine@host6 (queue: engine) + worker ratings@host6 (full run only)

A worker listens on no address: its "host" is its process group and its name (-n ratings@host4);
its connections to PostgreSQL and Redis leave from 127.0.0.1 (libpq and redis-py cannot choose
their source address). Then, timed:
1. a rating run: an arbiter logs in and uploads a tournament through the proxy, confirms it, and the
   ratings worker rates it;
2. a mobile game: two phones play a five-move game by SMS through the proxy to the SMS webhook (the
   test suite's fake gateway, tests/fakes/sms_gateway.py, in this process); the messages worker
   sends every reply;
3. a killed worker host: a second tournament, dated before the first (its run rates both again),
   is confirmed; host 4 is killed (SIGKILL to every process group of it: its worker and the
   beat that holds the scheduler lock) in the middle of the run. Host 5's beat takes the lock;
   the run is recovered: in the full run by the sweep that beat fires every minute (its heartbeat
   silent for RATING_RUN_STALE_SECONDS) and rated by ratings@host6; with --reduced (the suite's
   test) host 4 restarts and its worker puts back its own run at once.

PostgreSQL and Redis: BENCH_DATABASE_URL (default federation_multihost on the local server, created
and migrated) and BENCH_BROKER_URL (default Redis database 6); the cache is BENCH_CACHE_URL (default
Redis database 7). Each process's log in benchmarks/results/multihost/.
"""

from __future__ import annotations

import argparse
import datetime
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from benchmarks.multihost.clients import KEY, Arbiter, make_arbiter, sms_post, wait
from benchmarks.pipeline import ROOT, create_database, tournament_file

PROXY_ADDRESS = "127.0.0.10"
# Fool's mate's cousin: White mates on his third move (the messages each side sends).
GAME = [
    ("white", "1. Nc3"),
    ("black", "1. Nc3 f6"),
    ("white", "1... f6 2. e4"),
    ("black", "1... f6 2. e4 g5"),
    ("white", "2... g5 3. Qh5"),
]


def free_port(address: str) -> int:
    with socket.socket() as probe:
        probe.bind((address, 0))
        return probe.getsockname()[1]


class Part:
    """One process group: a server, a worker or a beat, started with its own environment."""

    def __init__(self, label: str, argv: list[str], env: dict, log: Path):
        self.label, self.argv, self.env, self.log = label, argv, env, log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, number: int) -> None:
        if self.alive():
            os.killpg(self.process.pid, number)


class Host:
    def __init__(self, name: str, address: str, parts: list[Part]):
        self.name, self.address, self.parts = name, address, parts

    def start(self) -> None:
        for part in self.parts:
            part.start()

    def kill(self) -> None:
        """The machine loses power: every process group of it, SIGKILL, no clean-up."""
        for part in self.parts:
            part.signal(signal.SIGKILL)
        for part in self.parts:
            part.process.wait(timeout=10)

    def stop(self) -> None:
        for part in self.parts:
            part.signal(signal.SIGTERM)
        for part in self.parts:
            if part.process is None:
                continue
            try:
                part.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                part.signal(signal.SIGKILL)
                part.process.wait(timeout=10)


class Layout:
    """Every host of the layout, on one machine."""

    def __init__(self, env: dict, logs: Path, *, reduced: bool, run: str | None = None):
        self.run = run or uuid.uuid4().hex[:8]
        self.reduced = reduced
        self.logs = logs
        logs.mkdir(parents=True, exist_ok=True)
        for old in logs.glob("*.log"):  # an earlier run's
            old.unlink()
        self.queues = {
            "default": f"default-{self.run}",
            "ratings": f"ratings-{self.run}",
            "messages": f"messages-{self.run}",
        }
        self.lock_key = f"multihost-{self.run}:beat"
        self.lock_seconds = 6 if reduced else 15
        self.proxy_port = free_port(PROXY_ADDRESS)
        self.web_ports = {"web1": free_port("127.0.0.2"), "web2": free_port("127.0.0.3")}
        # What every host is given (docs/operators/multi-host.md, "Each host's environment").
        self.env = {
            **env,
            "DJANGO_SETTINGS_MODULE": "federation.settings",
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CELERY_TASK_DEFAULT_QUEUE": self.queues["default"],
            "RATINGS_QUEUE": self.queues["ratings"],
            "MESSAGES_QUEUE": self.queues["messages"],
            "BEAT_LOCK_KEY": self.lock_key,
            "BEAT_LOCK_SECONDS": str(self.lock_seconds),
            "ALLOWED_HOSTS": f"{PROXY_ADDRESS},127.0.0.2,127.0.0.3",
            "TRUSTED_PROXY_HEADER": "X-Forwarded-For",
            "SMS_WEBHOOK_SIGNING_KEY": KEY,
            "DEBUG": "false",
            "LOG_LEVEL": "INFO",
            "DATABASE_CONN_MAX_AGE": "60",
            "GCR_DEBOUNCE_SECONDS": "1",
        }
        python = sys.executable
        gunicorn = str(Path(python).with_name("gunicorn"))

        def part(label, argv, **extra):
            return Part(label, argv, {**self.env, **extra}, logs / f"{label}.log")

        def web(name, address):
            return part(
                name,
                [gunicorn, "-c", "federation/gunicorn.conf.py", "federation.wsgi"],
                GUNICORN_BIND=f"{address}:{self.web_ports[name]}",
                WEB_CONCURRENCY="1" if reduced else "2",
                GUNICORN_THREADS="4",
                FORWARDED_ALLOW_IPS=PROXY_ADDRESS,
                GUNICORN_ACCESS_LOG="off",
            )

        def worker(name, queues, **extra):
            argv = [python, "-m", "celery", "-A", "federation", "worker", "-Q", ",".join(queues), "-n", name]
            argv += [
                "--concurrency=1",
                "--loglevel=INFO",
                "--without-heartbeat",
                "--without-mingle",
                "--without-gossip",
            ]
            return part(name.replace("@", "-"), argv, **extra)

        def beat(label):
            return part(label, [python, "-m", "celery", "-A", "federation", "beat", "--loglevel=INFO"])

        self.worker_names = {
            "ratings4": f"ratings@host4.{self.run}",
            "messages5": f"messages@host5.{self.run}",
            "ratings6": f"ratings@host6.{self.run}",
            "engine6": f"engine@host6.{self.run}",
        }
        names = self.worker_names
        proxy_argv = [python, "-m", "benchmarks.multihost.proxy", "--listen", f"{PROXY_ADDRESS}:{self.proxy_port}"]
        for name, address in (("web1", "127.0.0.2"), ("web2", "127.0.0.3")):
            proxy_argv += ["--backend", f"{address}:{self.web_ports[name]}"]
        self.hosts = {
            "web1": Host("web1", "127.0.0.2", [web("web1", "127.0.0.2")]),
            "web2": Host("web2", "127.0.0.3", [web("web2", "127.0.0.3")]),
            "proxy": Host("proxy", PROXY_ADDRESS, [part("proxy", proxy_argv)]),
            "host4": Host(
                "host4",
                "127.0.0.4",
                [
                    worker(
                        names["ratings4"],
                        [self.queues["ratings"], self.queues["default"]],
                        # The suite's run: every rating run lasts a second more, so the kill lands inside one
                        # on any machine (a failure drill's setting, docs/operators/configuration.md).
                        RATING_RUN_PAUSE_SECONDS="1" if reduced else "0",
                    ),
                    beat("beat-host4"),
                ],
            ),
            "host5": Host(
                "host5", "127.0.0.5", [worker(names["messages5"], [self.queues["messages"]]), beat("beat-host5")]
            ),
        }
        if not reduced:
            self.hosts["host6"] = Host(
                "host6",
                "127.0.0.6",
                [worker(names["engine6"], ["engine"]), worker(names["ratings6"], [self.queues["ratings"]])],
            )

    @property
    def base(self) -> str:
        return f"http://{PROXY_ADDRESS}:{self.proxy_port}"

    def part(self, label: str) -> Part:
        return next(p for host in self.hosts.values() for p in host.parts if p.label == label)

    def start(self) -> float:
        """Every host started; seconds until all answer (web servers, workers ready, one beat holding)."""
        import requests

        began = time.perf_counter()
        self.hosts["host4"].start()  # its beat first: it takes the lock, host 5's stands by
        wait(lambda: "taken by" in self.part("beat-host4").text(), 60, "host 4's beat to take the lock")
        for name, host in self.hosts.items():
            if name != "host4":
                host.start()
        for host in self.hosts.values():
            for part in host.parts:
                if part.label.startswith(("web", "proxy")):
                    continue
                words = "Scheduler lock" if part.label.startswith("beat") else "ready."
                wait(lambda p=part, w=words: w in p.text() or self._died(p), 90, f"{part.label} to start")
        for name, port in self.web_ports.items():
            address = self.hosts[name].address
            wait(lambda a=address, p=port: self._answers(requests, f"http://{a}:{p}"), 90, f"{name} to answer")
        wait(lambda: self._answers(requests, self.base), 30, "the proxy to answer")
        return time.perf_counter() - began

    @staticmethod
    def _died(part: Part) -> bool:
        if not part.alive():
            raise RuntimeError(f"{part.label} exited:\n{part.text()[-3000:]}")
        return False

    @staticmethod
    def _answers(requests, base: str) -> bool:
        try:
            return (
                requests.get(f"{base}/accounts/login/", headers={"Host": PROXY_ADDRESS}, timeout=5).status_code == 200
            )
        except requests.RequestException:
            return False

    def stop(self) -> None:
        for host in self.hosts.values():
            host.stop()

    def spread(self) -> dict[str, int]:
        """Requests the proxy sent to each web server."""
        counts: dict[str, int] = {}
        for line in self.part("proxy").text().splitlines():
            backend = line.split(" ", 1)[0]
            if ":" in backend:
                name = next((n for n, port in self.web_ports.items() if backend.endswith(f":{port}")), backend)
                counts[name] = counts.get(name, 0) + 1
        return counts


def rated(tournament_id: int) -> bool:
    from tournaments.models import Tournament

    status = Tournament.objects.values_list("status", flat=True).get(pk=tournament_id)
    if status == "failed":
        raise RuntimeError(f"tournament {tournament_id}: its rating run failed")
    return status == "rated"


def rating_run(layout: Layout, arbiter: Arbiter, *, players: int, rounds: int) -> dict:
    from ratings.models import RatingRequest

    data = tournament_file(int(time.time()) % 100000, players, rounds, start=datetime.date(2026, 3, 1))
    began = time.perf_counter()
    tournament = arbiter.upload("multihost-first.trf", data)
    confirmed = time.perf_counter() - began
    wait(lambda: rated(tournament), 180, "the first tournament to be rated", every=0.05)
    done = time.perf_counter() - began
    worker = RatingRequest.objects.filter(tournament_id=tournament).values_list("worker", flat=True).last()
    return {"tournament": tournament, "confirmed": confirmed, "rated": done, "worker": worker}


# --- two phones, by SMS, through the proxy ------------------------------------------------------


def mobile_game(layout: Layout, gateway) -> dict:
    from django.utils import timezone

    from play import services
    from play.models import ChannelAddress, MobileGame, Transmission
    from players.models import Player
    from players.services import allocate_federation_ids

    # Two new players and numbers each run: an earlier run's game never shares a phone with this one.
    phones = {side: f"+7999{int(layout.run, 16) % 10**6:06d}{i}" for i, side in enumerate(("white", "black"))}
    white, black = (
        Player.objects.create(
            federation_id=fid,
            family_name="Multihost",
            given_names=f"{side.title()} {layout.run}",
            name_key=f"multihost {side} {layout.run}",
            latin_key=f"multihost {side} {layout.run}",
            birth_date=datetime.date(2000, 1, 1),
            birth_precision="day",
        )
        for fid, side in zip(allocate_federation_ids(2), ("white", "black"), strict=True)
    )
    now = timezone.now()
    for player, side in ((white, "white"), (black, "black")):
        ChannelAddress.objects.create(player=player, channel="sms", address=phones[side], verified_at=now)
    game = services.game_create(white=white, black=black, start=now - datetime.timedelta(minutes=30))
    MobileGame.objects.filter(pk=game.pk).update(white_channel="sms", black_channel="sms")
    began = time.perf_counter()
    replies = []
    for number, (side, text) in enumerate(GAME, start=1):
        before = len(gateway.sent)
        sent = time.perf_counter()
        answer = sms_post(layout.base, phones[side], text, number)
        if answer.status_code != 200 or answer.json().get("outcome") != "move":
            raise RuntimeError(f"move {number} ({text!r}) was answered {answer.status_code}: {answer.text[:500]}")
        # Each move: its acknowledgement to the mover, its notice to the opponent (and, at the
        # end, the results), handed to the gateway by the messages worker.
        wait(lambda b=before: len(gateway.sent) >= b + 2, 60, f"the replies to move {number}", every=0.02)
        replies.append((time.perf_counter() - sent) * 1000)
    game.refresh_from_db()
    wait(
        lambda: not Transmission.objects.filter(game=game, direction="out").exclude(delivery="sent").exists(),
        60,
        "every outbound message sent",
    )
    outbound = Transmission.objects.filter(game=game, direction="out").count()
    game.refresh_from_db()
    return {
        "game": game.code,
        "result": f"{game.result} ({game.termination})",
        "plies": game.plies,
        "replies_ms": replies,
        "outbound": outbound,
        "seconds": time.perf_counter() - began,
    }


# --- a worker host killed in the middle of a rating run ------------------------------------------


def killed_host(layout: Layout, arbiter: Arbiter, *, players: int, rounds: int) -> dict:
    from ratings.models import RatingRequest

    # Dated before the first tournament: its run rolls back and rates both, a longer run to kill.
    data = tournament_file(int(time.time()) % 100000 + 7, players, rounds, start=datetime.date(2026, 1, 5))
    tournament = arbiter.upload("multihost-earlier.trf", data)
    doomed = layout.worker_names["ratings4"]
    running = RatingRequest.objects.filter(tournament_id=tournament, state="running", worker=doomed)
    wait(lambda: running.exists() or rated(tournament), 120, "the run to start on host 4", every=0.01)
    if not running.exists():
        raise RuntimeError("the run ended before host 4 could be killed: give it a larger tournament")
    time.sleep(0.1)  # inside the run, not at its first instant
    standby = layout.part("beat-host5")
    said = len(standby.text())
    layout.hosts["host4"].kill()
    killed = time.perf_counter()
    took = lambda: "taken by" in standby.text()[said:]  # noqa: E731
    wait(took, layout.lock_seconds + 30, "host 5's beat to take over", every=0.05)
    takeover = time.perf_counter() - killed
    if layout.reduced:
        time.sleep(1)
        layout.hosts["host4"].start()  # the machine is back: its worker, and its beat (now the standby)
    wait(lambda: rated(tournament), 240, "the killed run to be rated again", every=0.1)
    recovered = time.perf_counter() - killed
    # The tournament is rated inside the run's transaction; its request is marked done just after.
    open_requests = RatingRequest.objects.filter(tournament_id=tournament).exclude(state="done")
    wait(lambda: not open_requests.exists(), 30, "the killed run's request to be done", every=0.05)
    rows = list(RatingRequest.objects.filter(tournament_id=tournament).values("state", "worker", "attempts"))
    first = next((row["worker"] for row in rows if row["state"] == "done"), "?")
    return {
        "tournament": tournament,
        "takeover": takeover,
        "recovered": recovered,
        "requests": rows,
        "rated_by": first,
        "mode": "host 4 restarted" if layout.reduced else "the beat's sweep, on host 6",
    }


# --- the run --------------------------------------------------------------------------------------


def run(layout: Layout, gateway, *, players: int, rounds: int, kill_players: int) -> dict:
    began = time.perf_counter()
    report = {"start": layout.start()}
    arbiter = Arbiter(layout.base, *make_arbiter())
    report["rating"] = rating_run(layout, arbiter, players=players, rounds=rounds)
    report["game"] = mobile_game(layout, gateway)
    report["kill"] = killed_host(layout, arbiter, players=kill_players, rounds=rounds)
    report["spread"] = layout.spread()
    report["total"] = time.perf_counter() - began
    return report


def print_report(layout: Layout, report: dict) -> None:
    from benchmarks.play_common import machine_line

    rating, game, kill = report["rating"], report["game"], report["kill"]
    print(f"# The multi-host layout on one machine ({machine_line()})")
    print()
    print("| host | address | processes |")
    print("|---|---|---|")
    for host in layout.hosts.values():
        print(f"| {host.name} | {host.address} | {', '.join(p.label for p in host.parts)} |")
    print()
    print(f"- Every part up (web servers answering, workers ready, one beat holding the lock): {report['start']:.1f} s")
    print(
        f"- Rating run through the proxy: upload and confirmation {rating['confirmed']:.1f} s, "
        f"rated {rating['rated']:.1f} s after the upload began, by {rating['worker']}"
    )
    replies = game["replies_ms"]
    print(
        f"- Mobile game {game['game']} by SMS through the proxy: {game['plies']} plies, {game['result']}, "
        f"{game['outbound']} SMS sent by the messages worker; webhook to both replies at the gateway "
        f"{min(replies):.0f}–{max(replies):.0f} ms (median {sorted(replies)[len(replies) // 2]:.0f} ms); "
        f"{game['seconds']:.1f} s in all"
    )
    print(
        f"- Host 4 killed mid-run: host 5's beat held the scheduler lock {kill['takeover']:.1f} s later "
        f"(TTL {layout.lock_seconds} s); the run was rated again {kill['recovered']:.1f} s after the kill "
        f"({kill['mode']}), by {kill['rated_by']}; its requests: {kill['requests']}"
    )
    print(f"- Requests the proxy sent to each web server: {report['spread']}")
    print(f"- Whole run: {report['total']:.1f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reduced", action="store_true", help="the suite's shorter run (host 4 restarts)")
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tests.fakes.sms_gateway import FakeGateway

    gateway = FakeGateway().start()
    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/federation_multihost"),
        "CELERY_BROKER_URL": os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/6"),
        "CACHE_URL": os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/7"),
        "PLAY_SMS_BACKEND": "play.channels.sms.SmsGateway",
        "SMS_GATEWAY_URL": gateway.url,
        "SMS_GATEWAY_USER": gateway.user,
        "SMS_GATEWAY_PASSWORD": gateway.password,
        # The uploaded files, shared by every host (a network share on real hosts).
        "MEDIA_ROOT": tempfile.mkdtemp(prefix="multihost-media-"),
        "PRIVATE_ROOT": tempfile.mkdtemp(prefix="multihost-private-"),
    }
    layout = Layout(env, ROOT / "benchmarks" / "results" / "multihost", reduced=args.reduced)
    os.environ.update(layout.env)
    create_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=layout.env, check=True)
    import django

    django.setup()
    try:
        report = run(layout, gateway, players=args.players, rounds=args.rounds, kill_players=2 * args.players)
    finally:
        layout.stop()
        gateway.stop()
        from federation.celery import app

        with app.connection_for_write() as conn:
            for queue in layout.queues.values():
                conn.default_channel.queue_delete(queue)
    print_report(layout, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
