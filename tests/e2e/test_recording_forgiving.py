"""Recording forgives and explains, in real Chromium at 390×844: a tapped greyed card
says why the rules refuse it; the Macher's face-down card is offered only where he may
have turned it; the next lead ends the raising without a "Stich fertig" tap; undo asks
before it reopens a finished game; the card grid stays inside the screen."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from clubs.models import Role
from games.models import Game, GameEvent
from tests.e2e.conftest import shoot
from tests.e2e.pages import RecordingPage, log_in
from tests.e2e.tables import open_evening, players_of, record_game, start
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _table(live_server: Any, page: Any, record: dict[str, Any] | None = None) -> Any:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    evening = open_evening(club, players)
    if record is None:
        game = start(evening, players, RE_PLAYED_OUT["events"][0])
    else:
        game = record_game(evening, players, record)
    log_in(page, live_server.url, "schreiber", f"/games/{game.pk}/")
    table = RecordingPage(page, players)
    table.wait_ready()
    return club, players, game, table


def _first(n: int) -> dict[str, Any]:
    return {"game": "fuchsen", "events": copy.deepcopy(RE_PLAYED_OUT["events"][:n])}


def test_a_tapped_greyed_card_shows_the_reason_the_rules_give(live_server: Any, phone: Any) -> None:
    # Trick 2: Bert leads the Fuchs (GO); Carl holds RU, so his Grün-Sau is refused.
    _, _, game, table = _table(live_server, phone, _first(11))
    assert table.to_act() == "carl"
    assert not table.card_enabled("GA")
    reason = table.refusal_of("GA")
    assert "Carl muss Trumpf zugeben" in reason
    assert "korrigiere" in reason  # and how to put it right
    shoot(phone, "phone-record-refused-card")
    assert GameEvent.objects.filter(game=game).count() == 11  # nothing recorded
    assert table.grid_in_view()


def test_the_next_lead_ends_the_raising_without_a_tap_on_stich_fertig(
    live_server: Any, phone: Any
) -> None:
    # The first trick with Kontra and Re, the raising still open.
    _, _, game, table = _table(live_server, phone, _first(9))
    assert table.state()["awaiting"] == "raise_or_end"
    assert table.grid_in_view()
    table.play("GO")  # Bert, who took trick 1, leads
    assert table.to_act() == "carl"
    assert table.state()["level"] == "re"
    game.refresh_from_db()
    assert game.status == "in_progress"


def test_while_the_turned_toggle_is_on_only_cards_he_may_have_turned_are_offered(
    live_server: Any, phone: Any
) -> None:
    record = {
        "game": "fuchsen",
        "events": [
            {"type": "deal", "dealer": "anna", "players": ["anna", "bert", "carl", "dora", "emil"]},
            {"type": "call", "player": "dora", "card": "SA", "turned": True},
            {"type": "play", "player": "bert", "card": "S9"},
            {"type": "play", "player": "carl", "card": "SA", "fuchs": True},
        ],
    }
    _, _, _, table = _table(live_server, phone, record)
    assert table.to_act() == "dora"
    # Face up she follows Schellen (the blank still in her hand counts as one): no Eichel.
    assert table.card_enabled("S10")
    assert not table.card_enabled("EA")
    phone.click('#record input[data-act="toggle-turned"]')
    phone.wait_for_selector('#record .panel.play button[data-card="EA"][data-act="refused"]')
    assert table.card_enabled("E7")
    assert not table.card_enabled("EO")
    reason = table.refusal_of("EA")
    assert "Dora" in reason and "Eichel-Sau" in reason
    shoot(phone, "phone-record-turned-card")


def test_undo_on_a_finished_game_asks_before_it_reopens_it(live_server: Any, phone: Any) -> None:
    _, _, game, table = _table(live_server, phone, copy.deepcopy(RE_PLAYED_OUT))
    phone.wait_for_selector('#record[data-status="finished"]')
    undo = phone.locator('#record button[data-act="undo"]')
    assert undo.inner_text().strip() == "Rückgängig"
    undo.click()
    dialog = phone.wait_for_selector('#record [role="alertdialog"]')
    assert "wieder öffnen" in dialog.inner_text()
    shoot(phone, "phone-record-undo-asks")
    # Cancelled: nothing happens.
    phone.click('#record [role="alertdialog"] button[data-act="panel"]')
    assert phone.query_selector('#record [role="alertdialog"]') is None
    assert Game.objects.get(pk=game.pk).status == "finished"
    undo.click()
    table.tap('#record [role="alertdialog"] button[data-act="do-undo"]')
    assert table.state()["status"] == "in_progress"
    assert Game.objects.get(pk=game.pk).status == "in_progress"


def test_an_unfinished_game_is_undone_without_a_question(live_server: Any, phone: Any) -> None:
    _, _, _, table = _table(live_server, phone, _first(11))
    table.tap('#record button[data-act="undo"]')
    assert table.to_act() == "bert"
    assert phone.query_selector('#record [role="alertdialog"]') is None


def test_the_whole_grid_stays_on_the_screen_at_every_step_of_a_deal(
    live_server: Any, phone: Any
) -> None:
    _, _, _, table = _table(live_server, phone, _first(2))
    events = RE_PLAYED_OUT["events"][2:]
    tops: list[float] = []
    for event in events:
        if event["type"] == "play":
            assert table.grid_in_view(), event
            # Where the grid starts on the page (a tap below it may scroll the page).
            tops.append(
                phone.evaluate(
                    "document.querySelector('#record .hand').getBoundingClientRect().top"
                    " + window.scrollY"
                )
            )
            table.play(event["card"])
        elif event["type"] == "raise":
            table.raise_(event["player"], event["level"])
        else:
            table.tap('#record button[data-act="end_raising"]')
    phone.wait_for_selector('#record[data-status="finished"]')
    # No jumps: the grid starts at the same height (within a line) at every card.
    assert max(tops) - min(tops) < 24, tops


def test_a_mistake_found_in_hindsight_is_corrected_in_one_step(
    live_server: Any, phone: Any
) -> None:
    from engine import replay
    from games import selectors
    from tests.e2e.tables import to_ids
    from tests.games.test_entry_correction import BEFORE, DEAL, WRONG, _plays

    _, players, game, table = _table(
        live_server, phone, {"game": "fuchsen", "events": [DEAL, *BEFORE]}
    )
    assert table.to_act() == "carl"
    # Carl's Rot-Unter proves he could have followed Bert's trump in trick 2.
    phone.click('#record button[data-act="play"][data-card="RU"]')
    error = phone.wait_for_selector('#record .engine-error[data-code="must_follow_suit"]')
    assert "Stich 2" in error.inner_text() and "Carl" in error.inner_text()
    assert "Grün-Sau" in error.inner_text()
    shoot(phone, "phone-record-hindsight-mistake")
    phone.click('#record button[data-act="fix-start"]')
    phone.wait_for_selector("#record .panel.fixing")
    shoot(phone, "phone-record-correct-entry")
    table.tap('#record .panel.fixing button[data-act="fix-pick"][data-card="RU"]')
    assert table.to_act() == "carl"  # the correction, and the later entries again
    expected = [DEAL, *BEFORE]
    expected[WRONG] = _plays("carl:RU")[0]
    stored = selectors.game_record(game=game)
    assert replay(stored) == replay({"game": "fuchsen", "events": to_ids(expected, players)})
    table.play("GK")  # and recording goes on
