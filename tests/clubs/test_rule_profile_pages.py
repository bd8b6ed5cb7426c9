"""House rules on the club pages: every member reads them, an admin writes them with
a form built from the engine's own list of rules, and only what differs from the
defaults is stored."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from clubs.models import Club, GameKind, RuleProfile
from games.rule_form import SEP, HouseRulesForm
from tests.conftest import PersonaClient
from tests.factories import ClubFactory, RuleProfileFactory


def _defaults_posted(game_kind: str, **changes: Any) -> dict[str, Any]:
    """What a browser sends for the form as it first appears (the defaults), changed."""
    form = HouseRulesForm(game_kind=game_kind, face=Club.CardFace.GERMAN)
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].initial
        if isinstance(value, bool):
            if value:
                data[name] = "on"  # an unticked box is not sent at all
        elif value is not None:
            data[name] = value
    data.update(changes)
    return data


@pytest.mark.parametrize("game_kind", GameKind.values)
def test_the_form_has_a_field_for_every_rule_the_engine_knows(game_kind: str) -> None:
    form = HouseRulesForm(game_kind=game_kind, face=Club.CardFace.GERMAN)
    for key, rule in engine.house_rules(game_kind).items():
        if isinstance(rule.default, dict):
            for entry in rule.default:
                assert f"{key}{SEP}{entry}" in form.fields
        else:
            assert key in form.fields


@pytest.mark.parametrize("game_kind", GameKind.values)
def test_the_defaults_sent_back_store_no_override(game_kind: str) -> None:
    form = HouseRulesForm(
        _defaults_posted(game_kind, name="Wie immer"),
        game_kind=game_kind,
        face=Club.CardFace.GERMAN,
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_overrides() == {}


def test_an_admin_writes_new_house_rules_and_only_the_changes_are_stored(
    club: Club, admin: PersonaClient
) -> None:
    data = _defaults_posted(
        GameKind.FUCHSEN,
        name="Gasthaus Post",
        fuchs_penalty="20",
        removed_cards=["E7", "S7"],
        sit_out="named",
        **{f"level_values{SEP}hirsch": "32"},
    )
    data.pop("strict_raise_windows")  # unticked
    response = admin.post(f"/clubs/{club.slug}/rules/new/fuchsen/", data, format="multipart")
    assert response.status_code == 302
    profile = RuleProfile.objects.get(club=club, name="Gasthaus Post")
    assert profile.game_kind == GameKind.FUCHSEN
    assert profile.overrides == {
        "removed_cards": ["E7", "S7"],
        "sit_out": "named",
        "strict_raise_windows": False,
        "level_values": {"hirsch": 32},
        "fuchs_penalty": 20,
    }
    engine.validate_rules("fuchsen", profile.overrides)
    page = admin.get(response["Location"]).content.decode()
    assert "Die Hausregeln Gasthaus Post sind gespeichert." in page
    assert "geändert (Standard: 10)" in page


def test_an_admin_changes_a_profile_and_a_member_reads_it(
    club: Club, admin: PersonaClient, member: PersonaClient
) -> None:
    profile = RuleProfileFactory.create(
        club=club, game_kind=GameKind.KOENIGRUFEN, name="Tarif", overrides={}
    )
    url = f"/clubs/{club.slug}/rules/{profile.pk}/"
    data = _defaults_posted(GameKind.KOENIGRUFEN, name="Gradener Tarif")
    data[f"values{SEP}bettler"] = "35"
    assert admin.post(url, data, format="multipart").status_code == 302
    profile.refresh_from_db()
    assert profile.name == "Gradener Tarif"
    assert profile.overrides == {"values": {"bettler": 35}}
    page = member.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="rules-form"' not in html
    assert "Bettler" in html and ">35<" in html
    assert member.post(url, data, format="multipart").status_code == 403


def test_bad_values_are_refused_at_their_fields_and_nothing_changes(
    club: Club, admin: PersonaClient
) -> None:
    profile = RuleProfileFactory.create(club=club, game_kind=GameKind.FUCHSEN, overrides={})
    url = f"/clubs/{club.slug}/rules/{profile.pk}/"
    data = _defaults_posted(
        GameKind.FUCHSEN,
        name=profile.name,
        game_cost="-5",
        removed_cards=["S7"],
        sit_out="everyone",
        **{f"level_values{SEP}kontra": "zehn"},
    )
    response = admin.post(url, data, format="multipart")
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) == {"game_cost", "removed_cards", "sit_out", f"level_values{SEP}kontra"}
    assert "Wähle genau zwei Karten." in response.content.decode()
    profile.refresh_from_db()
    assert profile.overrides == {}


def test_a_name_taken_for_the_same_game_is_refused(club: Club, admin: PersonaClient) -> None:
    RuleProfileFactory.create(club=club, game_kind=GameKind.FUCHSEN, name="Post")
    data = _defaults_posted(GameKind.FUCHSEN, name="post")
    response = admin.post(f"/clubs/{club.slug}/rules/new/fuchsen/", data, format="multipart")
    assert response.status_code == 400
    assert response.context["form"].errors["name"]
    assert RuleProfile.objects.filter(club=club, game_kind=GameKind.FUCHSEN).count() == 1


def test_only_admins_write_and_strangers_see_nothing(
    club: Club, scorer: PersonaClient, outsider: PersonaClient
) -> None:
    profile = RuleProfileFactory.create(club=club, game_kind=GameKind.FUCHSEN)
    assert scorer.get(f"/clubs/{club.slug}/rules/new/fuchsen/").status_code == 403
    assert outsider.get(f"/clubs/{club.slug}/rules/{profile.pk}/").status_code == 404
    other = RuleProfileFactory.create(club=ClubFactory.create(), game_kind=GameKind.FUCHSEN)
    assert scorer.get(f"/clubs/{club.slug}/rules/{other.pk}/").status_code == 404


def test_an_unknown_game_has_no_form(club: Club, admin: PersonaClient) -> None:
    assert admin.get(f"/clubs/{club.slug}/rules/new/skat/").status_code == 404


def test_the_cards_are_named_as_the_club_plays_them() -> None:
    german = HouseRulesForm(game_kind=GameKind.FUCHSEN, face=Club.CardFace.GERMAN)
    french = HouseRulesForm(game_kind=GameKind.FUCHSEN, face=Club.CardFace.FRENCH)
    german_names = dict(german.fields["removed_cards"].choices)  # type: ignore[attr-defined]
    french_names = dict(french.fields["removed_cards"].choices)  # type: ignore[attr-defined]
    assert (
        set(german_names)
        == set(french_names)
        == {"E9", "E8", "E7", "G9", "G8", "G7", "S9", "S8", "S7"}
    )
    assert german_names["S7"] != french_names["S7"]


def test_the_club_page_counts_only_rules_that_really_differ(
    club: Club, member: PersonaClient
) -> None:
    RuleProfileFactory.create(
        club=club,
        game_kind=GameKind.FUCHSEN,
        name="Wie immer",
        overrides={"game_cost": 5, "removed_cards": ["G7", "S7"]},
    )
    RuleProfileFactory.create(
        club=club,
        game_kind=GameKind.FUCHSEN,
        name="Teurer",
        overrides={"game_cost": 10, "level_values": {"kontra": 10, "re": 20, "end": 50}},
    )
    page = member.get(f"/clubs/{club.slug}/")
    counts = {profile.name: count for profile, count in page.context["rule_profiles"]}
    assert counts == {"Wie immer": 0, "Teurer": 3}
    assert "3 Abweichungen von den Standardregeln" in page.content.decode()


def test_the_evening_links_the_house_rules_its_games_start_with(
    club: Club, member: PersonaClient
) -> None:
    from tests.e2e.tables import open_evening, players_of

    evening = open_evening(club, players_of(club))
    page = member.get(f"/evenings/{evening.pk}/").content.decode()
    assert 'id="evening-rules"' not in page
    assert "die Standardregeln" in page
    profile = RuleProfileFactory.create(club=club, game_kind=GameKind.FUCHSEN, name="Post")
    evening.season.rule_profile = profile
    evening.season.save()
    page = member.get(f"/evenings/{evening.pk}/").content.decode()
    assert f'href="/clubs/{club.slug}/rules/{profile.pk}/" id="evening-rules">Post</a>' in page
