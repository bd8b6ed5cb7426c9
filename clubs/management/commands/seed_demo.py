"""``manage.py seed_demo``: a demo club to click through, safe to run again.

Creates (or finds) the club "Stammtisch Demo" with an owner account
``demo``/``demo``, a few members, six players (some of them guests), an open
Fuchsen and an open Königrufen season and a rule profile for each. The demo
account has a known password, so the command refuses to run unless DEBUG is on.

Later apps extend the demo through ``seed_demo_extras``: an app's ``demo.py``
with ``seed_demo(*, club, stdout)`` (e.g. the games app records an evening
there) is called automatically. Each hook must be idempotent too.
"""

from __future__ import annotations

import datetime
import importlib
import importlib.util
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from clubs import services
from clubs.models import Club, GameKind, Membership, Player, Role, RuleProfile, Season

DEMO_SLUG = "stammtisch-demo"
DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo"

# username (or None for a guest without an account), display name, role
DEMO_PEOPLE: list[tuple[str | None, str, str | None]] = [
    ("demo", "Sepp", Role.OWNER),
    ("resi", "Resi", Role.ADMIN),
    ("franz", "Franz", Role.SCORER),
    ("gretl", "Gretl", Role.MEMBER),
    (None, "Hansi", None),
    (None, "Vroni", None),
]


def seed_demo_extras(*, club: Club, stdout: Any) -> None:
    """Hook for later apps: add a recorded evening, games, payments to the demo club.

    Called after the club, its players, seasons and rule profiles exist, inside
    the same transaction. Each installed app may provide a module ``<app>/demo.py``
    with a function ``seed_demo(*, club, stdout)``; they run in INSTALLED_APPS
    order (games before ledger). Whatever they add must be idempotent: look for
    it first, create it only if it is missing.
    """
    for app_config in apps.get_app_configs():
        module_name = f"{app_config.name}.demo"
        if importlib.util.find_spec(module_name) is None:
            continue
        hook = getattr(importlib.import_module(module_name), "seed_demo", None)
        if hook is not None:
            hook(club=club, stdout=stdout)


class Command(BaseCommand):
    help = "Create the demo club 'Stammtisch Demo' with the account demo/demo (DEBUG only)."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "seed_demo creates the account demo with the password demo, so it runs only "
                "with DEBUG on (DEBUG=1). Do not run it against a production database."
            )
        with transaction.atomic():
            club = self._seed()
            seed_demo_extras(club=club, stdout=self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club '{club.name}' is ready: log in as {DEMO_USERNAME} / {DEMO_PASSWORD}."
            )
        )

    def _user(self, username: str, first_name: str) -> Any:
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=username, defaults={"first_name": first_name}
        )
        if created:
            user.set_password(DEMO_PASSWORD if username == DEMO_USERNAME else None)
            user.save()
        return user

    def _seed(self) -> Club:
        owner = self._user(DEMO_USERNAME, "Sepp")
        club = Club.objects.filter(slug=DEMO_SLUG).first()
        if club is None:
            club = services.club_create(creator=owner, name="Stammtisch Demo", slug=DEMO_SLUG)
            # club_create named the owner's player after the account; use his table name.
            Player.objects.filter(club=club, user=owner).update(display_name="Sepp")

        for username, display_name, role in DEMO_PEOPLE:
            user = self._user(username, display_name) if username else None
            if user is not None and role is not None:
                Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
            if not Player.objects.filter(club=club, display_name__iexact=display_name).exists():
                if user is not None and Player.objects.filter(club=club, user=user).exists():
                    continue
                services.player_create(club=club, display_name=display_name, user=user)

        profiles: dict[str, RuleProfile] = {}
        for game_kind, name, overrides in (
            (GameKind.FUCHSEN, "Gasthaus-Regeln", {"game_cost": 5, "call_own_card": False}),
            (GameKind.KOENIGRUFEN, "Gradener Tarif", {"values": {"bettler": 30, "schurln": 10}}),
        ):
            profile = RuleProfile.objects.filter(club=club, game_kind=game_kind, name=name).first()
            if profile is None:
                profile = services.rule_profile_create(
                    club=club, game_kind=game_kind, name=name, overrides=overrides
                )
            profiles[game_kind] = profile

        year = timezone.localdate().year
        for game_kind, name in (
            (GameKind.FUCHSEN, f"Fuchsen {year}"),
            (GameKind.KOENIGRUFEN, f"Königrufen {year}"),
        ):
            if not Season.objects.filter(club=club, game_kind=game_kind, name=name).exists():
                if Season.objects.filter(
                    club=club, game_kind=game_kind, status=Season.Status.OPEN
                ).exists():
                    continue  # another season of this game is open; leave it be
                services.season_create(
                    club=club,
                    name=name,
                    game_kind=game_kind,
                    start=datetime.date(year, 1, 1),
                    rule_profile=profiles[game_kind],
                )
        return club
