"""How the game pages write clock figures and the machine's words, in the visitor's language.

Durations and instants are written as the outbound messages write them (play/rules/texts.py:
h:mm:ss, and UTC "dd.mm HH:MM:SS"), so a page and an SMS of the same move read the same.
"""

from django import template
from django.utils.translation import gettext_lazy as _

from play.models import Color
from play.rules import texts

register = template.Library()

# The machine's termination words (play/rules/ending.py, the transcript's output), for readers.
# Their msgids are marked once, in play/rules/texts.py, where the messages use them too.
TERMINATIONS = {word: _(word) for word in texts.TERMINATIONS}

# A referral's reason code (rule 4c) as a headline; the machine's explanation follows it.
REASONS = {code: _(words) for code, words in texts.REASONS.items()}

# What each kind of reply is, as the alert's title.
REPLIES = {
    "acknowledgement": _("Your move was received"),
    "referral": _("Referred back"),
    "result": _("The game is over"),
    "state": _("Nothing changed"),
    "status": _("The game's state"),
    "record": _("The record"),
    "help": _("Help"),
    "conditional": _("Conditional moves registered"),
    "protest received": _("Protest received"),
    "delay received": _("Delay reported"),
    "failure received": _("Failure reported"),
}

# Who a transmission of the continuous record is from or to (Transmission.party).
PARTIES = {**dict(Color.choices), "td": _("TD")}

CLAIM_STATUS = {"open": _("open"), "protested": _("protested"), "conceded": _("conceded"), "upheld": _("upheld"),
                "dismissed": _("dismissed")}  # fmt: skip


@register.filter
def duration(seconds) -> str:
    """Seconds as h:mm:ss (with a minus once the flag has fallen)."""
    if seconds is None or seconds == "":
        return ""
    return texts.duration(int(seconds))


@register.filter
def utc_time(iso) -> str:
    """An ISO instant of the record as 'dd.mm HH:MM:SS' (UTC, like the messages)."""
    return texts.clock_time(iso) if iso else ""


@register.filter
def termination(word) -> str:
    return TERMINATIONS.get(word, word)


@register.filter
def reason(code) -> str:
    return REASONS.get(code, code)


@register.filter
def reply_title(kind) -> str:
    return REPLIES.get(kind, kind)


@register.filter
def claim_status(status) -> str:
    return CLAIM_STATUS.get(status, status)


@register.filter
def party(who) -> str:
    return PARTIES.get(who, who)
