"""The express replay of Königrufen records of the usual shape
(``engine.express_koenigrufen``) against the fold: where the express path gives a
result it is the fold's, to the last field; where it gives none, the fold decides (and
words any error). And it does give one for most records, or it would be no express."""

from __future__ import annotations

import copy
import random
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import CODES
from engine.express_koenigrufen import koenigrufen_express
from engine.generate import random_game
from engine.koenigrufen import CONTRACTS, DECK, Koenigrufen
from engine.replay import VARIANTS, replay
from engine.rules import effective_rules
from tests.engine.folds import express_agrees as agree
from tests.engine.folds import express_result as express
from tests.engine.folds import folded_result as folded
from tests.engine.records import FOUR, HANDS4, bid, deal, join, pass_, plays, record

KOENIG = cast(Koenigrufen, VARIANTS["koenigrufen"])
NAMES = ["anna", "bert", "carl", "dora"]
# The deck's cards, and two codes that are none of its cards.
CARDS = [code for c, code in enumerate(CODES) if DECK >> c & 1] + ["E7", "XY"]
RULES: tuple[dict[str, Any] | None, ...] = (
    None,
    {"values": {"koenigmord": 5}},
    {"values": {"bettler_joined": 7, "plauderer": 3, "schurln": 4, "hundertermord": 1}},
    {"values": {"durchmarsch_letzter": 11, "zehnermord": 0, "plauderer_joined": 13}},
)
ODD_EVENTS: tuple[dict[str, Any], ...] = (
    {"type": "undo"},
    {"type": "annul"},
    {"type": "forfeit", "player": "bert"},
    {"type": "show", "player": "carl", "cards": ["EA"]},
    {"type": "show", "player": "dora", "cards": []},
    {"type": "raise", "player": "anna", "level": "kontra"},
    {"type": "deal", "dealer": "anna", "players": NAMES},
)


