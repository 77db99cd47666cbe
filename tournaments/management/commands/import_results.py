"""Import result files without a browser: the arbiter's flow for a federation's history.

    python manage.py import_results FILE [FILE ...] --arbiter USERNAME [--fide-rated] [--confirm] [--json]

Swiss Perfect's three files of one tournament (.trn, .sco, .ini with one name) are read together.

Without --confirm each file's preview is printed and nothing is saved. With it, exact
matches are accepted, new players are created, and any ambiguity or error stops that
file with its message (the other files go on). The exit status is 1 if any file stopped.

With --json (and no --confirm) the preview is printed as JSON with its prediction: each player's
rating in each system if the tournament were confirmed now and rated after every rated event,
`{"predicted": {"<federation id>": {"orr": R, "mchess": R, "playchess": R}}}` (new players as
"new:<start number>"; R as the lists would show it, null where the player has no rating).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from players.matching import AMBIGUOUS, MATCHED, NEW, shown_match
from tournaments import services
from tournaments.arbiters.permissions import is_arbiter
from tournaments.importers import bundles
from tournaments.importers.base import PLAYER_LIST, ResultFileError
from tournaments.models import Tournament
from tournaments.uploads.prediction import predicted_lists, preview_prediction


class Command(BaseCommand):
    help = "Read result files (xlsx, xls, TRF, PGN): print their preview, or with --confirm save them."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--arbiter", required=True, help="username of the chief arbiter of the tournaments")
        parser.add_argument("--fide-rated", action="store_true", help="the tournaments are FIDE-rated")
        parser.add_argument("--confirm", action="store_true", help="save the tournaments (default: preview only)")
        parser.add_argument(
            "--json", action="store_true", help="print the preview as JSON with the predicted ratings (no --confirm)"
        )
        parser.add_argument("--start-date", type=datetime.date.fromisoformat, help="when the file has no dates")
        parser.add_argument("--end-date", type=datetime.date.fromisoformat)
        parser.add_argument(
            "--time-control", choices=Tournament.TimeControl.values, default=Tournament.TimeControl.CLASSICAL
        )

    def handle(self, *args, files, arbiter, fide_rated, confirm, start_date, end_date, time_control, **options):
        self.as_json = options.get("json", False)
        if self.as_json and confirm:
            raise CommandError("--json prints a preview: use it without --confirm")
        try:
            user = get_user_model().objects.get(username=arbiter)
        except get_user_model().DoesNotExist:
            raise CommandError(f"there is no user '{arbiter}'") from None
        if not is_arbiter(user):
            raise CommandError(f"'{arbiter}' is not an arbiter (add the user to the Arbiters group)")
        failed = 0
        chosen = []
        for path in files:
            try:
                chosen.append((path.name, path.read_bytes()))
            except OSError as exc:
                failed += 1
                self._report(path.name, [exc])
        # Swiss Perfect's .trn, .sco and .ini of one tournament, named together, are read together.
        for group in bundles.group(chosen):
            label = ", ".join(name for name, _ in group)
            try:
                name, data = bundles.combine(group)
                self._one(name, data, user, fide_rated, confirm, start_date, end_date, time_control)
            except (services.UploadRefused, services.ConfirmError, ResultFileError, ValueError) as exc:
                failed += len(group)
                self._report(label, getattr(exc, "problems", None) or getattr(exc, "messages", None) or [exc])
        if failed:
            raise CommandError(f"{failed} of {len(files)} files were not imported", returncode=1)

    def _report(self, label: str, lines: list) -> None:
        self.stderr.write(self.style.ERROR(f"{label}: not imported"))
        for line in lines[:50]:
            self.stderr.write(f"  {line}")
        if len(lines) > 50:
            self.stderr.write(f"  … and {len(lines) - 50} more")

    def _one(self, name: str, data: bytes, user, fide_rated, confirm, start_date, end_date, time_control) -> None:
        if not confirm:
            preview = services.preview_build(file_name=name, data=data, user=user)
            if self.as_json:
                self._print_json(name, preview, fide_rated, start_date, end_date, time_control)
            else:
                self._print(name, preview.parsed, preview.matches)
            return
        upload = services.upload_create(user=user, file_name=name, data=data)
        try:
            self._confirm(name, upload, user, fide_rated, start_date, end_date, time_control)
        except Exception:
            services.upload_cancel(upload=upload)
            raise

    def _confirm(self, name, upload, user, fide_rated, start_date, end_date, time_control) -> None:
        file, matches = upload.preview["file"], upload.preview["matches"]
        ambiguous = [
            f"start number {number}: choose in the web preview ({shown_match(match)['note']}: "
            + ", ".join(f"#{c['federation_id']} {c['name']} {c['birth']}".strip() for c in match["candidates"])
            + ")"
            for number, match in matches.items()
            if match["status"] == AMBIGUOUS
        ]
        if ambiguous:
            raise services.ConfirmError(ambiguous)
        if file["content"] == PLAYER_LIST:
            players = services.players_register(upload=upload)
            self.stdout.write(self.style.SUCCESS(f"{name}: {len(players)} players registered"))
            return
        details = services.details_from_file(
            file,
            name=file["name"] or name.rsplit(".", 1)[0],
            start_date=start_date,
            end_date=end_date or start_date,
            time_control=time_control,
            fide_rated=fide_rated,
        )
        if details.start_date is None:
            raise services.ConfirmError(["the file gives no dates: pass --start-date and --end-date"])
        tournament = services.tournament_confirm(upload=upload, user=user, details=details)
        self.stdout.write(
            self.style.SUCCESS(
                f"{name}: '{tournament.name}' saved (id {tournament.pk}): "
                f"{tournament.participants.count()} players, {tournament.games.count()} games"
            )
        )

    def _print_json(self, name, preview, fide_rated, start_date, end_date, time_control) -> None:
        stored = preview.as_dict()
        details = services.details_from_file(
            stored["file"],
            name=stored["file"]["name"] or name,
            start_date=start_date,
            end_date=end_date or start_date,
            time_control=time_control,
            fide_rated=fide_rated,
        )
        if details.start_date is None:  # no dates anywhere: rated as of today
            details.start_date = details.end_date = timezone.localdate()
        prediction, keys = preview_prediction(stored, details)
        shown = {
            "file": name,
            "tournament": details.name,
            "start_date": details.start_date.isoformat(),
            "end_date": details.end_date.isoformat(),
            "predicted": predicted_lists(prediction, keys),
        }
        self.stdout.write(json.dumps(shown, ensure_ascii=False, indent=1))

    def _print(self, name, parsed, matches) -> None:
        counts = {
            status: sum(1 for m in matches.values() if m.status == status) for status in (MATCHED, NEW, AMBIGUOUS)
        }
        self.stdout.write(self.style.MIGRATE_HEADING(f"{name}: {parsed.format}, {parsed.view}"))
        self.stdout.write(f"  tournament: {parsed.name or '(no name)'}, {parsed.city}")
        self.stdout.write(f"  dates: {parsed.start_date or '?'} – {parsed.end_date or '?'}, rounds: {parsed.rounds}")
        self.stdout.write(
            f"  players: {len(parsed.players)} ({counts[MATCHED]} found, {counts[NEW]} new, "
            f"{counts[AMBIGUOUS]} to choose); games: {len(parsed.games)}"
        )
        for note in parsed.notes:
            self.stdout.write(f"  note: {note}")
        for problem in parsed.warnings:
            self.stdout.write(self.style.WARNING(f"  warning: {problem}"))
        for player in parsed.players:
            match = matches[player.start_number]
            match = shown_match(match.as_dict())
            shown = {MATCHED: f"found by {match['how']}", NEW: "new", AMBIGUOUS: f"to choose: {match['note']}"}
            shown = shown[match["status"]]
            self.stdout.write(f"  {player.start_number:>4} {player.display_name:<36} {player.rating or '':>4}  {shown}")
        self.stdout.write("  nothing was saved (use --confirm to import)")
