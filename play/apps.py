from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Mobile chess. Its rules are pure modules in play/rules/; the app around them (events, games,
    messages, channels) grows here."""

    name = "play"
    verbose_name = "Mobile chess"
