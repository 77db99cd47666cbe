"""The guides the site serves at /help/: the Markdown files of docs/ written for arbiters and for
players and TDs, each with its Russian beside it (README.ru.md). The operators' and developers'
guides stay in the repository: a parent or an arbiter never reads those."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Guide:
    slug: str  # its address: /help/<slug>/
    folder: str  # under docs/
    title: Promise
    summary: Promise

    def source(self, language: str) -> Path:
        """The file to show in this language: its translation when there is one, else the English."""
        folder = docs_root() / self.folder
        translated = folder / f"README.{language}.md"
        return translated if language != "en" and translated.is_file() else folder / "README.md"


GUIDES = (
    Guide(
        slug="arbiters",
        folder="arbiters",
        title=_("Uploading results: the arbiters' guide"),
        summary=_(
            "Which file to upload from your pairing program, what the preview shows before anything is "
            "saved, the same tournament twice, the rating run, corrections."
        ),
    ),
    Guide(
        slug="mobile-chess",
        folder="mobile-chess",
        title=_("Mobile chess: the guide for players and TDs"),
        summary=_(
            "Playing from the web, by SMS and by Telegram, your phones and chats, what to write, the "
            "computer, claims, protests, appeals and leave; for TDs, events and the desk."
        ),
    ),
)
BY_SLUG = {guide.slug: guide for guide in GUIDES}


def docs_root() -> Path:
    return Path(settings.BASE_DIR) / "docs"


def guide_of(path: Path) -> Guide | None:
    """The served guide a file of docs/ is (in either language), or None."""
    try:
        relative = path.resolve().relative_to(docs_root().resolve())
    except ValueError:
        return None
    if len(relative.parts) != 2 or not (relative.name == "README.md" or relative.name.startswith("README.")):
        return None
    return next((g for g in GUIDES if g.folder == relative.parts[0]), None)
