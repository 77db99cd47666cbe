from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from ratings.signals import tournaments_rated
        from tournaments.follower_notices import on_tournaments_rated

        tournaments_rated.connect(on_tournaments_rated, dispatch_uid="tournaments-follower-notices")
