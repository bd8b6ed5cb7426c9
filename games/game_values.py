"""A finished game's value as the pages show it: the money, and for a Stilles Spiel its
bonus named ("35 ct (Stilles Spiel +10 ct)"), so that a value above its level's is
never left unexplained.

Whether a game was a Stilles Spiel is the engine's word (``Result.silent`` of its
replay); the bonus is the game's effective house rule ``silent_bonus``
(``engine.rules.effective_rules``, as the Regeln pages show it). Nothing is worked out
here: the value is the engine's, the bonus the rule's, and neither is derived from the
other.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from clubs.models import Club, GameKind
from engine import replay
from engine.rules import effective_rules
from games.events import to_event
from games.models import Game, GameEvent
from games.vocabulary import money, signed_money


def silent_bonus(kind: str, house_rules: dict[str, Any] | None) -> int | None:
    """The game's ``silent_bonus`` under its house rules (None where the game has none)."""
    try:
        rules = effective_rules(kind, house_rules or None)
    except Exception:  # a stored game's rules are valid; a page never fails on them
        rules = effective_rules(kind, None)
    bonus = rules.get("silent_bonus")
    return bonus if isinstance(bonus, int) else None


def value_text(
    kind: str,
    value: int | float | None,
    *,
    silent: bool,
    house_rules: dict[str, Any] | None,
    club: Club,
) -> str:
    """``value`` in the club's money; for a Stilles Spiel (``silent``, the engine's
    ``Result.silent``) with the game's bonus named after it."""
    if value is None:
        return ""
    text = money(value, club)
    bonus = silent_bonus(kind, house_rules) if silent else None
    if bonus:
        text = _("%(value)s (Stilles Spiel %(bonus)s)") % {
            "value": text,
            "bonus": signed_money(bonus, club),
        }
    return text


def record_silent(record: dict[str, Any]) -> bool:
    """Was the game ``record`` makes a Stilles Spiel? The engine's ``Result.silent``."""
    return replay(record).silent is True


def silent_games(games: Iterable[Game]) -> set[int]:
    """The ids of those of ``games`` the engine finds were a Stilles Spiel: the finished
    Fuchsen games (the only game with the bonus) replayed from their events, read in
    one query for them all."""
    candidates = {
        g.pk: g
        for g in games
        if g.game_kind == GameKind.FUCHSEN and g.status == Game.Status.FINISHED
    }
    if not candidates:
        return set()
    events: dict[int, list[dict[str, Any]]] = {pk: [] for pk in candidates}
    rows = (
        GameEvent.objects.filter(game_id__in=list(candidates))
        .order_by("game_id", "seq")
        .values_list("game_id", "type", "payload", "schema_version")
    )
    for game_id, typ, payload, version in rows:
        events[game_id].append(to_event(typ, payload, version))
    return {
        pk
        for pk, game in candidates.items()
        if record_silent(
            {"game": game.game_kind, "rules": dict(game.house_rules) or None, "events": events[pk]}
        )
    }
