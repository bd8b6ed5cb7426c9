"""Starting a game of an evening, with or without its first deal."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from games import listeners, selectors
from games.errors import (
    EngineRejected,
)
from games.listeners import LockedGame
from games.models import Evening, Game
from games.services.append import _check_deals_seat_club_players, _deal_names, _error_dict
from games.services.evenings import _lock_evening
from games.services.recording import (
    _apply_result,
    _event_rows,
    _new_events,
    _replay,
    _store_events,
)


def _new_game(
    *,
    evening: Evening,
    user: Any,
    house_rules: dict[str, Any],
    events: list[dict[str, Any]],
    result: engine.Result,
    record: dict[str, Any],
    club_players: Collection[int] = (),
) -> tuple[Game, list[selectors.EventRow]]:
    """Create the game with its events (its number the evening's next); returns its rows.

    ``club_players``: as for ``_apply_result``.
    """
    game = Game(
        evening=evening,
        game_kind=evening.game_kind,
        house_rules=house_rules,
        last_seq=len(events),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    _apply_result(game, result, record, club_players=club_players)
    # Numbered the evening's next under the evening's lock, which every caller holds
    # (the unique (evening, number) stays the last guard).
    last = Game.objects.filter(evening_id=evening.pk).aggregate(number=Max("number"))["number"]
    game.number = (last or 0) + 1
    game.save(force_insert=True)
    listeners.evening_changed(evening_id=evening.pk)
    rows = _store_events(game, events, first_seq=1, user=user, key=None)
    listeners.game_changed(
        locked=LockedGame(game=game, evening=evening),
        previous_status=Game.Status.IN_PROGRESS,
        club_players=club_players,
    )
    return game, rows


def game_start(*, evening: Evening, user: Any, deal: dict[str, Any] | None = None) -> Game:
    """Start the evening's next game with its deal as the first event.

    The house rules are copied from the evening's rule profile (else the
    season's, else the defaults): later changes to the club's rules never
    change this game. Without a ``deal`` the proposed one is written
    (``selectors.next_deal``); a given deal must seat only players of this
    evening (by ``str(pk)``) and is judged by the engine like any event.
    A previous game still in progress does not block a new one: a table may
    abandon a deal.
    """
    return game_started(evening=evening, user=user, deal=deal).game


@dataclass
class Started:
    """What ``game_started`` wrote and read, for an answer without a second look.

    ``rows``: the game's one event as ``selectors.game_event_rows`` reads it;
    ``record``: the record the engine replayed; ``names``: ``{str(pk):
    display_name}`` of the evening's seated players; ``state``: the table after
    the deal (``selectors.table_state``).
    """

    game: Game
    rows: list[selectors.EventRow]
    record: dict[str, Any]
    names: dict[str, str]
    state: dict[str, Any]


@transaction.atomic
def game_started(
    *,
    evening: Evening,
    user: Any,
    deal: dict[str, Any] | None = None,
    events: list[dict[str, Any]] | None = None,
    dry_run: bool = False,
) -> Started:
    """``game_start``, also returning the game's events, record, names and table.

    ``events``: more events of the game, appended with the deal in the same
    transaction (all or nothing: ``EngineRejected`` names the engine's index in the
    whole record, deal first, and no game is written). Their first may be the deal
    itself (when no ``deal`` is given): one request records a whole deal, e.g. the
    deal, the call and a ``tally``. ``dry_run``: judge it all the same, write
    nothing, and return the game as it would be (unsaved, without id or number).
    """
    events = list(events or [])
    if deal is None and events and isinstance(events[0], dict) and events[0].get("type") == "deal":
        deal = {k: v for k, v in events[0].items() if k != "type"}
        events = events[1:]
    evening = _lock_evening(evening)
    house_rules = selectors.evening_house_rules(evening=evening)
    if deal is None:
        proposal = selectors.next_deal(evening=evening, house_rules=house_rules)
        if proposal.event is None:
            raise ValidationError({"deal": proposal.problem or _("No game can be dealt.")})
        deal_event = proposal.event
        seated = {str(player.pk): player.display_name for player in proposal.players}
    else:
        deal_event = {**deal, "type": "deal"}
        seated = selectors.seated_names(evening_id=evening.pk)
        if not _deal_names(deal_event) <= seated.keys():
            raise ValidationError(
                {"deal": _("The deal may seat only players at this evening's table (by id).")}
            )
    _check_deals_seat_club_players(evening, events)
    all_events = [deal_event, *events]
    record = {"game": evening.game_kind, "rules": house_rules or None, "events": all_events}
    # One replay judges the deal and draws the table the answer shows.
    state, result = selectors.table_state_and_result(record=record)
    if result is None:
        result = _replay(record)
    if result.status == "invalid":
        raise EngineRejected(error=_error_dict(result), event_offset=0)
    # The deal seats only the evening's players (checked above, or proposed).
    club_players = {int(pk) for pk in seated}
    if dry_run:
        game = Game(
            evening=evening,
            game_kind=evening.game_kind,
            house_rules=house_rules,
            last_seq=len(all_events),
            created_at=timezone.now(),
        )
        _apply_result(game, result, record, club_players=club_players)
        rows = _event_rows(_new_events(game, all_events, first_seq=1, user=user, key=None))
        return Started(game=game, rows=rows, record=record, names=seated, state=state)
    game, rows = _new_game(
        evening=evening,
        user=user,
        house_rules=house_rules,
        events=all_events,
        result=result,
        record=record,
        club_players=club_players,
    )
    return Started(game=game, rows=rows, record=record, names=seated, state=state)
