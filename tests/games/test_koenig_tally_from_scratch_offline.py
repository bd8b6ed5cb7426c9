"""The offline Königrufen tally form's choices are the engine's: the auctions it queues
are the engine's, speaker by speaker, and one block of fields per declarer and contract
covers every dealer and every card the table view lets be called."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Club, GameKind
from engine import replay
from engine.koenigrufen import CONTRACTS, WITH_CALLED
from engine.view import table_view
from games import selectors
from games.access import player_names
from games.tally_koenig import ALL_PASS, koenig_auction
from games.tally_scratch import koenig_scratch
from tests.games.factories import seated_evening

PLAYERS = ["1", "2", "3", "4"]
DECK = [s + r for s in "EGRS" for r in ("A", "K", "O", "U", "10", "9")]


def _dealt(dealer: str) -> dict[str, Any]:
    deal = {"type": "deal", "dealer": dealer, "players": PLAYERS}
    return {"game": "koenigrufen", "rules": None, "events": [deal]}


def _tally_after(dealer: str, declarer: str, bid: dict[str, Any]) -> Any:
    record = _dealt(dealer)
    auction = koenig_auction(record, declarer, bid)
    assert auction is not None
    return table_view({**record, "events": [*record["events"], *auction]}).to_dict()["tally"]


def _callable(record: dict[str, Any], player: str, contract: str) -> list[str]:
    bid = {"type": "bid", "player": player, "contract": contract}
    return [
        card
        for card in DECK
        if replay({**record, "events": [*record["events"], {**bid, "called": card}]}).status
        != "invalid"
    ]


def test_the_tally_offered_after_the_auction_does_not_depend_on_which_card_is_called() -> None:
    record = _dealt("1")
    for declarer in PLAYERS:
        for contract in sorted(WITH_CALLED):
            cards = _callable(record, table_view(record).to_dict()["to_act"], contract)
            assert cards
            first = _tally_after("1", declarer, {"contract": contract, "called": cards[0]})
            assert first is not None and "partner" in first["fields"]
            for card in cards[1:]:
                bid = {"contract": contract, "called": card}
                assert _tally_after("1", declarer, bid) == first


def test_the_cards_that_may_be_called_do_not_depend_on_the_dealer_or_the_bidder() -> None:
    opener = table_view(_dealt("1")).to_dict()["to_act"]
    drawn = {c: _callable(_dealt("1"), opener, c) for c in WITH_CALLED}
    for dealer in PLAYERS:
        record = _dealt(dealer)
        state = table_view(record).to_dict()
        while state["awaiting"] == "bid":  # each speaker in turn, the ones before him passed
            speaker = state["to_act"]
            for contract in WITH_CALLED:
                assert _callable(record, speaker, contract) == drawn[contract]
            record = {**record, "events": [*record["events"], {"type": "pass", "player": speaker}]}
            state = table_view(record).to_dict()


def test_the_tally_offered_after_the_auction_does_not_depend_on_the_dealer() -> None:
    for declarer in PLAYERS:
        for contract in CONTRACTS:
            bid: dict[str, Any] = {"contract": contract}
            if contract in WITH_CALLED:
                bid["called"] = "EK"
            first = _tally_after("1", declarer, bid)
            for dealer in PLAYERS[1:]:
                assert _tally_after(dealer, declarer, bid) == first


def test_the_auction_drawn_is_refused_for_a_declarer_the_word_never_reaches() -> None:
    record = _dealt("1")
    # Everyone before the declarer passed and so did he: the engine ends the auction there.
    passed = {**record, "events": [*record["events"], {"type": "pass", "player": "2"}]}
    assert koenig_auction(passed, "2", {"contract": "bettler"}) is None


@pytest.fixture
def drawn(club: Club) -> tuple[dict[str, Any], dict[str, Any]]:
    evening = seated_evening(club, ("Anna", "Bert", "Carl", "Dora"), game_kind=GameKind.KOENIGRUFEN)
    deal = selectors.next_deal(evening=evening).event
    assert deal is not None
    record = {"game": GameKind.KOENIGRUFEN, "rules": None, "events": [deal]}
    return record, koenig_scratch(evening, record, player_names(club), club)


def test_every_auction_the_page_draws_ends_with_the_declarer_holding_the_contract(
    drawn: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, scratch = drawn
    deal = record["events"][0]
    assert set(scratch["auctions"]) == {
        f"{dealer}|{declarer}|{contract}"
        for key, offered in scratch["contracts"].items()
        for dealer, declarer in [key.split("|")]
        for contract in offered
    }
    assert len(scratch["auctions"]) == 4 * (4 * len(CONTRACTS) + 1)
    for key, auction in scratch["auctions"].items():
        dealer, declarer, contract = key.split("|")
        result = replay({**record, "events": [{**deal, "dealer": dealer}, *auction]}).to_dict()
        assert result["status"] == "in_progress" and result["awaiting"] == "play"
        assert result["contract"] == contract
        if declarer == ALL_PASS:
            assert all(e["type"] == "pass" for e in auction)
        else:
            assert result["declarers"][0] == declarer


def test_each_block_of_fields_is_the_tally_the_table_view_offers_after_its_auction(
    drawn: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, scratch = drawn
    deal = record["events"][0]
    blocks = {b["key"]: b for b in scratch["blocks"]}
    assert len(blocks) == 4 * len(CONTRACTS) + 1
    for key, auction in scratch["auctions"].items():
        dealer, declarer, contract = key.split("|")
        if dealer != deal["dealer"]:
            continue
        tally = table_view({**record, "events": [deal, *auction]}).to_dict()["tally"]
        block = blocks[f"{declarer}|{contract}"]
        assert block["fields"] == tally["fields"]
        assert [p["id"] for p in block["partners"]] == tally["fields"].get("partner", {}).get(
            "choices", []
        )
        assert [p["id"] for p in block["losers"]] == tally["fields"].get("losers", {}).get(
            "choices", []
        )
    assert scratch["called"] == {
        c: _callable(record, table_view(record).to_dict()["to_act"], c) for c in WITH_CALLED
    }
