"""Reads of the games app: querysets with their joins set, records built from events.

A game's record (the spec's JSON document) is always rebuilt from its stored
events, upcast to the current schema; players appear in it as ``str(player.pk)``.
"""

from __future__ import annotations

import datetime
import functools
import logging
import re
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from django.db.models import (
    Aggregate,
    CharField,
    Count,
    F,
    JSONField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Cast
from django.utils.translation import gettext as _

from clubs.models import Club, GameKind, Membership, Player, RuleProfile, Season
from engine import Result, replay, table_view
from games.events import to_event
from games.models import Evening, EveningSeat, Game, GameEvent

logger = logging.getLogger(__name__)

# Seated players a game needs: Fuchsen 4 or 5 active (6 seated: one sits out),
# Königrufen exactly 4.
SEATS_ALLOWED: dict[str, tuple[int, int]] = {
    GameKind.FUCHSEN: (4, 6),
    GameKind.KOENIGRUFEN: (4, 4),
}


# --- Evenings ---------------------------------------------------------------------------


def evening_list(*, club: Club, season: Season | None = None) -> QuerySet[Evening]:
    evenings = Evening.objects.filter(club=club).select_related("season", "rule_profile")
    if season is not None:
        evenings = evenings.filter(season=season)
    return evenings.order_by("-date", "-id")


def evening_archive(*, club: Club, season: Season | None = None) -> QuerySet[Evening]:
    """``evening_list`` with each evening's games counted: ``games_done`` (finished or
    annulled) and ``games_open`` (in progress), for the club's list of evenings."""
    return evening_list(club=club, season=season).annotate(
        games_done=Count("games", filter=~Q(games__status=Game.Status.IN_PROGRESS)),
        games_open=Count("games", filter=Q(games__status=Game.Status.IN_PROGRESS)),
    )


def open_evenings_of(*, clubs: list[Club]) -> dict[int, list[Evening]]:
    """The open evenings of each of ``clubs`` (by club id), the latest first."""
    found: dict[int, list[Evening]] = {club.pk: [] for club in clubs}
    evenings = Evening.objects.filter(club__in=clubs, status=Evening.Status.OPEN)
    for evening in evenings.order_by("-date", "-id"):
        found[evening.club_id].append(evening)
    return found


def evening_get(*, evening_id: int) -> Evening:
    """Raise ``Evening.DoesNotExist`` for an unknown id (the caller checks membership)."""
    return Evening.objects.select_related("club", "season", "rule_profile").get(pk=evening_id)


def evening_get_with_role(*, evening_id: int, user: Any) -> Evening:
    """``evening_get`` plus ``member_role``: ``user``'s role in the evening's club.

    One statement (the membership is a subquery); ``member_role`` is None for a
    non-member. Raises ``Evening.DoesNotExist`` for an unknown id.
    """
    role = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user.pk).order_by()
    return (
        Evening.objects.select_related("club", "season", "rule_profile")
        .annotate(member_role=Subquery(role.values("role")[:1]))
        .get(pk=evening_id)
    )


def evening_for_update(*, evening_id: int) -> Evening | None:
    """Lock the evening's row (inside the caller's transaction) and read it afresh with
    its club and season; None if it is gone.

    ``FOR NO KEY UPDATE`` of the evening's row only: see ``services._lock_evening``.
    """
    return (
        Evening.objects.select_for_update(no_key=True, of=("self",))
        .select_related("club", "season")
        .filter(pk=evening_id)
        .first()
    )


def seated_names(*, evening_id: int) -> dict[str, str]:
    """``{str(player pk): display_name}`` of the evening's active seats, clockwise (the
    order of ``evening_seats``). One statement."""
    seats = EveningSeat.objects.filter(evening_id=evening_id, left_at__isnull=True).order_by(
        "position", "joined_at", "id"
    )
    return {str(pk): name for pk, name in seats.values_list("player_id", "player__display_name")}


