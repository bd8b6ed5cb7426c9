"""What pages and the API show of a game: a game's full answer (``game_detail_data``),
one line of a games list (``game_summary``), the deck as the pages lay it out, and
the house rules' values as the recording page needs them.

Presenters read through ``games.selectors`` and write words through
``games.vocabulary`` and ``games.engine_text``; they never write to the database,
and pages and APIs both import them (never the other way round).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from clubs.models import Club, GameKind
from engine import fuchsen, koenigrufen
from engine.cards import ALL_CARDS, INDEX
from engine.rules import effective_rules
from games import engine_text, selectors
from games.events import upcast
from games.game_values import silent_games, value_text
from games.models import Evening, Game
from games.vocabulary import (
    contract_names,
    level_names,
    money,
    reason_names,
)


def safe_rules(kind: str, overrides: dict[str, Any] | None) -> dict[str, Any]:
    try:
        return dict(effective_rules(kind, overrides or None))
    except Exception:  # a stored game always has valid rules; never let a page fail on it
        return dict(effective_rules(kind, None))


def deck_rows(kind: str, active: int, removed: list[str]) -> list[list[str | None]]:
    """The cards in play, one row per suit (Fuchsen: the trumps first); None leaves a gap.

    The engine's layout (``deck_rows`` of each game) and deck (``fuchsen.table_deck``);
    a table of neither four nor five active players yet shows the whole pack."""
    if kind == GameKind.KOENIGRUFEN:
        rows = koenigrufen.deck_rows(ten_high=False)
    else:
        deck = ALL_CARDS
        if active in (4, 5):
            deck = fuchsen.table_deck(active, [c for c in removed if c in INDEX])
        rows = fuchsen.deck_rows(deck)
    return [list(cards) for _, _, cards in rows]


def game_summary(
    game: Game, names: dict[str, str], club: Club, *, silent: bool | None = None
) -> dict[str, Any]:
    """One line of a games list: who won what, from the cached result. ``silent``:
    whether the game was a Stilles Spiel (``game_values.silent_games`` for a list), so
    that its value names the bonus; None: found out when the value is drawn."""
    result = game.result or {}
    declarers = [names.get(str(p), str(p)) for p in result.get("declarers") or []]
    payouts = [
        {"name": names.get(str(p), str(p)), "amount": amount, "text": money(amount, club)}
        for p, amount in (result.get("payouts") or {}).items()
    ]
    payouts.sort(key=lambda row: -row["amount"])
    contract = result.get("contract")
    if game.status == Game.Status.ANNULLED:
        # An annulled game's result keeps no level or contract: name none (it may have
        # been raised to Re before it was annulled), only that nobody pays.
        what = _("nobody pays")
    elif game.game_kind == GameKind.FUCHSEN:
        what = level_names().get(
            result.get("level") or "", pgettext("tally in the replay", "no raise")
        )
        if contract == "alone":
            what = f"{contract_names()['alone']} · {what}"
    else:
        what = contract_names().get(contract or "", "")
    if game.status == Game.Status.FINISHED:
        won = result.get("won")
        if won is None:
            outcome = contract_names().get(contract or "", "")
            losers = [
                names.get(str(p), str(p))
                for p, amount in (result.get("payouts") or {}).items()
                if amount < 0
            ]
            if contract == "schurln" and losers:
                outcome += " · " + (
                    ngettext("loser: %(p)s", "losers: %(p)s", len(losers))
                    % {"p": ", ".join(losers)}
                )
        else:
            if len(declarers) > 1:
                if won:
                    text = pgettext("several players", "%(who)s won")
                else:
                    text = pgettext("several players", "%(who)s lost")
            else:
                text = _("%(who)s won") if won else _("%(who)s lost")
            outcome = text % {"who": " + ".join(declarers) or "—"}
    elif game.status == Game.Status.ANNULLED:
        outcome = _("annulled")
    else:
        outcome = _("in progress")
    return {
        "game": game,
        "what": what,
        "outcome": outcome,
        "reason": reason_names().get(result.get("reason") or "", ""),
        "value": _value(game, result.get("value"), silent, club),
        "payouts": payouts,
        "dealer": names.get(str(game.dealer_id), "") if game.dealer_id else "",
    }


def _value(game: Game, value: Any, silent: bool | None, club: Club) -> Any:
    """The game's value as a list shows it (``game_values.value_text``)."""
    if value is None:
        return ""

    def text(silent: bool) -> str:
        return value_text(
            game.game_kind, value, silent=silent, house_rules=game.house_rules, club=club
        )

    if silent is not None:
        return text(silent)
    # Replayed only if drawn: a list that does not show the value replays nothing.
    return lazy(lambda: text(game.pk in silent_games([game])), str)()


