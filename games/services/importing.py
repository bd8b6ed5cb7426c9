"""The import of whole records (a club's history, an offline tally), in batches."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from clubs.models import Player
from engine.rules import effective_rules
from games import listeners, selectors
from games.engine_text import explain
from games.errors import (
    MAX_GAME_EVENTS,
    EveningClosed,
    TooManyEvents,
)
from games.events import CURRENT_SCHEMA_VERSION, renamed_events
from games.models import Evening, Game, GameEvent
from games.services.append import _error_dict
from games.services.evenings import _lock_evening
from games.services.recording import EVENT_FIELDS, _apply_result, _numbered, _replay
from stichbuch import sql

# --- Import ---------------------------------------------------------------------------------

MAX_IMPORT_RECORDS = 500


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


# Games per INSERT of an import: a batch costs one statement.
IMPORT_BATCH = 2000


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


def games_import(
    *,
    evening: Evening,
    user: Any,
    records: list[Any],
    players: dict[str, int] | None = None,
) -> list[ImportOutcome]:
    """Store each valid record as a new game of the evening, all-or-nothing per record.

    ``players`` maps names used in the records to player ids of the club; other
    names are matched case-insensitively against the evening's seated players'
    display names, then the club's players'. Every game is judged and stored under
    the evening's house rules (its rule profile, else its season's, else the
    defaults). A record is rejected (and the others still imported) when the engine
    finds it invalid, when it is a game of the other kind, when its own ``rules``
    come to other settings than the evening's (``house_rules_differ``: only admins
    set house rules, in a rule profile), or when a name matches no player.
    """
    if len(records) > MAX_IMPORT_RECORDS:
        raise ValidationError(
            {"records": _("At most %(n)d records at a time.") % {"n": MAX_IMPORT_RECORDS}}
        )
    evening = Evening.objects.select_related("club", "season").get(pk=evening.pk)
    if not evening.is_open:
        raise EveningClosed(_("This evening is closed."))
    mapping: dict[str, Player] = {}
    if players:
        ids = list(players.values())
        found = {p.pk: p for p in Player.objects.filter(club_id=evening.club_id, pk__in=ids)}
        missing = sorted({pid for pid in ids if pid not in found})
        if missing:
            raise ValidationError(
                {
                    "players": _("No such player in this club: %(ids)s.")
                    % {"ids": ", ".join(str(pid) for pid in missing)}
                }
            )
        mapping = {name: found[pid] for name, pid in players.items()}
    resolve = _name_resolver(evening, mapping)
    house_rules = selectors.evening_house_rules(evening=evening)
    # One transaction for the call, which judges every record first (the engine, once
    # each; nothing written) and then writes the accepted ones together: the games,
    # their events and their ledger entries in a constant number of statements per
    # batch of rows (a savepoint and some eleven statements per record took most of an
    # import's time). A refused record writes nothing; a failure while writing rolls
    # the whole call back. The evening stays locked for the call, so a game started
    # meanwhile waits for it and the numbers run on. The projections are asked for
    # once, after the commit: one run applies every imported game.
    with listeners.bulk(), transaction.atomic():
        _lock_evening(evening)
        judged = [
            _import_one(
                evening=evening,
                user=user,
                index=index,
                item=item,
                resolve=resolve,
                house_rules=house_rules,
            )
            for index, item in enumerate(records)
        ]
        accepted = [verdict for verdict in judged if isinstance(verdict, _Accepted)]
        games = iter(
            _new_games(evening=evening, user=user, house_rules=house_rules, accepted=accepted)
        )
    return [
        ImportOutcome(index=verdict.index, imported=True, game=next(games))
        if isinstance(verdict, _Accepted)
        else verdict
        for verdict in judged
    ]


def _new_games(
    *, evening: Evening, user: Any, house_rules: dict[str, Any], accepted: list[_Accepted]
) -> list[Game]:
    """Create the accepted records' games, numbered the evening's next in their order,
    with their events and ledger entries: the rows ``_new_game`` writes for each, with
    the same numbers, seqs, authors and the same order of their times, in a constant
    number of statements: the games in batches of ``IMPORT_BATCH``, the events in one
    COPY, the listeners told once (``games_added``: the ledger books them in bulk).
    The caller holds the evening's lock.
    """
    if not accepted:
        return []
    last = Game.objects.filter(evening_id=evening.pk).aggregate(number=Max("number"))["number"]
    author = user if getattr(user, "is_authenticated", False) else None
    games: list[Game] = []
    # Each game's times as ``_new_game`` takes them: created, finished, its events
    # recorded, its entries booked (played_at, the projections' order, follows).
    stamps: list[tuple[datetime.datetime, datetime.datetime]] = []
    for number, ready in enumerate(accepted, start=(last or 0) + 1):
        game = Game(
            evening=evening,
            game_kind=evening.game_kind,
            house_rules=dict(house_rules),
            last_seq=len(ready.events),
            created_by=author,
            number=number,
        )
        _apply_result(game, ready.result, ready.record, club_players=ready.club_players)
        games.append(game)
        stamps.append((timezone.now(), timezone.now()))
    Game.objects.bulk_create(games, batch_size=IMPORT_BATCH)
    # The events as plain rows through COPY (``stichbuch.sql.rows_insert``), not model
    # instances through ``bulk_create``: an import writes thousands of events, and
    # building and adapting an instance per event was most of its writing's CPU
    # (``bench/import_rate.py`` prints an import's rate).
    author_id = author.pk if author is not None else None
    sql.rows_insert(
        model=GameEvent,
        fields=EVENT_FIELDS,
        rows=(
            (game.pk, seq, kind, payload, CURRENT_SCHEMA_VERSION, author_id, recorded_at, None)
            for game, ready, (recorded_at, _booked) in zip(games, accepted, stamps, strict=True)
            for seq, (kind, payload) in _numbered(ready.events, first_seq=1)
        ),
    )
    # A game in progress holds no money (see ``_record``): only a record that is
    # already over has anything to book.
    listeners.games_added(
        evening=evening,
        games=[
            (game, booked_at)
            for game, (_recorded, booked_at) in zip(games, stamps, strict=True)
            if game.status != Game.Status.IN_PROGRESS
        ],
        club_players=frozenset().union(*(ready.club_players for ready in accepted)),
    )
    listeners.evening_changed(evening_id=evening.pk)
    return games
