from __future__ import annotations

import datetime

from django import forms
from django.utils.translation import gettext_lazy as _

from players.models import Player
from players.names import strip_invisible


class VisibleCharField(forms.CharField):
    """A text field that drops invisible and direction-changing characters (players.names.is_invisible):
    pasted from elsewhere, they would be stored and turn pages around wherever the text is shown."""

    def to_python(self, value):
        value = super().to_python(value)
        return strip_invisible(value)[0].strip() if value else value


class PlayerOrNewForm(forms.Form):
    """A player the federation knows (by federation id), or the name and birth date of a new one:
    the first half of a FIDE-import application and of a link request."""

    federation_id = forms.IntegerField(
        label=_("Federation id of the player"),
        required=False,
        help_text=_("Find the player in the rating lists; leave empty for a player the federation does not know yet."),
    )
    new_family_name = VisibleCharField(label=_("Family name of a new player"), max_length=100, required=False)
    new_given_names = VisibleCharField(label=_("Given names of a new player"), max_length=100, required=False)
    new_birth_date = forms.DateField(
        label=_("Birth date of a new player"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def players(self):
        """Where a federation id is looked up."""
        return Player.objects.filter(merged_into__isnull=True)

    def clean(self):
        data = super().clean()
        number = data.get("federation_id")
        if number:
            data["player"] = self.players().filter(federation_id=number).first()
            if data["player"] is None:
                self.add_error("federation_id", _("No player has this federation id."))
        else:
            data["player"] = None
            if not data.get("new_family_name"):
                self.add_error("new_family_name", _("Give the player's federation id, or the new player's name."))
            if not data.get("new_birth_date"):
                self.add_error("new_birth_date", _("A new player needs his birth date: ORR uses ages."))
        return data


class ApplicationForm(PlayerOrNewForm):
    fide_id = forms.IntegerField(label=_("FIDE id"), min_value=1, max_value=99_999_999_999)
    fide_rating = forms.IntegerField(label=_("FIDE rating"), min_value=1000, max_value=3000)
    rating_list_month = forms.DateField(
        label=_("FIDE rating list (month)"), widget=forms.DateInput(attrs={"type": "month"}), input_formats=["%Y-%m"]
    )
    evidence_url = forms.URLField(label=_("Link to the FIDE profile"), required=False, assume_scheme="https")
    evidence_file = forms.FileField(label=_("Evidence (a file)"), required=False)

    def clean_evidence_file(self):
        file = self.cleaned_data.get("evidence_file")
        if file and file.size > 5 * 1024 * 1024:
            raise forms.ValidationError(_("The evidence file may be 5 MB at most."))
        return file

    def clean(self):
        data = super().clean()
        month = data.get("rating_list_month")
        if month and month > datetime.date.today():  # noqa: DTZ011 - a calendar date
            self.add_error("rating_list_month", _("That list is not published yet."))
        return data


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("Decision"), choices=[("approve", _("approve")), ("reject", _("reject"))], widget=forms.RadioSelect
    )
    replace_existing = forms.BooleanField(
        label=_("Replace the ratings the player already has"),
        required=False,
        help_text=_("Otherwise the FIDE rating is used only in the systems where he has no rating yet."),
    )
    reason = forms.CharField(
        label=_("Reason (the applicant reads it)"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )

    def clean(self):
        data = super().clean()
        if data.get("decision") == "reject" and not data.get("reason", "").strip():
            self.add_error("reason", _("Say why the application is rejected."))
        return data


class LinkRequestForm(PlayerOrNewForm):
    relation = forms.ChoiceField(
        label=_("Who is the player?"),
        choices=[("self", _("I am the player")), ("parent", _("My child (I am a parent or guardian)"))],
        widget=forms.RadioSelect,
    )
    evidence = forms.CharField(
        label=_("How can the federation check it?"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("For example: your club and coach, or a tournament you played in."),
    )

    def players(self):
        # A merged record is found too: the link goes to the record that replaced it.
        return Player.objects.select_related("merged_into")


class LinkDecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("Decision"), choices=[("confirm", _("confirm")), ("reject", _("reject"))], widget=forms.RadioSelect
    )
    reason = forms.CharField(
        label=_("Reason (the account holder reads it)"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )

    def clean(self):
        data = super().clean()
        if data.get("decision") == "reject" and not data.get("reason", "").strip():
            self.add_error("reason", _("Say why the request is rejected."))
        return data
