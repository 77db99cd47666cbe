"""The desk's forms: a claim decision, a TD decision, a chairman's ruling, a mark, an appeal."""

from __future__ import annotations

import datetime

from django import forms
from django.utils.translation import gettext_lazy as _

from play.models import Decision

SIDES = (("white", _("White")), ("black", _("Black")))
RESULTS = (("1-0", "1-0"), ("0-1", "0-1"), ("1/2-1/2", "½-½"))


class ClaimForm(forms.Form):
    against = forms.ChoiceField(choices=SIDES)
    ply = forms.IntegerField(min_value=1)
    decision = forms.ChoiceField(choices=(("upheld", _("uphold")), ("dismissed", _("dismiss"))))
    no_further = forms.BooleanField(required=False, label=_("no further claim against him in this control period"))
    text = forms.CharField(max_length=2000, label=_("Why"), widget=forms.Textarea(attrs={"rows": 2}))


class DecisionForm(forms.Form):
    """A TD decision; which fields count depends on the kind (the service checks them)."""

    kind = forms.ChoiceField(
        label=_("Decision"), choices=[c for c in Decision.Kind.choices if c[0] != Decision.Kind.CLAIM]
    )
    game = forms.CharField(label=_("Game code"), max_length=12, required=False)
    player = forms.ChoiceField(label=_("Player"), required=False)
    minutes = forms.IntegerField(label=_("Minutes"), min_value=1, max_value=100_000, required=False)
    all_games = forms.BooleanField(label=_("in all his unfinished games"), required=False)
    result = forms.ChoiceField(label=_("Result"), choices=[("", "—"), *RESULTS], required=False)
    text = forms.CharField(label=_("Why"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    answers = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *((str(p.pk), p.full_name) for p in players)]


class AppealRulingForm(forms.Form):
    message = forms.IntegerField(widget=forms.HiddenInput)
    ruling = forms.ChoiceField(choices=(("upheld", _("uphold the decision")), ("reversed", _("reverse it"))))
    reasons = forms.CharField(label=_("Reasons"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


class HandledForm(forms.Form):
    message = forms.IntegerField(widget=forms.HiddenInput)
    note = forms.CharField(label=_("Note"), max_length=500, required=False)


class AppealForm(forms.Form):
    color = forms.ChoiceField(choices=SIDES, required=False, widget=forms.HiddenInput)
    text = forms.CharField(label=_("Your appeal"), max_length=1000, widget=forms.Textarea(attrs={"rows": 2}))


class EnquiryForm(forms.Form):
    player = forms.ChoiceField(label=_("Player"))
    text = forms.CharField(label=_("Question"), max_length=1000, widget=forms.Textarea(attrs={"rows": 2}))
    deadline = forms.CharField(label=_("Answer by (UTC)"), max_length=40, help_text=_("e.g. 2026-05-03 18:00"))

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(str(p.pk), p.full_name) for p in players]

    def clean_deadline(self):
        """UTC unless an offset is written (the rules count in UTC, not in the site's zone)."""
        text = self.cleaned_data["deadline"].strip()
        try:
            moment = datetime.datetime.fromisoformat(text.replace(" ", "T", 1))
        except ValueError:
            raise forms.ValidationError(_("Write the moment as 2026-05-03 18:00.")) from None
        return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)


class LeaveForm(forms.Form):
    """A player's leave request from the game page: whole UTC days."""

    color = forms.ChoiceField(choices=SIDES, required=False, widget=forms.HiddenInput)
    first_day = forms.DateField(label=_("From (UTC day)"), widget=forms.DateInput(attrs={"type": "date"}))
    last_day = forms.DateField(label=_("To (UTC day, included)"), widget=forms.DateInput(attrs={"type": "date"}))
    text = forms.CharField(label=_("Reason"), max_length=500, required=False)


class LeaveDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=(("grant", _("grant")), ("refuse", _("refuse"))))
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)
