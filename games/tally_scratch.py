""" "Ergebnis eintragen" with no network: every choice a tally from scratch may need,
drawn at page load from the engine (``static/js/offtally.js`` shows the block for the
choices made and queues the events they make, unchecked; the engine judges them when
they are sent)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.urls import reverse

from clubs.models import Club, GameKind
from games import selectors
from games.models import Evening
from games.tally_form import Choices, TallyForm, seat_rows, table_state
from games.tally_fuchsen import called_card_rows
from games.tally_koenig import ALL_PASS, KINGS, deck_codes, koenig_auction
from games.vocabulary import KOENIG_CONTRACTS, WITH_CALLED, card_view, contract_names


def offered_form(
    kind: GameKind, state: dict[str, Any], names: dict[str, str], club: Club
) -> TallyForm:
    """An empty form holding the tally fields the engine offers on ``state`` (a table
    view), decorated for the page: one block of the offline form drawn in advance."""
    tally = state.get("tally") or {}
    form = TallyForm(kind=kind, choices=Choices.from_post(QueryDict()), club=club, names=names)
    form.tally, form.fields = tally, dict(tally.get("fields") or {})
    form.decorate()
    # Offline the Fuchs is its own chip (static/js/offtally.js): the levels come once.
    ladder = form.extra.get("ladder")
    if ladder is not None:
        form.extra["ladder"] = [step for step in ladder if not step["with_fuchs"]]
    return form


def fuchsen_scratch(
    evening: Evening, record: dict[str, Any], names: dict[str, str], club: Club
) -> dict[str, Any]:
    """Every choice a Fuchsen tally from scratch may need, for filling it with no network.

    Drawn at page load from the engine's table view: the dealers and Macher to pick,
    the cards the view lets be called (or alone), and for each Macher the tally
    fields the view offers after a call of a card and after playing alone (their
    labels from the vocabulary). The page only shows the block for the choices made
    and queues the events they make, unchecked; the engine judges them when they
    are sent. The fields do not depend on which card is called (the Macher and
    "alone" decide them): tests/games/test_tally_from_scratch_offline.py holds the
    engine to that.
    """
    deal = record["events"][0]
    state = table_state(record)
    seats = seat_rows(state, names)
    calls = (state.get("legal") or {}).get("calls") or {}
    called_cards = called_card_rows(record, calls, len(seats), club)
    first_card = next(iter(calls.get("cards") or []), None)
    blocks = []
    for seat in seats:
        ways: list[tuple[str, dict[str, Any]]] = []
        if first_card is not None:
            ways.append(("card", {"card": first_card}))
        if calls.get("alone"):
            ways.append(("alone", {"alone": True}))
        for way, call in ways:
            event = {"type": "call", "player": seat["id"], **call}
            after = table_state({**record, "events": [*record["events"], event]})
            form = offered_form(GameKind.FUCHSEN, after, names, club)
            blocks.append(
                {
                    "key": f"{seat['id']}|{way}",
                    "fields": form.fields,
                    "ladder": form.extra.get("ladder", []),
                    "partners": form.extra.get("partners", []),
                    "augen_min": form.extra.get("augen_min", 0),
                    "augen_max": form.extra.get("augen_max", 121),
                }
            )
    return {
        "game": GameKind.FUCHSEN,
        "api": reverse("game-start", args=[evening.pk]),
        "evening": evening.pk,
        "deal": deal,
        "dealers": [{"id": p, "name": names.get(p, p)} for p in deal["players"]],
        "dealer_fixed": "sitting_out" in deal,
        "seats": seats,
        "called_cards": called_cards,
        "can_alone": bool(calls.get("alone")),
        "blocks": blocks,
    }


def koenig_scratch(
    evening: Evening, record: dict[str, Any], names: dict[str, str], club: Club
) -> dict[str, Any]:
    """Every choice a Königrufen tally from scratch may need, for filling it with no network.

    Drawn at page load from the engine: for each dealer and declarer the contracts the
    table view lets him bid when the word first comes to him (the ones before him
    passing), and for each the auction the engine leads to its end with everyone else
    passing (``koenig_auction``: the bid and pass events, speaker by speaker), plus
    everyone passing (Schurln); the cards the view accepts as called for a contract
    that calls one; and for each declarer and contract the tally fields the view
    offers once that auction is over (won, the partner candidates, the Schurln losers),
    labelled from the vocabulary. The page shows only the block for the choices made and
    queues the events, unchecked; the engine judges them when they are sent.

    The fields are drawn for the proposed dealer and the first callable card: they do not
    depend on the dealer nor on which card is called (the declarer and the contract
    decide them) — tests/games/test_koenig_tally_from_scratch_offline.py holds the engine
    to that. Bidding against each other and joining a Bettler (mitbetteln) are not
    offered: for those the form that asks the server at each bid is needed.
    """
    deal = record["events"][0]
    face = club.card_face
    first = table_state(record)
    seats = seat_rows(first, names)
    opener = str(first.get("to_act") or "")
    deck = deck_codes()
    called: dict[str, list[str]] = {}
    for contract in WITH_CALLED:
        trial = {"type": "bid", "player": opener, "contract": contract}
        called[contract] = [
            code
            for code in deck
            if selectors.record_outcome(
                record={**record, "events": [deal, {**trial, "called": code}]}
            ).get("status")
            != "invalid"
        ]
    auctions: dict[str, list[dict[str, Any]]] = {}
    contracts: dict[str, list[str]] = {}
    for dealer in deal["players"]:
        dealt = {**record, "events": [{**deal, "dealer": dealer}]}
        for seat in seats:
            state, passed = table_state(dealt), []
            while state.get("awaiting") == "bid" and str(state.get("to_act")) != seat["id"]:
                passed.append({"type": "pass", "player": str(state.get("to_act"))})
                state = table_state({**dealt, "events": [*dealt["events"], *passed]})
            offered = []
            for contract in (state.get("legal") or {}).get("bids", []):
                bid: dict[str, Any] = {"contract": contract}
                if contract in WITH_CALLED:
                    if not called.get(contract):
                        continue
                    bid["called"] = called[contract][0]
                rest = koenig_auction(
                    {**dealt, "events": [*dealt["events"], *passed]}, seat["id"], bid
                )
                if rest is not None:
                    auctions[f"{dealer}|{seat['id']}|{contract}"] = [*passed, *rest]
                    offered.append(contract)
            contracts[f"{dealer}|{seat['id']}"] = offered
        everyone = koenig_auction(dealt, None, None)
        if everyone is not None:
            auctions[f"{dealer}|{ALL_PASS}|schurln"] = everyone
            contracts[f"{dealer}|{ALL_PASS}"] = ["schurln"]
    blocks = []
    for key, auction in auctions.items():
        dealer, declarer, contract = key.split("|")
        if dealer != deal["dealer"]:
            continue
        after = table_state({**record, "events": [deal, *auction]})
        form = offered_form(GameKind.KOENIGRUFEN, after, names, club)
        blocks.append(
            {
                "key": f"{declarer}|{contract}",
                "fields": form.fields,
                "required": [f for f, spec in form.fields.items() if spec.get("required")],
                "partners": form.extra.get("partners", []),
                "losers": form.extra.get("losers", []),
            }
        )
    names_of = contract_names()
    shown = {c for offered in contracts.values() for c in offered}
    return {
        "game": GameKind.KOENIGRUFEN,
        "api": reverse("game-start", args=[evening.pk]),
        "evening": evening.pk,
        "deal": deal,
        "dealers": [{"id": p, "name": names.get(p, p)} for p in deal["players"]],
        "dealer_fixed": "sitting_out" in deal,
        "seats": seats,
        "all_pass": ALL_PASS,
        "contract_list": [
            {"contract": c, "name": names_of.get(c, c)} for c in KOENIG_CONTRACTS if c in shown
        ],
        "contracts": contracts,
        "auctions": auctions,
        "called": called,
        "kings": [card_view(k, face, GameKind.KOENIGRUFEN) for k in KINGS],
        "others": [card_view(k, face, GameKind.KOENIGRUFEN) for k in deck if k not in KINGS],
        "blocks": blocks,
    }
