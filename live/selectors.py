"""Reads of the live app: a game's history and an evening's change log, over stored data.

Nothing here is stored twice: the history is the game's events (who recorded
each, when) with the ``undo`` stack resolved by the engine's own reading
(``engine.history.undo_targets``); the change log gathers games, events that
changed a game's status (an annulment, an undo that took a decided game back
into play), payments and their reversals, settlement transfers marked paid and
the evening's closes and reopens (``live.models.EveningChange``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.history import undo_targets
from games import selectors as game_selectors
from games.models import Evening, Game, GameEvent
from games.vocabulary import card_view
from ledger.models import Payment, SettlementTransfer
from live.models import EveningChange, LiveLink

DECIDED = frozenset({"finished", "annulled"})
# The events whose history entry says what they did to the game's status (and a
# ``show``, to tell one made after the game was decided).
CHANGING = frozenset({"undo", "annul", "tally", "forfeit", "show"})


@dataclass
class HistoryEvent:
    """One stored event of a game, as its history shows it.

    ``undone_by``: the seq of the ``undo`` that removed it (None if it stands);
    ``annulled``: it stands, but an annulment that stands came after it;
    ``after_decision``: recorded once the game was decided (a late ``show``);
    ``status``: the game's status right after it, where it changed the status.
    """

    seq: int
    type: str
    payload: dict[str, Any]
    recorded_by: str | None
    recorded_at: datetime.datetime
    undone_by: int | None = None
    annulled: bool = False
    after_decision: bool = False
    status: str | None = None


@dataclass
class GameHistory:
    game: Game
    started_by: str | None
    started_at: datetime.datetime
    events: list[HistoryEvent] = field(default_factory=list)


def _status(record: dict[str, Any], events: list[dict[str, Any]]) -> str:
    return engine.replay({**record, "events": events}).status


def game_history(*, game: Game) -> GameHistory:
    """Every stored event of ``game`` in order, who recorded it and when, marked as above.

    The status after each event is the engine's replay of the record up to it;
    it is worked out for the events of ``CHANGING`` and the last one only, so a
    long game costs a few replays, not one per event. (A decided game read in
    the evening's log is decided by its last effective event or one of these.)
    """
    rows = game_selectors.game_event_rows(game_id=game.pk)
    record = game_selectors.record_from_rows(game=game, rows=rows)
    events: list[dict[str, Any]] = record["events"]
    removed, failing = undo_targets(events)
    creator = getattr(game, "created_by", None)
    history = GameHistory(
        game=game,
        started_by=creator.get_username() if creator is not None else None,
        started_at=game.created_at,
    )
    annul_at = max(
        (
            i
            for i, event in enumerate(events)
            if event.get("type") == "annul" and i not in removed and (failing < 0 or i < failing)
        ),
        default=-1,
    )
    for i, (row, event) in enumerate(zip(rows, events, strict=True)):
        typ = event.get("type", "")
        before = after = None
        if typ in CHANGING or i == len(events) - 1:
            before = _status(record, events[:i]) if i else "in_progress"
            after = _status(record, events[: i + 1])
        history.events.append(
            HistoryEvent(
                seq=row.seq,
                type=typ,
                payload={k: v for k, v in event.items() if k != "type"},
                recorded_by=row.recorded_by_name,
                recorded_at=row.recorded_at,
                undone_by=rows[removed[i]].seq if i in removed else None,
                annulled=i < annul_at and i not in removed and typ != "undo",
                after_decision=typ == "show" and before in DECIDED,
                status=after if after != before else None,
            )
        )
    return history


@dataclass
class LogEntry:
    """One change of an evening: ``kind`` is one of ``KINDS``; the rest as it applies."""

    at: datetime.datetime
    kind: str
    by: str | None
    game_id: int | None = None
    game_number: int | None = None
    seq: int | None = None
    payment_id: int | None = None
    amount: int | None = None
    payer: str | None = None
    payee: str | None = None
    reverses: int | None = None


KINDS = (
    "game_started",
    "game_annulled",
    "game_reopened",
    "evening_closed",
    "evening_reopened",
    "payment_booked",
    "payment_reversed",
    "settlement_paid",
)


def _game_changes(evening: Evening) -> list[LogEntry]:
    """Annulments and reopenings: the events that changed a game's status to annulled,
    or a decided game's back to in progress (only games holding an annul or undo are read)."""
    candidates = (
        GameEvent.objects.filter(game__evening=evening, type__in=["annul", "undo"])
        .values_list("game_id", flat=True)
        .distinct()
    )
    entries: list[LogEntry] = []
    for game in Game.objects.filter(pk__in=list(candidates)).select_related("created_by"):
        for event in game_history(game=game).events:
            if event.status is None or event.type not in {"annul", "undo"}:
                continue
            if event.status == "annulled":
                kind = "game_annulled"
            elif event.status == "in_progress" and event.type == "undo":
                kind = "game_reopened"
            else:
                continue
            entries.append(
                LogEntry(
                    at=event.recorded_at,
                    kind=kind,
                    by=event.recorded_by,
                    game_id=game.pk,
                    game_number=game.number,
                    seq=event.seq,
                )
            )
    return entries


def evening_log(*, evening: Evening) -> list[LogEntry]:
    """Every recorded change of the evening, the oldest first."""
    entries: list[LogEntry] = []
    for game in Game.objects.filter(evening=evening).select_related("created_by"):
        entries.append(
            LogEntry(
                at=game.created_at,
                kind="game_started",
                by=game.created_by.get_username() if game.created_by else None,
                game_id=game.pk,
                game_number=game.number,
            )
        )
    entries.extend(_game_changes(evening))
    for change in EveningChange.objects.filter(evening=evening).select_related("user"):
        entries.append(
            LogEntry(
                at=change.at,
                kind=f"evening_{change.kind}",
                by=change.user.get_username() if change.user else None,
            )
        )
    payments = Payment.objects.filter(evening=evening).select_related(
        "payer", "payee", "recorded_by"
    )
    for payment in payments:
        entries.append(
            LogEntry(
                at=payment.created_at,
                kind="payment_reversed" if payment.reverses_id else "payment_booked",
                by=payment.recorded_by.get_username() if payment.recorded_by else None,
                payment_id=payment.pk,
                amount=payment.amount,
                payer=payment.payer.display_name,
                payee=payment.payee.display_name,
                reverses=payment.reverses_id,
            )
        )
    transfers = SettlementTransfer.objects.filter(
        plan__evening=evening, paid_at__isnull=False
    ).select_related("payer", "payee", "paid_by")
    for transfer in transfers:
        assert transfer.paid_at is not None
        entries.append(
            LogEntry(
                at=transfer.paid_at,
                kind="settlement_paid",
                by=transfer.paid_by.get_username() if transfer.paid_by else None,
                payment_id=transfer.payment_id,
                amount=transfer.amount,
                payer=transfer.payer.display_name,
                payee=transfer.payee.display_name,
            )
        )
    entries.sort(key=lambda e: (e.at, KINDS.index(e.kind)))
    return entries


# --- The live table -------------------------------------------------------------------------

# What a live view shows of an event of the game in progress: public fields only (a card
# laid face down when joining, or the cards in a hand, are nobody's business at the bar).
PUBLIC_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("dealer",),
    "call": ("player", "card", "alone"),
    "bid": ("player", "contract", "called"),
    "pass": ("player",),
    "join": ("player",),
    "play": ("player", "card"),
    "raise": ("player", "level"),
    "show": ("player", "cards"),
    "tally": ("level", "won", "contract"),
    "forfeit": ("player",),
}
# Of the engine's table view: whose turn, the trick, the contract and level; never
# ``legal`` (its refusals say who holds which card).
PUBLIC_STATE = (
    "status",
    "awaiting",
    "to_act",
    "players",
    "active",
    "dealer",
    "sitting_out",
    "contract",
    "declarers",
    "level",
    "macher",
    "declarer",
    "trick",
)


