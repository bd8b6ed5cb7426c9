"""Reads of the analysis app (pages, API, the evening's and the player's includes)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, F, Sum
from django.utils import timezone

from analysis.models import GameAnalysis, PlayerCardFigures
from clubs.models import Player, Season
from games.models import Evening, Game

# A claim (a pending row) older than this was lost with its worker: a task is killed
# after CELERY_TASK_TIME_LIMIT (90 s by default), its search stops after 20 s.
PENDING_FOR = timedelta(minutes=2)


def game_analysis(*, game: Game) -> GameAnalysis | None:
    """The game's stored analysis, whatever its seq (compare ``seq`` with ``game.last_seq``)."""
    return GameAnalysis.objects.filter(game_id=game.pk).first()


def is_current(analysis: GameAnalysis | None, game: Game) -> bool:
    """The stored analysis is of the game as it stands (not of an earlier record)."""
    return analysis is not None and analysis.seq == game.last_seq


def evening_analyses(*, evening: Evening) -> list[GameAnalysis]:
    """The evening's current analyses with a turning point, in game order (game loaded)."""
    return list(
        GameAnalysis.objects.filter(
            game__evening_id=evening.pk,
            game__status=Game.Status.FINISHED,
            status=GameAnalysis.Status.ANALYSED,
            seq=F("game__last_seq"),
        )
        # JSON null: no card where the game was lost.
        .exclude(figures__lost_at=None)
        .select_related("game")
        .order_by("game__number", "game_id")
    )


@dataclass(frozen=True)
class PlayerFigures:
    """A player's analysed games of a season: how many, his cards with a choice, how
    many of them were best, and the Augen they gave away (Fuchsen)."""

    games: int
    cards: int
    best: int
    augen_given: int

    @property
    def best_share(self) -> float | None:
        return self.best / self.cards if self.cards else None

    @property
    def augen_per_game(self) -> float | None:
        return self.augen_given / self.games if self.games else None


def player_figures(*, player: Player, season: Season) -> PlayerFigures:
    """Summed over the season's finished games whose analysis is current."""
    row: dict[str, Any] = PlayerCardFigures.objects.filter(
        player=player,
        analysis__game__evening__season=season,
        analysis__game__status=Game.Status.FINISHED,
        analysis__seq=F("analysis__game__last_seq"),
        analysis__status=GameAnalysis.Status.ANALYSED,
    ).aggregate(
        games=Count("analysis_id"),
        cards=Sum("cards"),
        best=Sum("best"),
        augen_given=Sum("augen_given"),
    )
    return PlayerFigures(
        games=row["games"] or 0,
        cards=row["cards"] or 0,
        best=row["best"] or 0,
        augen_given=row["augen_given"] or 0,
    )


def games_behind(
    *,
    season_ids: list[int] | None = None,
    force: bool = False,
    fresh_claims: bool = True,
    finished_since: datetime | None = None,
) -> list[int]:
    """Ids of finished games whose analysis is missing or not at their last seq, oldest
    first (every such game with ``force``). A game claimed by a worker at
    its last seq (pending) counts as behind, unless ``fresh_claims`` is False and the
    claim is younger than ``PENDING_FOR``: a worker is on it. ``finished_since``: only
    games finished since then."""
    games = Game.objects.filter(status=Game.Status.FINISHED)
    if finished_since is not None:
        games = games.filter(finished_at__gte=finished_since)
    if season_ids:
        games = games.filter(evening__season_id__in=season_ids)
    if not force:
        current = GameAnalysis.objects.filter(seq=F("game__last_seq"))
        done = current.exclude(status=GameAnalysis.Status.PENDING)
        if not fresh_claims:
            done = current.exclude(
                status=GameAnalysis.Status.PENDING,
                started_at__lt=timezone.now() - PENDING_FOR,
            )
        games = games.exclude(pk__in=done.values("game_id"))
    return list(games.order_by("pk").values_list("pk", flat=True))
