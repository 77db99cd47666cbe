"""The game page's section for the TD: the decisions on the game, a dispute form for its players
(rule 5d) and the appeal form while a decision is open to appeal (rule 10c)."""

from django import template
from django.db.models import Q
from django.utils import timezone

from play import selectors as game_selectors
from play.desk.forms import AppealForm
from play.desk.services import describe
from play.models import Decision, Leave

register = template.Library()


@register.inclusion_tag("play/game_decisions.html", takes_context=True)
def game_decisions(context, game):
    user = context["request"].user
    # The game's own decisions, and those on one of its players in all his games of the event.
    mine = Q(game=game)
    if game.event_id:
        mine |= Q(game__isnull=True, event_id=game.event_id, player_id__in=(game.white_id, game.black_id))
    rows = list(Decision.objects.filter(mine).select_related("game", "player").order_by("at", "pk"))
    # The players' forms (a dispute always, an appeal while a decision is open to it).
    colors = game_selectors.colors_of(user, game) if user.is_authenticated and game.event_id else ()
    now = timezone.now()
    leave_days = game.event.leave_days if colors else 0
    leaves = []
    if leave_days:
        players = {game.player_of(color).pk for color in colors}
        leaves = list(Leave.objects.filter(event_id=game.event_id, player_id__in=players).order_by("first_day", "pk"))
    return {
        "leave_days": leave_days,
        "leaves": leaves,
        "game": game,
        "decisions": [(d, describe(d), d.appealable_until >= now) for d in rows],
        "may_appeal": bool(colors) and any(d.appealable_until >= now for d in rows),
        "colors": colors,
        "form": AppealForm(),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("play/my_leave.html", takes_context=True)
def my_leave(context, on_move, waiting):
    """My games' leave section: for each player the account plays as and each event of his open
    games that allows leave, his leave so far and the request form (sent for one of his open
    games there, as from the game page). From My games' own rows: one query, and none when no
    event of them allows leave."""
    rows: dict = {}
    for row in sorted([*on_move, *waiting], key=lambda row: row.game.pk):
        game = row.game
        if game.event_id is None or game.event.leave_days <= 0:
            continue
        player = game.player_of(row.color)
        item = {"event": game.event, "player": player, "game": game, "color": row.color, "leaves": []}
        rows.setdefault((game.event_id, player.pk), item)
    if rows:
        events, players = {k[0] for k in rows}, {k[1] for k in rows}
        for leave in Leave.objects.filter(event_id__in=events, player_id__in=players).order_by("first_day", "pk"):
            if (leave.event_id, leave.player_id) in rows:
                rows[(leave.event_id, leave.player_id)]["leaves"].append(leave)
    return {"rows": list(rows.values()), "csrf_token": context.get("csrf_token")}
