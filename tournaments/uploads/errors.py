"""What refuses an upload or its confirmation. Raised by the services (`tournaments.services`, which
callers name them from) and by the confirmation that replaces a tournament (`replacement`)."""

from __future__ import annotations

from tournaments.importers.base import Problem


class UploadRefused(Exception):
    """The file is not accepted; nothing was saved. `problems` say where and why."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


class ConfirmError(Exception):
    """The preview cannot be confirmed as it stands; nothing was saved."""

    def __init__(self, messages: list[str]):
        self.messages = messages
        super().__init__("; ".join(messages))


class PreviewOutdated(ConfirmError):
    """Players changed since the preview; `preview` is the corrected one, saved outside the failed transaction."""

    def __init__(self, messages: list[str], preview: dict):
        self.preview = preview
        super().__init__(messages)
