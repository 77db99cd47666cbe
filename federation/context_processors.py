from django.conf import settings
from django.utils.translation import gettext


def site_name() -> str:
    """The site's name: SITE_NAME as configured, or the default in the visitor's language."""
    return settings.SITE_NAME or gettext("Chess Federation Ratings")


def site(request):
    return {"SITE_NAME": site_name()}
