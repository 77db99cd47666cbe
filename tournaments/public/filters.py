import django_filters
from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from toolkit.filtering import StrictFilterSet
from tournaments.models import Tournament
from tournaments.selectors import PUBLIC_STATUSES


class TournamentFilter(StrictFilterSet):
    q = django_filters.CharFilter(label=_("Name"), method="filter_text")
    city = django_filters.CharFilter(label=_("City"), field_name="city", lookup_expr="icontains")
    since = django_filters.DateFilter(
        label=_("Ends on or after"),
        field_name="end_date",
        lookup_expr="gte",
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    until = django_filters.DateFilter(
        label=_("Starts on or before"),
        field_name="start_date",
        lookup_expr="lte",
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    arbiter = django_filters.CharFilter(label=_("Arbiter"), method="filter_arbiter")
    status = django_filters.ChoiceFilter(
        label=_("Status"), choices=[(s.value, s.label) for s in Tournament.Status if s in PUBLIC_STATUSES]
    )
    time_control = django_filters.ChoiceFilter(label=_("Time control"), choices=Tournament.TimeControl.choices)

    def filter_text(self, queryset, _name, value):
        return queryset.filter(name__icontains=value.strip())

    def filter_arbiter(self, queryset, _name, value):
        value = value.strip()
        return queryset.filter(
            Q(chief_arbiter_name__icontains=value)
            | Q(chief_arbiter__username__icontains=value)
            | Q(chief_arbiter__last_name__icontains=value)
            | Q(chief_arbiter__first_name__icontains=value)
        )
