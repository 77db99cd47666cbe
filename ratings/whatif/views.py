from django.shortcuts import render
from django.utils.translation import gettext as _

from ratings.lines import calculation_lines
from ratings.whatif.calculator import calculate
from ratings.whatif.forms import CalculatorForm

SYSTEM_NAMES = (("orr", "ORR"), ("mchess", "Mchess"), ("playchess", "PlayChess"))
# The engine's own entries that the page shows as the games' table, or not at all (its memory).
NOT_DETAILS = {"games", "state"}


def calculator(request):
    """GET only: a calculation changes nothing, so it is a link that can be shared."""
    form = CalculatorForm(request.GET or None)
    results = None
    if form.is_bound and form.is_valid():
        opponents = form.cleaned_data["opponents"]
        changes = calculate(form.subject(), opponents, day=form.rated_on(), weight=form.mchess_weight())
        # The opponents as the calculator numbered them: by id their names, by rating "rating R".
        named = {o.player.pk: str(o.player) for o in opponents if o.player is not None}

        def opponent(pid):
            return named.get(pid) or _("an opponent")

        results = []
        for system, name in SYSTEM_NAMES:
            change = changes.get(system)
            lines = calculation_lines(system, change.details.get("games") or [], opponent) if change else []
            details = {k: v for k, v in change.details.items() if k not in NOT_DETAILS} if change else {}
            results.append({"system": system, "name": name, "change": change, "lines": lines, "details": details})
    return render(request, "ratings/whatif.html", {"form": form, "results": results})
