"""The filters of the rating lists (live and published), shared by the pages, downloads and the API."""

from __future__ import annotations

import datetime

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.forms.models import ModelChoiceIterator
from django.forms.utils import flatatt
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from players import selectors as player_selectors
from players.models import Club, Player, Region
from ratings.engines import agegroups
from toolkit.bidi import isolate
from toolkit.filtering import StrictFilterSet

AGE_GROUPS = [
    ("u8", _("Under 8")),
    ("u10", _("Under 10")),
    ("u12", _("Under 12")),
    ("u14", _("Under 14")),
    ("u16", _("Under 16")),
    ("u18", _("Under 18")),
    ("adults", _("Adults")),
]


def age_group_bounds(group: str, year: int) -> Q:
    """Q on player__birth_date for an age group of `year` (the rule: ratings.engines.agegroups)."""
    first, last = agegroups.birth_years(group, year)
    if first is None:
        return Q(player__birth_date__lt=datetime.date(last + 1, 1, 1))
    return Q(player__birth_date__gte=datetime.date(first, 1, 1))


class FastSelect(forms.Select):
    """A select that renders its options with one string join.

    Django's Select renders a template per option: for the 800 clubs of a national federation
    that alone took 70 % of a list page's time.
    """

    def __init__(self, attrs=None, choices=(), *, values: tuple[str, ...] = (), label=None):
        super().__init__(attrs, choices)
        # With `values` and `label`, a model choice's options are read as plain values and
        # labelled by label(*values): making 800 Club instances was half of what remained.
        self.values = values
        self.label = label

    def render(self, name, value, attrs=None, renderer=None):
        final_attrs = self.build_attrs(self.attrs, {**(attrs or {}), "name": name})
        selected = {str(v) for v in self.format_value(value)}
        options = []
        choices = self.choices
        if self.values and isinstance(choices, ModelChoiceIterator):
            empty = [("", choices.field.empty_label)] if choices.field.empty_label is not None else []
            rows = choices.queryset.values_list("pk", *self.values)
            choices = [*empty, *((pk, self.label(*rest)) for pk, *rest in rows)]
        for option_value, label in choices:
            option_value = "" if option_value is None else str(option_value)
            mark = " selected" if option_value in selected else ""
            options.append(f'<option value="{escape(option_value)}"{mark}>{escape(label)}</option>')
        return mark_safe(f"<select{flatatt(final_attrs)}>{''.join(options)}</select>")  # noqa: S308 - escaped above


# Birth years a filter accepts: wide enough for any living player, narrow enough to be a date.
BIRTH_YEARS = (1900, 2100)


class MonthField(forms.CharField):
    """A month as YYYY-MM (the published lists' months), cleaned to its first day."""

    widget = forms.HiddenInput

    def to_python(self, value):
        value = super().to_python(value)
        if not value:
            return None
        year, dash, month = value.partition("-")
        try:
            if not (dash and len(year) == 4 and len(month) == 2 and year.isdigit() and month.isdigit()):
                raise ValueError(value)
            return datetime.date(int(year), int(month), 1)
        except ValueError:
            raise ValidationError(_("Enter a month as YYYY-MM."), code="invalid") from None


def clean_month(value: str | None) -> datetime.date | None:
    """The month a request asks for, or None (the live list) if none or a malformed one: the
    filter form reports the malformed one."""
    try:
        return MonthField(required=False).clean(value)
    except ValidationError:
        return None


class YearFilter(django_filters.Filter):
    """A year: a whole number (the form's bounds keep it a possible date; 10000 or -5 crashed)."""

    field_class = forms.IntegerField


class MonthFilter(django_filters.Filter):
    """The list's month: chosen by the view before filtering (a published list or the live one);
    a field here so that a malformed month is reported like any bad filter value."""

    field_class = MonthField

    def filter(self, qs, value):
        return qs


class RatingListFilter(StrictFilterSet):
    """Works on PlayerRating (live) and RatingListEntry (published): both reach the player the same way."""

    name = django_filters.CharFilter(label=_("Name"), method="filter_name")
    age_group = django_filters.ChoiceFilter(label=_("Age group"), choices=AGE_GROUPS, method="filter_age_group")
    birth_year = YearFilter(
        label=_("Birth year"), method="filter_birth_year", min_value=BIRTH_YEARS[0], max_value=BIRTH_YEARS[1]
    )
    sex = django_filters.ChoiceFilter(
        label=_("Sex"),
        field_name="player__sex",
        choices=[(Player.Sex.MALE, _("men and boys")), (Player.Sex.FEMALE, _("women and girls"))],
    )
    club = django_filters.ModelChoiceFilter(
        label=_("Club"),
        field_name="player__club",
        queryset=Club.objects.all(),
        widget=FastSelect(values=("name", "city"), label=lambda name, city: Club.label(isolate(name), isolate(city))),
    )
    region = django_filters.ModelChoiceFilter(
        label=_("Region"),
        field_name="player__region",
        queryset=Region.objects.all(),
        widget=FastSelect(values=("name",), label=isolate),
    )
    active = django_filters.BooleanFilter(
        label=_("Played in the last 12 months"), method="filter_active", widget=forms.CheckboxInput
    )
    month = MonthFilter(label=_("List"), required=False)
    # Computer opponents (kind computer) are rated in Mchess like people; the public list shows
    # people unless asked (issue 17), and the ranks are then among people.
    computers = django_filters.BooleanFilter(
        label=_("Show computer opponents"), method="filter_computers", widget=forms.CheckboxInput
    )
    provisional = django_filters.ChoiceFilter(
        label=_("Rating"),
        choices=[("no", _("established only")), ("yes", _("provisional only"))],
        method="filter_provisional",
    )

    def __init__(self, *args, reference: datetime.date | None = None, live: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.reference = reference or datetime.date.today()  # noqa: DTZ011 - a calendar day
        self.live = live
        if not live:
            del self.filters["active"]

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        if self.form.is_valid() and not self.form.cleaned_data.get("computers"):
            # An anti-join on the (few) computers' ids, as live_list leaves out merged players: a
            # join to every row's player would make counting a 100,000-player list costly.
            computers = Player.objects.filter(kind=Player.Kind.COMPUTER).values("pk")
            queryset = queryset.exclude(player__in=computers)
        return queryset

    def filter_computers(self, queryset, _name, value):
        return queryset  # shown or hidden in filter_queryset: hidden is the default, with no value

    def filter_name(self, queryset, _name, value):
        condition = player_selectors.name_search(value, prefix="player__")
        return queryset if condition is None else queryset.filter(condition)

    def filter_age_group(self, queryset, _name, value):
        return queryset.filter(age_group_bounds(value, self.reference.year))

    def filter_birth_year(self, queryset, _name, value):
        year = int(value)
        return queryset.filter(
            player__birth_date__gte=datetime.date(year, 1, 1), player__birth_date__lte=datetime.date(year, 12, 31)
        )

    def filter_active(self, queryset, _name, value):
        if not value:
            return queryset
        return queryset.filter(last_played__gte=self.reference - datetime.timedelta(days=365))

    def filter_provisional(self, queryset, _name, value):
        return queryset.filter(provisional=value == "yes")
