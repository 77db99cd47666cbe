"""Replay a game played outside the system (an SMS log kept by hand, a test transcript) through the
rules of mobile chess, with no TD, and print the outcome. Nothing is stored."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from play.rules.transcript import TranscriptError, replay_text


class Command(BaseCommand):
    help = "Replay a mobile-chess transcript (JSON lines, docs/rules/mobile-chess.md) and print its outcome."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the transcript: one JSON object a line, the game first")
        parser.add_argument("--json", action="store_true", dest="as_json", help="print the outcome as one JSON object")

    def handle(self, *args, file, as_json: bool = False, **options):
        path = Path(file)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{path}: cannot be read ({error})") from None
        try:
            result = replay_text(text)
        except TranscriptError as error:
            # Bad input is refused with its line number; nothing was stored (nothing ever is).
            raise CommandError(f"{path}, {error}") from None
        if as_json:
            self.stdout.write(_dumps(result))
            return
        self.stdout.write(_summary(result))


def _dumps(result: dict) -> str:
    return json.dumps(result, ensure_ascii=False, sort_keys=False)


def _summary(result: dict) -> str:
    """The outcome as a TD reads it: result, moves with their times, referrals, claims."""
    lines = [f"Result: {result['result']} ({result['termination']})"]
    totals = result["total"]
    lines.append(f"Time used: White {totals['white']} s, Black {totals['black']} s")
    for move in result["moves"]:
        number = (move["ply"] + 1) // 2
        label = f"{number}." if move["ply"] % 2 else f"{number}..."
        lines.append(f"  {label} {move['san']}  sent {move['sent']}  used {move['used']} s  total {move['total']} s")
    for referral in result["referrals"]:
        lines.append(f"Referred back {referral['at']} ({referral['from']}): {referral['reason']}")
    for claim in result["claims"]:
        against, ply, filed, status = claim["against"], claim["ply"], claim["filed"], claim["status"]
        lines.append(f"Claim against {against} at ply {ply}, filed {filed}: {status}")
    return "\n".join(lines)
