"""The words of every outbound message (no Django): what the machine's Outbound data says, as a
short text a phone shows. One function per kind; Telegram, the console and the web send these
texts, and the continuous record keeps them unchanged. SMS sends the same facts in fewer words,
cut into parts of one SMS each (play/rules/sms_texts.py).

Rule 2e-2h: a move is forwarded with its number, the receipt of the opponent's previous move,
the sending time, the time used and both clocks. Times are UTC, HH:MM:SS.

Every sentence is an English msgid with named placeholders, passed through `_`, the caller's
translation (play.services gives gettext in the federation's message language; the default
leaves the English as it is). The machine's own words inside the data (a termination, a claim's
status, a referral's reason) are translated by the same msgids the game pages use. A sentence
about a colour or a claim's outcome is written whole for each case ("White to move.", "Black to
move."), never with the word inserted: Russian declines the word ("Ход белых", "против чёрных").
A msgid this module does not give to `_` literally is marked with `gettext_noop`, so that `make
messages` extracts it (tests/federation/test_translations.py).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

Translate = Callable[[str], str]


def _same(text: str) -> str:
    return text


def gettext_noop(text: str) -> str:
    """Marks a msgid for the extraction (the name xgettext looks for, as Django's, which this pure
    module does not import); the text is translated when a message is written."""
    return text


# The machine's words that the data carries, as the msgids the pages already translate.
TERMINATIONS = (
    gettext_noop("checkmate"), gettext_noop("resignation"), gettext_noop("time"), gettext_noop("draw agreed"),
    gettext_noop("stalemate"), gettext_noop("insufficient material"), gettext_noop("repetition"),
    gettext_noop("fifty moves"), gettext_noop("seventy-five moves"), gettext_noop("pending claim"),
    gettext_noop("in progress"),
)  # fmt: skip
REASONS = {
    "turn": gettext_noop("it is not your turn"),
    "illegible": gettext_noop("the message cannot be read"),
    "number": gettext_noop("wrong move number"),
    "repetition": gettext_noop("missing or wrong repetition of your opponent's move"),
    "illegal": gettext_noop("illegal move"),
    "ambiguous": gettext_noop("ambiguous move"),
}
CLAIM_STATUS = (
    gettext_noop("open"), gettext_noop("protested"), gettext_noop("conceded"), gettext_noop("upheld"),
    gettext_noop("dismissed"),
)  # fmt: skip
# How the claim was made (clock.EXCEEDED_BY_MOVE, clock.EXCEEDED_NO_REPLY).
CLAIM_KINDS = (gettext_noop("move"), gettext_noop("no reply"))
# The sentences about one colour, whole for each.
CLOCK_FACES = {
    "white": gettext_noop("White used %(used)s, %(left)s left"),
    "black": gettext_noop("Black used %(used)s, %(left)s left"),
}
ON_MOVE = {"white": gettext_noop("White to move."), "black": gettext_noop("Black to move.")}
DRAW_OFFERS = {"white": gettext_noop("White offers a draw."), "black": gettext_noop("Black offers a draw.")}
CLAIMS = {
    "white": gettext_noop(
        "Time claim against white at ply %(ply)s (%(kind)s), filed %(filed)s: total %(total)s over "
        "%(allowance)s. Status %(status)s; protest until %(until)s."
    ),
    "black": gettext_noop(
        "Time claim against black at ply %(ply)s (%(kind)s), filed %(filed)s: total %(total)s over "
        "%(allowance)s. Status %(status)s; protest until %(until)s."
    ),
}
# A claim decided or conceded (play.rules.game's kinds "claim conceded", "claim upheld", ...).
CLAIM_OUTCOMES = {
    "conceded": gettext_noop("Claim conceded."),
    "upheld": gettext_noop("Claim upheld."),
    "dismissed": gettext_noop("Claim dismissed."),
}
REPORTS_RECEIVED = {
    "delay received": gettext_noop("Your DELAY report reached the TD."),
    "failure received": gettext_noop("Your FAILURE report reached the TD."),
    "dispute received": gettext_noop("Your DISPUTE report reached the TD."),
}
RULINGS = {
    True: gettext_noop("Appeal ruled: the TD decision (%(what)s) is reversed. Reasons: %(why)s. This ruling is final."),
    False: gettext_noop("Appeal ruled: the TD decision (%(what)s) is upheld. Reasons: %(why)s. This ruling is final."),
}

# What a TD decision did (play.desk.services.decision_facts), one whole phrase per case: Russian
# declines the colour, and "upheld" or "credited" agree with their nouns, so no word is inserted.
# The keys: (kind, against, result) of a claim; (kind, where) of time and other rulings, where is
# "all" (all his games), "game" (one game) or ""; (kind, mode) of a withdrawal.
DECISIONS = {
    ("claim", "white", "upheld"): gettext_noop("time claim against white at ply %(ply)s upheld"),
    ("claim", "white", "dismissed"): gettext_noop("time claim against white at ply %(ply)s dismissed"),
    ("claim", "black", "upheld"): gettext_noop("time claim against black at ply %(ply)s upheld"),
    ("claim", "black", "dismissed"): gettext_noop("time claim against black at ply %(ply)s dismissed"),
    ("credit", "all"): gettext_noop("%(player)s credited %(time)s in all his games"),
    ("credit", "game"): gettext_noop("%(player)s credited %(time)s in #%(game)s"),
    ("credit", ""): gettext_noop("%(player)s credited %(time)s"),
    ("charge", "all"): gettext_noop("%(player)s charged %(time)s in all his games"),
    ("charge", "game"): gettext_noop("%(player)s charged %(time)s in #%(game)s"),
    ("charge", ""): gettext_noop("%(player)s charged %(time)s"),
    ("penalty", "all"): gettext_noop("%(player)s charged %(time)s in all his games as a penalty"),
    ("penalty", "game"): gettext_noop("%(player)s charged %(time)s in #%(game)s as a penalty"),
    ("penalty", ""): gettext_noop("%(player)s charged %(time)s as a penalty"),
    ("score",): gettext_noop("game #%(game)s scored %(result)s"),
    ("disqualify",): gettext_noop("%(player)s disqualified; his unfinished games are scored as losses"),
    ("withdraw", "annul"): gettext_noop("%(player)s withdrawn; all his games are annulled"),
    ("withdraw", "adjudicate"): gettext_noop("%(player)s withdrawn; his unfinished games are adjudicated"),
    ("withdraw", "losses"): gettext_noop("%(player)s withdrawn; his unfinished games are scored as losses"),
    ("other", "all"): gettext_noop("ruling in all his games"),
    ("other", "game"): gettext_noop("ruling in #%(game)s"),
    ("other", ""): gettext_noop("ruling"),
    # A leave granted (play.desk.leave): its facts add the days and the paused period.
    ("leave",): gettext_noop(
        "%(player)s is on leave from %(first)s to %(last)s (UTC): both clocks of this game stop from %(begin)s to "
        "%(end)s"
    ),
}
# The reason of a leave granted without one.
LEAVE_GRANTED = gettext_noop("leave granted")


def duration(secs: int) -> str:
    """Seconds as h:mm:ss (negative when the flag has fallen: '-0:02:10')."""
    sign = "-" if secs < 0 else ""
    secs = abs(int(secs))
    return f"{sign}{secs // 3600}:{secs // 60 % 60:02d}:{secs % 60:02d}"


def clock_time(iso: str | None) -> str:
    if not iso:
        return "-"
    moment = datetime.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return moment.strftime("%d.%m %H:%M:%S")


def _word(word: str, known, _: Translate) -> str:
    return _(word) if word in known else word


def _clocks(data: dict, _: Translate) -> str:
    faces = data.get("clocks") or {}
    parts = []
    for color in ("white", "black"):
        face = faces.get(color)
        if face:
            parts.append(_(CLOCK_FACES[color]) % {"used": duration(face["used"]), "left": duration(face["left"])})
    return "; ".join(parts)


def _result(data: dict, _: Translate) -> str:
    termination = _word(data.get("termination", ""), TERMINATIONS, _)
    return _("Result %(result)s (%(termination)s).") % {"result": data.get("result", "*"), "termination": termination}


def _claim(data: dict, _: Translate) -> str:
    return _(CLAIMS[data["against"]]) % {
        "ply": data["ply"],
        "kind": _word(data["kind"], CLAIM_KINDS, _),
        "filed": clock_time(data["filed"]),
        "total": duration(data["total"]),
        "allowance": duration(data["allowance"]),
        "status": _word(data["status"], CLAIM_STATUS, _),
        "until": clock_time(data.get("protest_until")),
    }


def decision(facts: dict, _: Translate = _same) -> str:
    """What a TD decision did, from its facts (play.desk.services.decision_facts), in English or,
    with `_`, in the language it translates to. Facts that fit no phrase (a claim without its
    colour, an unknown withdrawal) are a ruling on the game."""
    kind = facts.get("kind")
    where = "all" if facts.get("all_games") else ("game" if facts.get("game") else "")
    if kind == "claim":
        key: tuple = (kind, facts.get("against"), facts.get("result"))
    elif kind in ("score", "disqualify", "leave"):
        key = (kind,)
    elif kind == "withdraw":
        key = (kind, facts.get("result"))
    else:
        key = (kind, where)
    phrase = DECISIONS.get(key) or DECISIONS[("other", "game" if facts.get("game") else "")]
    return _(phrase) % {
        "player": facts.get("player") or "",
        "time": duration(facts.get("seconds") or 0),
        "game": facts.get("game") or "",
        "ply": facts.get("ply", "?"),
        "result": facts.get("result") or "",
        **{key: facts.get(key, "") for key in ("first", "last", "begin", "end")},
    }


def _what(data: dict, _: Translate) -> str:
    """The decision of a "decision" or "appeal ruling" message: from its facts, in the reader's
    words; a message stored before the facts were kept has only the English phrase, shown as it is."""
    return decision(data["decision"], _) if data.get("decision") else data["what"]


def _why(data: dict, _: Translate) -> str:
    """The decision's reason; a leave granted without one says so in the reader's words."""
    if not data["why"] and (data.get("decision") or {}).get("kind") == "leave":
        return _(LEAVE_GRANTED)
    return data["why"]


# notation.write_position's words: the moves, then whose turn (`1. e4 c5 — White to play move 2`);
# an SMS has the dash as a hyphen (sms_texts keeps to the GSM alphabet).
_TURN = re.compile(r"^(?:(?P<record>.*)(?P<dash> [—-] ))?(?P<side>White|Black) to play move (?P<number>\d+)$")


def position(data: dict, _: Translate) -> str:
    """The position of the data (the moves so far and whose turn), its turn in the reader's words.
    The data keeps the machine's one English string, as the record stores it; a position written
    otherwise (older rows) is shown as it is."""
    text = data.get("position") or ""
    found = _TURN.match(text)
    if not found:
        return text or _("initial")
    number = found["number"]
    turn = (
        _("White to play move %(number)s") % {"number": number}
        if found["side"] == "White"
        else _("Black to play move %(number)s") % {"number": number}
    )
    return f"{found['record']}{found['dash']}{turn}" if found["record"] else turn


def _state(data: dict, _: Translate) -> str:
    parts = [_("Position: %(position)s.") % {"position": position(data, _)}]
    if data.get("on_move"):
        parts.append(_(ON_MOVE[data["on_move"]]))
    else:
        parts.append(_result(data, _))
    if data.get("draw_offer"):
        parts.append(_(DRAW_OFFERS[data["draw_offer"]]))
    if data.get("clocks"):
        parts.append(_clocks(data, _) + ".")
    return " ".join(parts)


def _move(data: dict, _: Translate) -> str:
    return _(
        "%(move)s%(conditional)s.%(offer)s Sent %(sent)s, used %(used)s; previous move received %(receipt)s. "
        "%(clocks)s."
    ) % {
        "move": data["move"],
        "conditional": _(" (conditional)") if data.get("conditional") else "",
        "offer": _(" Draw offered.") if data.get("draw_offer") else "",
        "sent": clock_time(data["sent"]),
        "used": duration(data["used"]),
        "receipt": clock_time(data["previous_receipt"]),
        "clocks": _clocks(data, _),
    }


def _referral(data: dict, _: Translate) -> str:
    where = position(data, _)
    if _ is _same:
        return f"Referred back ({data['reason']}): {data['explanation']}. Position: {where}."
    # Translated: the reason in the reader's words; the machine's explanation (English, with the
    # move and the record it quotes) follows for the details.
    reason = _(REASONS[data["reason"]]) if data["reason"] in REASONS else data["reason"]
    if data.get("claim") == "draw":  # coded "illegal" (the transcript's code), but no move was sent
        reason = _("incorrect draw claim")
    return _("Referred back: %(reason)s (%(explanation)s). Position: %(position)s.") % {
        "reason": reason,
        "explanation": data["explanation"],
        "position": where,
    }


def render(kind: str, data: dict, _: Translate = _same) -> str:
    """The text of one outbound message of `kind` (play.rules.game's kinds), in English or, with
    `_`, in the language it translates to."""
    if kind == "move":
        return _("Your opponent played %(move)s") % {"move": _move(data, _)}
    if kind == "acknowledgement":
        return _("Received %(move)s") % {"move": _move(data, _)}
    if kind == "referral":
        return _referral(data, _)
    if kind == "result" or kind.startswith("claim "):
        text = _result(data, _)
        if "against" in data:
            text = _(CLAIM_OUTCOMES[kind.removeprefix("claim ")]) + " " + _claim(data, _) + " " + text
        return text
    if kind == "claim":
        return _claim(data, _) + (" " + _("Details with the TD.") if "moves" in data else "")
    if kind == "reminder":
        return _("Reminder: 80%% of your time to the next control is used (%(used)s used, %(left)s left).") % {
            "used": duration(data["used"]),
            "left": duration(data["left"]),
        }
    if kind == "help":
        return _(data["text"])  # the machine's HELP_TEXT (play/rules/outbound.py), a msgid itself
    if kind == "record":
        moves = " ".join(f"{m['move']} ({duration(m['used'])})" for m in data.get("moves", []))
        return _("Record: %(moves)s.") % {"moves": moves or _("no moves")} + " " + _state(data, _)
    if kind in ("status", "state"):
        return _state(data, _)
    if kind == "conditional":
        return _("Conditional moves registered: %(lines)s line(s).") % {"lines": data["lines"]}
    if kind == "protest received":
        return _("Protest received; the TD will decide.") + " " + _claim(data, _)
    if kind == "protest":
        claim = _claim(data, _) if data.get("against") else _("No time claim.")
        return (
            _("Protest from %(sender)s: %(text)s.")
            % {
                "sender": data.get("from", ""),
                "text": data.get("protest") or data.get("text", ""),
            }
            + " "
            + claim
        )
    if kind in ("delay", "failure", "dispute", "appeal"):
        minutes = f" ({data['minutes']} min)" if data.get("minutes") else ""
        return f"{kind.upper()}{minutes} " + _("from %(sender)s: %(text)s") % {
            "sender": data["from"],
            "text": data["text"],
        }
    if kind == "appeal received":
        return _("Your APPEAL reached the Appeals Commission chairman.")
    if kind in ("delay received", "failure received", "dispute received"):
        return _(REPORTS_RECEIVED[kind])
    if kind == "decision":
        text = _("TD decision: %(what)s. Why: %(why)s.") % {"what": _what(data, _), "why": _why(data, _)}
        if data.get("appeal_until"):
            text += " " + _("You may appeal (APPEAL text) until %(until)s.") % {
                "until": clock_time(data["appeal_until"])
            }
        return text
    if kind == "enquiry":
        return _("The TD asks: %(text)s Answer with any message (STATUS will do) by %(deadline)s.") % {
            "text": data["text"],
            "deadline": clock_time(data["deadline"]),
        }
    if kind == "appeal ruling":
        # Whole sentences, not a verdict word: "upheld" is also a claim's status, of another gender in Russian.
        return _(RULINGS[bool(data["reversed"])]) % {"what": _what(data, _), "why": data["why"]}
    if kind == "rate limited":
        return _(
            "Too many messages: at most %(limit)s a minute. This one was not read; send it again in %(seconds)s s."
        ) % {"limit": data["limit"], "seconds": data["seconds"]}
    if kind in ("unknown game", "computer game", "computer refused"):
        return data["text"]
    if kind in ("outage", "outage over"):
        return _outage(kind, data, _)
    return f"{kind}: {data}"


CHANNEL_NAMES = {"sms": "SMS", "telegram": "Telegram"}


def _outage(kind: str, data: dict, _: Translate) -> str:
    """Rule 5e: the system's channel failed for longer than the norm, or delivers again."""
    channel = CHANNEL_NAMES.get(data["channel"], data["channel"])
    games = data.get("games") or []
    which = (
        (" " + _("Games: %(games)s.") % {"games": ", ".join("#" + code for code in games)}) if len(games) > 1 else ""
    )
    if kind == "outage":
        since = _("%(channel)s messages have not gone out since %(since)s, longer than the transmission norm") % {
            "channel": channel,
            "since": clock_time(data["since"]),
        }
        if data.get("to") == "td":
            return since + ": " + _("this game waits on them. You may credit time.")
        return (
            since + ": " + _("moves may not reach you or your opponent.") + which + " "
            + _("The TD is told and may credit time.")
        )  # fmt: skip
    return (
        _("%(channel)s delivers again since %(until)s: it failed for %(seconds)s (from %(since)s).")
        % {
            "channel": channel,
            "until": clock_time(data["until"]),
            "seconds": duration(data["seconds"]),
            "since": clock_time(data["since"]),
        }
        + which
    )
