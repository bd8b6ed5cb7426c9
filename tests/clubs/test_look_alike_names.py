"""Names that look alike are the same name; names with invisible characters are refused.

A player's name and a username are what members read and pick from: a zero-width
space or a bidi override would make two different names look the same (or one name
read backwards), and a full-width ``ｄｅｍｏ`` looks like ``demo``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs import services
from clubs.models import Club, Player
from clubs.names import normalise_name
from tests.conftest import PersonaClient
from tests.factories import PASSWORD, PlayerFactory, UserFactory

INVISIBLE = [
    "\u200b",  # zero-width space
    "\u200d",  # zero-width joiner
    "\u2060",  # word joiner
    "\ufeff",  # byte-order mark
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\u2069",  # pop directional isolate
    "\u00ad",  # soft hyphen
    "\u0007",  # bell (a control character)
    "\u3164",  # Hangul filler: a letter that prints as a blank
]


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    """The signups here are a few; other tests' counts must not throttle them."""
    cache.clear()
    yield
    cache.clear()


# Characters a name never holds, drawn from the categories refused.
refused_chars = st.characters(categories=["Cc", "Cf", "Co", "Zl", "Zp"])


@pytest.mark.django_db
@pytest.mark.parametrize("char", INVISIBLE)
def test_a_player_name_with_an_invisible_character_is_refused(
    club: Club, scorer: PersonaClient, char: str
) -> None:
    response = scorer.post(
        f"/api/clubs/{club.slug}/players/create/",
        {"display_name": f"An{char}na"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "invisible or control characters" in str(response.json()["display_name"])
    assert not Player.objects.filter(club=club).exists()


@pytest.mark.django_db
def test_the_page_refuses_a_bidi_override_in_german(club: Club, scorer: PersonaClient) -> None:
    response = scorer.post(
        f"/clubs/{club.slug}/players/new/",
        {"display_name": "Anna\u202eseppS"},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400
    assert "keine unsichtbaren oder Steuerzeichen" in response.content.decode()
    assert not Player.objects.filter(club=club).exists()


@pytest.mark.django_db
def test_a_rename_to_a_name_with_a_zero_width_space_is_refused(club: Club) -> None:
    player = PlayerFactory.create(club=club, display_name="Anna")
    with pytest.raises(ValidationError) as excinfo:
        services.player_update(player=player, display_name="An\u200bna")
    assert "display_name" in excinfo.value.message_dict
    player.refresh_from_db()
    assert player.display_name == "Anna"


@pytest.mark.django_db
def test_a_full_width_look_alike_of_a_player_is_the_same_player(club: Club) -> None:
    PlayerFactory.create(club=club, display_name="Anna Maier")
    with pytest.raises(ValidationError) as excinfo:
        services.player_create(club=club, display_name="ａｎｎａ　 Ｍａｉｅｒ ")
    assert "display_name" in excinfo.value.message_dict


@pytest.mark.django_db
def test_a_player_name_is_stored_normalised(club: Club) -> None:
    player = services.player_create(club=club, display_name="  Ｓｅｐｐ   der  Ältere ")
    assert player.display_name == "Sepp der Ältere"


@pytest.mark.django_db
def test_a_full_width_look_alike_username_is_taken_on_the_api(anonymous: PersonaClient) -> None:
    UserFactory.create(username="demo")
    response = anonymous.post(
        "/api/auth/signup/",
        {"username": "ｄｅｍｏ", "password": PASSWORD},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json()["username"] == ["This username is taken."]
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_a_full_width_look_alike_username_is_taken_on_the_page(anonymous: PersonaClient) -> None:
    UserFactory.create(username="demo")
    response = anonymous.post(
        "/accounts/signup/",
        {"username": "ＤＥＭＯ", "password1": PASSWORD, "password2": PASSWORD},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 200  # the form again, with the reason
    assert "Dieser Benutzername ist vergeben." in response.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_a_username_with_an_invisible_character_is_refused(anonymous: PersonaClient) -> None:
    response = anonymous.post(
        "/api/auth/signup/",
        {"username": "de\u200bmo", "password": PASSWORD},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "invisible or control characters" in str(response.json()["username"])


@pytest.mark.django_db
def test_a_new_username_is_stored_normalised(anonymous: PersonaClient) -> None:
    response = anonymous.post(
        "/api/auth/signup/", {"username": "ｓｅｐｐ", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["username"] == "sepp"


@given(before=st.text(max_size=10), bad=refused_chars, after=st.text(max_size=10))
def test_no_name_with_a_refused_character_gets_through(before: str, bad: str, after: str) -> None:
    name = before + bad + after
    # NFKC maps a handful of format characters away; all that stay are refused.
    if all(
        unicodedata.category(c) not in {"Cc", "Cf", "Co", "Zl", "Zp"}
        for c in unicodedata.normalize("NFKC", name)
    ):
        return
    with pytest.raises(ValidationError):
        normalise_name(name)


@given(st.text(max_size=30))
def test_a_normalised_name_is_its_own_normal_form_and_shows_every_character(name: str) -> None:
    try:
        clean = normalise_name(name)
    except ValidationError:
        return
    assert normalise_name(clean) == clean
    assert clean == clean.strip()
    assert "  " not in clean
    assert all(unicodedata.category(c)[0] != "C" for c in clean)


@pytest.mark.django_db
@settings(max_examples=30, deadline=None)
@given(bad=st.sampled_from(INVISIBLE), name=st.text(min_size=1, max_size=20))
def test_the_service_writes_no_player_with_an_invisible_character(bad: str, name: str) -> None:
    club = Club.objects.create(name="Runde", slug="runde-hypothesis")
    try:
        with pytest.raises(ValidationError):
            services.player_create(club=club, display_name=name + bad)
        assert not Player.objects.filter(club=club).exists()
    finally:
        club.delete()
