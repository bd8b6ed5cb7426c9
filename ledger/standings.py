"""Standings: what each player did at the table over a season, and the season table.

Pure Python, no Django import. The ledger's projection task turns each finished
game into a :class:`GameOutcome` and calls :func:`player_standings` and then
:func:`season_table`; both are pure functions of their input, so a rebuild from
the events gives exactly the incremental result.

Standings are about play: payments between players (settling debts) are not
games and must not be passed in. Annulled games are not passed in either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, cast, get_args

__all__ = [
    "DEFAULT_TIE_BREAK",
    "GameOutcome",
    "PlayerStanding",
    "StandingsConfig",
    "TableRow",
    "TieBreak",
    "in_game_order",
    "player_standings",
    "season_table",
]

TieBreak = Literal["net", "per_game", "wins"]
"""A season-table sort key; for every key, more is better."""

TIE_BREAKS: tuple[TieBreak, ...] = get_args(TieBreak)
DEFAULT_TIE_BREAK: tuple[TieBreak, ...] = ("net", "per_game", "wins")


@dataclass(frozen=True)
class GameOutcome:
    """The facts of one finished game that standings, ratings and series need.

    - ``game_id``: the game's primary key; breaks ties of ``played_at``.
    - ``played_at``: when it was played; games are taken in ``(played_at, game_id)`` order.
    - ``kind``: the engine's game key, ``"fuchsen"`` or ``"koenigrufen"``.
    - ``payouts``: player id → integer payout (cents or points), summing to zero.
      A seated player who sat out may appear with 0.
    - ``active``: the players who took part in the deal (not those who sat out).
    - ``declarers``: the declaring side, Macher/declarer first, then his partner
      or joiner; empty when there is no declaring side (``schurln``).
    - ``won``: did the declarers' side win; ``None`` when there is no declaring side.
    - ``contract``: the engine's contract name (``"partner"``, ``"alone"``, ``"bettler"``…).
    - ``value``: the game's value as the engine's result says (``None`` if it does not).
    - ``reason``: why it ended, as the result says (``""`` if it does not).
    - ``silent``: Stilles Spiel, as ``engine.game_facts`` says (``None``: cannot apply
      or not known).
    - ``raises``: player id → (chances to raise, raises said), as ``engine.game_facts``
      says; ``None`` where the raising is not known.

    Player ids are strings (``str(player.pk)``) so every output is JSON-ready.
    Construction raises ``ValueError`` if the facts contradict each other.
    """

    game_id: int
    played_at: datetime
    kind: str
    payouts: Mapping[str, int]
    active: tuple[str, ...]
    declarers: tuple[str, ...] = ()
    won: bool | None = None
    contract: str = ""
    value: int | None = None
    reason: str = ""
    silent: bool | None = None
    raises: Mapping[str, tuple[int, int]] | None = None

    def __post_init__(self) -> None:
        # A read-only copy: the caller's dict may change later, an outcome may not.
        object.__setattr__(self, "payouts", MappingProxyType(dict(self.payouts)))
        object.__setattr__(self, "active", tuple(self.active))
        object.__setattr__(self, "declarers", tuple(self.declarers))
        where = f"game {self.game_id}"
        for player, amount in self.payouts.items():
            if type(amount) is not int:
                raise ValueError(f"{where}: payout of {player!r} must be an int, not {amount!r}")
        if sum(self.payouts.values()) != 0:
            raise ValueError(f"{where}: payouts must sum to zero, not {sum(self.payouts.values())}")
        if not self.active:
            raise ValueError(f"{where}: no active player")
        if len(set(self.active)) != len(self.active):
            raise ValueError(f"{where}: a player is listed twice among the active players")
        if len(set(self.declarers)) != len(self.declarers):
            raise ValueError(f"{where}: a player is listed twice among the declarers")
        if not set(self.declarers) <= set(self.active):
            raise ValueError(f"{where}: every declarer must be an active player")
        idle = [p for p, amount in self.payouts.items() if amount and p not in self.active]
        if idle:
            raise ValueError(f"{where}: {idle[0]!r} did not play but has a non-zero payout")

    @property
    def macher(self) -> str | None:
        """The Macher/declarer, or ``None`` when nobody declared."""
        return self.declarers[0] if self.declarers else None

    @property
    def opponents(self) -> tuple[str, ...]:
        """Active players not on the declaring side, sorted; empty without a declaring side."""
        if not self.declarers:
            return ()
        return tuple(sorted(p for p in self.active if p not in self.declarers))

    def payout(self, player: str) -> int:
        """The player's payout in this game (0 if he is not in ``payouts``)."""
        return self.payouts.get(player, 0)


def in_game_order(outcomes: Iterable[GameOutcome]) -> list[GameOutcome]:
    """The outcomes sorted by ``(played_at, game_id)``; raises on a repeated game id."""
    ordered = sorted(outcomes, key=lambda o: (o.played_at, o.game_id))
    seen: set[int] = set()
    for outcome in ordered:
        if outcome.game_id in seen:
            raise ValueError(f"game {outcome.game_id} is passed twice")
        seen.add(outcome.game_id)
    return ordered


