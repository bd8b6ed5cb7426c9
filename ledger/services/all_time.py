"""The all-time tables and ratings: added from the season tables, folded game by game."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import Count, Q, QuerySet, Sum

from clubs.models import Club, Season
from ledger import projections
from ledger.models import (
    AllTimeGame,
    AllTimeRow,
    PlayerGame,
    PlayerRating,
    StandingRow,
)
from stichbuch.sql import rows_insert

FIGURES = projections.STANDING_FIGURES


def _season_figures(season_id: int) -> dict[int, list[int]]:
    """The season table's figures as stored: {player id: ``FIGURES``}."""
    return {
        player: list(values)
        for player, *values in StandingRow.objects.filter(
            season_id=season_id, evening__isnull=True
        ).values_list("player_id", *FIGURES)
    }


def _all_time_add(
    season: Season, before: Mapping[int, list[int]], after: Mapping[int, list[int]]
) -> None:
    """Add the difference between the season table's figures ``before`` and ``after``
    a change to the club's all-time table of the season's game (O(players changed)).
    A season counts for a player while he has games in it."""
    games = FIGURES.index("games")
    rows = {
        row.player_id: row
        for row in AllTimeRow.objects.filter(
            club_id=season.club_id,
            game_kind=season.game_kind,
            player_id__in=set(before) | set(after),
        )
    }
    for player in sorted(set(before) | set(after)):
        old = before.get(player, [0] * len(FIGURES))
        new = after.get(player, [0] * len(FIGURES))
        if old == new:
            continue
        row = rows.get(player) or AllTimeRow(
            club_id=season.club_id, game_kind=season.game_kind, player_id=player
        )
        for name, was, now in zip(FIGURES, old, new, strict=True):
            setattr(row, name, getattr(row, name) + now - was)
        row.seasons += int(new[games] > 0) - int(old[games] > 0)
        row.save()


def all_time_rebuild(*, club_id: int | None = None) -> int:
    """Recompute the all-time lines (of one club, or of all) from the stored season
    tables, and their all-time ratings from the seasons' ``PlayerGame`` rows; returns
    how many lines there are. The rebuild's last step, after every season was rebuilt
    from the results."""
    lines = (
        AllTimeRow.objects.all() if club_id is None else AllTimeRow.objects.filter(club_id=club_id)
    )
    seasons = StandingRow.objects.filter(evening__isnull=True)
    if club_id is not None:
        seasons = seasons.filter(season__club_id=club_id)
    sums = (
        seasons.values("season__club_id", "season__game_kind", "player_id")
        .annotate(
            seasons_played=Count("season_id", filter=Q(games__gt=0)),
            **{f"sum_{name}": Sum(name) for name in FIGURES},
        )
        .order_by()
    )
    fresh = [
        AllTimeRow(
            club_id=row["season__club_id"],
            game_kind=row["season__game_kind"],
            player_id=row["player_id"],
            seasons=row["seasons_played"],
            **{name: int(row[f"sum_{name}"]) for name in FIGURES},
        )
        for row in sums
    ]
    kinds = sorted({(line.club_id, line.game_kind) for line in fresh})
    with transaction.atomic():
        # The clubs' rows locked first, in id order, as a season's run locks its club
        # (after its season, which this takes none of): the lines are theirs.
        clubs = Club.objects.order_by("pk")
        if club_id is not None:
            clubs = clubs.filter(pk=club_id)
        list(clubs.select_for_update(no_key=True).values_list("pk", flat=True))
        lines.delete()
        AllTimeRow.objects.bulk_create(fresh, batch_size=2000)
        # The all-time ratings folded from nothing: every game of the club's game once.
        steps = AllTimeGame.objects.all()
        if club_id is not None:
            steps = steps.filter(club_id=club_id)
        steps.delete()
        for club, kind in kinds:
            _all_time_ratings_fold(club_id=club, game_kind=kind, first=None)
    return len(fresh)


