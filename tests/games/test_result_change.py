""" "Ergebnis ändern": a saved result opens filled in the tally form, and saving takes
it back and enters the new one in ONE request — all or nothing, both on record, the
money booked again."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clubs.models import Player
from games import selectors, services
from games.models import Evening, Game, GameEvent
from games.services import game_result_reenter
from ledger import selectors as ledger_selectors
from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db


def _hidden(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([a-z]+)" value="([^"]*)"', html))


@pytest.fixture
def tallied(evening: Evening, players: dict[str, Player]) -> Game:
    """Game 1: Bert calls the Eichel-Zehner, Carl holds it, raised to Re, their side won
    (typed in)."""
    deal = selectors.next_deal(evening=evening).event
    assert deal is not None
    bert = str(players["bert"].pk)
    events = [
        deal,
        {"type": "call", "player": bert, "card": "E10"},
        {"type": "tally", "level": "re", "won": True, "partner": str(players["carl"].pk)},
    ]
    return services.game_started(evening=evening, user=None, events=events).game


def _balances(evening: Evening, players: dict[str, Player]) -> dict[str, int]:
    names = {p.pk: n for n, p in players.items()}
    return {
        names[row["player_id"]]: row["balance"]
        for row in ledger_selectors.balance_list(club=evening.club, evening=evening)
    }


def test_the_form_opens_filled_with_the_saved_result(
    tallied: Game, players: dict[str, Player], scorer: PersonaClient
) -> None:
    html = scorer.get(f"/games/{tallied.pk}/change/").content.decode()
    hidden = _hidden(html)
    assert hidden["macher"] == str(players["bert"].pk)
    assert hidden["called"] == "E10"
    assert hidden["level"] == "re"
    assert hidden["won"] == "1"
    assert hidden["seq"] == str(tallied.last_seq)
    assert 'id="tally-save"' in html  # ready to save as it stands


def test_saving_a_changed_level_takes_back_the_old_result_and_enters_the_new_in_one_go(
    tallied: Game, evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    before = _balances(evening, players)
    assert before["bert"] == 40
    state = _hidden(scorer.get(f"/games/{tallied.pk}/change/").content.decode())
    answer = scorer.post(
        f"/games/{tallied.pk}/change/",
        {**state, "pick": "level:supp", "save": "1"},
        format="multipart",
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 204
    assert answer["HX-Redirect"] == f"/evenings/{evening.pk}/"
    tallied.refresh_from_db()
    assert tallied.result["level"] == "supp"
    assert tallied.status == Game.Status.FINISHED
    types = [e.type for e in GameEvent.objects.filter(game=tallied).order_by("seq")]
    # On record: the first result, the undos of its call and tally, the new ones.
    assert types == ["deal", "call", "tally", "undo", "undo", "call", "tally"]
    after = _balances(evening, players)
    assert after["bert"] > before["bert"]
    assert sum(after.values()) == 0


def test_another_dealer_takes_back_the_deal_too(
    tallied: Game, players: dict[str, Player], scorer: PersonaClient
) -> None:
    state = _hidden(scorer.get(f"/games/{tallied.pk}/change/").content.decode())
    carl = str(players["carl"].pk)
    html = scorer.post(
        f"/games/{tallied.pk}/change/",
        {**state, "pick": f"dealer:{carl}"},
        format="multipart",
        HTTP_HX_REQUEST="true",
    ).content.decode()
    state = _hidden(html)
    for pick in (
        f"macher:{players['bert'].pk}",
        "called:E10",
        f"partner:{players['carl'].pk}",
        "level:re",
        "won:0",
    ):
        state = _hidden(
            scorer.post(
                f"/games/{tallied.pk}/change/",
                {**state, "pick": pick},
                format="multipart",
                HTTP_HX_REQUEST="true",
            ).content.decode()
        )
    answer = scorer.post(
        f"/games/{tallied.pk}/change/",
        {**state, "save": "1"},
        format="multipart",
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 204
    tallied.refresh_from_db()
    record = selectors.game_record(game=tallied)
    assert tallied.result["won"] is False
    assert [e["type"] for e in record["events"]][3:] == ["undo"] * 3 + ["deal", "call", "tally"]
    assert record["events"][-3]["dealer"] == carl


def test_a_game_that_moved_on_meanwhile_is_not_overwritten(
    tallied: Game, players: dict[str, Player], scorer: PersonaClient
) -> None:
    state = _hidden(scorer.get(f"/games/{tallied.pk}/change/").content.decode())
    # Another phone changes it first (lost, not won).
    record = selectors.game_record(game=tallied)
    lost = [*record["events"][:2], {**record["events"][2], "won": False}]
    game_result_reenter(game=tallied, user=None, expected_seq=tallied.last_seq, events=lost)
    answer = scorer.post(
        f"/games/{tallied.pk}/change/",
        {**state, "pick": "level:supp", "save": "1"},
        format="multipart",
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    assert "tally-error" in answer.content.decode()
    assert GameEvent.objects.filter(game=tallied).count() == 7  # nothing of ours written
    tallied.refresh_from_db()
    assert tallied.result["won"] is False


def test_a_member_who_does_not_score_cannot_change_a_result(
    tallied: Game, member: PersonaClient
) -> None:
    assert member.get(f"/games/{tallied.pk}/change/").status_code == 403
    assert member.post(f"/games/{tallied.pk}/change/", {"save": "1"}).status_code == 403


def test_a_game_recorded_card_by_card_sends_the_scorer_to_its_entries(
    dealt_game: Game, as_ids: Any, scorer: PersonaClient
) -> None:
    services.game_events_append(
        game=dealt_game,
        user=None,
        expected_seq=dealt_game.last_seq,
        events=as_ids([{"type": "call", "player": "bert", "card": "E10"}]),
    )
    answer = scorer.get(f"/games/{dealt_game.pk}/change/")
    assert answer.status_code == 302
    assert answer["Location"] == f"/games/{dealt_game.pk}/#entries"


def test_the_evening_list_and_the_result_offer_the_change(
    tallied: Game, evening: Evening, scorer: PersonaClient
) -> None:
    link = f'href="/games/{tallied.pk}/change/"'
    assert link in scorer.get(f"/evenings/{evening.pk}/").content.decode()
    assert link in scorer.get(f"/games/{tallied.pk}/replay/").content.decode()