def evening_seats(*, evening: Evening, active_only: bool = True) -> list[EveningSeat]:
    """The evening's seats in clockwise order (active ones, or the whole history)."""
    seats = EveningSeat.objects.filter(evening=evening).select_related("player")
    if active_only:
        seats = seats.filter(left_at__isnull=True)
    return list(seats.order_by("position", "joined_at", "id"))


def evening_games(*, evening: Evening) -> QuerySet[Game]:
    return Game.objects.filter(evening=evening).order_by("number", "id")


# --- Games ------------------------------------------------------------------------------


def game_get(*, game_id: int) -> Game:
    """Raise ``Game.DoesNotExist`` for an unknown id (the caller checks membership)."""
    return Game.objects.select_related("evening", "evening__club").get(pk=game_id)


def game_get_with_role(*, game_id: int, user: Any) -> Game:
    """The game with its evening and club, and ``member_role``: ``user``'s role in its club.

    One query (the membership is a subquery); ``member_role`` is None for a
    non-member. Raises ``Game.DoesNotExist`` for an unknown id.
    """
    role = Membership.objects.filter(club_id=OuterRef("evening__club_id"), user=user).values(
        "role"
    )[:1]
    return (
        Game.objects.select_related("evening", "evening__club")
        .annotate(member_role=Subquery(role))
        .get(pk=game_id)
    )


class EventRow(NamedTuple):
    """A stored event as ``game_event_rows`` reads it: no model instance, no JSON
    re-wrapping. ``recorded_by_name``: the recording user's username, or None."""

    seq: int
    type: str
    payload: dict[str, Any]
    schema_version: int
    recorded_by_name: str | None
    recorded_at: datetime.datetime


@functools.cache
def _event_rows() -> QuerySet[GameEvent, EventRow]:
    """``game_event_rows``'s queryset but for the game, built once (each call clones it)."""
    return (
        GameEvent.objects.order_by("seq")
        .annotate(recorded_by_name=F("recorded_by__username"))
        .values_list(*EventRow._fields, named=True)
    )


def game_event_rows(*, game_id: int) -> list[EventRow]:
    """The game's stored events in seq order, as ``EventRow`` rows (one statement: an
    append reads them on every card, so no model instances are built)."""
    # Django's row class has ``EventRow``'s fields, in its order.
    return cast(list[EventRow], list(_event_rows().filter(game_id=game_id)))


class _JSONObjectAgg(Aggregate):
    """``{key: value}`` of a group's rows, as one JSON object (the vendor's own aggregate)."""

    function = "JSONB_OBJECT_AGG"
    output_field = JSONField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSON_GROUP_OBJECT", **extra)


def _seat_names() -> Subquery:
    """``{str(player id): display name}`` of the club's players seated at the outer game's
    evening (ever, also those who got up): the append's answer's legend."""
    seats = (
        EveningSeat.objects.filter(
            evening_id=OuterRef("evening_id"), player__club_id=OuterRef("evening__club_id")
        )
        .order_by()
        .values("evening_id")
        .annotate(names=_JSONObjectAgg(Cast("player_id", CharField()), "player__display_name"))
        .values("names")
    )
    return Subquery(seats, output_field=JSONField())


@functools.cache
def _locked_games() -> QuerySet[Game]:
    """The part of ``game_for_append``'s statement that no argument changes, built once.

    The game with its evening and club (``select_related``), the seats' names as an
    annotation, the lock on the game's row only, no ordering. Every call clones it
    (``filter``), so it is never evaluated itself and its annotation is resolved once
    per process instead of on every card.
    """
    return (
        Game.objects.select_related("evening__club")
        .select_for_update(of=("self",))
        .order_by()
        .annotate(seat_names=_seat_names())
    )


