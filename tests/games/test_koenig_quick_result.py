"""A Königrufen result online without tapping the auction: who played, the contract,
the called card or the joiner where it has one, won — the engine leads the auction
that ends so; the whole auction is there when someone wants it."""

from __future__ import annotations

import re

import pytest

from clubs.models import Club, GameKind, Player
from games import selectors
from games.models import Evening, Game
from tests.conftest import PersonaClient
from tests.games.factories import club_players, seated_evening

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Bert", "Carl", "Dora")


@pytest.fixture
def koenig(club: Club) -> Evening:
    return seated_evening(club, NAMES, game_kind=GameKind.KOENIGRUFEN)


@pytest.fixture
def four(club: Club, koenig: Evening) -> dict[str, Player]:
    return club_players(club, NAMES)


def _hidden(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([a-z]+)" value="([^"]*)"', html))


def _taps(client: PersonaClient, evening: Evening, picks: list[str]) -> tuple[str, dict[str, str]]:
    html = client.get(f"/evenings/{evening.pk}/").content.decode()
    state = _hidden(html[html.index('id="tally"') :])
    for pick in picks:
        html = client.post(
            f"/evenings/{evening.pk}/tally/",
            {**state, "pick": pick},
            format="multipart",
            HTTP_HX_REQUEST="true",
        ).content.decode()
        state = _hidden(html)
    return html, state


def _save(client: PersonaClient, evening: Evening, state: dict[str, str]) -> Game:
    answer = client.post(
        f"/evenings/{evening.pk}/tally/",
        {**state, "save": "1"},
        format="multipart",
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 204, answer.content.decode()[-2000:]
    return Game.objects.filter(evening=evening).order_by("-number")[0]


def test_the_form_asks_who_played_first_not_the_auction(
    koenig: Evening, four: dict[str, Player], scorer: PersonaClient
) -> None:
    html = scorer.get(f"/evenings/{koenig.pk}/").content.decode()
    assert 'value="declarer:' in html
    assert 'value="auction:pass"' not in html
    assert 'id="tally-full"' in html  # the whole auction, when wanted


def test_a_durchmarsch_with_its_called_king_won_is_saved_with_the_auction_the_engine_led(
    koenig: Evening, four: dict[str, Player], scorer: PersonaClient
) -> None:
    carl, dora = str(four["carl"].pk), str(four["dora"].pk)
    html, state = _taps(
        scorer,
        koenig,
        [f"declarer:{carl}", "contract:durchmarsch", "called:EK", "won:1", f"partner:{dora}"],
    )
    assert 'id="tally-save"' in html
    game = _save(scorer, koenig, state)
    record = selectors.game_record(game=game)
    speech = [e for e in record["events"] if e["type"] in ("bid", "pass", "join")]
    bids = [e for e in speech if e["type"] == "bid"]
    assert bids == [{"type": "bid", "player": carl, "contract": "durchmarsch", "called": "EK"}]
    assert all(e["player"] != carl for e in speech if e["type"] == "pass")
    assert game.status == Game.Status.FINISHED
    assert game.result["contract"] == "durchmarsch" and game.result["won"] is True
    assert sorted(game.result["declarers"]) == sorted([carl, dora])


def test_everyone_passed_is_one_tap_and_asks_who_lost(
    koenig: Evening, four: dict[str, Player], scorer: PersonaClient
) -> None:
    anna = str(four["anna"].pk)
    html, state = _taps(scorer, koenig, ["declarer:-"])
    assert 'data-q="losers"' in html
    html, state = _taps_from(scorer, koenig, state, [f"losers:{anna}"])
    game = _save(scorer, koenig, state)
    assert game.result["contract"] == "schurln"
    assert game.result["payouts"][anna] < 0


def _taps_from(
    client: PersonaClient, evening: Evening, state: dict[str, str], picks: list[str]
) -> tuple[str, dict[str, str]]:
    html = ""
    for pick in picks:
        html = client.post(
            f"/evenings/{evening.pk}/tally/",
            {**state, "pick": pick},
            format="multipart",
            HTTP_HX_REQUEST="true",
        ).content.decode()
        state = _hidden(html)
    return html, state


def test_a_bettler_offers_the_players_who_could_join_and_records_the_join(
    koenig: Evening, four: dict[str, Player], scorer: PersonaClient
) -> None:
    html, state = _taps(scorer, koenig, [])
    seats = re.findall(r'value="declarer:(\d+)"', html)
    first = seats[(seats.index(state["dealer"]) + 1) % 4]  # Vorhand: the first to speak
    html, state = _taps_from(scorer, koenig, state, [f"declarer:{first}", "contract:bettler"])
    joiners = re.findall(r'value="joiner:(\d+)"', html)
    assert joiners and first not in joiners
    html, state = _taps_from(scorer, koenig, state, [f"joiner:{joiners[0]}", "won:0"])
    game = _save(scorer, koenig, state)
    record = selectors.game_record(game=game)
    assert {"type": "join", "player": joiners[0]} in record["events"]
    assert sorted(game.result["declarers"]) == sorted([first, joiners[0]])


def test_the_whole_auction_is_one_tap_away_and_back(
    koenig: Evening, four: dict[str, Player], scorer: PersonaClient
) -> None:
    carl = str(four["carl"].pk)
    html, state = _taps(scorer, koenig, [f"declarer:{carl}", "full:1"])
    assert 'value="auction:pass"' in html and state["declarer"] == ""
    html, state = _taps_from(scorer, koenig, state, ["full:"])
    assert 'value="declarer:' in html and 'value="auction:pass"' not in html


@pytest.mark.parametrize("junk", ["declarer:x", "contract:rufer", "called:ZZ", "joiner:999"])
def test_junk_choices_are_asked_again_and_nothing_is_written(
    koenig: Evening, four: dict[str, Player], scorer: PersonaClient, junk: str
) -> None:
    answer = scorer.post(
        f"/evenings/{koenig.pk}/tally/",
        {"pick": junk, "save": "1"},
        format="multipart",
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    assert not Game.objects.filter(evening=koenig).exists()
