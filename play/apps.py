from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Mobile chess. Its rules are pure modules in play/rules/; the app around them (events, games,
    messages, channels) lives in rooms (docs/developers/rooms-play.md)."""

    name = "play"
    verbose_name = "Mobile chess"

    def ready(self) -> None:
        # The tasks register under their names (play/queue.py queues by name), and the computer
        # room registers its handler of PLAY COMPUTER with the message service
        # (play.services.request_handler): both modules are above play.services, which names neither.
        from play import tasks  # noqa: F401
        from play.computer import services  # noqa: F401