@dataclass(frozen=True)
class PlayerStanding:
    """One player's record over a set of games.

    A game counts as *played* when the player was active in it, and as *won*
    when his payout in it was positive. ``macher_*`` count the games where he
    was the Macher/declarer (first of the declarers), ``partner_games`` those
    where he was on the declaring side but not first.
    """

    player_id: str
    net: int = 0
    games: int = 0
    wins: int = 0
    macher_games: int = 0
    macher_wins: int = 0
    partner_games: int = 0

    @property
    def per_game_exact(self) -> Fraction:
        """Net per game played, exactly (0 with no games); what the table ranks by."""
        return Fraction(self.net, self.games) if self.games else Fraction(0)

    @property
    def per_game(self) -> float:
        """Net per game played in the ledger's unit (cents/points), rounded to 2 decimals."""
        return round(float(self.per_game_exact), 2)

    @property
    def win_pct(self) -> float:
        """Games won as a percentage of games played, rounded to 1 decimal (0.0 with no games)."""
        return round(100 * self.wins / self.games, 1) if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the fields plus ``per_game`` and ``win_pct`` as floats."""
        return {
            "player_id": self.player_id,
            "net": self.net,
            "games": self.games,
            "wins": self.wins,
            "win_pct": self.win_pct,
            "per_game": self.per_game,
            "macher_games": self.macher_games,
            "macher_wins": self.macher_wins,
            "partner_games": self.partner_games,
        }


def player_standings(outcomes: Iterable[GameOutcome]) -> list[PlayerStanding]:
    """Every player's :class:`PlayerStanding` over ``outcomes``, sorted by player id.

    Lists every player who was active in, or has a payout in, at least one game.
    ``net`` is the sum of his payouts, so the nets of all players sum to zero.
    """
    # Integer sums, so the order of the games does not matter: no sort (a rebuild
    # ranks every evening and the season, and sorting them was half of this).
    totals: dict[str, list[int]] = {}
    seen: set[int] = set()
    for outcome in outcomes:
        if outcome.game_id in seen:
            raise ValueError(f"game {outcome.game_id} is passed twice")
        seen.add(outcome.game_id)
        payouts = outcome.payouts
        for player, amount in payouts.items():
            counts = totals.get(player)
            if counts is None:
                counts = totals[player] = [0, 0, 0, 0, 0, 0]
            counts[0] += amount
        macher = outcome.macher
        for player in outcome.active:
            won = payouts.get(player, 0) > 0
            counts = totals.get(player)
            if counts is None:
                counts = totals[player] = [0, 0, 0, 0, 0, 0]
            counts[1] += 1
            counts[2] += won
            if player == macher:
                counts[3] += 1
                counts[4] += won
            elif player in outcome.declarers:
                counts[5] += 1
    return [PlayerStanding(player, *totals[player]) for player in sorted(totals)]


@dataclass(frozen=True)
class StandingsConfig:
    """How a club ranks its season table.

    ``min_games``: players with fewer games played stay unranked (default 0: all
    are ranked). ``tie_break``: the keys to sort by, most important first, each
    one of ``"net"``, ``"per_game"``, ``"wins"``, at most once; a full tie on all
    of them shares the rank. Raises ``ValueError`` on anything else.
    """

    min_games: int = 0
    tie_break: tuple[TieBreak, ...] = DEFAULT_TIE_BREAK

    def __post_init__(self) -> None:
        if type(self.min_games) is not int or self.min_games < 0:
            raise ValueError(f"min_games must be an int >= 0, not {self.min_games!r}")
        keys = tuple(self.tie_break)
        object.__setattr__(self, "tie_break", keys)
        if not keys:
            raise ValueError("tie_break needs at least one key")
        unknown = [key for key in keys if key not in TIE_BREAKS]
        if unknown:
            raise ValueError(
                f"unknown tie-break key {unknown[0]!r}; choose from {', '.join(TIE_BREAKS)}"
            )
        if len(set(keys)) != len(keys):
            raise ValueError(f"tie_break names a key twice: {keys!r}")


@dataclass(frozen=True)
class TableRow:
    """A line of the season table; ``rank`` is ``None`` below the minimum of games."""

    rank: int | None
    standing: PlayerStanding

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``rank`` plus the standing's fields."""
        return {"rank": self.rank, **self.standing.as_dict()}


def season_table(
    rows: Iterable[PlayerStanding],
    min_games: int = 0,
    tie_break: Sequence[str] = DEFAULT_TIE_BREAK,
) -> list[TableRow]:
    """Rank the standings into the season table.

    Players with at least ``min_games`` games are ranked by the ``tie_break`` keys
    in order (more is better for each; ``per_game`` compares exactly, not the
    rounded float). Players equal on every key share a rank and the next rank
    skips accordingly (1, 2, 2, 4); within a shared rank they are listed by
    player id. Players under the minimum follow, unranked, in the same order.
    Raises ``ValueError`` on an invalid configuration (see :class:`StandingsConfig`).
    """
    # The cast only names the type; StandingsConfig checks the keys at run time.
    config = StandingsConfig(min_games, cast("tuple[TieBreak, ...]", tuple(tie_break)))

    def key(standing: PlayerStanding) -> tuple[int | Fraction, ...]:
        values: dict[str, int | Fraction] = {
            "net": standing.net,
            "per_game": standing.per_game_exact,
            "wins": standing.wins,
        }
        return tuple(values[name] for name in config.tie_break)

    def order(standing: PlayerStanding) -> tuple[tuple[int | Fraction, ...], str]:
        return tuple(-value for value in key(standing)), standing.player_id

    ordered = sorted(rows, key=order)
    ranked = [s for s in ordered if s.games >= config.min_games]
    table: list[TableRow] = []
    for position, standing in enumerate(ranked, start=1):
        tied = bool(table) and key(table[-1].standing) == key(standing)
        table.append(TableRow(table[-1].rank if tied else position, standing))
    table.extend(TableRow(None, s) for s in ordered if s.games < config.min_games)
    return table