def game_for_append(*, game_id: int, user: Any, members_only: bool) -> Game | None:
    """Lock the game's row (inside the caller's transaction) and read what an append
    needs first, in one statement.

    The game comes with its evening and club, with ``seat_names`` (``{str(pk):
    display_name}`` of the club's players who sat at the evening: the answer's legend,
    nearly always; None if nobody sat) and ``member_role`` (``user``'s role in the
    club; None unless ``members_only``). ``members_only``: the game is found only
    through ``user``'s membership of its club, so a stranger finds nothing and locks
    nothing (None, as for an unknown game).

    The lock is the game row's only (``select_for_update(of=("self",))``): it
    serialises appends to one game. Of two scorers who both saw seq 7, the second
    waits for it and then sees last_seq 8, so he gets a 409 instead of both
    appending seq 8 (the unique (game, seq) is the last guard).

    The statement is an ordinary queryset, shaped for what the ORM spends per call
    (``bench/append_profile.py`` measures it): ``select_related`` instead of a
    ``values()`` path per column, the membership as a plain join (one row: a user
    has one membership per club) instead of two subqueries, no ordering (the
    model's ``Meta.ordering`` would be compiled into it), and the unchanging rest
    built once (``_locked_games``).
    """
    games = _locked_games().filter(pk=game_id)
    if members_only:
        # ``user`` None (a service's own caller) is no member: ``user_id IS NULL``
        # matches no membership.
        user_id: Any = user.pk if getattr(user, "is_authenticated", False) else None
        games = games.filter(evening__club__memberships__user_id=user_id).annotate(
            member_role=F("evening__club__memberships__role")
        )
    game: Any = next(iter(games), None)
    if game is not None and not members_only:
        game.member_role = None
    return cast("Game | None", game)


def record_from_rows(*, game: Game, rows: list[EventRow]) -> dict[str, Any]:
    """``game_record`` from ``game_event_rows`` (rows in seq order)."""
    return {
        "game": game.game_kind,
        "rules": dict(game.house_rules) or None,
        "events": [to_event(row.type, row.payload, row.schema_version) for row in rows],
    }


def game_record(*, game: Game, events: list[GameEvent] | None = None) -> dict[str, Any]:
    """The game's record as the engine and the export read it."""
    stored = events if events is not None else list(GameEvent.objects.filter(game=game))
    return {
        "game": game.game_kind,
        "rules": dict(game.house_rules) or None,
        "events": [event.as_event() for event in sorted(stored, key=lambda e: e.seq)],
    }


def record_player_names(record: dict[str, Any]) -> set[str]:
    """Every player name a record mentions (deal seats, dealer, hands, ``player`` fields,
    a tally's ``partner`` and ``losers``)."""
    names: set[str] = set()
    events = record.get("events") if isinstance(record, dict) else None
    if not isinstance(events, list):
        return names
    for event in events:
        if not isinstance(event, dict):
            continue
        candidates: list[Any] = [event.get("player"), event.get("dealer"), event.get("sitting_out")]
        candidates.append(event.get("partner"))
        if isinstance(event.get("players"), list):
            candidates.extend(event["players"])
        if isinstance(event.get("losers"), list):
            candidates.extend(event["losers"])
        if isinstance(event.get("hands"), dict):
            candidates.extend(event["hands"].keys())
        names.update(name for name in candidates if isinstance(name, str) and name)
    return names


_PLAYER_ID = re.compile(r"[1-9][0-9]{0,17}")


def player_id_of(name: object) -> int | None:
    """The player id a record's name stands for (``str(player.pk)``), or None.

    Only the canonical spelling counts ("12", not "012" or other digits), so an
    id and its name in the record are one-to-one.
    """
    if isinstance(name, str) and _PLAYER_ID.fullmatch(name):
        return int(name)
    return None


def players_legend(
    *, club_id: int, records: list[dict[str, Any]], known: dict[str, str] | None = None
) -> dict[str, str]:
    """``{str(pk): display_name}`` for every player of the club the records mention.

    ``known``: names of some of the club's players already read (e.g. the
    evening's); the database is asked only if a record names anyone else.
    """
    ids = {
        player_id
        for record in records
        for name in record_player_names(record)
        if (player_id := player_id_of(name)) is not None
    }
    if known is not None and all(str(pk) in known for pk in ids):
        return {str(pk): known[str(pk)] for pk in sorted(ids)}
    return player_names(club_id=club_id, ids=ids)


