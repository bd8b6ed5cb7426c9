"""Judging the records of an import one by one, writing nothing: the reason a record
is refused (``ImportOutcome``), or the game it becomes (``_Accepted``: its events as
stored, the engine's result), which ``games.services.importing`` then writes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

import engine
from clubs.models import Player
from engine.rules import effective_rules
from games import selectors
from games.engine_text import explain
from games.errors import MAX_GAME_EVENTS, TooManyEvents
from games.events import renamed_events
from games.models import Evening, Game
from games.services.append import _error_dict
from games.services.recording import _replay


@dataclass
class ImportOutcome:
    """What became of one imported record."""

    index: int
    imported: bool
    game: Game | None = None
    reason: str | None = None  # engine_error, game_kind_mismatch, unknown_players, ...
    detail: str | None = None
    error: dict[str, Any] | None = None
    unknown_players: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Accepted:
    """A record ``_import_one`` found fit to store: its events and record as stored
    (names as player ids, the evening's rules), the engine's result for them, and the
    ids its names resolved to (players of the club)."""

    index: int
    events: list[dict[str, Any]]
    result: engine.Result
    record: dict[str, Any]
    club_players: frozenset[int]


def _name_resolver(
    evening: Evening, mapping: dict[str, Player]
) -> Callable[[str, str | None], Player | None]:
    """Find the player a record's name stands for.

    An explicit mapping first; then the evening's seated players' display names,
    then the club's players', both case-insensitive.
    """
    seated = {
        seat.player.display_name.casefold(): seat.player
        for seat in selectors.evening_seats(evening=evening, active_only=False)
    }
    club_players = {
        player.display_name.casefold(): player
        for player in Player.objects.filter(club_id=evening.club_id)
    }

    def resolve(name: str, legend_name: str | None) -> Player | None:
        if name in mapping:
            return mapping[name]
        for candidate in (legend_name, name):
            if candidate is None:
                continue
            key = candidate.casefold()
            if key in seated:
                return seated[key]
            if key in club_players:
                return club_players[key]
        return None

    return resolve


def _renamed_record(record: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    return {**record, "events": renamed_events(record["events"], names)}


def _same_rules(game_kind: str, rules: object, house_rules: dict[str, Any]) -> bool:
    """True when ``rules`` (valid for the engine) come to the same settings as the
    evening's ``house_rules``: a record may spell out a default the profile leaves out."""
    try:
        return effective_rules(game_kind, rules) == effective_rules(game_kind, house_rules)
    except ValueError:  # InvalidRules included: rules the engine would not take differ
        return False


def _judged_as_stored(
    evening: Evening,
    record: Any,
    own_rules: object,
    legend: dict[str, Any],
    resolve: Callable[[str, str | None], Player | None],
    house_rules: dict[str, Any],
) -> tuple[dict[str, Any], engine.Result] | None:
    """The record as it would be stored (names as ids, the evening's rules) and the
    engine's valid result for it; ``None`` when the record will not be stored as it
    is (a name no player has, two names for one player, rules of its own that differ)
    or the engine refuses it, which ``_import_one`` then judges as written, to answer
    in the record's own names. The engine sees names as opaque and equal rules as
    equal, so a valid verdict here is the one the record as written would get."""
    if not isinstance(record, dict) or not isinstance(record.get("events"), list):
        return None
    if not record["events"]:
        return None
    if own_rules is not None and not _same_rules(evening.game_kind, own_rules, house_rules):
        return None
    resolved: dict[str, str] = {}
    for name in selectors.record_player_names(record):
        legend_name = legend.get(name)
        player = resolve(name, legend_name if isinstance(legend_name, str) else None)
        if player is None:
            return None
        resolved[name] = str(player.pk)
    if len(set(resolved.values())) != len(resolved):
        return None
    try:
        renamed = _renamed_record({**record, "rules": house_rules or None}, resolved)
    except (TypeError, AttributeError, ValueError):
        return None  # events malformed: the engine judges them as written
    result = _replay(renamed)
    return (renamed, result) if result.status != "invalid" else None


def _import_one(
    *,
    evening: Evening,
    user: Any,
    index: int,
    item: Any,
    resolve: Callable[[str, str | None], Player | None],
    house_rules: dict[str, Any],
) -> ImportOutcome | _Accepted:
    """Judge one record of ``games_import`` (writes nothing): the reason it is refused,
    or the game it becomes (its events as stored, the engine's result)."""
    legend: dict[str, Any] = {}
    record = item
    # An exported entry ({"record", "players", "result"}) imports as its record,
    # with its legend giving the names behind the ids.
    if isinstance(item, dict) and "record" in item and "events" not in item:
        record = item["record"]
        legend = item["players"] if isinstance(item.get("players"), dict) else {}
    events_in = record.get("events") if isinstance(record, dict) else None
    if isinstance(events_in, list) and len(events_in) > MAX_GAME_EVENTS:
        # Before the replay: a record this long is refused whatever it holds.
        error = TooManyEvents(total=len(events_in), event_offset=0).error
        return ImportOutcome(
            index=index,
            imported=False,
            reason="too_many_events",
            detail=explain(error, face=evening.club.card_face),
            error=error,
        )
    # House rules come from the evening's rule profile (admins set them), never from a
    # record: a record without rules is judged under the evening's; one whose rules
    # differ from them is refused below.
    own_rules = record.get("rules") if isinstance(record, dict) else None
    if isinstance(record, dict) and own_rules is None:
        record = {**record, "rules": house_rules or None}
    # One replay judges a record that will be stored: the engine's verdict on it as
    # stored (its names as the players' ids, under the evening's rules), kept for
    # storing and projecting. Anything else replays as written below.
    judged = _judged_as_stored(evening, record, own_rules, legend, resolve, house_rules)
    # The engine first: an invalid record is rejected with the engine's own index
    # and code, whatever its names are.
    result = judged[1] if judged is not None else _replay(record)
    if result.status == "invalid":
        error = _error_dict(result)
        # The record's own names, or the legend's names for its ids.
        shown = {k: v for k, v in legend.items() if isinstance(k, str) and isinstance(v, str)}
        return ImportOutcome(
            index=index,
            imported=False,
            reason="engine_error",
            detail=explain(error, shown, face=evening.club.card_face),
            error=error,
        )
    if not record.get("events"):
        # Valid to the engine (a game awaiting its deal), but no game was played.
        return ImportOutcome(
            index=index,
            imported=False,
            reason="no_events",
            detail=_("This record has no events, not even a deal: there is no game to import."),
        )
    if record.get("game") != evening.game_kind:
        return ImportOutcome(
            index=index,
            imported=False,
            reason="game_kind_mismatch",
            detail=_("This record is a game of %(game)s; the evening plays %(evening)s.")
            % {"game": record.get("game"), "evening": evening.game_kind},
        )
    if own_rules is not None and not _same_rules(evening.game_kind, own_rules, house_rules):
        return ImportOutcome(
            index=index,
            imported=False,
            reason="house_rules_differ",
            detail=_(
                "This record's house rules differ from the evening's. House rules come "
                "only from the evening's rule profile: an admin sets them there, and the "
                "record imports without its own rules."
            ),
        )
    record = {**record, "rules": house_rules or None}
    names = sorted(selectors.record_player_names(record))
    resolved: dict[str, str] = {}
    unknown: list[str] = []
    for name in names:
        legend_name = legend.get(name)
        player = resolve(name, legend_name if isinstance(legend_name, str) else None)
        if player is None:
            unknown.append(name)
        else:
            resolved[name] = str(player.pk)
    if unknown:
        return ImportOutcome(
            index=index,
            imported=False,
            reason="unknown_players",
            detail=_("No player of this club is called %(names)s.") % {"names": ", ".join(unknown)},
            unknown_players=unknown,
        )
    if len(set(resolved.values())) != len(resolved):
        return ImportOutcome(
            index=index,
            imported=False,
            reason="players_collide",
            detail=_("Two names of the record stand for the same player."),
        )
    renamed = _renamed_record(record, resolved)
    result = judged[1] if judged is not None else _replay(renamed)
    if result.status == "invalid":  # pragma: no cover - names are opaque to the engine
        error = _error_dict(result)
        return ImportOutcome(
            index=index,
            imported=False,
            reason="engine_error",
            detail=explain(error, {v: k for k, v in resolved.items()}, face=evening.club.card_face),
            error=error,
        )
    return _Accepted(
        index=index,
        events=list(renamed["events"]),
        result=result,
        record=renamed,
        # The names resolved to players of the club: a dealer or a payout of one of
        # them needs no look at the players' table.
        club_players=frozenset(int(pk) for pk in resolved.values()),
    )