def _all_time_ratings_fold(
    *, club_id: int, game_kind: str, first: projections.GameKey | None
) -> None:
    """Bring the club's all-time rating of ``game_kind`` up to date from the game
    ``first`` on (``None``: from the club's first game, the rebuild), under the
    caller's lock of the club's row and inside its transaction.

    The all-time rating is the season rating's fold over every game of every season
    of the game, in game order, from the seasons' ``PlayerGame`` rows (as they stand
    after the season's run; the same rating step, ``projections.fold_ratings``). Cost:
    the games from ``first`` on, one rating step each, and their rows read from every
    season of the game. A game finished after all others (the common case) costs one
    step; a late game, an undo or an annulment, or a season rebuilt, pays for every
    game of the club's game played after it, in any season (the all-time rating of a
    game depends on all games before it). Each player's state before ``first`` is
    his ``AllTimeRow`` rating when no step of his is at or after ``first`` (no
    query), else his last ``AllTimeGame`` row before it (one indexed query).
    """
    seasons = Season.objects.filter(club_id=club_id, game_kind=game_kind).values("pk")
    rows = PlayerGame.objects.filter(season_id__in=seasons)
    steps = AllTimeGame.objects.filter(club_id=club_id, game_kind=game_kind)
    if first is not None:
        rows = rows.filter(played_at__gte=first[0])
        steps = steps.filter(played_at__gte=first[0])
    # Only the fields the rating step needs, as tuples: a rebuild reads every row of
    # the club's game here (half a million for 100,000 games).
    later_games: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for r in rows.values_list(*projections.RATING_FIELDS).iterator(chunk_size=5000):
        # (played_at, game_id) >= first
        if first is None or (r[1], r[0]) >= first:
            later_games[r[0]].append(r)
    old_steps = [
        r
        for r in steps.values("pk", "game_id", "player_id", "played_at")
        if first is None or projections.game_key(r) >= first
    ]
    refold = [projections.rating_outcome_from_rows(rows_of) for rows_of in later_games.values()]
    refold.sort(key=lambda outcome: (outcome.played_at, outcome.game_id))
    removed_rated: dict[str, int] = defaultdict(int)
    for r in old_steps:
        removed_rated[str(r["player_id"])] += 1
    players = set(removed_rated)
    for outcome in refold:
        players.update(outcome.payouts, outcome.active)
    lines = {
        str(line.player_id): line
        for line in AllTimeRow.objects.filter(
            club_id=club_id, game_kind=game_kind, player_id__in=[int(p) for p in players]
        )
    }
    start = projections.fresh_state()
    states: dict[str, projections.PlayerState] = {}
    for player in players:
        line = lines.get(player)
        stored_rated = line.rated if line is not None and first is not None else 0
        rated = stored_rated - removed_rated.get(player, 0)
        if rated <= 0:
            states[player] = start
        elif not removed_rated.get(player) and line is not None and line.mu is not None:
            assert line.sigma is not None and line.ordinal is not None
            states[player] = projections.PlayerState(line.mu, line.sigma, line.ordinal, 0, rated)
        else:
            assert first is not None
            before = (
                AllTimeGame.objects.filter(
                    club_id=club_id,
                    game_kind=game_kind,
                    player_id=int(player),
                    played_at__lte=first[0],
                )
                .order_by("-played_at", "-game_id")
                .values("played_at", "game_id", "mu", "sigma", "ordinal")
            )
            last = next(
                r for r in before.iterator(chunk_size=20) if projections.game_key(r) < first
            )
            states[player] = projections.PlayerState(
                last["mu"], last["sigma"], last["ordinal"], 0, rated
            )
    # Plain tuples through ``rows_insert`` (COPY), as the seasons' ``PlayerGame`` rows:
    # one row per rated player and game, so a rebuild or a long import writes as
    # many of these as of those, and building model instances was most of their cost.
    fresh = [
        (
            club_id,
            game_kind,
            outcome.game_id,
            int(player),
            outcome.played_at,
            state.mu,
            state.sigma,
            state.ordinal,
        )
        for outcome, player, state in projections.fold_ratings(refold, states)
    ]
    if old_steps:
        AllTimeGame.objects.filter(pk__in=[r["pk"] for r in old_steps]).delete()
    rows_insert(
        model=AllTimeGame,
        fields=[
            "club_id",
            "game_kind",
            "game_id",
            "player_id",
            "played_at",
            "mu",
            "sigma",
            "ordinal",
        ],
        rows=fresh,
    )
    changed: list[AllTimeRow] = []
    for player in sorted(players, key=int):
        state = states[player]
        line = lines.get(player)
        if line is None:
            if not state.rated:
                continue
            line = AllTimeRow.objects.create(
                club_id=club_id, game_kind=game_kind, player_id=int(player)
            )
        values = (
            (state.mu, state.sigma, state.ordinal, state.rated)
            if state.rated
            else (None, None, None, 0)
        )
        if (line.mu, line.sigma, line.ordinal, line.rated) != values:
            line.mu, line.sigma, line.ordinal, line.rated = values
            changed.append(line)
    AllTimeRow.objects.bulk_update(changed, ["mu", "sigma", "ordinal", "rated"], batch_size=500)


