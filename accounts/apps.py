from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    # The audit log's heading in the admin, as before the model moved here from the project package.
    verbose_name = _("Federation")
