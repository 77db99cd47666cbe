"""The words of outbound messages on the SMS channel (no Django): the same facts as
play/rules/texts.py with less wording, so that the messages sent on every move cost one SMS.

Rule 2e-2h: the acknowledgement to the mover and the notice to the opponent carry the move with
its number, its sending time, the time used for it, the receipt of the opponent's previous move,
and each player's time used and time left to the next control. Every one of those stays here;
only words go. The texts are written in the GSM 03.38 default alphabet only (fixed words, the
game code's letters, SAN in English letters — a move sent with Russian piece letters is echoed in
English —, digits and times), so an acknowledgement or a notice never falls into UCS-2, where a
single SMS holds 70 characters instead of 160.

Anything longer than one SMS (the record, a referral that lists the position, a long claim) is
cut by play.rules.segments.split_numbered into numbered parts of one SMS each: nothing is ever
truncated.

A player who chose Russian for his messages gets them in Russian on SMS too, knowing each SMS then
holds 70 characters (UCS-2): a move in a compact Russian form (`compact_move`), anything else in
texts.py's words; segments counts and cuts the Cyrillic parts by 70 (67 when concatenated).
"""

from __future__ import annotations

from play.rules import segments
from play.rules.texts import Translate, clock_time, duration, gettext_noop, render

MOVE_KINDS = ("acknowledgement", "move")
# What precedes the move: the mover's own move acknowledged, or the opponent's move forwarded.
LEAD = {"acknowledgement": "OK", "move": "Opp"}


def _flags(data: dict) -> str:
    return (" (cond)" if data.get("conditional") else "") + (" draw?" if data.get("draw_offer") else "")


def _faces(data: dict, color: str) -> tuple[str, str]:
    face = (data.get("clocks") or {}).get(color)
    return (duration(face["used"]), duration(face["left"])) if face else ("-", "-")


def _receipt(data: dict, *, same_day_short: bool) -> str:
    """The receipt of the previous move; its date left out when it is the sending time's date."""
    receipt, sent = clock_time(data.get("previous_receipt")), clock_time(data.get("sent"))
    if same_day_short and receipt[:5] == sent[:5] and receipt != "-":
        return receipt[6:]
    return receipt


def move_forms(kind: str, data: dict) -> list[str]:
    """The acknowledgement or notice of one move, from the most worded form to the most compact;
    each says the same things (texts.py's `_move`: move, sent, used, receipt, both clocks)."""
    head = f"{LEAD[kind]} {data['move']}{_flags(data)} sent {clock_time(data['sent'])} used {duration(data['used'])}"
    (wu, wl), (bu, bl) = _faces(data, "white"), _faces(data, "black")
    full = _receipt(data, same_day_short=False)
    short = _receipt(data, same_day_short=True)
    return [
        f"{head}, prev move rcvd {full}. W used {wu} left {wl}; B used {bu} left {bl}",
        f"{head}, prev rcvd {full}. Used/left W {wu}/{wl} B {bu}/{bl}",
        f"{head} prev rcvd {short}. Used/left W {wu}/{wl} B {bu}/{bl}",
    ]


# The translated SMS of a move: texts.py's lead ("Received ...", "Your opponent played ...") and every
# figure of rule 2e-2h, in fewer words than texts.py's `_move`.
COMPACT_MOVE = gettext_noop(
    "%(move)s%(conditional)s.%(offer)s Sent %(sent)s, used %(used)s, previous received %(receipt)s. "
    "Used/left: W %(wu)s/%(wl)s, B %(bu)s/%(bl)s."
)
LEADS = {
    "acknowledgement": gettext_noop("Received %(move)s"),
    "move": gettext_noop("Your opponent played %(move)s"),
}


def compact_move(kind: str, data: dict, _: Translate) -> str:
    """A move's acknowledgement or notice for SMS in the language `_` translates to."""
    (wu, wl), (bu, bl) = _faces(data, "white"), _faces(data, "black")
    body = _(COMPACT_MOVE) % {
        "move": data["move"],
        "conditional": _(" (conditional)") if data.get("conditional") else "",
        "offer": _(" Draw offered.") if data.get("draw_offer") else "",
        "sent": clock_time(data["sent"]),
        "used": duration(data["used"]),
        "receipt": _receipt(data, same_day_short=True),
        "wu": wu, "wl": wl, "bu": bu, "bl": bl,
    }  # fmt: skip
    return _(LEADS[kind]) % {"move": body}


def _gsm_position(data: dict) -> dict:
    # notation.write_position puts an em dash before whose turn it is: not in the GSM alphabet,
    # it would make a whole referral or status UCS-2 (70 characters an SMS instead of 160).
    if data.get("position"):
        return {**data, "position": data["position"].replace("—", "-")}
    return data


def _record(data: dict) -> str:
    """RECORD: every move with its time used, then whose turn (or the result), a draw offer and
    the clocks. texts.py's record also repeats the moves as the position; an SMS says them once,
    and Black's number only when it does not follow White's move."""
    words: list[str] = []
    last_white = None
    for row in data.get("moves", []):
        ply, san, used = row["ply"], row.get("san") or row["move"].split()[-1], duration(row["used"])
        if ply % 2 == 1:
            words.append(f"{(ply + 1) // 2}. {san} ({used})")
            last_white = ply
        else:
            label = "" if last_white == ply - 1 else f"{ply // 2}... "
            words.append(f"{label}{san} ({used})")
    text = f"Record: {' '.join(words) or 'no moves'}."
    if data.get("on_move"):
        text += f" {data['on_move'].capitalize()} to move."
    else:
        text += f" Result {data.get('result', '*')} ({data.get('termination', '')})."
    if data.get("draw_offer"):
        text += f" {data['draw_offer'].capitalize()} offers a draw."
    if data.get("clocks"):
        (wu, wl), (bu, bl) = _faces(data, "white"), _faces(data, "black")
        text += f" Used/left W {wu}/{wl} B {bu}/{bl}"
    return text


def render_sms(kind: str, data: dict, *, prefix: str = "", translate: Translate | None = None) -> str:
    """The SMS text of one outbound message, without `prefix` (the service's `#CODE `): for a move,
    the most worded form that fits one SMS together with the prefix (the last form otherwise).
    With `translate`, in the language it translates to (see the module's doc)."""
    if translate is not None:
        return compact_move(kind, data, translate) if kind in MOVE_KINDS else render(kind, data, translate)
    if kind in MOVE_KINDS:
        forms = move_forms(kind, data)
        return next((form for form in forms if segments.fits_one(prefix + form)), forms[-1])
    if kind == "record":
        return _record(data)
    return render(kind, _gsm_position(data))


def sms_parts(kind: str, data: dict, *, prefix: str = "", translate: Translate | None = None) -> list[str]:
    """The texts of the SMS sent for one outbound message, each one SMS, prefix included: one
    part when it fits, else numbered parts `#CODE (1/3) ...`."""
    return segments.split_numbered(render_sms(kind, data, prefix=prefix, translate=translate), prefix=prefix)
