from __future__ import annotations

import datetime

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from players.forms import VisibleCharField
from players.matching import AMBIGUOUS, MATCHED, shown_match
from tournaments.importers.dates import parse_date
from tournaments.models import Tournament
from tournaments.services import TournamentDetails


class _FilesInput(forms.FileInput):
    allow_multiple_selected = True


class _FilesField(forms.FileField):
    """One file or several chosen together (Swiss Perfect's three files): always a list."""

    widget = _FilesInput

    def clean(self, data, initial=None):
        # No file chosen comes as an empty list: the field's own "required" message, not a list of none.
        files = list(data) if isinstance(data, (list, tuple)) and data else [data if data else None]
        return [super(_FilesField, self).clean(one, initial) for one in files]


class UploadForm(forms.Form):
    file = _FilesField(
        label=_("Result file"),
        help_text=_(
            "A file of your pairing program as it is: a Swiss-Manager tournament (.TUNX, .TURX, .TUMX), a "
            "chess-results or Swiss-Manager crosstable or starting-rank list (.xlsx, .xls, or the page saved as "
            ".html), a Vega crosstable page, a Swiss Perfect export (.txt) or its three files (chosen together or "
            "zipped), a FIDE TRF or Krause file, or the games as PGN."
        ),
    )

    def clean_file(self):
        files = self.cleaned_data["file"]
        size = sum(one.size for one in files)
        if size > settings.MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)s bytes; the limit is %(limit)s bytes."),
                params={"size": size, "limit": settings.MAX_UPLOAD_BYTES},
                code="too_large",
            )
        return files


class ConfirmForm(forms.Form):
    name = VisibleCharField(label=_("Name"), max_length=200)
    city = VisibleCharField(label=_("City"), max_length=120, required=False)
    chief_arbiter_name = VisibleCharField(label=_("Chief arbiter"), max_length=200, required=False)
    start_date = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=99)
    time_control = forms.ChoiceField(label=_("Time control"), choices=Tournament.TimeControl.choices)
    time_control_detail = VisibleCharField(label=_("Time control, as announced"), max_length=100, required=False)
    fide_rated = forms.BooleanField(
        label=_("FIDE-rated"),
        required=False,
        help_text=_("The FIDE ratings in the file then count as ratings for the ORR calculation."),
    )
    mchess_weight = forms.IntegerField(label=_("Mchess weight W"), min_value=1, max_value=10000)
    rate_mchess = forms.BooleanField(label=_("Rate in Mchess"), required=False)
    rate_playchess = forms.BooleanField(label=_("Rate in PlayChess"), required=False)

    def __init__(self, *args, preview: dict, replaceable=(), **kwargs):
        file = preview["file"]
        matches = preview["matches"]
        initial = {
            "name": file["name"],
            "city": file["city"],
            "chief_arbiter_name": file.get("chief_arbiter", "")[:200],
            "start_date": file["start_date"],
            "end_date": file["end_date"],
            "rounds": file["rounds"] or None,
            "time_control": Tournament.TimeControl.CLASSICAL,
            "time_control_detail": file["time_control"][:100],
            "fide_rated": file["format"] == "trf",
            "mchess_weight": settings.MCHESS_DEFAULT_WEIGHT,
            "rate_mchess": True,
            "rate_playchess": True,
        }
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        self.is_results = file["content"] == "results"
        if not self.is_results:
            for name in list(self.fields):
                del self.fields[name]
        elif replaceable:
            # Never preselected: replacing withdraws a tournament, so the arbiter says it himself.
            self.fields["replaces"] = forms.ChoiceField(
                label=_("This upload is the same tournament"),
                choices=[
                    (
                        str(t.pk),
                        _("it replaces %(name)s (%(start)s – %(end)s), which is withdrawn")
                        % {"name": t.name, "start": t.start_date.isoformat(), "end": t.end_date.isoformat()},
                    )
                    for t in replaceable
                ],
                required=False,
                widget=forms.RadioSelect,
            )
        self.player_fields = []
        for player in file["players"]:
            number = player["start_number"]
            match = shown_match(matches[str(number)])
            choice, birth = None, None
            if match["status"] == AMBIGUOUS:
                choice = f"player_{number}"
                # The msgid outside the f-string: xgettext reads no call inside one, and would drop it.
                unknown = _("birth unknown")
                options = [
                    (str(c["player_id"]), f"{c['name']} · {c['birth'] or unknown} · #{c['federation_id']}")
                    for c in match["candidates"]
                ]
                options.append(("new", _("none of them: a new player")))
                self.fields[choice] = forms.ChoiceField(
                    label=_("Who is %(name)s?") % {"name": _display(player)}, choices=options, widget=forms.RadioSelect
                )
            known = player["birth_date"] or (
                match["status"] == MATCHED and match.get("player") and match["player"]["birth"]
            )
            if not known:
                birth = f"birth_{number}"
                self.fields[birth] = forms.CharField(
                    label=_("Birth date of %(name)s") % {"name": _display(player)},
                    required=False,
                    max_length=10,
                    widget=forms.TextInput(attrs={"placeholder": _("2014 or 2014-05-17"), "size": 10}),
                )
            self.player_fields.append((player, match, choice, birth))

    def clean(self):
        data = super().clean()
        if (
            self.is_results
            and data.get("start_date")
            and data.get("end_date")
            and data["end_date"] < data["start_date"]
        ):
            self.add_error("end_date", _("The tournament cannot end before it starts."))
        for _player, _match, _choice, birth in self.player_fields:
            if birth and data.get(birth):
                date, precision = parse_date(data[birth], two_digit_order="dmy")
                if precision == "unknown" or date > datetime.date.today():  # noqa: DTZ011 - a calendar date
                    self.add_error(birth, _("Write a year (2014) or a date (2014-05-17)."))
        return data

    def details(self) -> TournamentDetails:
        data = self.cleaned_data
        return TournamentDetails(
            name=data["name"],
            city=data["city"],
            chief_arbiter_name=data["chief_arbiter_name"],
            start_date=data["start_date"],
            end_date=data["end_date"],
            rounds=data["rounds"],
            time_control=data["time_control"],
            time_control_detail=data["time_control_detail"],
            fide_rated=data["fide_rated"],
            mchess_weight=data["mchess_weight"],
            rate_mchess=data["rate_mchess"],
            rate_playchess=data["rate_playchess"],
        )

    def replaced_tournament(self) -> int | None:
        value = self.cleaned_data.get("replaces")
        return int(value) if value else None

    def choices(self) -> dict[int, int | None]:
        chosen = {}
        for player, _match, choice, _birth in self.player_fields:
            if choice and self.cleaned_data.get(choice):
                value = self.cleaned_data[choice]
                chosen[player["start_number"]] = None if value == "new" else int(value)
        return chosen

    def birth_dates(self) -> dict[int, tuple[datetime.date, str]]:
        dates = {}
        for player, _match, _choice, birth in self.player_fields:
            if birth and self.cleaned_data.get(birth):
                dates[player["start_number"]] = parse_date(self.cleaned_data[birth])
        return dates


def _display(player: dict) -> str:
    return f"{player['family_name']}, {player['given_names']}" if player["given_names"] else player["family_name"]


class CoArbiterForm(forms.Form):
    username = forms.CharField(label=_("User name of the co-arbiter"), max_length=150)


class CoArbiterRemoveForm(forms.Form):
    """The co-arbiter a "remove" button names, by his account's id (a bigint's range)."""

    remove = forms.IntegerField(min_value=1, max_value=2**63 - 1)
