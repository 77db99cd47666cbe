"""The forms of mobile events: an event created by a federation admin, a TD's decision on a claim."""

from __future__ import annotations

import re

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from play.models import DEFAULT_CONTROL, Challenge, MobileEvent
from play.rules.clock import ControlError, TimeControl
from players.models import Player

SEPARATORS = re.compile(r"[\s,;]+")


class UserField(forms.CharField):
    """A user named by his username or e-mail address (active accounts only)."""

    def clean(self, value):
        text = super().clean(value)
        if not text:
            return None
        found = list(
            get_user_model().objects.filter(Q(username__iexact=text) | Q(email__iexact=text), is_active=True)[:2]
        )
        if not found:
            raise forms.ValidationError(
                _("No active account has the username or e-mail “%(name)s”."), params={"name": text}
            )
        if len(found) > 1:
            raise forms.ValidationError(
                _("Several accounts match “%(name)s”: give the username."), params={"name": text}
            )
        return found[0]


class TimeControlForm(forms.Form):
    """The time control and transmission norm of an event or a challenge game, checked by the
    clock's own reader."""

    control = forms.CharField(
        label=_("Time control"),
        max_length=40,
        initial=DEFAULT_CONTROL,
        help_text=_(
            "Seconds/moves+seconds/moves: 10800/30+1200/10 is 3 hours for 30 moves, then 20 minutes per 10 moves."
        ),
    )
    norm = forms.IntegerField(
        label=_("Transmission norm, seconds"),
        min_value=0,
        max_value=86_400,
        initial=60,
        help_text=_("A message counts as received this many seconds after it was sent."),
    )

    def clean_time_control(self, data: dict) -> None:
        control, norm = data.get("control"), data.get("norm")
        if control is not None and norm is not None:
            try:
                data["control"] = str(TimeControl.parse(control, norm=norm))
            except ControlError:
                self.add_error(
                    "control",
                    _(
                        "“%(control)s” is not a time control. Write seconds/moves+seconds/moves, e.g. "
                        "10800/30+1200/10 (3 hours for 30 moves, then 20 minutes per 10 moves); every number "
                        "of moves and the first time must be at least 1."
                    )
                    % {"control": control},
                )