def live_link_get(*, key: str) -> LiveLink | None:
    """The active link with this key (its evening and club loaded), or None."""
    return (
        LiveLink.objects.select_related("evening", "evening__club", "evening__season")
        .filter(key=key, revoked_at__isnull=True)
        .first()
    )


def live_links(*, evening: Evening) -> list[LiveLink]:
    """The evening's links not revoked, the newest first."""
    return list(LiveLink.objects.filter(evening=evening, revoked_at__isnull=True))


def _public_event(
    event: dict[str, Any], names: dict[str, str], face: str = "german", kind: str = ""
) -> dict[str, Any]:
    shown: dict[str, Any] = {"type": event.get("type")}
    for key in PUBLIC_FIELDS.get(str(event.get("type")), ()):
        if key in event:
            value = event[key]
            shown[key] = names.get(str(value), str(value)) if key in ("player", "dealer") else value
    # Cards by name ("Schellen-Zehner"), as the table says them, not by code.
    if isinstance(shown.get("card"), str):
        shown["card_name"] = _card_name(shown["card"], face, kind)
    if isinstance(shown.get("cards"), list):
        shown["cards_names"] = [_card_name(str(c), face, kind) for c in shown["cards"]]
    return shown


def _card_name(code: str, face: str, kind: str) -> str:
    if len(code) < 2 or code[0] not in "EGRS":
        return code
    return str(card_view(code, face, kind)["name"])


