"""The words of every outbound message (no Django): what the machine's Outbound data says, as a
short text a phone shows. One function per kind; Telegram, the console and the web send these
texts, and the continuous record keeps them unchanged. SMS sends the same facts in fewer words,
cut into parts of one SMS each (play/rules/sms_texts.py).

Rule 2e-2h: a move is forwarded with its number, the receipt of the opponent's previous move,
the sending time, the time used and both clocks. Times are UTC, HH:MM:SS.
"""

from __future__ import annotations

import datetime


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


def _clocks(data: dict) -> str:
    faces = data.get("clocks") or {}
    parts = []
    for color, name in (("white", "White"), ("black", "Black")):
        face = faces.get(color)
        if face:
            parts.append(f"{name} used {duration(face['used'])}, {duration(face['left'])} left")
    return "; ".join(parts)


def _result(data: dict) -> str:
    return f"Result {data.get('result', '*')} ({data.get('termination', '')})."


def _claim(data: dict) -> str:
    return (
        f"Time claim against {data['against']} at ply {data['ply']} ({data['kind']}), filed "
        f"{clock_time(data['filed'])}: total {duration(data['total'])} over {duration(data['allowance'])}. "
        f"Status {data['status']}; protest until {clock_time(data.get('protest_until'))}."
    )


def _state(data: dict) -> str:
    parts = [f"Position: {data.get('position') or 'initial'}."]
    if data.get("on_move"):
        parts.append(f"{data['on_move'].capitalize()} to move.")
    else:
        parts.append(_result(data))
    if data.get("draw_offer"):
        parts.append(f"{data['draw_offer'].capitalize()} offers a draw.")
    if data.get("clocks"):
        parts.append(_clocks(data) + ".")
    return " ".join(parts)


def _move(data: dict) -> str:
    offer = " Draw offered." if data.get("draw_offer") else ""
    played = " (conditional)" if data.get("conditional") else ""
    return (
        f"{data['move']}{played}.{offer} Sent {clock_time(data['sent'])}, used {duration(data['used'])}; "
        f"previous move received {clock_time(data['previous_receipt'])}. {_clocks(data)}."
    )


def render(kind: str, data: dict) -> str:
    """The text of one outbound message of `kind` (play.rules.game's kinds)."""
    if kind == "move":
        return "Your opponent played " + _move(data)
    if kind == "acknowledgement":
        return "Received " + _move(data)
    if kind == "referral":
        position = data.get("position") or "initial"
        return f"Referred back ({data['reason']}): {data['explanation']}. Position: {position}."
    if kind == "result" or kind.startswith("claim "):
        text = _result(data)
        if "against" in data:
            text = f"Claim {kind.removeprefix('claim ')}. " + _claim(data) + " " + text
        return text
    if kind == "claim":
        return _claim(data) + (" Details with the TD." if "moves" in data else "")
    if kind == "reminder":
        used, left = duration(data["used"]), duration(data["left"])
        return f"Reminder: 80% of your time to the next control is used ({used} used, {left} left)."
    if kind == "help":
        return data["text"]
    if kind == "record":
        moves = " ".join(f"{m['move']} ({duration(m['used'])})" for m in data.get("moves", []))
        return f"Record: {moves or 'no moves'}. " + _state(data)
    if kind in ("status", "state"):
        return _state(data)
    if kind == "conditional":
        return f"Conditional moves registered: {data['lines']} line(s)."
    if kind == "protest received":
        return "Protest received; the TD will decide. " + _claim(data)
    if kind == "protest":
        claim = _claim(data) if data.get("against") else "No time claim."
        return f"Protest from {data.get('from', '')}: {data.get('protest') or data.get('text', '')}. {claim}"
    if kind in ("delay", "failure", "dispute", "appeal"):
        minutes = f" ({data['minutes']} min)" if data.get("minutes") else ""
        return f"{kind.upper()}{minutes} from {data['from']}: {data['text']}"
    if kind == "appeal received":
        return "Your APPEAL reached the Appeals Commission chairman."
    if kind in ("delay received", "failure received", "dispute received"):
        return f"Your {kind.removesuffix(' received').upper()} report reached the TD."
    if kind == "decision":
        until = (
            f" You may appeal (APPEAL text) until {clock_time(data['appeal_until'])}."
            if data.get("appeal_until")
            else ""
        )
        return f"TD decision: {data['what']}. Why: {data['why']}.{until}"
    if kind == "enquiry":
        return (
            f"The TD asks: {data['text']} Answer with any message (STATUS will do) by {clock_time(data['deadline'])}."
        )
    if kind == "appeal ruling":
        verdict = "reversed" if data["reversed"] else "upheld"
        what, why = data["what"], data["why"]
        return f"Appeal ruled: the TD decision ({what}) is {verdict}. Reasons: {why}. This ruling is final."
    if kind in ("unknown game", "computer game", "computer refused"):
        return data["text"]
    if kind in ("outage", "outage over"):
        return _outage(kind, data)
    return f"{kind}: {data}"


CHANNEL_NAMES = {"sms": "SMS", "telegram": "Telegram"}


def _outage(kind: str, data: dict) -> str:
    """Rule 5e: the system's channel failed for longer than the norm, or delivers again."""
    channel = CHANNEL_NAMES.get(data["channel"], data["channel"])
    games = data.get("games") or []
    which = f" Games: {', '.join('#' + code for code in games)}." if len(games) > 1 else ""
    if kind == "outage":
        since = f"{channel} messages have not gone out since {clock_time(data['since'])}"
        since += ", longer than the transmission norm"
        if data.get("to") == "td":
            return f"{since}: this game waits on them. You may credit time."
        return f"{since}: moves may not reach you or your opponent.{which} The TD is told and may credit time."
    return (
        f"{channel} delivers again since {clock_time(data['until'])}: it failed for "
        f"{duration(data['seconds'])} (from {clock_time(data['since'])}).{which}"
    )
