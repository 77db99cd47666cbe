"""The roles live in federation/roles.py (every app and the page cache need them); kept here for the
migrations and callers that name this module."""

from accounts.roles import *  # noqa: F403