def player_names(*, club_id: int, ids: set[int]) -> dict[str, str]:
    """``{str(pk): display_name}`` of the club's players among ``ids``, by id (one statement)."""
    if not ids:
        return {}
    found = Player.objects.filter(club_id=club_id, pk__in=ids).order_by("pk")
    return {str(pk): name for pk, name in found.values_list("pk", "display_name")}


def game_export(*, game: Game, events: list[GameEvent] | None = None) -> dict[str, Any]:
    """``{"record", "players", "result"}``: the record with ids and a legend beside it."""
    record = game_record(game=game, events=events)
    return {
        "record": record,
        "players": players_legend(club_id=game.evening.club_id, records=[record]),
        "result": game.result,
    }


def game_exports(*, games: QuerySet[Game]) -> list[dict[str, Any]]:
    games = games.select_related("evening", "evening__club").prefetch_related(
        Prefetch("events", queryset=GameEvent.objects.order_by("seq"))
    )
    return [game_export(game=game, events=list(game.events.all())) for game in games]


def season_games(*, season: Season) -> QuerySet[Game]:
    return Game.objects.filter(evening__season=season).order_by(
        "evening__date", "evening_id", "number", "id"
    )


def effective_deal(record: dict[str, Any]) -> dict[str, Any] | None:
    """The deal event still standing after the record's ``undo``s, if any.

    Undos form a stack: each removes the latest earlier event that is neither an
    undo nor already removed (as in the spec's fine points).
    """
    standing: list[dict[str, Any]] = []
    for event in record.get("events", []):
        if not isinstance(event, dict):
            continue
        if event.get("type") == "undo":
            if standing:
                standing.pop()
        else:
            standing.append(event)
    deals = [event for event in standing if event.get("type") == "deal"]
    return deals[-1] if deals else None


# --- The next deal ----------------------------------------------------------------------


@dataclass(frozen=True)
class DealProposal:
    """Who deals next, who plays (clockwise) and who sits out (Fuchsen, six seated)."""

    dealer: Player | None
    players: list[Player]
    sitting_out: Player | None
    # The deal event the proposal amounts to, or None when the seats do not allow a game.
    event: dict[str, Any] | None
    problem: str | None = None


def _next_dealer(evening: Evening, seats: list[EveningSeat]) -> Player:
    """The seated player clockwise after the previous game's dealer (first seat for game 1).

    If the previous dealer has left the table, the deal passes to the first seated
    player after the seat he held.
    """
    previous = (
        Game.objects.filter(evening=evening, dealer__isnull=False)
        .order_by("-number", "-id")
        .values_list("dealer_id", flat=True)
        .first()
    )
    if previous is None:
        return seats[0].player
    positions = [seat.position for seat in seats]
    seated_ids = [seat.player_id for seat in seats]
    if previous in seated_ids:
        index = seated_ids.index(previous)
        return seats[(index + 1) % len(seats)].player
    last_seat = (
        EveningSeat.objects.filter(evening=evening, player_id=previous)
        .order_by("-joined_at", "-id")
        .first()
    )
    if last_seat is None:  # dealt without ever being seated (an imported game)
        return seats[0].player
    later = [i for i, position in enumerate(positions) if position > last_seat.position]
    return seats[later[0]].player if later else seats[0].player