def mutated(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``record`` with one event changed, dropped, doubled, moved or added."""
    out = copy.deepcopy(record)
    events = out["events"]
    if not events:
        return out
    j = rng.randrange(len(events))
    # An event made no object by an earlier change takes no field change.
    event = events[j] if isinstance(events[j], dict) else {}
    kind = rng.randrange(16)
    if kind == 0:
        k = rng.randrange(len(events))
        events[j], events[k] = events[k], events[j]
    elif kind == 1:
        del events[j]
    elif kind == 2:
        events.insert(j, copy.deepcopy(events[rng.randrange(len(events))]))
    elif kind == 3 and "card" in event:
        event["card"] = rng.choice(CARDS)
    elif kind == 4 and "player" in event:
        event["player"] = rng.choice([*NAMES, "zeno"])
    elif kind == 5:
        contract = rng.choice(CONTRACTS)
        events.insert(j, bid(rng.choice(NAMES), contract))
    elif kind == 6:
        events.insert(j, {"type": rng.choice(["pass", "join"]), "player": rng.choice(NAMES)})
    elif kind == 7 and event.get("type") == "bid":
        event["contract"] = rng.choice([*CONTRACTS, "schurln"])
    elif kind == 8 and event.get("type") == "bid":
        event["called"] = rng.choice(CARDS)
    elif kind == 9 and event.get("type") in ("bid", "join"):
        event["card"] = rng.choice(CARDS)
    elif kind == 10:
        field = rng.choice(["card", "called", "player", "contract", "extra", "type"])
        event[field] = rng.choice([None, 1, True, "EA", "x", ["EA"]])
    elif kind == 11 and event:
        event.pop(rng.choice(list(event)))
    elif kind == 12 and event.get("type") == "deal":
        event["dealer"] = rng.choice([*NAMES, "zeno"])
        if rng.random() < 0.3:
            event["players"] = rng.choice([NAMES[1:] + NAMES[:1], NAMES[:3], [*NAMES, "emil"]])
    elif kind == 13:
        events.insert(j, copy.deepcopy(rng.choice(ODD_EVENTS)))
    elif kind == 14:
        events[j] = rng.choice([None, [], "play", 3])
    elif kind == 15 and event.get("type") in ("pass", "join", "bid"):
        # Another word in the same turn: the auction's order holds.
        events[j] = {"type": rng.choice(["pass", "join"]), "player": event["player"]}
    return out


@pytest.mark.parametrize("hands", [False, True])
def test_the_express_replay_agrees_with_the_fold_on_random_games_and_their_mutations(
    hands: bool,
) -> None:
    rng = random.Random(hands)
    taken = changed_taken = 0
    for seed in range(300):
        game = random_game(810_000 + seed, "koenigrufen", 4, hands=hands)
        taken += agree(game)
        for _ in range(5):
            changed = mutated(game, rng)
            if rng.random() < 0.3:
                changed = mutated(changed, rng)
            changed_taken += agree(changed)
        taken += agree({**game, "rules": rng.choice(RULES)})
    # The usual record is taken: all but those whose partner the record leaves open
    # (with hands he is always known).
    assert taken >= (600 if hands else 540), taken
    # And many a changed one that stays valid (a prefix, another card or word that
    # keeps the rules): the comparison covers what the express path accepts.
    assert changed_taken >= 200, changed_taken


def test_the_express_path_takes_nearly_every_complete_game_without_hands() -> None:
    # Called directly, so that a path that silently declines everything fails here.
    rules = effective_rules("koenigrufen", None)
    games = [random_game(820_000 + seed, "koenigrufen", 4, hands=False) for seed in range(200)]
    taken = [koenigrufen_express(KOENIG, rules, game["events"]) for game in games]
    assert sum(result is not None for result in taken) >= 180
    finished = [result for result in taken if result is not None and result.status == "finished"]
    # Every way a game ends is among them: decided early, played out, schurln.
    assert {result.reason for result in finished} == {"decided", "played_out"}
    assert "schurln" in {result.contract for result in finished}
    assert {True, False, None} <= {result.won for result in finished}


@pytest.mark.parametrize("contract", [*CONTRACTS, "schurln"])
def test_the_express_replay_agrees_with_the_fold_on_every_contract(contract: str) -> None:
    rng = random.Random(contract)
    for seed in range(12):
        game = random_game(830_000 + seed, "koenigrufen", 4, contract=contract, hands=seed % 3 == 0)
        agree(game)
        for _ in range(3):
            agree(mutated(game, rng))
        agree({**game, "rules": rng.choice(RULES)})


def test_the_express_replay_agrees_with_the_fold_on_every_prefix_of_a_game() -> None:
    taken = total = 0
    for seed in range(60):
        game = random_game(840_000 + seed, "koenigrufen", 4, hands=seed % 4 == 0)
        events = game["events"]
        for cut in range(len(events) + 1):
            taken += agree({"game": "koenigrufen", "events": events[:cut]})
            total += 1
    # Every prefix but the empty record and those of an open partner is taken.
    assert taken >= 0.9 * total, (taken, total)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    hands=st.booleans(),
    changes=st.integers(0, 3),
    cut=st.floats(0.0, 1.0),
)
def test_a_random_game_changed_a_few_times_and_cut_gets_the_folds_result(
    seed: int, hands: bool, changes: int, cut: float
) -> None:
    rng = random.Random(seed)
    game = random_game(seed, "koenigrufen", 4, hands=hands)
    for _ in range(changes):
        game = mutated(game, rng)
    events = game["events"]
    agree({**game, "events": events[: round(cut * len(events))]})
    agree(game)


# Example 22's deal (``HANDS4``), anna dealing: bert, Vorhand, holds the aces and kings.
def _game(*events: Any, hands: bool = False, **rules: Any) -> dict[str, Any]:
    dealt = deal(FOUR, "anna", HANDS4 if hands else None)
    return record("koenigrufen", dealt, *events, rules=rules or None)


ALL_PASS = [pass_("carl"), pass_("dora"), pass_("anna")]


def test_a_koenigmord_played_out_is_settled_by_the_express_path() -> None:
    game = _game(
        bid("bert", "koenigmord"),
        *ALL_PASS,
        plays("bert:EA carl:EU dora:E9 anna:S9"),
        plays("bert:EK carl:EO dora:E10 anna:S10"),
        plays("bert:GA carl:GU dora:G9 anna:R9"),
        plays("bert:GK carl:GO dora:G10 anna:R10"),
        plays("bert:RA carl:SA dora:SO anna:RU"),
        plays("bert:RK carl:SK dora:SU anna:RO"),
    )
    result = express(game)
    assert result == folded(game)
    assert result is not None
    assert (result["won"], result["reason"], result["tricks"]) == (True, "played_out", 6)
    assert result["payouts"] == {"anna": -70, "bert": 210, "carl": -70, "dora": -70}


def test_a_zehnermord_lost_in_the_first_trick_is_decided_by_the_express_path() -> None:
    # Ten-high: dora's E10 beats bert's EK, and she must play it.
    game = _game(
        bid("bert", "zehnermord"),
        *ALL_PASS,
        plays("bert:EK carl:EU dora:E10 anna:S9"),
        values={"zehnermord": 25},
    )
    result = express(game)
    assert result == folded(game)
    assert result is not None
    assert (result["won"], result["reason"], result["tricks"], result["value"]) == (
        False,
        "decided",
        1,
        25,
    )
    assert list(result["payouts"]) == FOUR  # in seat order, as the fold gives them


def test_a_plauderer_with_a_joiner_and_face_down_cards_is_settled_by_the_express_path() -> None:
    # carl's bettler (GU face down), which dora joins, is overbid by anna's plauderer
    # (R9 face down); carl joins that with GU. Their first cards are those, and carl's
    # is exempt from following suit.
    game = _game(
        pass_("bert"),
        bid("carl", "bettler", card="GU"),
        join("dora"),
        bid("anna", "plauderer", card="R9"),
        join("carl", card="GU"),
        plays("anna:R9 bert:RA carl:GU dora:SU"),
        hands=True,
    )
    result = express(game)
    assert result == folded(game)
    assert result is not None
    assert result["status"] == "in_progress"
    assert (result["declarers"], result["to_act"]) == (["anna", "carl"], "bert")


def test_a_stichzwang_broken_as_a_later_card_shows_is_left_to_the_fold() -> None:
    # dora keeps E10 back in the first trick (ten-high, it beats EK), and plays it later.
    game = _game(
        bid("bert", "zehnermord"),
        *ALL_PASS,
        plays("bert:EK carl:EU dora:E9 anna:S9"),
        plays("bert:EA carl:EO dora:E10 anna:S10"),
    )
    assert express(game) is None
    assert replay(game).to_dict()["error"]["code"] == "must_overtake"


def test_a_hundert_bid_without_k_and_o_in_a_dealt_hand_is_left_to_the_fold() -> None:
    game = _game(pass_("bert"), bid("carl", "hundertermord"), hands=True)
    assert express(game) is None
    assert replay(game).to_dict()["error"]["code"] == "invalid_bid"


def test_a_durchmarsch_whose_called_card_nobody_plays_is_left_to_the_fold() -> None:
    game = _game(
        bid("bert", "durchmarsch", called="SA"),
        *ALL_PASS,
        plays("bert:EA carl:EU dora:E9 anna:S9"),
    )
    assert express(game) is None
    assert agree(game) is False


def test_an_auction_under_way_is_answered_by_the_express_path() -> None:
    game = _game(pass_("bert"), bid("carl", "bettler"))
    result = express(game)
    assert result == folded(game)
    assert result == {
        "status": "in_progress",
        "game": "koenigrufen",
        "awaiting": "bid",
        "to_act": "dora",
    }


def test_a_join_of_a_contract_other_than_bettler_or_plauderer_is_left_to_the_fold() -> None:
    game = _game(bid("bert", "koenigmord"), join("carl"))
    assert express(game) is None
    assert replay(game).to_dict()["error"]["code"] == "invalid_bid"


def test_a_second_join_is_left_to_the_fold() -> None:
    game = _game(bid("bert", "bettler"), join("carl"), join("dora"))
    assert express(game) is None
    assert replay(game).to_dict()["error"]["code"] == "invalid_bid"


def test_a_card_after_the_deciding_trick_is_left_to_the_fold() -> None:
    game = _game(
        bid("bert", "zehnermord"),
        *ALL_PASS,
        plays("bert:EK carl:EU dora:E10 anna:S9 dora:E9"),
    )
    assert express(game) is None
    assert replay(game).to_dict()["error"]["code"] == "game_finished"


def test_a_durchmarsch_letzter_whose_last_trick_another_takes_names_him_partner() -> None:
    # bert takes tricks 1 to 5 with his aces and EK; dora's GK beats his G9 in the last.
    game = _game(
        bid("bert", "durchmarsch_letzter"),
        *ALL_PASS,
        plays("bert:EA carl:EO dora:EU anna:E10"),
        plays("bert:GA carl:GO dora:GU anna:G10"),
        plays("bert:RA carl:RK dora:RO anna:RU"),
        plays("bert:SA carl:SK dora:SO anna:SU"),
        plays("bert:EK carl:E9 dora:R10 anna:S10"),
        plays("bert:G9 carl:R9 dora:GK anna:S9"),
    )
    result = express(game)
    assert result == folded(game)
    assert result is not None
    assert (result["declarers"], result["won"], result["reason"]) == (
        ["bert", "dora"],
        True,
        "played_out",
    )
    assert result["payouts"] == {"anna": -40, "bert": 40, "carl": -40, "dora": 40}


def test_a_joiner_who_plays_another_card_than_he_laid_down_is_left_to_the_fold() -> None:
    game = _game(
        pass_("bert"),
        bid("carl", "bettler"),
        pass_("dora"),
        bid("anna", "plauderer", card="R9"),
        join("carl", card="GU"),
        plays("anna:R9 bert:RA carl:GO"),
    )
    assert express(game) is None
    assert replay(game).to_dict()["error"]["code"] == "face_down_card_mismatch"


def test_a_called_card_nobody_can_hold_is_left_to_the_fold() -> None:
    # anna's durchmarsch (overbid) calls S9: carl, dora and bert show six cards each
    # without it, and anna has not played her last card yet.
    game = _game(
        bid("bert", "bettler"),
        pass_("carl"),
        pass_("dora"),
        bid("anna", "durchmarsch", called="S9"),
        bid("bert", "koenigmord"),
        pass_("anna"),
        plays("bert:EA carl:EU dora:E9 anna:S10"),
        plays("bert:EK carl:EO dora:E10 anna:R9"),
        plays("bert:GA carl:GU dora:G9 anna:R10"),
        plays("bert:GK carl:GO dora:G10 anna:RU"),
        plays("bert:RA carl:SA dora:SO anna:RO"),
        plays("bert:RK carl:SK dora:SU"),
    )
    assert express(game) is None
    assert replay(game).to_dict()["error"] == {
        "index": 4,
        "code": "invalid_bid",
        "message": "nobody can hold S9: every other hand is known without it",
    }


def test_a_seventh_card_laid_face_down_is_left_to_the_fold() -> None:
    # anna lays S9 and then RO face down and plays five other cards: seven in her hand.
    game = record(
        "koenigrufen",
        deal(FOUR, "dora"),
        bid("anna", "bettler", card="S9"),
        bid("bert", "durchmarsch_letzter"),
        pass_("carl"),
        pass_("dora"),
        bid("anna", "plauderer", card="RO"),
        bid("bert", "koenigmord"),
        pass_("anna"),
        plays("bert:EA carl:EU dora:E9 anna:SK"),
        plays("bert:EK carl:EO dora:E10 anna:S10"),
        plays("bert:GA carl:GU dora:G9 anna:R9"),
        plays("bert:GK carl:GO dora:G10 anna:R10"),
        plays("bert:RA carl:SA dora:SO anna:RU"),
    )
    assert express(game) is None
    assert replay(game).to_dict()["error"]["code"] == "card_not_in_hand"