def club_face(game: Game) -> str | None:
    """The card face of the game's club (no query if the club came with the game)."""
    if Evening.club.is_cached(game.evening):
        return game.evening.club.card_face
    face: str | None = (
        Club.objects.filter(pk=game.evening.club_id).values_list("card_face", flat=True).first()
    )
    return face


def iso_datetime(value: datetime.datetime, tz: datetime.tzinfo) -> str:
    """What ``serializers.DateTimeField`` writes for an aware ``value`` with ``tz`` current.

    The same text (ISO 8601 in the current time zone, UTC as ``Z``) at a
    quarter of the cost: a full answer writes one per event, on every card.
    """
    text = value.astimezone(tz).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _event_data(row: selectors.EventRow, tz: datetime.tzinfo) -> dict[str, Any]:
    """One event as ``GameEventOutputSerializer`` writes it, from a ``game_event_rows`` row."""
    return {
        "seq": row.seq,
        "type": row.type,
        "payload": upcast(row.type, row.payload, row.schema_version),
        "schema_version": row.schema_version,
        "recorded_by": row.recorded_by_name,
        "recorded_at": iso_datetime(row.recorded_at, tz),
    }


def game_data(
    game: Game,
    *,
    record: dict[str, Any],
    rows: list[selectors.EventRow],
    names: dict[str, str] | None = None,
    state: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``GameDetailSerializer``'s answer built by hand (the same keys and values, far cheaper)."""
    tz = timezone.get_current_timezone()
    state = state if state is not None else selectors.table_state(record=record)
    players = selectors.players_legend(club_id=game.evening.club_id, records=[record], known=names)
    return {
        "id": game.pk,
        "evening": game.evening_id,
        "number": game.number,
        "game_kind": game.game_kind,
        "status": game.status,
        "house_rules": game.house_rules,
        "players": players,
        "state": state,
        "tally": state.get("tally"),
        "result": game.result,
        "last_seq": game.last_seq,
        "created_at": iso_datetime(game.created_at, tz),
        "finished_at": iso_datetime(game.finished_at, tz) if game.finished_at else None,
        "events": [_event_data(row, tz) for row in rows],
        "explanation": _explanation(game, state, players),
        "reasons": _reasons(game, state, players),
    }


def _reasons(game: Game, state: dict[str, Any], players: dict[str, str]) -> dict[str, Any]:
    """Why each greyed card may not be played, as the engine's sentences in the request's
    language with the players' names: ``{"play": {card: sentence}, "face_down": {…}}``
    (``face_down``: the Macher's cards he may not play as his turned card)."""
    legal = state.get("legal") or {}
    refused = legal.get("refused") or {}
    refused_down = legal.get("refused_face_down") or {}
    if not refused and not refused_down:
        return {"play": {}, "face_down": {}}
    face = club_face(game)
    return {
        "play": {c: engine_text.explain(e, players, face=face) for c, e in refused.items()},
        "face_down": {
            c: engine_text.explain(e, players, face=face) for c, e in refused_down.items()
        },
    }


def _explanation(game: Game, state: dict[str, Any], players: dict[str, str]) -> str | None:
    """The German (or English) sentence for a record that is invalid as stored (an
    imported one, say), or None. Appends never store an invalid record, so the club's
    card face is read only here."""
    if state.get("status") != "invalid":
        return None
    error = (state.get("result") or {}).get("error") or {}
    return engine_text.explain(error, players, face=club_face(game))


def game_detail_data(game: Game) -> dict[str, Any]:
    rows = selectors.game_event_rows(game_id=game.pk)
    return game_data(game, record=selectors.record_from_rows(game=game, rows=rows), rows=rows)
