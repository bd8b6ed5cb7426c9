"""A recorded demo evening: several finished Fuchsen deals with raises.

``record_demo_evening(club)`` seats five of the club's players and records
each deal through the same services a scorer's phone uses (start with the
deal, then append the rest), so the ledger books every result. The last few
deals are kept as most tables keep them, by a ``tally`` of what the table
counted: right after the call, or after the first trick recorded card by card. The deals
come from the engine's seeded generator (``engine.generate.random_game``):
the same seeds give the same evening every time. Idempotent: a club that
already has an evening is left alone.

``manage.py seed_demo`` calls ``seed_demo(club=..., stdout=...)`` below
through its ``seed_demo_extras`` hook (every installed app's ``demo.py``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from clubs.models import Club, GameKind, Player, Season
from engine import replay
from engine.generate import random_game
from games import selectors, services
from games.events import renamed_events
from games.models import Evening

# Seeds of generated five-player deals: kontra/re played out, up to "end", an early
# end with no re, one quiet game without kontra.
DEMO_SEEDS = (2, 0, 24, 20, 7, 25, 12, 4)
DEMO_PLACE = "Gasthaus Post, Stammtisch"
# Deals recorded by a tally (seed, "pure" or "late"): two played out, an early end,
# and one whose first trick was recorded before the rest was counted.
DEMO_TALLIES = ((2, "pure"), (24, "pure"), (3, "pure"), (5, "late"))


def _tally_record(
    seed: int, kind: str, number: int, seat_ids: list[str]
) -> list[dict[str, Any]] | None:
    """The deal of ``_demo_record`` as a table without cards keeps it: the deal
    without hands, the call (and for ``late`` the first trick and the end of the
    raising), then a tally of what really happened; None where it does not fit."""
    events = _demo_record(seed, number, seat_ids)
    whole = replay({"game": GameKind.FUCHSEN, "events": events}).to_dict()
    if whole.get("reason") not in ("played_out", "no_kontra", "no_re"):
        return None
    deal = {k: v for k, v in events[0].items() if k != "hands"}
    tally: dict[str, Any] = {"type": "tally"}
    declarers = whole.get("declarers") or []
    if len(declarers) == 2:
        tally["partner"] = declarers[1]
    if kind == "late":
        ends = [i for i, event in enumerate(events) if event.get("type") == "end_raising"]
        if not ends or whole["reason"] != "played_out":
            return None
        recorded = events[1 : ends[0] + 1]
    else:
        recorded = events[1:2]
        tally["level"] = whole.get("level")
        if any(event.get("fuchs") for event in events):
            tally["fuchs"] = True
    if whole["reason"] == "played_out":
        tally["augen"] = whole["augen"]["declarers"]
    return [deal, *recorded, tally]


def _demo_record(seed: int, number: int, seat_ids: list[str]) -> list[dict[str, Any]]:
    """The generated deal for game ``number`` (0-based), seated so the deal goes round.

    The generator picks its own dealer; rotating its seats onto ours (clockwise
    order kept) makes seat ``number % 5`` the dealer, as at a real table.
    """
    record = random_game(seed, GameKind.FUCHSEN, 5)
    generated = list(record["events"][0]["players"])
    dealer_index = generated.index(record["events"][0]["dealer"])
    shift = number % len(seat_ids) - dealer_index
    names = {name: seat_ids[(i + shift) % len(seat_ids)] for i, name in enumerate(generated)}
    return renamed_events(record["events"], names)


@transaction.atomic
def record_demo_evening(club: Club) -> Evening:
    """Record a complete demo evening for ``club`` (or return the evening it already has)."""
    existing = Evening.objects.filter(club=club).order_by("id").first()
    if existing is not None:
        return existing
    season = Season.objects.filter(
        club=club, game_kind=GameKind.FUCHSEN, status=Season.Status.OPEN
    ).first()
    if season is None:
        from clubs.services import season_create

        season = season_create(
            club=club, name="Fuchsen (Demo)", game_kind=GameKind.FUCHSEN, start=_today(club)
        )
    players = list(Player.objects.filter(club=club, is_active=True).order_by("id")[:5])
    if len(players) < 5:
        raise ValueError("the demo evening needs five active players in the club")
    evening = services.evening_create(
        club=club,
        user=None,
        season=season,
        players=[player.pk for player in players],
        place=DEMO_PLACE,
        rule_profile=season.rule_profile
        if season.rule_profile and season.rule_profile.game_kind == GameKind.FUCHSEN
        else None,
    )
    seat_ids = [str(player.pk) for player in players]
    rules = selectors.evening_house_rules(evening=evening)
    number = 0
    deals: list[tuple[int, str | None]] = [(seed, None) for seed in DEMO_SEEDS]
    deals += list(DEMO_TALLIES)
    for seed, tallied in deals:
        found = (
            _demo_record(seed, number, seat_ids)
            if tallied is None
            else _tally_record(seed, tallied, number, seat_ids)
        )
        if found is None:
            continue
        events = found
        # The generator deals under the default rules; a club whose house rules
        # take other cards out (say) would make a deal impossible: skip it.
        if replay({"game": GameKind.FUCHSEN, "rules": rules or None, "events": events}).status != (
            "finished"
        ):
            continue
        number += 1
        deal, *rest = events
        game = services.game_start(
            evening=evening, user=None, deal={k: v for k, v in deal.items() if k != "type"}
        )
        services.game_events_append(game=game, user=None, expected_seq=1, events=rest)
    return evening


def _today(club: Club) -> Any:
    from django.utils import timezone

    return timezone.localdate(timezone=club.zone)


def seed_demo(*, club: Club, stdout: Any) -> None:
    """The ``seed_demo`` hook: one recorded evening in the demo club."""
    had_evening = Evening.objects.filter(club=club).exists()
    evening = record_demo_evening(club)
    if had_evening:
        stdout.write(f"The demo club already has an evening ({evening}).")
    else:
        stdout.write(f"Recorded the demo evening {evening} with {evening.games.count()} games.")
