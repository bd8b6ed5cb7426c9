"""seed_demo builds the demo club once, however often it runs, and only with DEBUG on."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings

from clubs.models import Club, Membership, Player, Role, RuleProfile, Season

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        get_user_model().objects.count(),
        Membership.objects.count(),
        Player.objects.count(),
        Season.objects.count(),
        RuleProfile.objects.count(),
    )


@override_settings(DEBUG=True)
def test_seed_demo_builds_the_demo_club_and_running_it_again_changes_nothing() -> None:
    call_command("seed_demo", stdout=io.StringIO())
    first = _counts()
    call_command("seed_demo", stdout=io.StringIO())
    assert _counts() == first

    club = Club.objects.get(slug="stammtisch-demo")
    assert club.name == "Stammtisch Demo"
    demo = get_user_model().objects.get(username="demo")
    assert demo.check_password("demo")
    assert Membership.objects.get(club=club, user=demo).role == Role.OWNER
    assert Player.objects.filter(club=club).count() == 6
    assert Player.objects.filter(club=club, user__isnull=True).count() == 2
    assert set(
        Season.objects.filter(club=club, status="open").values_list("game_kind", flat=True)
    ) == {
        "fuchsen",
        "koenigrufen",
    }
    assert RuleProfile.objects.filter(club=club).count() == 2
    assert all(season.rule_profile is not None for season in Season.objects.filter(club=club))


@override_settings(DEBUG=False)
def test_seed_demo_refuses_without_debug_and_creates_nothing() -> None:
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("seed_demo", stdout=io.StringIO())
    assert not get_user_model().objects.filter(username="demo").exists()


@override_settings(DEBUG=True)
def test_an_apps_demo_module_adds_to_the_demo_club(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.machinery
    import sys
    import types

    seen: list[str] = []
    module = types.ModuleType("clubs.demo")
    module.__spec__ = importlib.machinery.ModuleSpec("clubs.demo", loader=None)
    module.seed_demo = lambda *, club, stdout: seen.append(club.slug)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "clubs.demo", module)
    call_command("seed_demo", stdout=io.StringIO())
    assert seen == ["stammtisch-demo"]
