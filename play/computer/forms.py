"""The form of a game against a computer level: who plays, which level, which colour, and the
time control (play.forms.TimeControlForm, checked by the clock's own reader)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from play.forms import TimeControlForm
from play.models import ComputerLevel
from players.models import Player

SIDE_CHOICES = [("white", _("White")), ("black", _("Black")), ("random", _("drawn by lot"))]


class LevelChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.number}. {obj.name}"


class ComputerGameForm(TimeControlForm):
    field_order = ("player", "level", "side", "control", "norm")
    player = forms.ModelChoiceField(label=_("You play as"), queryset=Player.objects.none())
    level = LevelChoice(
        label=_("Level"),
        queryset=ComputerLevel.objects.filter(active=True).order_by("number"),
        widget=forms.RadioSelect,
    )
    side = forms.ChoiceField(label=_("You play"), choices=SIDE_CHOICES, initial="random", widget=forms.RadioSelect)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(pk__in=[p.pk for p in players])
        if len(players) == 1:
            self.fields["player"].initial = players[0].pk
            self.fields["player"].widget = forms.HiddenInput()

    def clean(self):
        data = super().clean()
        self.clean_time_control(data)
        return data
