"""The express replay of Fuchsen records of the usual shape (``engine.express``)
against the fold: where the express path gives a result it is the fold's, to the
last field; where it gives none, the fold decides (and words any error)."""

from __future__ import annotations

import copy
import random
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.fuchsen import Fuchsen
from engine.generate import random_game
from engine.replay import VARIANTS, replay
from engine.rules import effective_rules
from tests.engine.folds import express_agrees as agree
from tests.engine.folds import express_result as express
from tests.engine.folds import folded_result as folded
from tests.engine.records import END, FIVE, call, deal, play, plays, raise_, record

FUCHSEN = cast(Fuchsen, VARIANTS["fuchsen"])
DEFAULTS = effective_rules("fuchsen", None)

LEVELS = ("kontra", "re", "supp", "mort", "hirsch", "bock", "feuer", "end")
# Cards to put in a play or a call (of every kind: trumps, plain, removed by default).
CARDS: tuple[str, ...] = ("EO", "GO", "EU", "SU", "RU", "RA", "R7", "EA", "E10", "EK", "E9", "E7")
CARDS += ("GA", "GK", "G9", "G8", "SA", "S10", "SK", "SO", "S9", "S8")
RULES: tuple[dict[str, Any], ...] = (
    {"strict_raise_windows": False},
    {"call_own_card": True},
    {"silent_bonus": 7, "min_value": 3},
    {"min_value": 0},
    {"level_values": {"re": 1}, "end_bonus": 0},
)


