"""Mobile events and the games around them: the public event pages with their live crosstables,
standings and PGN downloads, and challenge games outside events (offered, answered, withdrawn).
The event and game models and event_create stay at the app's root (play/models.py, play/services.py)."""