def _appears(season_id: int, scope: int | None, player_id: int) -> bool:
    """Whether the player has a ``PlayerGame`` row in the season (or the evening)."""
    rows = PlayerGame.objects.filter(season_id=season_id, player_id=player_id)
    if scope is not None:
        rows = rows.filter(evening_id=scope)
    return rows.exists()


def _apply_ratings(
    season_id: int,
    before: Mapping[str, projections.PlayerState],
    removed: list[dict[str, Any]],
    fresh: list[dict[str, Any]],
    ratings: Mapping[str, PlayerRating],
) -> None:
    """Store each touched player's rating after his last game (his state after the
    fold) and his rated games; a player left with none has no rating."""
    touched = {str(r["player_id"]) for r in removed} | {str(r["player_id"]) for r in fresh}
    stale: list[int] = []
    fresh_ratings: list[PlayerRating] = []
    for player in sorted(touched):
        state = before[player]
        old = ratings.get(player)
        values = (state.mu, state.sigma, state.ordinal, state.rated)
        if old is not None and (old.mu, old.sigma, old.ordinal, old.games) == values:
            continue
        if old is not None:
            stale.append(old.pk)
        if state.rated:
            fresh_ratings.append(
                PlayerRating(
                    season_id=season_id,
                    player_id=int(player),
                    mu=state.mu,
                    sigma=state.sigma,
                    ordinal=state.ordinal,
                    games=state.rated,
                )
            )
    if stale:
        PlayerRating.objects.filter(pk__in=stale).delete()
    if fresh_ratings:
        PlayerRating.objects.bulk_create(fresh_ratings, batch_size=500)


def _drop_lone_pairs(
    season_id: int, numerators: dict[tuple[str, str], dict[int, int]], old: list[dict[str, Any]]
) -> None:
    """Forget the pairs of the removed rows that no longer sat in a game together
    (the rebuild lists a pair only if it did)."""
    pairs: set[tuple[str, str]] = set()
    by_game: dict[int, list[str]] = defaultdict(list)
    for r in old:
        if r["role"] != "out":
            by_game[r["game_id"]].append(str(r["player_id"]))
    for players in by_game.values():
        ordered = sorted(players)
        pairs.update((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :])
    for a, b in pairs:
        if numerators.get((a, b)):
            continue
        together = (
            PlayerGame.objects.filter(season_id=season_id, player_id=int(a))
            .exclude(role="out")
            .filter(
                game_id__in=PlayerGame.objects.filter(season_id=season_id, player_id=int(b))
                .exclude(role="out")
                .values("game_id")
            )
            .exists()
        )
        if not together:
            numerators.pop((a, b), None)


_Row = TypeVar("_Row", StandingRow, PlayerRating)


def _replace_changed(
    stored_rows: QuerySet[_Row],
    rows: list[dict[str, Any]],
    *,
    key: tuple[str, ...],
) -> None:
    """Make ``stored_rows`` equal ``rows`` (each a dict of every field but the id),
    writing only the difference. Rows are matched by ``key`` (unique within the
    rows); a stored row whose fields differ from its new row's, or that has no new
    row, is deleted, and the new rows not stored as they are are inserted (after
    the deletes, as the key is unique)."""
    model = stored_rows.model
    fields = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
    at = [fields.index(name) for name in key]
    stored: dict[tuple[Any, ...], tuple[int, tuple[Any, ...]]] = {}
    for pk, *values in stored_rows.values_list("pk", *fields):
        stored[tuple(values[i] for i in at)] = (pk, tuple(values))
    stale: list[int] = []
    fresh: list[tuple[Any, ...]] = []
    for row in rows:
        values = tuple(row[name] for name in fields)
        old = stored.pop(tuple(values[i] for i in at), None)
        if old is not None and old[1] == values:
            continue  # stored as it is
        if old is not None:
            stale.append(old[0])
        fresh.append(values)
    stale += [pk for pk, _ in stored.values()]
    if stale:
        model.objects.filter(pk__in=stale).delete()
    # Tuples through COPY, not instances through ``bulk_create``: a rebuild of 100,000
    # games writes 40,000 evening table rows, and preparing each instance's fields
    # was most of their cost.
    rows_insert(model=model, fields=fields, rows=fresh)
