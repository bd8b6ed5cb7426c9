"""The words and numbers the pages and the API share: card, suit, level, contract and
reason names, error headings, and money written the club's way.

The bottom layer of the games' presentation: it imports nothing of the apps but
``clubs.models``, so pages, presenters, APIs and ``engine_text`` all may import it.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clubs.models import Club, GameKind
from engine import fuchsen, koenigrufen
from engine.koenigrufen import CONTRACTS

SUITS = "EGRS"
# The engine's: Fuchsen's trumps, strongest first; the Königrufen contracts bid with a
# called card, and those that may be bid (or joined) with a card laid face down.
FUCHSEN_TRUMPS = fuchsen.TRUMP_CODES
WITH_CALLED = tuple(c for c in CONTRACTS if c in koenigrufen.WITH_CALLED)
WITH_FACE_DOWN = tuple(c for c in CONTRACTS if c in koenigrufen.WITH_FACE_DOWN)
# The engine's contracts and Schurln (all passed), as the recording page lists their values.
KOENIG_CONTRACTS = (*CONTRACTS, "schurln")


def suit_names(face: str) -> dict[str, str]:
    if face == Club.CardFace.FRENCH:
        return {
            "E": pgettext("french suit", "Clubs"),
            "G": pgettext("french suit", "Spades"),
            "R": pgettext("french suit", "Hearts"),
            "S": pgettext("french suit", "Diamonds"),
        }
    return {
        "E": pgettext("german suit", "Acorns"),
        "G": pgettext("german suit", "Leaves"),
        "R": pgettext("german suit", "Hearts"),
        "S": pgettext("german suit", "Bells"),
    }


def rank_labels(face: str) -> dict[str, str]:
    """What the corner of a card shows."""
    if face == Club.CardFace.FRENCH:
        # Translators: the letters on French cards: Dame (Queen), Bube (Jack).
        q, j = pgettext("french card corner", "Q"), pgettext("french card corner", "J")
        return {"A": "A", "10": "10", "K": "K", "O": q, "U": j, "9": "9", "8": "8", "7": "7"}
    return {r: r for r in ("A", "10", "K", "O", "U", "9", "8", "7")}


def rank_names(face: str) -> dict[str, str]:
    if face == Club.CardFace.FRENCH:
        return {
            "A": pgettext("french card", "Ace"),
            "10": pgettext("french card", "Ten"),
            "K": pgettext("french card", "King"),
            "O": pgettext("french card", "Queen"),
            "U": pgettext("french card", "Jack"),
            "9": pgettext("french card", "Nine"),
            "8": pgettext("french card", "Eight"),
            "7": pgettext("french card", "Seven"),
        }
    return {
        "A": pgettext("german card", "Ace"),
        "10": pgettext("german card", "Ten"),
        "K": pgettext("german card", "King"),
        "O": pgettext("german card", "Ober"),
        "U": pgettext("german card", "Unter"),
        "9": pgettext("german card", "Nine"),
        "8": pgettext("german card", "Eight"),
        "7": pgettext("german card", "Seven"),
    }


def card_view(code: str, face: str, kind: str) -> dict[str, Any]:
    """What the card templates need to draw ``code``."""
    suit, rank = code[0], code[1:]
    return {
        "code": code,
        "suit": suit,
        "rank": rank_labels(face).get(rank, rank),
        "trump": kind == GameKind.FUCHSEN and code in FUCHSEN_TRUMPS,
        # Translators: a card's name, e.g. "Ober of Acorns"; German: "Eichel-Ober".
        "name": _("%(rank)s of %(suit)s")
        % {"suit": suit_names(face)[suit], "rank": rank_names(face).get(rank, rank)},
        "sprite": ("f-" if face == Club.CardFace.FRENCH else "g-") + suit,
    }


def level_names() -> dict[str, str]:
    return {
        "kontra": _("Kontra"),
        "re": _("Re"),
        "supp": _("Supp"),
        "mort": _("Mort"),
        "hirsch": _("Hirsch"),
        "bock": _("Bock"),
        "feuer": _("Feuer"),
        "end": _("End"),
    }


def contract_names() -> dict[str, str]:
    return {
        "partner": _("with a partner"),
        "alone": _("alone (Herausspielen)"),
        "bettler": _("Bettler"),
        "durchmarsch": _("Durchmarsch"),
        "durchmarsch_letzter": _("Durchmarsch am Letzten"),
        "plauderer": _("Plauderer"),
        "durchmarsch_hundert": _("Durchmarsch mit Hundert"),
        "zehnermord": _("Zehnermord"),
        "koenigmord": _("Königmord"),
        "hundertermord": _("Hundertermord"),
        "schurln": _("Schurln"),
    }


def reason_names() -> dict[str, str]:
    return {
        "played_out": _("played to the end"),
        "no_kontra": _("nobody said Kontra"),
        "no_re": _("Kontra without Re"),
        "fuchs_forgotten": _("Fuchs forgotten"),
        "decided": _("decided early"),
        "forfeit": _("forfeited"),
        # A result entered as the table counted it ("Ergebnis eintragen").
        "tally": _("as counted at the table"),
    }


def error_titles() -> dict[str, str]:
    """A plain heading for each engine error code (the engine's message follows it)."""
    return {
        "malformed_record": _("This record cannot be read"),
        "invalid_rules": _("The house rules are not valid"),
        "malformed_event": _("This entry is incomplete or malformed"),
        "unknown_card": _("No such card in this game"),
        "unknown_player": _("This player does not play in this game"),
        "invalid_deal": _("The deal is not valid"),
        "out_of_order": _("That does not fit now"),
        "not_your_turn": _("Not this player's turn"),
        "card_not_in_hand": _("This card is not in this player's hand"),
        "card_already_played": _("This card was already played"),
        "must_follow_suit": _("Must follow suit (Farbzwang)"),
        "must_overtake": _("Must beat the trick (Stichzwang)"),
        "must_trump": _("Must trump or overtrump (Trumpfzwang)"),
        "invalid_call": _("This call is not allowed"),
        "invalid_bid": _("This bid is not allowed"),
        "invalid_raise": _("This raise is not allowed"),
        "invalid_announcement": _("Fuchs cannot be announced here"),
        "invalid_tally": _("The result does not fit the game"),
        "face_down_card_mismatch": _("The face-down card does not match"),
        "game_finished": _("The game is already decided"),
        "nothing_to_undo": _("Nothing to undo"),
        "too_many_events": _("This game has too many entries"),
    }


def money(amount: int | float | None, club: Club) -> str:
    """The amount in the club's unit, a fraction written the local way (26,7 ct)."""
    if amount is None:
        return ""
    shown: int | float | str = amount
    if isinstance(amount, float):
        shown = int(amount) if amount.is_integer() else number_format(amount, decimal_pos=1)
    if club.currency_unit == Club.CurrencyUnit.POINTS:
        return _("%(v)s pt") % {"v": shown}
    return _("%(v)s ct") % {"v": shown}


def signed_money(amount: int | float | None, club: Club) -> str:
    """``+40 ct`` / ``-20 ct`` / ``0 ct``: at a glance who is owed and who owes."""
    text = money(amount, club)
    return f"+{text}" if amount and amount > 0 else text
