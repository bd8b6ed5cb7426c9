""" "Ergebnis eintragen" for Fuchsen: the Macher and the card he called (or alone),
then the tally (``games.tally_form``). What may be called is the engine's table view
(its ``legal`` calls); the deck's rows are the engine's layout."""

from __future__ import annotations

from typing import Any

from clubs.models import Club, GameKind
from games.presenters import deck_rows, safe_rules
from games.tally_form import TallyForm, ascii_digits, seat_rows, table_state
from games.vocabulary import card_view


class FuchsenTallyForm(TallyForm):
    """Fuchsen: the Macher, his called card (or alone), then the tally."""

    def choose_contract(self, record: dict[str, Any]) -> None:
        state = table_state(record)
        self.seats = seat_rows(state, self.names)
        if self.choose_macher() and self.choose_called(record, state):
            self.ask_tally(record)

    def won_default(self) -> str:
        """ "gewonnen", the common outcome, once a level is tapped that the view says is
        played out and nothing else is said (a tap on "lost", the Augen, a Stilles Spiel);
        the preview shows it before anything is saved."""
        c = self.choices
        if "won" not in self.fields or "level" not in self.fields or not c.get("level"):
            return ""
        if c.get("won") or ascii_digits(c.get("augen")) or not self.needs_outcome():
            return ""
        return "1"

    def choose_macher(self) -> bool:
        """Who holds the Eichel-Ober: one of the seats."""
        if self.choices.get("macher") not in {s["id"] for s in self.seats}:
            self.choices.values["macher"] = ""
            self.step = "macher"
            return False
        return True

    def choose_called(self, record: dict[str, Any], state: dict[str, Any]) -> bool:
        """The card the Macher called (the ones the view lets him call), or alone."""
        c = self.choices
        calls = (state.get("legal") or {}).get("calls") or {}
        self.extra["called_cards"] = called_card_rows(record, calls, len(self.seats), self.club)
        self.extra["can_alone"] = bool(calls.get("alone"))
        called = c.get("called")
        if not called or (called != "alone" and called not in calls.get("cards", [])):
            c.values["called"] = ""
            self.step = "called"
            return False
        call: dict[str, Any] = {"type": "call", "player": c.get("macher")}
        if called == "alone":
            call["alone"] = True
        else:
            call["card"] = called
            self.extra["called_card"] = card_view(called, self.club.card_face, GameKind.FUCHSEN)
        self.events.append(call)
        return True


def called_card_rows(
    record: dict[str, Any], calls: dict[str, Any], active: int, club: Club
) -> list[list[dict[str, Any]]]:
    """The cards the table view lets be called, laid out as the deck's rows."""
    removed = list(safe_rules(GameKind.FUCHSEN, record.get("rules")).get("removed_cards", []))
    return [
        [
            card_view(code, club.card_face, GameKind.FUCHSEN)
            for code in row
            if code is not None and code in calls.get("cards", [])
        ]
        for row in deck_rows(GameKind.FUCHSEN, active, removed)
    ]
