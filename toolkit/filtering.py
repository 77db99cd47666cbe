"""What the site's list filters share."""

from __future__ import annotations

import django_filters


class StrictFilterSet(django_filters.FilterSet):
    """A filter set for which a bad value filters out everything, and its form says why.

    django-filter drops an invalid value and filters by the others: ?age_group=u99 would show
    the whole list as if it were the filtered one.
    """

    def filter_queryset(self, queryset):
        if not self.form.is_valid():
            return queryset.none()
        return super().filter_queryset(queryset)