class EventForm(TimeControlForm):
    field_order = ("name", "code", "td", "appeals_chair", "control", "norm")
    name = forms.CharField(label=_("Name"), max_length=200)
    code = forms.SlugField(
        label=_("Code"),
        max_length=24,
        help_text=_("Letters, digits and hyphens; the event's address is /play/events/<code>/."),
    )
    td = UserField(label=_("Tournament Director"), help_text=_("Username or e-mail address of his account."))
    appeals_chair = UserField(
        label=_("Appeals Commission chairman"), required=False, help_text=_("Username or e-mail address.")
    )
    weight = forms.IntegerField(
        label=_("Mchess weight W"),
        min_value=1,
        max_value=10_000,
        initial=250,
        help_text=_("250 for a regular event; 500 is recommended for top level."),
    )
    referee_control = forms.BooleanField(
        label=_("Direct referee control"),
        required=False,
        help_text=_("Players play under a referee's control (rule 1d)."),
    )
    pairing = forms.ChoiceField(
        label=_("Pairing"), choices=MobileEvent.Pairing.choices, initial=MobileEvent.Pairing.ALL_PLAY_ALL
    )
    leave_days = forms.IntegerField(
        label=_("Leave days per player"),
        min_value=0,
        max_value=365,
        initial=0,
        required=False,
        help_text=_("Days a player may ask the TD for, when all his games stand still; 0: no leave."),
    )
    start = forms.DateTimeField(
        label=_("Start"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    players = forms.CharField(
        label=_("Players"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("Federation ids, one a line or separated by commas."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        zone = timezone.get_current_timezone_name()
        self.fields["start"].help_text = _(
            "In the federation's time zone (%(zone)s); every all-play-all game starts then."
        ) % {"zone": zone}

    def clean_code(self):
        code = self.cleaned_data["code"]
        if code.lower() == "new":  # /play/events/new/ is this form
            raise forms.ValidationError(_("“new” cannot be an event's code."))
        if MobileEvent.objects.filter(code__iexact=code).exists():
            raise forms.ValidationError(_("An event already has the code “%(code)s”."), params={"code": code})
        return code

    def clean_leave_days(self):
        return self.cleaned_data.get("leave_days") or 0  # left empty: no leave

    def clean_start(self):
        start = self.cleaned_data["start"]
        if timezone.is_naive(start):  # USE_TZ makes the field aware; never store a naive instant
            start = timezone.make_aware(start)
        return start

    def clean_players(self):
        tokens = [token for token in SEPARATORS.split(self.cleaned_data.get("players") or "") if token]
        ids, problems = [], []
        for token in tokens:
            if not token.isdigit():
                problems.append(_("“%(token)s” is not a federation id.") % {"token": token})
                continue
            number = int(token)
            if number in ids:
                problems.append(_("Federation id %(id)s is listed twice.") % {"id": number})
                continue
            ids.append(number)
        found = {p.federation_id: p for p in Player.objects.filter(federation_id__in=ids).select_related("merged_into")}
        players = []
        for number in ids:
            player = found.get(number)
            if player is None:
                problems.append(_("No player has the federation id %(id)s.") % {"id": number})
            elif player.merged_into_id:
                problems.append(
                    _("Federation id %(id)s was merged into %(other)s: give that id.")
                    % {"id": number, "other": player.merged_into.federation_id}
                )
            else:
                players.append(player)
        if problems:
            raise forms.ValidationError(problems)
        return players

    def clean(self):
        data = super().clean()
        self.clean_time_control(data)
        players = data.get("players")
        if data.get("pairing") == MobileEvent.Pairing.ALL_PLAY_ALL and players is not None and len(players) < 2:
            self.add_error("players", _("An all-play-all needs at least two players."))
        return data

    def event_fields(self) -> dict:
        """The MobileEvent fields for play.services.event_create."""
        data = self.cleaned_data
        keys = (
            "name",
            "code",
            "td",
            "appeals_chair",
            "control",
            "norm",
            "weight",
            "referee_control",
            "pairing",
            "leave_days",
            "start",
        )
        return {key: data[key] for key in keys}


class ClaimDecisionForm(forms.Form):
    """The TD's decision on one time claim (rule 7d, 7f)."""

    game = forms.CharField(max_length=12)
    against = forms.ChoiceField(choices=(("white", _("White")), ("black", _("Black"))))
    ply = forms.IntegerField(min_value=1)
    decision = forms.ChoiceField(choices=(("upheld", _("uphold")), ("dismissed", _("dismiss"))))
    no_further = forms.BooleanField(required=False, label=_("no further claim against him in this control period"))
    reason = forms.CharField(required=False, max_length=500, label=_("Reason"))


class ChallengeForm(TimeControlForm):
    """A challenge game offered by one of the players the account plays as."""

    field_order = ("challenger", "opponent_id", "side", "control", "norm", "note")
    challenger = forms.ModelChoiceField(label=_("You play as"), queryset=Player.objects.none())
    opponent_id = forms.IntegerField(label=_("Opponent's federation id"), help_text=_("Find it in the rating lists."))
    side = forms.ChoiceField(label=_("You play"), choices=Challenge.Side.choices)
    note = forms.CharField(label=_("Message to the opponent"), max_length=300, required=False)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["challenger"].queryset = Player.objects.filter(pk__in=[p.pk for p in players])
        if len(players) == 1:
            self.fields["challenger"].initial = players[0].pk

    def clean(self):
        data = super().clean()
        number = data.get("opponent_id")
        if number is not None:
            data["opponent"] = Player.objects.filter(federation_id=number, merged_into__isnull=True).first()
            if data["opponent"] is None:
                self.add_error("opponent_id", _("No player has this federation id."))
        self.clean_time_control(data)
        return data