def mutated(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``record`` with one event changed, dropped, doubled, moved or added."""
    out = copy.deepcopy(record)
    events = out["events"]
    if len(events) < 3:
        return out
    j = rng.randrange(1, len(events))
    kind = rng.randrange(9)
    if kind == 0:
        k = rng.randrange(1, len(events))
        events[j], events[k] = events[k], events[j]
    elif kind == 1:
        del events[j]
    elif kind == 2:
        events.insert(j, copy.deepcopy(events[rng.randrange(1, len(events))]))
    elif kind == 3 and events[j].get("type") == "play":
        events[j]["card"] = rng.choice(CARDS)
    elif kind == 4 and events[j].get("type") in ("play", "raise", "call"):
        events[j]["player"] = rng.choice(events[0]["players"])
    elif kind == 5:
        level = rng.choice(LEVELS)
        events.insert(j, raise_(rng.choice(events[0]["players"]), level))
    elif kind == 6:
        events.insert(j, {"type": "end_raising"})
    elif kind == 7 and events[j].get("type") == "play":
        events[j]["fuchs"] = rng.choice([True, False])
    elif kind == 8 and events[j].get("type") == "call":
        events[j]["card"] = rng.choice(CARDS)
    if events[1].get("type") == "call" and rng.random() < 0.3:
        # The turned card: another, unknown, or none; a card played face down or not.
        turned = rng.choice([True, "E7", "E8", "G8", "S8", "RU", "R9", "EO", None])
        if turned is None:
            events[1].pop("turned", None)
        else:
            events[1]["turned"] = turned
        j = rng.randrange(2, len(events)) if len(events) > 2 else 1
        if events[j].get("type") == "play" and events[j].pop("turned", None) is None:
            events[j]["turned"] = True
    hands = events[0].get("hands") if events else None
    if hands and rng.random() < 0.3:
        # Two players' dealt cards traded, or one hand left out.
        a, b = rng.sample(sorted(hands), 2)
        if rng.random() < 0.5:
            i, k = rng.randrange(6), rng.randrange(6)
            hands[a][i], hands[b][k] = hands[b][k], hands[a][i]
        else:
            del hands[a]
    return out


@pytest.mark.parametrize("seats", [4, 5, 6])
@pytest.mark.parametrize("hands", [False, True])
def test_the_express_replay_agrees_with_the_fold_on_random_games_and_their_mutations(
    seats: int, hands: bool
) -> None:
    rng = random.Random(seats * 2 + hands)
    taken = 0
    for seed in range(120):
        game = random_game(700_000 + seed, "fuchsen", seats, hands=hands)
        taken += agree(game)
        for _ in range(4):
            agree(mutated(game, rng))
        agree({**game, "rules": rng.choice(RULES)})
    # The usual record is taken: most of these games (all but turned or alone ones).
    assert taken >= 80


@pytest.mark.parametrize("seats", [4, 5, 6])
@pytest.mark.parametrize("hands", [False, True])
def test_the_express_replay_agrees_with_the_fold_on_every_prefix_of_a_game(
    seats: int, hands: bool
) -> None:
    taken = 0
    for seed in range(40):
        game = random_game(710_000 + seed, "fuchsen", seats, hands=hands)
        events = game["events"]
        for cut in range(len(events) + 1):
            taken += agree({**game, "events": events[:cut]})
    assert taken >= 40 * 6  # from the call to the first trick's end, and the whole game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    seats=st.sampled_from([4, 5, 6]),
    changes=st.integers(0, 3),
)
def test_a_random_game_changed_a_few_times_gets_the_folds_result(
    seed: int, seats: int, changes: int
) -> None:
    rng = random.Random(seed)
    game = random_game(seed, "fuchsen", seats, hands=False)
    for _ in range(changes):
        game = mutated(game, rng)
    agree(game)


def _game(*events: Any, **rules: Any) -> dict[str, Any]:
    # emil deals, anna leads.
    return record("fuchsen", deal(FIVE, "emil"), *events, rules=rules or None)


def test_a_played_out_partner_game_is_settled_by_the_express_path() -> None:
    # carl (EO) calls SA, which dora holds; the game is played out at re.
    game = _game(
        call("carl", "SA"),
        play("anna", "EU"),
        raise_("anna", "kontra"),
        *plays("bert:GU carl:EO"),
        raise_("carl", "re"),
        *plays("dora:RU emil:GO"),
        *plays("carl:RA dora:R10 emil:RK anna:RO bert:SU"),
        *plays("bert:SO carl:SK dora:SA emil:S9 anna:S10"),
        *plays("dora:EA emil:E9 anna:E10 bert:EK carl:E8"),
        *plays("dora:GA emil:G9 anna:G10 bert:GK carl:G8"),
        *plays("dora:R8 emil:R7 anna:E7 bert:R9 carl:S8"),
    )
    result = express(game)
    assert result is not None
    assert result == folded(game)
    assert (result["reason"], result["level"], result["won"]) == ("played_out", "re", True)
    assert result["declarers"] == ["carl", "dora"]
    assert result["augen"] == {"declarers": 91, "opponents": 30}


def test_a_record_that_waits_for_the_partner_is_answered_by_the_express_path() -> None:
    game = _game(call("carl", "SA"), *plays("anna:EU bert:GU carl:EO dora:RU emil:GO"), END)
    result = express(game)
    assert result is not None
    assert result == folded(game)
    assert (result["status"], result.get("reason")) == ("in_progress", None)
    assert result["awaiting"] == "partner"


def test_a_raise_of_the_macher_side_names_the_only_possible_partner() -> None:
    game = _game(
        call("carl", "SA"),
        play("anna", "EU"),
        raise_("anna", "kontra"),
        play("bert", "GU"),
        raise_("bert", "re"),
        *plays("carl:EO dora:RU emil:GO"),
    )
    result = express(game)
    assert result is not None
    assert result == folded(game)
    assert result["declarers"] == ["carl", "bert"]
    assert result["awaiting"] == "raise_or_end"


def test_no_kontra_ends_the_game_after_the_first_trick_in_the_express_path() -> None:
    game = _game(call("carl", "SA"), *plays("anna:S10 bert:S9 carl:SK dora:SA emil:SO"), END)
    result = express(game)
    assert result is not None
    assert result == folded(game)
    assert (result["reason"], result["won"], result["declarers"]) == (
        "no_kontra",
        True,
        ["carl", "dora"],
    )


@pytest.mark.parametrize(
    ("events", "code"),
    [
        # EU is a trump: no card to call.
        ([call("carl", "EU"), *plays("anna:SA bert:S10")], "invalid_call"),
        # dora plays EA on a Schellen lead, though the record shows her S8: Farbzwang.
        (
            [call("carl", "GA"), *plays("anna:S10 bert:S9 carl:SK dora:EA emil:SO dora:S8")],
            "must_follow_suit",
        ),
        # bert says kontra before his own first card.
        ([call("carl", "SA"), play("anna", "EU"), raise_("bert", "kontra")], "invalid_raise"),
        # anna plays twice in the first trick.
        ([call("carl", "SA"), *plays("anna:EU anna:GU")], "not_your_turn"),
    ],
)
def test_a_broken_rule_is_left_to_the_fold_which_names_it(events: list[Any], code: str) -> None:
    game = _game(*events)
    assert express(game) is None
    assert replay(game).to_dict()["error"]["code"] == code


def test_a_forgotten_fuchs_is_left_to_the_fold() -> None:
    # dora plays GO without saying Fuchs, then SA, the called card: she is the Hilfer.
    game = _game(
        call("carl", "SA"),
        play("anna", "EU"),
        raise_("anna", "kontra"),
        *plays("bert:GU carl:EO"),
        raise_("carl", "re"),
        *plays("dora:GO emil:SU"),
        END,
        *plays("carl:SK dora:SA"),
    )
    assert express(game) is None
    result = replay(game).to_dict()
    assert result == folded(game)
    assert result["reason"] == "fuchs_forgotten"


def test_games_with_a_turned_card_take_the_express_path_and_get_the_folds_result() -> None:
    turned = taken = 0
    for seed in range(400):
        game = random_game(720_000 + seed, "fuchsen", 5, hands=seed % 2 == 0)
        if "turned" not in game["events"][1]:
            continue
        turned += 1
        taken += agree(game)
    # All but those whose blank the record never identifies (never played face down).
    assert turned >= 30
    assert taken >= turned * 2 // 3


@pytest.mark.parametrize("hands", [False, True])
def test_a_blank_played_face_up_or_another_card_played_face_down_is_left_to_the_fold(
    hands: bool,
) -> None:
    changed = 0
    for seed in range(600):
        game = random_game(730_000 + seed, "fuchsen", 5, hands=hands)
        events = game["events"]
        if "turned" not in events[1]:
            continue
        macher = events[1]["player"]
        face_down = [i for i, e in enumerate(events) if e.get("turned") is True]
        others = [
            i
            for i, e in enumerate(events)
            if e["type"] == "play" and e["player"] == macher and i not in face_down
        ]
        for i in face_down:
            # The blank played face up.
            up = copy.deepcopy(game)
            del up["events"][i]["turned"]
            agree(up)
            if events[1]["turned"] is not True:
                # The call named it: it must be played face down.
                assert folded(up)["status"] == "invalid"
                changed += 1
            for k in others[:2]:
                # Another of his cards played face down instead.
                moved = copy.deepcopy(up)
                moved["events"][k]["turned"] = True
                agree(moved)
                # And as well.
                both = copy.deepcopy(game)
                both["events"][k]["turned"] = True
                agree(both)
    assert changed >= 20
