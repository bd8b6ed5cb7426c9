"""Reads of the games app: querysets with their joins set, records built from events.

One module per what is read:

- ``evenings``: the club's evenings, one evening (with the reader's role, or locked),
  its seats and games, and the next deal proposed from its seats (``next_deal``);
- ``games``: one game (with the reader's role), its stored events as ``EventRow``
  rows, its record rebuilt from them, the players a record names and their legend,
  the export;
- ``append``: the append's first read, the game's row locked with its evening, club,
  seats' names and the user's role in one statement (``game_for_append``);
- ``rules``: the house rules in force for an evening or a club, and the engine's
  reading of a record (``table_state``, ``record_outcome``).

A game's record (the spec's JSON document) is always rebuilt from its stored
events, upcast to the current schema; players appear in it as ``str(player.pk)``.
Callers keep using ``games.selectors.X``; a test that patches a name patches it in
the module that holds it.
"""

from games.selectors.append import game_for_append
from games.selectors.evenings import (
    SEATS_ALLOWED,
    DealProposal,
    evening_archive,
    evening_for_update,
    evening_games,
    evening_get,
    evening_get_with_role,
    evening_list,
    evening_seats,
    next_deal,
    open_evenings_of,
    seated_names,
)
from games.selectors.games import (
    EventRow,
    effective_deal,
    game_event_rows,
    game_export,
    game_exports,
    game_get,
    game_get_with_role,
    game_record,
    player_id_of,
    player_names,
    players_legend,
    record_from_rows,
    record_player_names,
    season_games,
)
from games.selectors.rules import (
    club_house_rules,
    evening_house_rules,
    record_outcome,
    table_state,
    table_state_and_result,
)

__all__ = [
    "SEATS_ALLOWED",
    "DealProposal",
    "EventRow",
    "club_house_rules",
    "effective_deal",
    "evening_archive",
    "evening_for_update",
    "evening_games",
    "evening_get",
    "evening_get_with_role",
    "evening_house_rules",
    "evening_list",
    "evening_seats",
    "game_event_rows",
    "game_export",
    "game_exports",
    "game_for_append",
    "game_get",
    "game_get_with_role",
    "game_record",
    "next_deal",
    "open_evenings_of",
    "player_id_of",
    "player_names",
    "players_legend",
    "record_from_rows",
    "record_outcome",
    "record_player_names",
    "season_games",
    "seated_names",
    "table_state",
    "table_state_and_result",
]
