from django.shortcuts import render

from ratings.whatif.calculator import calculate
from ratings.whatif.forms import CalculatorForm

SYSTEM_NAMES = (("orr", "ORR"), ("mchess", "Mchess"), ("playchess", "PlayChess"))


def calculator(request):
    """GET only: a calculation changes nothing, so it is a link that can be shared."""
    form = CalculatorForm(request.GET or None)
    results = None
    if form.is_bound and form.is_valid():
        changes = calculate(
            form.subject(), form.cleaned_data["opponents"], day=form.rated_on(), weight=form.mchess_weight()
        )
        results = [(name, changes.get(system)) for system, name in SYSTEM_NAMES]
    return render(request, "ratings/whatif.html", {"form": form, "results": results})
