from django.shortcuts import render

from ratings.accuracy import selectors
from ratings.accuracy.chart import calibration_chart
from ratings.models import System
from toolkit.pagecache import cache_public_page

AGE_ORDER = [key for key, _label in selectors.AGE_LABELS]


def _by(systems: list[dict], part: str, order) -> list[dict]:
    """Rows of one breakdown (age groups, years): each with every system's figures, or None."""
    return [{"key": key, "cells": [entry[part].get(key) for entry in systems]} for key in order]


@cache_public_page
def accuracy_page(request):
    report = selectors.report()
    systems = report["systems"]
    labels = {value: str(label) for value, label in System.choices}
    for entry in systems:
        entry["label"] = labels[entry["system"]]
    ages = [group for group in AGE_ORDER if any(group in entry["age_groups"] for entry in systems)]
    years = sorted({year for entry in systems for year in entry["years"]}, reverse=True)
    bins = [
        {"low": k / 10, "high": (k + 1) / 10, "cells": [entry["all"]["calibration"][k] for entry in systems]}
        for k in range(10)
    ]
    context = {
        "report": report,
        "systems": systems,
        "chart": calibration_chart(systems, labels),
        "bins": bins,
        "ages": _by(systems, "age_groups", ages),
        "age_labels": dict(selectors.AGE_LABELS),
        "years": _by(systems, "years", years),
        "best": min(
            (entry for entry in systems if entry["all"]["games"]), key=lambda e: e["all"]["brier"], default=None
        ),
    }
    return render(request, "ratings/accuracy.html", context)
