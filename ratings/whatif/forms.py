"""The calculator's GET form: a player, his opponents with results, the day and the Mchess weight."""

from __future__ import annotations

import re

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from players.models import Player
from ratings.whatif.calculator import Opponent, Subject

SCORES = {"1": 1.0, "+": 1.0, "0.5": 0.5, "0,5": 0.5, "½": 0.5, "=": 0.5, "1/2": 0.5, "0": 0.0, "-": 0.0}
ROW = re.compile(r"^\s*(#?)(\d+)\s+(\S+)\s*$")


class CalculatorForm(forms.Form):
    player = forms.IntegerField(
        label=_("Player's federation id"), required=False, min_value=1, help_text=_("or a rating and status below")
    )
    rating = forms.IntegerField(label=_("Rating"), required=False, min_value=100, max_value=3500)
    provisional = forms.BooleanField(label=_("Provisional rating (*)"), required=False)
    games = forms.IntegerField(label=_("Rated games so far"), required=False, min_value=0, max_value=10000)
    birth_year = forms.IntegerField(label=_("Year of birth"), required=False, min_value=1900, max_value=2100)
    opponents = forms.CharField(
        label=_("Opponents and results"),
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "#1234 1\n1850 0.5\n1600 0"}),
        help_text=_("One per line: #federation id or a rating, then the score: 1, 0.5 (or ½, =) or 0."),
    )
    day = forms.DateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    weight = forms.IntegerField(label=_("Mchess weight W"), required=False, min_value=1, max_value=10000)

    def clean_player(self) -> Player | None:
        number = self.cleaned_data.get("player")
        if number is None:
            return None
        player = Player.objects.filter(federation_id=number, merged_into__isnull=True).first()
        if player is None:
            raise forms.ValidationError(_("No player has the federation id %(id)s.") % {"id": number})
        return player

    def clean_opponents(self) -> list[Opponent]:
        lines = [line for line in self.cleaned_data["opponents"].splitlines() if line.strip()]
        parsed, ids = [], []
        for number, line in enumerate(lines, start=1):
            found = ROW.match(line)
            score = SCORES.get(found.group(3)) if found else None
            if found is None or score is None:
                raise forms.ValidationError(
                    _("Row %(row)s (%(text)s): write #federation id or a rating, a space, and the score 1, 0.5 or 0.")
                    % {"row": number, "text": line.strip()[:40]}
                )
            parsed.append((number, found.group(1) == "#", int(found.group(2)), score))
            if found.group(1):
                ids.append(int(found.group(2)))
        if len(parsed) > 100:
            raise forms.ValidationError(_("At most 100 opponents."))
        players = {p.federation_id: p for p in Player.objects.filter(federation_id__in=ids, merged_into__isnull=True)}
        opponents = []
        for number, by_id, value, score in parsed:
            if by_id and value not in players:
                raise forms.ValidationError(
                    _("Row %(row)s: no player has the federation id %(id)s.") % {"row": number, "id": value}
                )
            if not by_id and not 100 <= value <= 3500:
                raise forms.ValidationError(
                    _("Row %(row)s: a rating is between 100 and 3500, not %(value)s.") % {"row": number, "value": value}
                )
            opponents.append(Opponent(players.get(value) if by_id else None, None if by_id else value, score))
        return opponents

    def clean(self):
        data = super().clean()
        player = data.get("player")
        if player is None and data.get("rating") is None and not self.errors.get("player"):
            data["rating"] = None  # a newcomer: no rating yet
        if player is not None:
            for opponent in data.get("opponents") or []:
                if opponent.player is not None and opponent.player.pk == player.pk:
                    self.add_error("opponents", _("The player cannot be his own opponent."))
                    break
        return data

    def subject(self) -> Subject:
        data = self.cleaned_data
        if data["player"] is not None:
            return Subject(data["player"])
        return Subject(None, data["rating"], data["provisional"], data["games"] or 0, data["birth_year"])

    def rated_on(self):
        return self.cleaned_data["day"] or timezone.localdate()

    def mchess_weight(self) -> int:
        return self.cleaned_data["weight"] or settings.MCHESS_DEFAULT_WEIGHT
