"""The analysis of a played deal: "Wo wurde das Spiel verloren?" (``analysis.md``).

``analyse(record)`` gives, for every card of the record's effective play, the
double-dummy value before and after it and the best cards there, as the spec's JSON:

    {"status": "analysed", "game", "side", "players", "cards": [{"index", "player",
     "card", "before", "after", "best", "trick", "forced"}, ...]}   (Königrufen also
     "higher_contracts")
    {"status": "not_analysable", "reason": "invalid" | "hands_unknown" | "no_play" | "schurln"}

``players`` (the active players in seat order), ``trick`` (1-based), ``forced`` (the
player had one legal card) and, for Königrufen,
``higher_contracts`` (the contracts of higher value the declarer's hand would also
have made alone) are added to the spec's fields for the pages.

The derived figures the pages show are pure functions of that answer (and, for the
raises, of the record): ``card_cost``, ``turning_points``, ``lost_at``,
``value_after_raising``, ``raises_judged``, ``higher_contracts``, ``player_figures``.

The search is ``engine.solver`` on the engine's ``Board`` (``engine.replay.board_at``):
the same legal-card masks and trick winner that replay and the table view use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.board import Board
from engine.cards import CODES, INDEX, bits
from engine.fuchsen import AUGEN, CLASS, POWER, FuchsenBoard, augen_of
from engine.koenigrufen import POWER_NORMAL, POWER_TEN, TEN_HIGH, KoenigBoard
from engine.replay import RecordError, board_at, prepare, replay
from engine.rules import FUCHSEN_LEVELS, effective_rules
from engine.solver import (
    Equivalence,
    Goal,
    Solver,
    TooCostly,
    all_tricks,
    augen_goal,
    first_tricks,
    no_trick,
    settle,
)

__all__ = [
    "REASONS",
    "TooCostly",
    "analyse",
    "card_cost",
    "higher_contracts",
    "lost_at",
    "player_figures",
    "raises_judged",
    "turning_points",
    "value_after_raising",
]

REASONS = ("invalid", "hands_unknown", "no_play", "schurln")
TRICKS = 6
# Fuchsen: the Augen the Macher's side needs to win.
WINNING_AUGEN = 61
# Königrufen: the contracts a declarer might have played alone instead (analysis.md,
# "before the first card").
ALONE_CONTRACTS = ("bettler", "zehnermord", "koenigmord", "hundertermord")
_HUNDERT = tuple((INDEX[s + "K"], INDEX[s + "O"]) for s in "EGRS")


class _Deal:
    """What the analysis needs of a record: the board at the first card, the goal, the
    equivalent cards, the side, the plays (event index, seat, card) and how many of
    them go unanalysed (Bettler's first trick)."""

    def __init__(
        self,
        game: str,
        board: Board,
        goal: Goal,
        equivalence: Equivalence,
        plays: list[tuple[int, int, int]],
        skip: int,
        extra: Callable[[float | None], dict[str, Any]] | None = None,
    ) -> None:
        self.game = game
        self.board = board
        self.names = board.names
        self.goal = goal
        self.equivalence = equivalence
        self.side = tuple(q for q in range(board.n) if board.side >> q & 1)
        self.plays = plays
        self.skip = skip
        self.extra = extra


def _not_analysable(reason: str) -> dict[str, Any]:
    return {"status": "not_analysable", "reason": reason}


def analyse(record: object, *, deadline: float | None = None) -> dict[str, Any]:
    """The analysis of ``record`` (parsed JSON) as ``analysis.md`` describes it.

    Never raises for bad input (``not_analysable`` with a reason). ``deadline`` is a
    ``time.monotonic()`` value: past it the search raises ``TooCostly``.
    """
    deal = _read(record)
    if isinstance(deal, str):
        return _not_analysable(deal)
    board = deal.board
    solver = Solver(board, deal.goal, deal.equivalence, deadline)
    ours = deal.goal.ours
    settled = False
    won = 0  # the value the completed tricks have settled for the side
    cards: list[dict[str, Any]] = []
    guess: int | None = None
    for k, (index, p, card) in enumerate(deal.plays):
        assert board.to_act == p, "the board follows the record's turn order"
        if k < deal.skip:
            gain, settled = settle(board, deal.goal, card)
            won += gain
            continue
        moves = board.legal()
        if settled:
            # The value was settled by an earlier trick (Durchmarsch am Letzten after
            # trick 5): every card keeps it.
            cards.append(_entry(deal, index, p, card, won, won, moves, moves, board.tricks + 1))
            board.push(card)
            continue
        # The value after the previous card is the value before this one.
        before = guess if guess is not None else won + solver.value()
        best = 0
        played_group = 1 << card
        for rep, group in solver.groups(moves):
            if group >> card & 1:
                played_group = group  # its ``after`` is computed exactly below
                continue
            gain, end = settle(board, deal.goal, rep)
            target = before - won - gain
            if end:
                good = gain >= target if ours[p] else gain <= target
            elif ours[p]:
                good = solver.reaches(target)
            else:
                good = not solver.reaches(target + 1)
            board.pop()
            if good:
                best |= group
        trick = board.tricks + 1
        gain, settled = settle(board, deal.goal, card)
        won += gain
        if settled:
            after = won
        elif ours[p]:  # no card of his can do better than his best
            after = won + solver.value(before - won, high=before - won)
        else:
            after = won + solver.value(before - won, low=before - won)
        if after == before:
            best |= played_group
        guess = after
        cards.append(_entry(deal, index, p, card, before, after, best, moves, trick))
    out: dict[str, Any] = {
        "status": "analysed",
        "game": deal.game,
        "side": sorted(deal.names[q] for q in deal.side),
        "players": list(deal.names),
        "cards": cards,
    }
    if deal.extra is not None:
        out.update(deal.extra(deadline))
    return out


def _entry(
    deal: _Deal,
    index: int,
    p: int,
    card: int,
    before: int,
    after: int,
    best: int,
    moves: int,
    trick: int,
) -> dict[str, Any]:
    numeric = deal.game == "fuchsen"
    return {
        "index": index,
        "player": deal.names[p],
        "card": CODES[card],
        "before": before if numeric else before == 1,
        "after": after if numeric else after == 1,
        "best": sorted(CODES[c] for c in bits(best)),
        "trick": trick,
        "forced": moves & (moves - 1) == 0,
    }


# --------------------------------------------------------------------- reading a record
def _read(record: object) -> _Deal | str:
    """The deal to analyse, or the reason it cannot be."""
    result = replay(record)
    if result.status == "invalid":
        return "invalid"
    if result.status == "annulled":
        return "no_play"
    if result.game == "koenigrufen" and result.contract == "schurln":
        return "schurln"
    try:
        _, _, events, _ = prepare(record)
    except RecordError:  # pragma: no cover - replay said the record is valid
        return "invalid"
    plays = [(i, event) for i, event in events if event.get("type") == "play"]
    if not plays:
        return "no_play"
    board = board_at(record)
    if board is None:
        return "hands_unknown"
    index = board.names.index
    moves = [(i, index(event["player"]), INDEX[event["card"]]) for i, event in plays]
    assert result.game is not None
    return _DEALS[result.game](board, record, moves)


def _fuchsen(board: FuchsenBoard, _record: object, plays: list[tuple[int, int, int]]) -> _Deal:
    """The Fuchsen deal on ``board`` (a ``FuchsenBoard``): the Augen of the side."""
    ours = [bool(board.side >> q & 1) for q in range(board.n)]
    return _Deal(
        "fuchsen",
        board,
        augen_goal(ours, augen_of, TRICKS),
        Equivalence(CLASS, POWER, AUGEN, board.blank),
        plays,
        0,
    )


def _goal_of(contract: str, ours: Sequence[bool]) -> Goal:
    if contract in ("bettler", "plauderer"):
        return no_trick(ours, TRICKS)
    if contract == "durchmarsch_letzter":
        return first_tricks(ours, TRICKS - 1)
    return all_tricks(ours, TRICKS)


def _koenig_equivalence(ten_high: bool) -> Equivalence:
    power = POWER_TEN if ten_high else POWER_NORMAL
    return Equivalence(tuple(c >> 3 for c in range(len(power))), power, (0,) * len(power), -1)


def _koenigrufen(board: KoenigBoard, record: object, plays: list[tuple[int, int, int]]) -> _Deal:
    """The Königrufen deal on ``board`` (a ``KoenigBoard``): its contract's goal, and
    the higher contracts the declarer's hand would have made alone."""
    contract = board.contract
    d = board.declarer
    ours = [bool(board.side >> q & 1) for q in range(board.n)]
    # The face-down cards of a Bettler's first trick are exempt from the obligations:
    # the analysis starts with the first card of trick 2.
    skip = board.n if contract in ("bettler", "plauderer") else 0
    joined = contract in ("bettler", "plauderer") and board.joiner >= 0
    assert isinstance(record, dict)
    values = effective_rules("koenigrufen", record.get("rules"))["values"]
    assert isinstance(values, Mapping)
    played_value = int(values[contract + "_joined" if joined else contract])
    hands = list(board.hands)

    def extra(deadline: float | None) -> dict[str, Any]:
        made: list[str] = []
        for name in ALONE_CONTRACTS:
            if int(values[name]) <= played_value or name == contract:
                continue
            if name == "hundertermord" and not any(
                hands[d] >> k & 1 and hands[d] >> o & 1 for k, o in _HUNDERT
            ):
                continue
            if _alone_made(board, hands, name, deadline):
                made.append(name)
        return {"higher_contracts": made}

    return _Deal(
        "koenigrufen",
        board,
        _goal_of(contract, ours),
        _koenig_equivalence(board.ten_high),
        plays,
        skip,
        extra,
    )


# Each game's deal, by its name: the shared reading asks no board which game it is.
_DEALS: dict[str, Callable[[Any, object, list[tuple[int, int, int]]], _Deal]] = {
    "fuchsen": _fuchsen,
    "koenigrufen": _koenigrufen,
}


def _alone_made(
    board: KoenigBoard, hands: list[int], contract: str, deadline: float | None
) -> bool:
    """Would the declarer's hand (``hands`` as dealt) have made ``contract`` alone,
    leading trick 1, against best defence?"""
    d = board.declarer
    ten_high = contract in TEN_HIGH
    alone = KoenigBoard(
        board.names,
        list(hands),
        1 << d,
        contract=contract,
        declarer=d,
        joiner=-1,
        ten_high=ten_high,
        face_down=[-1] * board.n,
    )
    alone.leader = alone.to_act = d
    ours = [q == d for q in range(board.n)]
    goal = no_trick(ours, TRICKS) if contract == "bettler" else all_tricks(ours, TRICKS)
    return Solver(alone, goal, _koenig_equivalence(ten_high), deadline).reaches(1)


# --------------------------------------------------------------------- derived figures
def _wins(analysis: Mapping[str, Any], value: Any) -> bool:
    """Does ``value`` mean the side makes its goal?"""
    if analysis["game"] == "fuchsen":
        return bool(value >= WINNING_AUGEN)
    return bool(value)


def card_cost(analysis: Mapping[str, Any], entry: Mapping[str, Any]) -> int:
    """What the card of ``entry`` cost its side: Fuchsen the Augen given away (for a
    card of the Macher's side ``before - after``, for an opponent's ``after -
    before``); Königrufen 1 if it gave the contract (or its defeat) away, else 0.
    Never negative; 0 for a card in ``best``."""
    if entry["card"] in entry["best"]:
        return 0
    before, after = int(entry["before"]), int(entry["after"])
    if entry["player"] in analysis["side"]:
        return max(0, before - after)
    return max(0, after - before)


def turning_points(analysis: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The cards after which the outcome under best play changed (Fuchsen: ``before >=
    61`` differs from ``after >= 61``; Königrufen: ``before`` differs from ``after``),
    in the order played."""
    if analysis.get("status") != "analysed":
        return []
    return [
        entry
        for entry in analysis["cards"]
        if _wins(analysis, entry["before"]) != _wins(analysis, entry["after"])
    ]


def lost_at(analysis: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """ "Hier wurde das Spiel verloren": the first turning point made by the side that
    ends on the losing side under best play after the last card, or None."""
    points = turning_points(analysis)
    if not points:
        return None
    side_wins = _wins(analysis, analysis["cards"][-1]["after"])
    for entry in points:
        ours = entry["player"] in analysis["side"]
        if ours != side_wins:
            return entry
    return None


def value_after_raising(analysis: Mapping[str, Any]) -> int | None:
    """Fuchsen: the value once the first trick is collected (the raising is over), or
    None when the record did not complete the first trick."""
    if analysis.get("status") != "analysed" or analysis["game"] != "fuchsen":
        return None
    first = [entry for entry in analysis["cards"] if entry["trick"] == 1]
    if len(first) < len(analysis["players"]):
        return None
    return int(first[-1]["after"])


def raises_judged(analysis: Mapping[str, Any], record: object) -> list[dict[str, Any]]:
    """Fuchsen: each effective raise of ``record`` against the cards: ``{"index",
    "player", "level", "by_side" (the Macher's side said it), "value" (at the end of
    the raising), "right"}``. A raise is against the cards (``right`` false) when the
    side that said it loses under best play after the first trick."""
    value = value_after_raising(analysis)
    if value is None:
        return []
    try:
        _, _, events, _ = prepare(record)
    except RecordError:
        return []
    out: list[dict[str, Any]] = []
    macher_side_wins = value >= WINNING_AUGEN
    for index, event in events:
        if event.get("type") != "raise":
            continue
        level = event.get("level")
        by_side = FUCHSEN_LEVELS.index(level) % 2 == 1 if level in FUCHSEN_LEVELS else False
        out.append(
            {
                "index": index,
                "player": event.get("player"),
                "level": level,
                "by_side": by_side,
                "value": value,
                "right": by_side == macher_side_wins,
            }
        )
    return out


def higher_contracts(analysis: Mapping[str, Any]) -> list[str]:
    """Königrufen: the contracts of higher value the declarer's hand would also have
    made alone against best defence ("Mit diesen Karten wäre Königmord gegangen")."""
    return list(analysis.get("higher_contracts", []))


def player_figures(analysis: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Per player of the analysed cards: ``cards`` (not forced), ``best`` (of those, in
    ``best``) and ``given_away`` (the sum of ``card_cost``)."""
    out: dict[str, dict[str, int]] = {}
    if analysis.get("status") != "analysed":
        return out
    for entry in analysis["cards"]:
        figures = out.setdefault(entry["player"], {"cards": 0, "best": 0, "given_away": 0})
        if entry["forced"]:
            continue
        figures["cards"] += 1
        figures["best"] += entry["card"] in entry["best"]
        figures["given_away"] += card_cost(analysis, entry)
    return out
