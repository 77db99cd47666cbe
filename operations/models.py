"""The operations app's models live in its rooms; Django finds them here."""

from operations.backup.models import BackupRun

__all__ = ["BackupRun"]
