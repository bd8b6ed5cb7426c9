"""Writes of the analysis app: asking for a game's analysis, and storing it.

``analysis_request`` is called by the one hook that follows a game's changes
(``analysis.listeners``, the games app's listener, in the transaction that finishes, undoes,
annuls or corrects a finished game): it enqueues ``analysis.tasks.analyse_game``
per game once that transaction commits. ``game_analyse`` (the task's work) asks
the engine and stores its answer at the game's last seq; it is idempotent: a game
whose stored analysis is at its current seq is not analysed again.

The engine decides everything: whether a record is analysable and why not, the
value of each position, the best cards, and (``analysis.derive``) what each card
cost and where the game turned. This module only stores.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engine
from analysis import derive, selectors
from analysis.models import GameAnalysis, PlayerCardFigures
from clubs.models import GameKind, Player
from engine.analysis import TooCostly
from games import selectors as game_selectors
from games.models import Game

logger = logging.getLogger(__name__)

# Game statuses whose record the engine is asked about (a game in progress or annulled
# is not analysed: its stored analysis, if any, is dropped).
ANALYSED_STATUSES = frozenset({Game.Status.FINISHED})


def analysis_request(*, game_ids: Iterable[int]) -> None:
    """Ask for the games' analyses once the current transaction commits.

    Through ``ledger.tasks.send_quietly`` like the projections: a dead broker is
    logged, never raised into the request that recorded the game (the game's page
    then says the analysis is pending, and the periodic ``repair_analyses`` or
    ``rebuild_projections`` catches up). Without a broker the task runs here,
    in-process — for one game; the many games of an import are left to
    ``manage.py rebuild_analyses`` rather than analysed inside the import's request.
    """
    ids = sorted(set(game_ids))
    if not ids:
        return

    def enqueue() -> None:
        from analysis.tasks import analyse_game
        from ledger.tasks import send_quietly

        if len(ids) > 1 and analyse_game.app.conf.task_always_eager:
            # Without a broker the task would run here, in the request: fine for the one
            # game a table just finished, not for an import of hundreds (seconds each).
            logger.info(
                "%s games changed at once without a broker: their analyses are left to "
                "manage.py rebuild_analyses",
                len(ids),
            )
            return
        for game_id in ids:
            send_quietly(analyse_game, game_id)

    transaction.on_commit(enqueue)


def _budget_seconds() -> float:
    return float(getattr(settings, "ANALYSIS_BUDGET_SECONDS", 20))


def _claim_is_fresh(row: GameAnalysis) -> bool:
    """A pending row younger than ``selectors.PENDING_FOR``: another worker holds it."""
    return row.started_at > timezone.now() - selectors.PENDING_FOR


def game_analyse(
    *, game_id: int, budget: float | None = None, force: bool = False
) -> GameAnalysis | None:
    """Analyse the game at its last seq and store the result; returns the stored row.

    Returns the stored row unchanged when it is already at the game's last seq
    (``force`` analyses again, for an engine that changed), or when another worker
    claimed that seq a moment ago. A game in progress or annulled (or gone) has none:
    any stored one is deleted and None returned. Past ``budget`` seconds
    (``ANALYSIS_BUDGET_SECONDS`` by default) the search stops and the game is stored
    ``too_costly``. If the game changed while it was analysed, nothing is stored
    (the change asked for its own analysis) and None is returned.
    """
    game = (
        Game.objects.filter(pk=game_id)
        .only("pk", "status", "last_seq", "game_kind", "house_rules", "result")
        .first()
    )
    if game is None:
        return None
    if game.status not in ANALYSED_STATUSES:
        GameAnalysis.objects.filter(game_id=game_id).delete()
        return None
    seq = game.last_seq
    stored = GameAnalysis.objects.filter(game_id=game_id).first()
    if (
        stored is not None
        and stored.seq == seq
        and not force
        and (stored.status != GameAnalysis.Status.PENDING or _claim_is_fresh(stored))
    ):
        return stored
    # Claim the seq: the page says "being computed", and a second delivery of the
    # same task (acks_late) finds the claim and leaves the work to this one.
    GameAnalysis.objects.update_or_create(
        game_id=game_id,
        defaults={
            "seq": seq,
            "status": GameAnalysis.Status.PENDING,
            "reason": "",
            "answer": {},
            "figures": {},
            "duration_ms": None,
            "started_at": timezone.now(),
            "analysed_at": None,
        },
    )
    record = game_selectors.game_record(game=game)
    seconds = _budget_seconds() if budget is None else budget
    started = time.perf_counter()
    answer, figures = _analyse(record, seconds, contract=(game.result or {}).get("contract"))
    duration_ms = round((time.perf_counter() - started) * 1000)
    with transaction.atomic():
        # The game's row lock orders this write after any append that commits a
        # change: if the game moved on meanwhile, its change enqueued a fresh task.
        current = (
            Game.objects.select_for_update()
            .filter(pk=game_id)
            .values_list("last_seq", flat=True)
            .first()
        )
        if current != seq:
            logger.info("game %s changed while it was analysed; not stored", game_id)
            return None
        if answer is None:
            status, reason = GameAnalysis.Status.TOO_COSTLY, ""
        else:
            status = (
                GameAnalysis.Status.ANALYSED
                if answer.get("status") == "analysed"
                else GameAnalysis.Status.NOT_ANALYSABLE
            )
            reason = str(answer.get("reason") or "")[:20]
        row, _created = GameAnalysis.objects.update_or_create(
            game_id=game_id,
            defaults={
                "seq": seq,
                "status": status,
                "reason": reason,
                "answer": answer or {},
                "figures": figures,
                "duration_ms": duration_ms,
                "analysed_at": timezone.now(),
            },
        )
        PlayerCardFigures.objects.filter(analysis=row).delete()
        PlayerCardFigures.objects.bulk_create(_player_rows(row, figures, game))
    return row


def _analyse(
    record: dict[str, Any], seconds: float, *, contract: str | None
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The engine's answer and the figures derived from it; ``(None, {})`` past the budget."""
    deadline = time.monotonic() + seconds
    try:
        answer: dict[str, Any] = engine.analyse(record, deadline=deadline)
    except TooCostly:
        return None, {}
    if answer.get("status") != "analysed":
        return answer, {}
    return answer, derive.figures(record, answer, contract=contract)


def _player_rows(row: GameAnalysis, figures: dict[str, Any], game: Game) -> list[PlayerCardFigures]:
    """One row per player of the analysed cards (the engine's ``player_figures``), for
    players of the game's club only."""
    per_player = {
        player_id: counts
        for name, counts in (figures.get("players") or {}).items()
        if (player_id := game_selectors.player_id_of(name)) is not None
    }
    known = set(
        Player.objects.filter(pk__in=per_player, club__evenings__games=game).values_list(
            "pk", flat=True
        )
    )
    return [
        PlayerCardFigures(
            analysis=row,
            player_id=pid,
            cards=counts["cards"],
            best=counts["best"],
            augen_given=counts["given_away"] if game.game_kind == GameKind.FUCHSEN else 0,
        )
        for pid, counts in sorted(per_player.items())
        if pid in known
    ]


def analyses_rebuild(*, game_ids: Iterable[int], force: bool = False) -> int:
    """Analyse each game (as ``game_analyse``) here, one after the other; returns how many
    rows were written or confirmed. One failing game is logged and does not stop the others."""
    done = 0
    for game_id in game_ids:
        try:
            if game_analyse(game_id=game_id, force=force) is not None:
                done += 1
        except Exception:
            logger.exception("analysing game %s failed", game_id)
    return done
