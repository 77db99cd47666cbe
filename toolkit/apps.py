from django.apps import AppConfig


class ToolkitConfig(AppConfig):
    """An app only so that Django finds its template tags (`{% load display %}`)."""

    name = "toolkit"
