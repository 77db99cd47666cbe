"""The GCR filter as a GET form: the page and /api/gcr/ read the same parameters through it, so a
bad one is named the same way on both (a form error on the page, 400 JSON in the API)."""

from __future__ import annotations

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from players.models import Club, Region
from ratings.engines import agegroups
from ratings.filters import AGE_GROUPS, BIRTH_YEARS, FastSelect
from ratings.gcrquery.query import BOARD, COMPUTER, MOBILE, GcrQuery, since_of
from toolkit.bidi import isolate

MAX_TOURNAMENTS = 50


def born_in(group: str, year: int) -> tuple[int | None, int | None]:
    """The birth years of an age group in `year` (ratings.engines.agegroups); no group: no bounds."""
    return agegroups.birth_years(group, year) if group else (None, None)


class ListInput(forms.TextInput):
    """A list of ids, written "3,7" or repeated (?tournament=3&tournament=7)."""

    def value_from_datadict(self, data, files, name):
        if hasattr(data, "getlist"):
            return ",".join(value for value in data.getlist(name) if value.strip())
        return data.get(name)


class GcrFilterForm(forms.Form):
    tournament = forms.CharField(
        label=_("Tournaments (ids, separated by commas)"), required=False, widget=ListInput, max_length=600
    )
    since = forms.DateField(label=_("Games since"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("Games until"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    days = forms.IntegerField(label=_("Or newer than (days)"), required=False, min_value=1, max_value=36600)
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Club.objects.all(),
        required=False,
        widget=FastSelect(values=("name", "city"), label=lambda name, city: Club.label(isolate(name), isolate(city))),
    )
    region = forms.ModelChoiceField(
        label=_("Region"),
        queryset=Region.objects.all(),
        required=False,
        widget=FastSelect(values=("name",), label=isolate),
    )
    age_group = forms.ChoiceField(label=_("Age group"), required=False, choices=[("", "---------"), *AGE_GROUPS])
    born_from = forms.IntegerField(
        label=_("Players born from (year)"), required=False, min_value=BIRTH_YEARS[0], max_value=BIRTH_YEARS[1]
    )
    born_until = forms.IntegerField(
        label=_("Players born until (year)"), required=False, min_value=BIRTH_YEARS[0], max_value=BIRTH_YEARS[1]
    )
    kind = forms.MultipleChoiceField(
        label=_("Games"),
        required=False,
        choices=[(BOARD, _("over the board")), (MOBILE, _("mobile")), (COMPUTER, _("against computers"))],
        widget=forms.CheckboxSelectMultiple,
    )
    rated = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("rated", _("rated games only")), ("all", _("every played game"))],
    )

    def clean_tournament(self) -> tuple[int, ...]:
        ids = []
        for part in self.cleaned_data["tournament"].split(","):
            part = part.strip()
            if not part:
                continue
            if not part.isdigit() or int(part) < 1 or len(part) > 9:
                raise forms.ValidationError(
                    _("A tournament is given by its number (its id): %(value)s is not one."),
                    params={"value": part[:20]},
                )
            ids.append(int(part))
        if len(set(ids)) > MAX_TOURNAMENTS:
            raise forms.ValidationError(
                _("At most %(count)d tournaments at a time."), params={"count": MAX_TOURNAMENTS}
            )
        return tuple(ids)

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", _("The end of the period comes before its start."))
        born_from, born_until = data.get("born_from"), data.get("born_until")
        if born_from and born_until and born_from > born_until:
            self.add_error("born_until", _("The last year of birth comes before the first."))
        return data

    def query(self, today: datetime.date | None = None) -> GcrQuery:
        """The normalised filter of a valid form."""
        data = self.cleaned_data
        today = today or timezone.localdate()
        born_from, born_until = born_in(data["age_group"], today.year)
        if data["born_from"] is not None:
            born_from = max(data["born_from"], born_from or data["born_from"])
        if data["born_until"] is not None:
            born_until = min(data["born_until"], born_until or data["born_until"])
        return GcrQuery(
            tournaments=data["tournament"],
            since=since_of(data["since"], data["days"], today),
            until=data["until"],
            club=data["club"].pk if data["club"] else None,
            region=data["region"].pk if data["region"] else None,
            born_from=born_from,
            born_until=born_until,
            kinds=tuple(data["kind"]) or (BOARD,),
            rated_only=data["rated"] != "all",
        )
