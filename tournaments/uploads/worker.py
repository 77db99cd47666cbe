"""Large result files are read on a Celery worker, so that no upload holds a web process.

A 10,000-game PGN takes 10-16 s to read. A file larger than `UPLOAD_PARSE_ON_WORKER_BYTES`
(0: every file) is checked for what needs no reading (size, type, the same file uploaded
before) and stored as an upload that is *being read*; `tournaments.tasks.parse_upload`,
queued once that is committed, reads and matches it exactly as a small file is read in the
request (`services.preview_read`), reporting its progress on the upload row as it goes (each
report is its own autocommitted write, so the preview page sees it at once). The preview is
then stored on the upload as for any other file, or the problems that refused it, with
their file and line.
"""

from __future__ import annotations

import datetime
import hashlib
import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from toolkit import queueing
from tournaments import services
from tournaments.importers.base import ERROR, Place, Problem
from tournaments.importers.registry import sniff
from tournaments.models import Upload

logger = logging.getLogger(__name__)

# A worker reports at least every 250 games; a file of the largest size is read in well under this.
STALLED_AFTER = datetime.timedelta(minutes=10)


def reads_on_worker(size: int) -> bool:
    threshold = settings.UPLOAD_PARSE_ON_WORKER_BYTES
    return threshold == 0 or size > threshold


def upload_start(*, user, file_name: str, data: bytes) -> Upload:
    """A small file is read at once (`services.upload_create`); a large one is stored and queued for a worker.

    Raises UploadRefused, saving nothing, for what is refused before reading: too large, not a result
    file, the same file uploaded before.
    """
    if not reads_on_worker(len(data)):
        return services.upload_create(user=user, file_name=file_name, data=data)
    digest = hashlib.sha256(data).hexdigest()
    kind = sniff(data) if data else None
    if len(data) > settings.MAX_UPLOAD_BYTES or kind is None or Upload.objects.filter(sha256=digest).exists():
        # The usual checks refuse these, with their usual messages, before they read anything.
        return services.upload_create(user=user, file_name=file_name, data=data)
    with transaction.atomic():
        upload = Upload(
            original_name=file_name[:255],
            sha256=digest,
            size=len(data),
            format=kind,
            uploaded_by=user,
            status=Upload.Status.PARSING,
            progress={"games": 0, "line": 0, "lines": 0},
        )
        services.upload_store(upload, data)
        _queue_parse(upload.pk)
    return upload


def _queue_parse(upload_id: int) -> None:
    transaction.on_commit(lambda: _publish_parse(upload_id))


def _publish_parse(upload_id: int) -> None:
    """Send the reading to a worker; with the broker down, read it here rather than answer a 500 or
    leave the upload "being read" for ever (the arbiter waits as long as the reading takes)."""
    try:
        queueing.send(
            "tournaments.tasks.parse_upload",
            (upload_id,),
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0.2},
        )
    except Exception:
        logger.warning("upload %s could not be sent to the queue; it is read in the request", upload_id, exc_info=True)
        upload_parse(upload_id=upload_id)


def upload_parse(*, upload_id: int) -> Upload | None:
    """Read a stored upload and store its preview, or the problems that refuse it. None if it is not
    waiting to be read (cancelled meanwhile, or read already by an earlier delivery of the message)."""
    upload = Upload.objects.filter(pk=upload_id, status=Upload.Status.PARSING).first()
    if upload is None:
        return None
    waiting = Upload.objects.filter(pk=upload_id, status=Upload.Status.PARSING)

    last = {"line": 0, "lines": 0}
    # The page says the worker has started (spreadsheets and TRF files report nothing until they are read).
    # "at": when the worker last said something; a reading silent for long lost its worker (sweep_stalled).
    waiting.update(progress={"games": 0, **last, "started": True, "at": timezone.now().isoformat()})

    def report(*, games: int, line: int | None, lines: int) -> None:
        last.update(line=line or last["line"], lines=lines)
        waiting.update(progress={"games": games, **last, "at": timezone.now().isoformat()})

    try:
        with upload.file.open("rb") as file:
            data = file.read()
        preview = services.preview_read(
            file_name=upload.original_name, data=data, digest=upload.sha256, progress=report
        )
    except services.UploadRefused as refused:
        waiting.update(status=Upload.Status.FAILED, problems=[p.as_dict() for p in refused.problems])
    except Exception:
        # A fault of the site, not of the file: the arbiter is told so (and is not left waiting), the
        # staff find the traceback in the worker's log.
        logger.exception("reading upload %s (%s) failed", upload_id, upload.original_name)
        problem = Problem.of(
            ERROR,
            gettext_noop("the site could not read the file because of an error of its own; the staff are told"),
            Place(upload.original_name),
            "internal",
        )
        waiting.update(status=Upload.Status.FAILED, problems=[problem.as_dict()])
    else:
        games = len(preview.parsed.games)
        waiting.update(
            status=Upload.Status.PREVIEW,
            format=preview.parsed.format,
            preview=preview.as_dict(),
            problems=[p.as_dict() for p in preview.parsed.problems],
            progress={"games": games, **last, "done": True},
        )
    # None if the arbiter cancelled the upload while it was read.
    return Upload.objects.filter(pk=upload_id).first()


def sweep_stalled(*, silent_for: datetime.timedelta = STALLED_AFTER) -> list[int]:
    """Send again the readings whose worker went silent (killed, or its message lost): an upload
    "being read" with no word from a worker for `silent_for` would otherwise wait for ever. A
    reading that is in fact still going is harmless to repeat: whichever finishes first stores the
    preview, the other finds the upload no longer waiting."""
    cutoff = timezone.now() - silent_for
    stalled = []
    for pk, uploaded_at, progress in Upload.objects.filter(status=Upload.Status.PARSING).values_list(
        "pk", "uploaded_at", "progress"
    ):
        said = (progress or {}).get("at")
        last = datetime.datetime.fromisoformat(said) if said else uploaded_at
        if last < cutoff:
            stalled.append(pk)
    for pk in stalled:
        logger.warning("upload %s has been silent since before %s: its reading is sent again", pk, cutoff)
        _publish_parse(pk)
    return stalled
