""" "Ergebnis eintragen" on the evening page: what the form offers comes from the
engine's table view, each tap draws it again, and nothing is written before "Save"."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Player
from games.models import Evening, Game
from games.tally_form import FIELDS
from tests.conftest import PersonaClient


def _tap(client: PersonaClient, evening: Evening, state: dict[str, str], pick: str) -> str:
    answer = client.post(
        f"/evenings/{evening.pk}/tally/",
        {**state, "pick": pick},
        format="multipart",
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    return str(answer.content.decode())


def _hidden(html: str) -> dict[str, str]:
    import re

    return dict(re.findall(r'<input type="hidden" name="([a-z]+)" value="([^"]*)"', html))


def test_the_evening_page_offers_the_form_with_the_seats_to_tap_as_macher(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    html = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    assert 'id="tally"' in html
    for name in ("anna", "bert", "carl", "dora", "emil"):
        assert f'value="macher:{players[name].pk}"' in html


def test_a_member_who_does_not_score_gets_no_form(evening: Evening, member: PersonaClient) -> None:
    assert 'id="tally"' not in member.get(f"/evenings/{evening.pk}/").content.decode()
    assert member.get(f"/evenings/{evening.pk}/tally/").status_code == 403


def test_tapping_the_macher_offers_the_cards_the_engine_lets_him_call_and_writes_nothing(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    html = _tap(scorer, evening, {}, f"macher:{players['bert'].pk}")
    assert 'data-step="called"' in html
    assert 'value="called:EA"' in html  # a plain card may be called
    assert 'value="called:GO"' not in html  # a trump never
    assert 'value="called:alone"' in html
    assert _hidden(html)["macher"] == str(players["bert"].pk)
    assert Game.objects.filter(evening=evening).count() == 0


def test_another_dealer_is_one_tap_and_forgets_the_call(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    state: dict[str, Any] = _hidden(_tap(scorer, evening, {}, f"macher:{players['bert'].pk}"))
    html = _tap(scorer, evening, state, f"dealer:{players['carl'].pk}")
    hidden = _hidden(html)
    assert hidden["dealer"] == str(players["carl"].pk)
    assert hidden["macher"] == ""


FIELD_VALUES = st.sampled_from(["", "1", "0", "-", "re", "kontra", "alone", "EA", "GO", "x" * 40])


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    state=st.dictionaries(st.sampled_from(FIELDS), FIELD_VALUES | st.text(max_size=12)),
    pick=st.text(max_size=20) | st.sampled_from(["auction:back", "losers:", "won:1", "save"]),
)
def test_junk_posted_to_the_form_draws_it_again_and_writes_nothing_half(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient, state: Any, pick: str
) -> None:
    before = Game.objects.filter(evening=evening).count()
    answer = scorer.post(
        f"/evenings/{evening.pk}/tally/",
        {**state, "pick": pick, "save": "1"},
        format="multipart",
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code in (200, 204)
    games = Game.objects.filter(evening=evening)
    if answer.status_code == 200:  # drawn again: nothing was saved
        assert games.count() == before
    else:  # saved: one whole game, its events and its result
        assert games.count() == before + 1
        assert games.order_by("number").last().result  # type: ignore[union-attr]


def _tap_through(
    client: PersonaClient, evening: Evening, picks: list[str], save: bool = False
) -> str:
    state: dict[str, str] = {}
    html = ""
    for pick in picks:
        html = _tap(client, evening, state, pick)
        state = _hidden(html)
    if save:
        answer = client.post(
            f"/evenings/{evening.pk}/tally/",
            {**state, "save": "1"},
            format="multipart",
            HTTP_HX_REQUEST="true",
        )
        assert answer.status_code == 204
    return html


def _partner_game(players: dict[str, Player], level: str) -> list[str]:
    return [
        f"macher:{players['bert'].pk}",
        "called:EA",
        f"partner:{players['carl'].pk}",
        f"level:{level}",
    ]


def test_a_played_out_level_is_won_unless_told_otherwise_and_the_preview_says_so(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    html = _tap_through(scorer, evening, _partner_game(players, "re"))
    assert 'data-ready="1"' in html  # no tap on "won" needed
    assert 'value="won:1" class="chip" aria-pressed="true"' in html
    assert _hidden(html)["won"] == ""  # the default is not carried as a tap
    _tap_through(scorer, evening, _partner_game(players, "re"), save=True)
    game = Game.objects.get(evening=evening)
    assert game.result["won"] is True
    assert game.result["level"] == "re"


def test_a_tap_on_lost_overrides_the_default(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    _tap_through(scorer, evening, [*_partner_game(players, "supp"), "won:0"], save=True)
    assert Game.objects.get(evening=evening).result["won"] is False


def test_no_kontra_with_the_fuchs_said_is_one_chip_where_it_decides_the_game(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    html = _tap_through(scorer, evening, _partner_game(players, "re")[:3])
    assert 'value="level:-+fuchs"' in html  # the Fuchs said makes no Kontra played out
    assert 'value="level:re+fuchs"' not in html  # at Re it changes nothing: no twin
    html = _tap_through(scorer, evening, _partner_game(players, "-+fuchs"))
    hidden = _hidden(html)
    assert (hidden["level"], hidden["fuchs"]) == ("-", "1")
    assert 'data-q="won"' in html  # played out: the outcome is asked, "won" by default
    assert 'value="level:-+fuchs" class="chip" aria-pressed="true"' in html
    _tap_through(scorer, evening, _partner_game(players, "-+fuchs"), save=True)
    game = Game.objects.get(evening=evening)
    tally = next(e for e in game.events.all() if e.type == "tally")
    assert tally.payload["fuchs"] is True and tally.payload["level"] is None
    assert game.result["won"] is True


def test_a_plain_level_takes_back_the_fuchs_said_with_another(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    html = _tap_through(scorer, evening, [*_partner_game(players, "-+fuchs"), "level:-"])
    assert _hidden(html)["fuchs"] == ""
    assert 'data-ready="1"' in html and 'data-q="won"' not in html  # over after a trick
