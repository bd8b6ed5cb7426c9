"""Generated input into the club page's forms (players, seasons, house rules, roles):
never a server error, a refusal is a 400 (or a message after a redirect) and writes
nothing, and what is accepted is valid."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from clubs.models import Club, Membership, Player, RuleProfile, Season
from games.rule_form import SEP, HouseRulesForm
from tests.conftest import PersonaClient

# Fifteen forms per test: each is a request with its writes; the suite's time is
# bounded by examples, not by a deadline (wall-clock time on a shared machine).
FUZZ = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# Text a phone keyboard or a hostile client may send (no NUL: browsers cannot).
text = st.text(
    st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=120
)
value = st.one_of(
    text, st.integers(-(10**12), 10**12).map(str), st.sampled_from(["", " ", "on", "ja"])
)


@pytest.mark.django_db
@FUZZ
@given(name=value)
def test_any_player_name_is_added_or_refused_cleanly(
    name: str, club: Club, owner: PersonaClient
) -> None:
    before = Player.objects.filter(club=club).count()
    response = owner.post(
        f"/clubs/{club.slug}/players/new/", {"display_name": name}, format="multipart"
    )
    assert response.status_code in (302, 400)
    added = Player.objects.filter(club=club).count() - before
    assert added == (1 if response.status_code == 302 else 0)


@pytest.mark.django_db
@FUZZ
@given(
    data=st.fixed_dictionaries(
        {},
        optional={
            "name": value,
            "game_kind": value | st.sampled_from(["fuchsen", "koenigrufen"]),
            "start": value | st.dates().map(str),
            "rule_profile": value,
        },
    )
)
def test_any_season_form_opens_a_season_or_is_refused_cleanly(
    data: dict[str, str], club: Club, owner: PersonaClient
) -> None:
    Season.objects.filter(club=club).update(status=Season.Status.CLOSED)
    before = Season.objects.filter(club=club).count()
    response = owner.post(f"/clubs/{club.slug}/seasons/new/", data, format="multipart")
    assert response.status_code in (302, 400)
    opened = Season.objects.filter(club=club).count() - before
    assert opened == (1 if response.status_code == 302 else 0)


def _rule_fields(game_kind: str) -> list[str]:
    form = HouseRulesForm(game_kind=game_kind, face=Club.CardFace.GERMAN)
    return [name for name in form.fields if name != "name"]


@pytest.mark.django_db
@FUZZ
@given(
    game_kind=st.sampled_from(["fuchsen", "koenigrufen"]),
    picks=st.data(),
)
def test_any_house_rules_form_saves_valid_rules_or_is_refused_cleanly(
    game_kind: str, picks: Any, club: Club, owner: PersonaClient
) -> None:
    fields = _rule_fields(game_kind)
    data: dict[str, Any] = {"name": picks.draw(value)}
    for name in picks.draw(st.lists(st.sampled_from(fields), unique=True)):
        if name == "removed_cards":
            data[name] = picks.draw(st.lists(value | st.sampled_from(["S7", "G7", "E9"])))
        else:
            data[name] = picks.draw(value)
    before = RuleProfile.objects.filter(club=club).count()
    response = owner.post(f"/clubs/{club.slug}/rules/new/{game_kind}/", data, format="multipart")
    assert response.status_code in (302, 400)
    profiles = RuleProfile.objects.filter(club=club).order_by("-id")
    if response.status_code == 400:
        assert profiles.count() == before
        return
    saved = profiles.first()
    assert saved is not None
    engine.validate_rules(game_kind, saved.overrides)
    for key in saved.overrides:
        assert key in engine.house_rules(game_kind)
    assert all(SEP not in key for key in saved.overrides)


@pytest.mark.django_db
@FUZZ
@given(role=value | st.sampled_from(["owner", "admin", "scorer", "member"]))
def test_any_role_is_given_or_refused_without_losing_the_owner(
    role: str, club: Club, owner: PersonaClient, member: PersonaClient
) -> None:
    for target in Membership.objects.filter(club=club):
        response = owner.post(
            f"/clubs/{club.slug}/members/{target.pk}/role/", {"role": role}, format="multipart"
        )
        assert response.status_code == 302
    assert Membership.objects.filter(club=club, role="owner").exists()
    assert set(Membership.objects.filter(club=club).values_list("role", flat=True)) <= {
        "owner",
        "admin",
        "scorer",
        "member",
    }


# What a hostile client sends besides: unicode digits int() refuses, NUL, huge numbers.
nasty = st.one_of(
    value, st.sampled_from(["²", "1²", "\x00", "Anna\x00", "9" * 40, "٣"]), st.text(max_size=20)
).filter(lambda s: all(not "\ud800" <= c <= "\udfff" for c in s))


@pytest.mark.django_db
@FUZZ
@given(name=nasty)
def test_any_new_name_of_a_player_is_taken_or_refused_cleanly(
    name: str, club: Club, owner: PersonaClient
) -> None:
    player = Player.objects.create(club=club, display_name="Fuzz")
    url = f"/clubs/{club.slug}/players/{player.pk}/rename/"
    response = owner.post(url, {"display_name": name}, format="multipart")
    assert response.status_code == 302
    player.refresh_from_db()
    assert "\x00" not in player.display_name and player.display_name.strip()
    player.delete()


@pytest.mark.django_db
@FUZZ
@given(player=nasty)
def test_any_player_of_an_invitation_makes_one_or_is_refused_cleanly(
    player: str, club: Club, owner: PersonaClient
) -> None:
    from clubs.forms import id_param
    from clubs.models import Invitation

    before = Invitation.objects.filter(club=club).count()
    response = owner.post(
        f"/clubs/{club.slug}/invitations/new/",
        {"role": "member", "player": player},
        format="multipart",
    )
    assert response.status_code == 302
    made = Invitation.objects.filter(club=club).count() - before
    if player.strip() and id_param(player) is None:
        assert made == 0  # names no player: refused, not an invitation for nobody
    else:
        assert made in (0, 1)
