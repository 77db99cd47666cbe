"""The roles live in accounts/roles.py (every app needs them); kept here for the
migrations and callers that name this module."""

from accounts.roles import *  # noqa: F403
