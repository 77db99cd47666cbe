"""Rolling the federation back to just before a key: results at or after it go, standings before
it come back from the snapshots every RatingChange keeps."""

from __future__ import annotations

from django.db.models import Q

from ratings.models import InactivityPenalty, PlayerRating, RatingChange, RatingOverride, System
from ratings.opening import timeline as opening
from ratings.timeline import penalty
from ratings.timeline.keys import START, Key, override_key, penalty_key
from ratings.timeline.sources import registered
from ratings.timeline.state import ENGINE_SYSTEMS, Standing, override


def roll_back(replay, key: Key) -> None:
    """Delete every result at or after `key` and restore the affected players' standings before it."""
    if key == START:
        _roll_back_everything(replay)
        return
    sources = registered()
    later = Q()
    for source in sources:
        later |= Q(**{f"{source.anchor}__in": source.later(key)})
    later_changes = RatingChange.objects.filter(later)
    affected: dict[str, set[int]] = {s: set() for s in ENGINE_SYSTEMS}
    for system, player_id in later_changes.values_list("system", "player_id").distinct():
        affected[system].add(player_id)
    later_penalties = InactivityPenalty.objects.filter(penalty.at_or_after(key))
    affected[System.MCHESS].update(later_penalties.values_list("player_id", flat=True))
    # Overrides are inputs, never deleted; their players' standings are rebuilt from before `key`.
    for player_id, effective in RatingOverride.objects.values_list("player_id", "effective"):
        if override_key(effective) >= key:
            for system in ENGINE_SYSTEMS:
                affected[system].add(player_id)
    for system in ENGINE_SYSTEMS:  # so are the players of an opening list at or after `key`
        affected[system] |= opening.players_from(key)

    for system in ENGINE_SYSTEMS:
        players = affected[system]
        if not players:
            continue
        earlier_changes = RatingChange.objects.filter(player_id__in=players, system=system).exclude(later)
        keys = _anchor_keys(sources, earlier_changes)
        earlier: dict[int, tuple[Key, dict]] = {}
        columns = [source.anchor for source in sources]
        # A guest's change keeps nothing of his standing (ORR rates him for the event only): the
        # standing to restore is that of his last change as a member.
        rows = earlier_changes.filter(is_guest=False).values_list("player_id", *columns, "details")
        for player_id, *anchors, details in rows.iterator(chunk_size=2000):
            change_key = next((keys[i].get(a) for i, a in enumerate(anchors) if a is not None), None)
            if change_key is None:  # its event left the timeline (a mobile game with no finish any more)
                continue
            if player_id not in earlier or change_key > earlier[player_id][0]:
                earlier[player_id] = (change_key, details.get("state", {}))
        # An opening list later than a player's last change before `key` is his standing then.
        for player_id, (list_key, state) in opening.earlier(system, players, key).items():
            if player_id not in earlier or list_key > earlier[player_id][0]:
                earlier[player_id] = (list_key, state)
        restored = {pid: Standing.from_snapshot(state) for pid, (_, state) in earlier.items() if state is not None}
        _apply_earlier_overrides(replay, system, players, key, earlier, restored)
        if system == System.MCHESS:
            penalties = (
                InactivityPenalty.objects.filter(player_id__in=players)
                .exclude(penalty.at_or_after(key))
                .order_by("month")
                .values_list("player_id", "month", "rating_after")
            )
            for player_id, month, after in penalties:
                last = earlier.get(player_id)
                moment = penalty_key(month)
                later_than_change = last is None or moment > last[0]
                later_than_override = moment >= replay.override_moment.get(player_id, START)
                if player_id in restored and later_than_change and later_than_override:
                    restored[player_id].rating = after
        for player_id in players:
            replay.standings[system][player_id] = restored.get(player_id)
            replay.touched[system].add(player_id)
    later_changes.delete()
    later_penalties.delete()


def _anchor_keys(sources, changes) -> list[dict[int, Key]]:
    """Per source, the keys of the events these changes are anchored to."""
    keys = []
    for source in sources:
        ids = changes.filter(**{f"{source.anchor}__isnull": False}).values_list(source.anchor, flat=True).distinct()
        keys.append(source.keys(ids))
    return keys


def _roll_back_everything(replay) -> None:
    """From scratch: every standing goes, including any left by events no longer in the history."""
    replay.from_scratch = True
    for system in ENGINE_SYSTEMS:
        players = set(PlayerRating.objects.filter(system=system).values_list("player_id", flat=True))
        replay.standings[system] = dict.fromkeys(players)
        replay.touched[system] = players
    RatingChange.objects.all().delete()
    InactivityPenalty.objects.all().delete()


def _apply_earlier_overrides(replay, system, players, key, earlier, restored) -> None:
    """Overrides between a player's last change before `key` and `key` set his standing."""
    overrides = RatingOverride.objects.filter(player_id__in=players).order_by("effective", "id")
    for decision in overrides:
        moment = override_key(decision.effective)
        last = earlier.get(decision.player_id)
        if moment >= key or (last is not None and moment <= last[0]):
            continue
        value = getattr(decision, system)
        if value is None:
            continue
        standing = restored.setdefault(decision.player_id, Standing())
        override(system, standing, value)
        replay.override_moment[decision.player_id] = moment