def _named(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, list):
        return [_named(v, names) for v in value]
    return names.get(str(value), value) if isinstance(value, str) else value


def live_state(*, evening: Evening) -> dict[str, Any]:
    """What a live view of the evening shows: the game in progress (its trick, raises or
    bids, whose turn, the level), the evening's games and tonight's balances.

    Players appear by display name; nothing of a hand that the table has not seen.
    """
    from games.presenters import game_summary
    from games.vocabulary import signed_money
    from ledger import selectors as ledger_selectors

    club = evening.club
    seats = game_selectors.evening_seats(evening=evening, active_only=False)
    names = {str(seat.player_id): seat.player.display_name for seat in seats}
    games = list(game_selectors.evening_games(evening=evening))
    current = None
    in_progress = [g for g in games if g.status == Game.Status.IN_PROGRESS]
    if in_progress:
        game = in_progress[-1]
        rows = game_selectors.game_event_rows(game_id=game.pk)
        record = game_selectors.record_from_rows(game=game, rows=rows)
        state = game_selectors.table_state(record=record)
        removed, _failing = undo_targets(record["events"])
        standing = [
            event
            for i, event in enumerate(record["events"])
            if i not in removed and event.get("type") != "undo"
        ]
        current = {
            "id": game.pk,
            "number": game.number,
            "last_seq": game.last_seq,
            "state": {key: _named(state.get(key), names) for key in PUBLIC_STATE},
            # The trick as the recording page draws it: each card's face and name.
            "trick": [
                {
                    "player": names.get(str(p), str(p)),
                    "card": card,
                    "face": card_view(card, club.card_face, game.game_kind),
                    "winning": p == state.get("trick_winner") and len(state.get("trick") or []) > 1,
                }
                for p, card in state.get("trick") or []
            ],
            "to_act": names.get(str(state.get("to_act")), "") if state.get("to_act") else "",
            "called": card_view(state["called_card"], club.card_face, game.game_kind)["name"]
            if state.get("called_card")
            else "",
            "tricks_done": len(state.get("tricks") or []),
            "events": [
                _public_event(event, names, club.card_face, game.game_kind)
                for event in standing
                if event.get("type") not in ("play", "deal")
            ],
        }
    summaries = []
    for game in reversed(games):
        summary = game_summary(game, names, club)
        summaries.append(
            {
                "id": game.pk,
                "number": game.number,
                "status": game.status,
                "last_seq": game.last_seq,
                "what": summary["what"],
                "outcome": summary["outcome"],
                "payouts": [{"name": p["name"], "text": p["text"]} for p in summary["payouts"]],
            }
        )
    balances = [
        {
            "name": row["display_name"],
            "balance": row["balance"],
            "text": signed_money(row["balance"], club),
        }
        for row in ledger_selectors.balance_list(club=club, evening=evening)
    ]
    return {
        "evening": {
            "id": evening.pk,
            "club": club.name,
            "date": evening.date.isoformat(),
            "place": evening.place,
            "status": evening.status,
            "face": club.card_face,
        },
        "current": current,
        "games": summaries,
        "balances": balances,
    }