def next_deal(*, evening: Evening, house_rules: dict[str, Any] | None = None) -> DealProposal:
    """Propose the next game's deal from the seats.

    With six seated at a Fuchsen table one sits out: under the default house rule
    ``sit_out: "dealer"`` the dealer (the deal event names nobody, the engine knows);
    under ``sit_out: "named"`` we propose the player clockwise after the dealer, so
    that the one sitting out goes round the table with the deal.
    """
    seats = evening_seats(evening=evening)
    low, high = SEATS_ALLOWED[evening.game_kind]
    if not low <= len(seats) <= high:
        return DealProposal(
            dealer=None,
            players=[seat.player for seat in seats],
            sitting_out=None,
            event=None,
            problem=(
                _("%(game)s needs %(low)d to %(high)d seated players; %(n)d are seated.")
                if high != low
                else _("%(game)s needs %(low)d seated players; %(n)d are seated.")
            )
            % {"game": evening.get_game_kind_display(), "low": low, "high": high, "n": len(seats)},
        )
    players = [seat.player for seat in seats]
    dealer = _next_dealer(evening, seats)
    event: dict[str, Any] = {
        "type": "deal",
        "dealer": str(dealer.pk),
        "players": [str(player.pk) for player in players],
    }
    sitting_out: Player | None = None
    if evening.game_kind == GameKind.FUCHSEN and len(players) == 6:
        rules = house_rules if house_rules is not None else evening_house_rules(evening=evening)
        if rules.get("sit_out", "dealer") == "named":
            sitting_out = players[(players.index(dealer) + 1) % len(players)]
            event["sitting_out"] = str(sitting_out.pk)
        else:
            sitting_out = dealer
    return DealProposal(dealer=dealer, players=players, sitting_out=sitting_out, event=event)


def evening_house_rules(*, evening: Evening) -> dict[str, Any]:
    """The house-rule overrides a new game of the evening starts with (a fresh copy).

    The evening's rule profile, else its season's, else the defaults (``{}``).
    """
    profile = evening.rule_profile or evening.season.rule_profile
    if profile is None or profile.game_kind != evening.game_kind:
        return {}
    return dict(profile.overrides or {})


def table_state(*, record: dict[str, Any]) -> dict[str, Any]:
    """The engine's view of the table after ``record`` (whose turn, the trick, what is legal).

    ``engine.table_view`` never raises by contract; should it ever, the page
    still loads without the state (and the traceback is logged).
    """
    return table_state_and_result(record=record)[0]


def record_outcome(*, record: dict[str, Any]) -> dict[str, Any]:
    """The engine's ``Result`` of ``record`` as a dict (status, what is awaited, whose
    turn), from a replay alone: a fifth of ``table_state``'s cost, for a page that
    asks the engine many records and needs no legal moves of most of them."""
    return replay(record).to_dict()


def table_state_and_result(*, record: dict[str, Any]) -> tuple[dict[str, Any], Result | None]:
    """``table_state`` and the engine's ``Result`` for ``record``, from one replay.

    (The view replays the record anyway; an append that needs both asks once.)
    The result is None where the view failed (``table_state``'s contract).
    """
    try:
        view = table_view(record)
        state: dict[str, Any] = view.to_dict()
    except Exception:
        logger.exception("engine.table_view raised on a record")
        return {"status": "unavailable"}, None
    return state, view.result


def club_house_rules(*, club: Club, game_kind: str) -> tuple[dict[str, Any], RuleProfile | None]:
    """The house-rule overrides in force for a club's ``game_kind`` and their profile:
    those of the open season of that game played last (else the season played last),
    as a new evening of it starts with them; the defaults (``{}``, None) without one."""
    seasons = Season.objects.filter(club=club, game_kind=game_kind).select_related("rule_profile")
    open_seasons = seasons.filter(status=Season.Status.OPEN)
    season = (
        (open_seasons if open_seasons.exists() else seasons)
        .annotate(last_played=Max("evenings__date"), last_opened=Max("evenings__id"))
        .order_by(
            F("last_played").desc(nulls_last=True),
            F("last_opened").desc(nulls_last=True),
            "-start",
            "-id",
        )
        .first()
    )
    profile = season.rule_profile if season is not None else None
    if profile is None or profile.game_kind != game_kind:
        return {}, None
    return dict(profile.overrides or {}), profile
