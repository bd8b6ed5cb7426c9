"""A game's history and an evening's change log show every stored change, who and when."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Evening, Game
from ledger import services as ledger_services
from live import selectors
from tests.conftest import PersonaClient
from tests.games import records


def _append(game: Game, user: Any, events: list[dict[str, Any]]) -> services.Appended:
    game.refresh_from_db()
    return services.game_events_append(
        game=game, user=user, expected_seq=game.last_seq, events=events
    )


def test_the_history_names_who_recorded_each_event_and_marks_the_undone_ones(
    dealt_game: Game, as_ids: Any, scorer: PersonaClient, owner: PersonaClient
) -> None:
    events = as_ids(records.NO_KONTRA)
    _append(dealt_game, scorer.user, events[:3])
    _append(dealt_game, owner.user, [{"type": "undo"}])
    history = selectors.game_history(game=dealt_game)
    by_seq = {e.seq: e for e in history.events}
    assert [e.type for e in history.events] == ["deal", "call", "play", "play", "undo"]
    assert by_seq[2].recorded_by == "scorer"
    assert by_seq[5].recorded_by == "owner"
    assert by_seq[4].undone_by == 5
    assert [seq for seq, e in by_seq.items() if e.undone_by] == [4]


def test_an_annulment_marks_the_events_before_it_and_a_later_show_is_marked(
    dealt_game: Game, as_ids: Any, scorer: PersonaClient
) -> None:
    _append(dealt_game, scorer.user, as_ids(records.NO_KONTRA))
    _append(dealt_game, scorer.user, as_ids([{"type": "show", "player": "dora", "cards": ["SA"]}]))
    history = selectors.game_history(game=dealt_game)
    assert history.events[-1].type == "show"
    assert history.events[-1].after_decision
    _append(dealt_game, scorer.user, [{"type": "annul", "reason": "misdeal"}])
    history = selectors.game_history(game=dealt_game)
    annul = history.events[-1]
    assert annul.type == "annul" and annul.status == "annulled"
    assert all(e.annulled for e in history.events[:-1])


def test_the_evening_log_holds_every_change_in_order_with_who_made_it(
    evening: Evening, dealt_game: Game, as_ids: Any, scorer: PersonaClient, admin: PersonaClient
) -> None:
    _append(dealt_game, scorer.user, as_ids(records.NO_KONTRA))  # finished
    _append(dealt_game, admin.user, [{"type": "undo"}])  # back into play
    _append(dealt_game, scorer.user, [{"type": "annul"}])
    players = {seat.player.display_name.lower(): seat.player for seat in evening.seats.all()}
    payment = ledger_services.payment_record(
        club=evening.club,
        payer=players["anna"],
        payee=players["bert"],
        amount=500,
        recorded_by=scorer.user,
        evening=evening,
    )
    ledger_services.payment_reverse(payment=payment, recorded_by=admin.user)
    services.evening_close(evening=evening, user=scorer.user)
    services.evening_reopen(evening=evening, user=admin.user)
    log = selectors.evening_log(evening=evening)
    assert [(e.kind, e.by) for e in log] == [
        ("game_started", None),
        ("game_reopened", "admin"),
        ("game_annulled", "scorer"),
        ("payment_booked", "scorer"),
        ("payment_reversed", "admin"),
        ("evening_closed", "scorer"),
        ("evening_reopened", "admin"),
    ]
    assert log[4].reverses == payment.pk
    assert log[1].game_number == dealt_game.number


def test_a_settlement_transfer_marked_paid_is_on_the_log(
    evening: Evening, dealt_game: Game, as_ids: Any, scorer: PersonaClient
) -> None:
    _append(dealt_game, scorer.user, as_ids(records.NO_KONTRA))
    plan = ledger_services.settlement_plan_create(
        club=evening.club, created_by=scorer.user, evening=evening
    )
    transfer = plan.transfers.first()
    assert transfer is not None
    ledger_services.settlement_transfer_mark_paid(transfer=transfer, paid_by=scorer.user)
    kinds = [(e.kind, e.by, e.amount) for e in selectors.evening_log(evening=evening)]
    assert ("settlement_paid", "scorer", transfer.amount) in kinds
    assert ("payment_booked", "scorer", transfer.amount) in kinds


def test_the_api_and_the_pages_show_the_history_and_the_log_to_members(
    dealt_game: Game, as_ids: Any, scorer: PersonaClient, member: PersonaClient
) -> None:
    _append(dealt_game, scorer.user, as_ids(records.NO_KONTRA[:2]))
    _append(dealt_game, scorer.user, [{"type": "undo"}])
    answer = member.get(f"/api/games/{dealt_game.pk}/history/").json()
    assert [e["undone_by"] for e in answer["events"]] == [None, None, 4, None]
    assert answer["events"][1]["recorded_by"] == "scorer"
    log = member.get(f"/api/evenings/{dealt_game.evening_id}/log/").json()
    assert [e["kind"] for e in log] == ["game_started"]
    page = member.get(f"/games/{dealt_game.pk}/history/")
    assert page.status_code == 200
    assert b"<del>" in page.content
    page = member.get(f"/evenings/{dealt_game.evening_id}/log/")
    assert page.status_code == 200
    assert b'data-kind="game_started"' in page.content


@pytest.mark.django_db
def test_an_outsider_sees_neither_page(outsider: PersonaClient, dealt_game: Game) -> None:
    assert outsider.get(f"/games/{dealt_game.pk}/history/").status_code == 404
    assert outsider.get(f"/evenings/{dealt_game.evening_id}/log/").status_code == 404
