"""A stored game as the projections read it: its outcome, its players' roles, its order."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ledger.ratings import rating_teams
from ledger.standings import GameOutcome

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameRow:
    """What the projections need of one finished game, as read from the database."""

    game_id: int
    evening_id: int
    played_at: datetime
    kind: str
    result: Mapping[str, Any]
    seq: int = 0  # the game's last seq, the key of its cached facts
    # ``engine.game_facts(record).to_dict()`` with player ids (``ledger.models.GameFacts``),
    # or None when not known.
    facts: Mapping[str, Any] | None = None


def outcome_from_result(row: GameRow) -> GameOutcome:
    """The :class:`GameOutcome` of a finished game's stored engine result.

    Players are ``str(player.pk)`` as in the result's ``payouts``. The result
    does not list who sat out, so the active players are taken from an
    ``"active"`` list if the result carries one, else they are the players
    with a non-zero payout plus the declarers (a seated player who sat out is
    paid 0; in both games every active player otherwise wins or pays).
    Raises ``ValueError`` when the result contradicts itself. The row's ``facts``
    give Stilles Spiel and the raises (``GameOutcome.silent``, ``raises``).
    """
    result = row.result
    payouts = {str(p): amount for p, amount in (result.get("payouts") or {}).items()}
    declarers = tuple(str(p) for p in (result.get("declarers") or ()))
    if isinstance(result.get("active"), list):
        active = tuple(str(p) for p in result["active"])
    else:
        active = tuple(
            sorted({p for p, amount in payouts.items() if amount} | set(declarers), key=str)
        )
    strangers = [p for p in (*payouts, *declarers, *active) if not p.isdigit()]
    if strangers:
        raise ValueError(f"game {row.game_id}: {strangers[0]!r} is not a player id")
    won = result.get("won")
    value = result.get("value")
    facts = row.facts or {}
    silent = facts.get("silent")
    stored_raises = facts.get("raises")
    raises = (
        {str(p): (int(pair[0]), int(pair[1])) for p, pair in stored_raises.items()}
        if isinstance(stored_raises, Mapping)
        else None
    )
    return GameOutcome(
        game_id=row.game_id,
        played_at=row.played_at,
        kind=row.kind,
        payouts=payouts,
        active=active,
        declarers=declarers,
        won=won if isinstance(won, bool) else None,
        contract=str(result.get("contract") or ""),
        value=value if type(value) is int else None,
        reason=str(result.get("reason") or ""),
        silent=silent if isinstance(silent, bool) else None,
        raises=raises,
    )


def readable_outcome(row: GameRow) -> GameOutcome | None:
    """The row's outcome, or ``None`` (logged) when its result cannot be projected."""
    try:
        return outcome_from_result(row)
    except (ValueError, TypeError, AttributeError):
        logger.exception("game %s: its result cannot be projected; left out", row.game_id)
        return None


def ratable_outcome(outcome: GameOutcome) -> bool:
    """Whether the game can be rated (else it is logged and left out of the ratings)."""
    try:
        rating_teams(outcome)
    except ValueError:
        logger.warning("game %s cannot be rated; left out of the ratings", outcome.game_id)
        return False
    return True


def role_of(outcome: GameOutcome, player: str) -> str:
    """The player's ``PlayerGame.Role`` value in the game."""
    if player not in outcome.active:
        return "out"
    if not outcome.declarers:
        return "alone"
    if player == outcome.declarers[0]:
        return "macher"
    return "partner" if player in outcome.declarers else "opponent"


def _players_of(outcome: GameOutcome) -> list[str]:
    return sorted({*outcome.payouts, *outcome.active}, key=int)


def outcome_from_rows(rows: Sequence[Mapping[str, Any]]) -> GameOutcome:
    """The outcome of a game as its ``PlayerGame`` rows (all of them) hold it: what
    the rating step and the sums need, without reading the game's result again (which
    may have changed since: that change is applied by its own ``ProjectionChange``)."""
    first = rows[0]
    by_role: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        by_role[row["role"]].append(str(row["player_id"]))
    return GameOutcome(
        game_id=first["game_id"],
        played_at=first["played_at"],
        kind="",
        payouts={str(row["player_id"]): row["payout"] for row in rows},
        active=tuple(str(row["player_id"]) for row in rows if row["role"] != "out"),
        declarers=(*by_role["macher"], *by_role["partner"]),
        won=first["won"],
        contract=first["contract"],
        value=first["value"],
        reason=first["reason"],
        silent=first["silent"],
        raises=_raises_of_rows(rows),
    )


# The fields of a game's ``PlayerGame`` rows that its rating step needs.
RATING_FIELDS = ("game_id", "played_at", "player_id", "role", "payout", "won")


def rating_outcome_from_rows(rows: Sequence[Sequence[Any]]) -> GameOutcome:
    """The outcome of a game as far as its rating step needs it (the sides, who won,
    the payouts), from its rows' ``RATING_FIELDS`` (as tuples, all rows of the game):
    what :func:`outcome_from_rows` gives for those, read with six of the row's fields."""
    game_id, played_at, _player, _role, _payout, won = rows[0]
    macher = [str(r[2]) for r in rows if r[3] == "macher"]
    partners = [str(r[2]) for r in rows if r[3] == "partner"]
    return GameOutcome(
        game_id=game_id,
        played_at=played_at,
        kind="",
        payouts={str(r[2]): r[4] for r in rows},
        active=tuple(str(r[2]) for r in rows if r[3] != "out"),
        declarers=(*macher, *partners),
        won=won,
    )


def _raises_of_rows(rows: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, int]] | None:
    """``GameOutcome.raises`` as a game's rows hold it: each row with counts (a player
    who sat out has none; a game whose raising is not known, none at all)."""
    raises = {
        str(row["player_id"]): (row["raise_chances"], row["raises"])
        for row in rows
        if row["raise_chances"] is not None
    }
    return raises or None


# A game's place in game order: (played_at, game id).
GameKey = tuple[datetime, int]


def game_key(row: Mapping[str, Any]) -> tuple[Any, int]:
    """A projection row's place in game order (``GameKey``)."""
    return row["played_at"], row["game_id"]
