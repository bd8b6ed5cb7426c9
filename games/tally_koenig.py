""" "Ergebnis eintragen" for Königrufen: who played what (the quick result, the engine
leading the auction that ends so) or the whole auction bid by bid, then the tally.

The engine alone says who speaks next, what he may bid or join, and when the auction
is over; these steps only lay the taps over its table view.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from clubs.models import GameKind
from games import selectors
from games.presenters import deck_rows
from games.tally_form import TallyForm, error_text, seat_rows, table_state
from games.vocabulary import WITH_CALLED, card_view, contract_names

# The called cards offered at once (the name of the game); the others fold away.
KINGS = ("EK", "GK", "RK", "SK")

# The declarer "nobody" stands for Schurln (everyone passes).
ALL_PASS = "-"


def deck_codes() -> list[str]:
    """Every card of the Königrufen pack, in the deck's order."""
    return [code for row in deck_rows(GameKind.KOENIGRUFEN, 4, []) for code in row if code]


class KoenigTallyForm(TallyForm):
    """Königrufen: the declarer, his contract, the called card and a joiner (or the
    whole auction), then the tally."""

    def choose_contract(self, record: dict[str, Any]) -> None:
        state = table_state(record)
        self.seats = seat_rows(state, self.names)
        if not self.choices.get("full") and not self.choices.get("auction"):
            self.quick_result(record, state)
        elif self.auction(record, state):
            self.ask_tally(record)

    def kings_and_others(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The cards a bid may call: the kings at once, the others folded away."""
        face = self.club.card_face
        kings = [card_view(k, face, GameKind.KOENIGRUFEN) for k in KINGS]
        others = [card_view(k, face, GameKind.KOENIGRUFEN) for k in deck_codes() if k not in KINGS]
        return kings, others

    # --- The whole auction ----------------------------------------------------------------------

    def auction(self, record: dict[str, Any], state: dict[str, Any]) -> bool:
        """The auction tapped bid by bid; True once the engine says it is over."""
        c, names = self.choices, self.names
        self.extra["full"] = True
        history: list[str] = []
        kept: list[str] = []
        for step in [s for s in c.get("auction").split("|") if s]:
            if state.get("awaiting") != "bid" or not state.get("to_act"):
                break
            event = auction_event(step, str(state["to_act"]))
            if event is None:
                break
            after = table_state({**record, "events": [*record["events"], *self.events, event]})
            if after.get("status") == "invalid":
                self.error = error_text((after.get("result") or {}).get("error") or {}, self.club)
                break
            self.events.append(event)
            kept.append(step)
            history.append(self.auction_line(event))
            state = after
        c.values["auction"] = "|".join(kept)
        self.extra["history"] = history
        if state.get("awaiting") == "bid":
            self.next_bid(state)
            return False
        self.extra["contract"] = contract_names().get(str(state.get("contract") or ""), "")
        declarer = str(state.get("declarer") or "")
        self.extra["declarer"] = names.get(declarer, declarer)
        return True

    def next_bid(self, state: dict[str, Any]) -> None:
        """What the player to speak may say: the view's bids, pass and join."""
        self.step = "auction"
        legal = state.get("legal") or {}
        to_act = str(state.get("to_act") or "")
        self.extra["to_act"] = self.names.get(to_act, to_act)
        kings, others = self.kings_and_others()
        bids = []
        for contract in legal.get("bids", []):
            entry: dict[str, Any] = {"contract": contract, "name": contract_names()[contract]}
            if contract in WITH_CALLED:
                entry["kings"], entry["others"] = kings, others
            bids.append(entry)
        self.extra["bids"] = bids
        self.extra["can_pass"] = bool(legal.get("can_pass"))
        self.extra["can_join"] = bool(legal.get("can_join"))

    def auction_line(self, event: dict[str, Any]) -> str:
        who = self.names.get(str(event["player"]), str(event["player"]))
        if event["type"] == "pass":
            return _("%(p)s passes") % {"p": who}
        if event["type"] == "join":
            return _("%(p)s joins") % {"p": who}
        bid = contract_names().get(event["contract"], "")
        text = _("%(p)s bids %(b)s") % {"p": who, "b": bid}
        if event.get("called"):
            card = card_view(event["called"], self.club.card_face, GameKind.KOENIGRUFEN)
            text += " · " + _("calls %(c)s") % {"c": card["name"]}
        return text

    # --- The quick result: who played what ------------------------------------------------------

    def quick_result(self, record: dict[str, Any], state: dict[str, Any]) -> None:
        """The declarer (or everyone passed), his contract, the called card where it calls
        one and the joiner where one joined; the engine leads the auction that ends so
        (``quick_auction``), then the tally's questions follow."""
        c = self.choices
        self.step = "declarer"
        self.extra["quick"] = True
        declarer = c.get("declarer")
        self.extra["declarers"] = [{**s, "on": s["id"] == declarer} for s in self.seats]
        self.extra["all_pass"] = ALL_PASS
        self.extra["all_pass_on"] = declarer == ALL_PASS
        if declarer == ALL_PASS:
            auction = koenig_auction(record, None, None)
            if auction is None:
                self.error = _("The auction cannot end with everyone passing here.")
                return
            self.quick_done(record, auction)
            return
        if declarer not in {s["id"] for s in self.seats}:
            c.values["declarer"] = ""
            return
        # The contracts the engine lets him bid when the word first comes to him.
        passed: list[dict[str, Any]] = []
        while state.get("awaiting") == "bid" and str(state.get("to_act")) != declarer:
            passed.append({"type": "pass", "player": str(state.get("to_act"))})
            state = table_state({**record, "events": [*record["events"], *passed]})
        bid = self.choose_bid(list((state.get("legal") or {}).get("bids") or []))
        if bid is None:
            return
        before = {**record, "events": [*record["events"], *passed]}
        auction = self.choose_joiner(before, declarer, bid)
        if auction is None:
            self.error = _(
                "The engine finds no auction that ends so: enter the whole auction, bid by bid."
            )
            return
        self.quick_done(record, [*passed, *auction])

    def choose_bid(self, offered: list[str]) -> dict[str, Any] | None:
        """The declarer's contract (one the view offers) and its called card, if it calls one."""
        c = self.choices
        contract = c.get("contract")
        self.step = "contract"
        self.extra["contracts"] = [
            {"contract": b, "name": contract_names().get(b, b), "on": b == contract}
            for b in offered
        ]
        if contract not in offered:
            c.values["contract"] = ""
            return None
        bid: dict[str, Any] = {"contract": contract}
        if contract in WITH_CALLED:
            self.step = "called"
            self.extra["kings"], self.extra["others"] = self.kings_and_others()
            called = c.get("called")
            if called not in deck_codes():
                c.values["called"] = ""
                return None
            bid["called"] = called
            face = self.club.card_face
            self.extra["called_card"] = card_view(called, face, GameKind.KOENIGRUFEN)
        return bid

    def choose_joiner(
        self, before: dict[str, Any], declarer: str, bid: dict[str, Any]
    ) -> list[dict[str, Any]] | None:
        """Who joined the bid (one the engine would let join), and the auction so led."""
        c = self.choices
        seat_ids = {s["id"] for s in self.seats}
        joiner = c.get("joiner") if c.get("joiner") in seat_ids else ""
        auction, joinable = quick_auction(before, declarer, bid, joiner or None)
        if joiner and joiner not in joinable:
            c.values["joiner"] = joiner = ""
            auction, joinable = quick_auction(before, declarer, bid, None)
        if joinable:
            self.extra["joiners"] = [
                {"id": p, "name": self.names.get(p, p), "on": p == joiner} for p in joinable
            ]
        return auction

    def quick_done(self, record: dict[str, Any], auction: list[dict[str, Any]]) -> None:
        """The quick result's auction stands: its lines, then the tally's questions."""
        self.events.extend(auction)
        self.extra["history"] = [self.auction_line(e) for e in auction]
        state = table_state({**record, "events": [*record["events"], *self.events]})
        self.extra["contract"] = contract_names().get(str(state.get("contract") or ""), "")
        declarer = str(state.get("declarer") or "")
        self.extra["declarer"] = self.names.get(declarer, declarer)
        self.ask_tally(record)


def quick_auction(
    record: dict[str, Any], declarer: str, bid: dict[str, Any], joiner: str | None
) -> tuple[list[dict[str, Any]] | None, list[str]]:
    """The auction after ``record`` in which ``declarer`` bids ``bid`` when the engine
    gives him the word, ``joiner`` (if any) joins it when the word comes to him, and
    everyone else passes; with the players the engine would have let join. None (and
    the joinable players) where the engine refuses a step or the auction does not end
    so. The engine alone says who speaks, who may join, and when it is over."""
    events: list[dict[str, Any]] = []
    joinable: list[str] = []
    bid_made = joined = False
    for _step in range(12):
        state = table_state({**record, "events": [*record["events"], *events]})
        if state.get("status") == "invalid":
            return None, joinable
        if state.get("awaiting") != "bid":
            done = bid_made and (joiner is None or joined)
            return (events if done else None), joinable
        speaker = str(state.get("to_act") or "")
        legal = state.get("legal") or {}
        if bid_made and legal.get("can_join") and speaker not in (declarer, *joinable):
            joinable.append(speaker)
        if speaker == declarer and not bid_made:
            events.append({"type": "bid", "player": speaker, **bid})
            bid_made = True
        elif speaker == joiner and bid_made and not joined and legal.get("can_join"):
            events.append({"type": "join", "player": speaker})
            joined = True
        else:
            events.append({"type": "pass", "player": speaker})
    return None, joinable


def koenig_auction(
    record: dict[str, Any], declarer: str | None, bid: dict[str, Any] | None
) -> list[dict[str, Any]] | None:
    """The auction after ``record`` in which ``declarer`` bids ``bid`` (contract, called
    card) when the engine first gives him the word and everyone else passes (with no
    declarer: everyone passes), as the engine leads it, speaker by speaker; None where
    the engine refuses a step or the auction does not end so. The engine alone says who
    speaks next and when the auction is over."""
    events: list[dict[str, Any]] = []
    outcome = selectors.record_outcome(record=record)
    bid_made = False
    # Four speakers each say at most one word here; more would be an auction of another shape.
    for _step in range(8):
        if outcome.get("status") == "invalid":
            return None
        if outcome.get("awaiting") != "bid":
            return events if bid_made or declarer is None else None
        speaker = str(outcome.get("to_act") or "")
        if speaker == declarer and bid is not None and not bid_made:
            events.append({"type": "bid", "player": speaker, **bid})
            bid_made = True
        elif speaker == declarer:
            return None
        else:
            events.append({"type": "pass", "player": speaker})
        outcome = selectors.record_outcome(
            record={**record, "events": [*record["events"], *events]}
        )
    return None


def auction_event(step: str, player: str) -> dict[str, Any] | None:
    """The event one tapped step of the auction makes (``pass``, ``join``, ``bid:c[:card]``)."""
    parts = step.split(":")
    if parts[0] == "pass":
        return {"type": "pass", "player": player}
    if parts[0] == "join":
        return {"type": "join", "player": player}
    if parts[0] == "bid" and len(parts) >= 2:
        event: dict[str, Any] = {"type": "bid", "player": player, "contract": parts[1]}
        if len(parts) >= 3 and parts[2]:
            event["called"] = parts[2]
        return event
    return None
