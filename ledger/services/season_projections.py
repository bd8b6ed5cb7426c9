"""Recomputing a season's projections (standings, facts, chart series), game by game."""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from clubs.models import Club, Season
from ledger import projections, selectors
from ledger.bulk import player_games_insert
from ledger.models import (
    PlayerGame,
    PlayerRating,
    ProjectionChange,
    ProjectionState,
    SeasonSeries,
    StandingRow,
    StandingsConfig,
)
from ledger.services.all_time import (
    FIGURES,
    _all_time_add,
    _all_time_ratings_fold,
    _appears,
    _apply_ratings,
    _drop_lone_pairs,
    _replace_changed,
    _season_figures,
)
from ledger.services.game_facts import _with_facts
from ledger.standings import GameOutcome, PlayerStanding, season_table
from ledger.standings import StandingsConfig as StandingsRules

logger = logging.getLogger(__name__)


def season_projections_recompute(
    *, season_id: int, force: bool = False, all_time: bool = True
) -> ProjectionState:
    """Bring the season's projections up to date with its games; idempotent.

    Per game, not per season: the changes not yet applied are the season's
    ``ProjectionChange`` rows (written with each change, in its transaction). A run
    takes them under the season's ``SeasonSeries`` row lock (one run per season at
    a time), applies them (:func:`_apply_game_changes`) and deletes them in the same
    transaction: a run killed mid-way has written nothing, two runs racing apply
    each change once, and a repeated run finds nothing to do. A change of the whole
    season (``game_id`` null: the club's ranking rules), or ``force`` (the rebuild),
    recomputes the season from its games' results alone (:func:`_rebuild_season`).

    The version is read before the changes, so everything up to it is applied;
    ``computed_from`` never goes back. Returns the state as stored.

    The club's all-time table and rating of the season's game follow in the same
    transaction (:func:`_all_time_ratings_fold` from the first game changed), under
    the club's row lock: the runs of two seasons of one club add to the same lines.
    ``all_time=False`` leaves the all-time rating to the caller (the rebuild of every
    season, which folds it once at its end with :func:`all_time_rebuild`).
    """
    state, _created = ProjectionState.objects.get_or_create(season_id=season_id)
    version = state.version
    if not force and state.computed_from == version:
        return state
    started = time.perf_counter()
    with transaction.atomic():
        SeasonSeries.objects.get_or_create(season_id=season_id)
        series = SeasonSeries.objects.select_for_update().get(season_id=season_id)
        season = Season.objects.only("pk", "club_id", "game_kind").get(pk=season_id)
        # No key update: inserts naming the club (its key share locks) do not wait.
        Club.objects.select_for_update(no_key=True).filter(pk=season.club_id).values_list(
            "pk"
        ).first()
        changes = list(
            ProjectionChange.objects.filter(season_id=season_id).values_list("pk", "game_id")
        )
        if force or any(game_id is None for _pk, game_id in changes):
            how = "rebuilt"
            games, first = _rebuild_season(season_id, series)
        else:
            how = "applied"
            games, first = _apply_game_changes(
                season_id, series, {game_id for _pk, game_id in changes if game_id is not None}
            )
        if all_time and first is not None:
            _all_time_ratings_fold(club_id=season.club_id, game_kind=season.game_kind, first=first)
        if changes:
            ProjectionChange.objects.filter(pk__in=[pk for pk, _game_id in changes]).delete()
        state = ProjectionState.objects.select_for_update().get(pk=state.pk)
        state.computed_from = max(version, state.computed_from or 0)
        state.computed_at = timezone.now()
        state.games += games
        if how == "rebuilt":
            state.games = games
        state.runs += 1
        state.save(update_fields=["computed_from", "computed_at", "games", "runs"])
    logger.info(
        "projected season %s at version %s (%s, %s changes) in %.3f s",
        season_id,
        version,
        how,
        len(changes),
        time.perf_counter() - started,
    )
    return state


def _rebuild_season(season_id: int, series: SeasonSeries) -> tuple[int, projections.GameKey | None]:
    """Recompute every projection of the season from its finished games' results
    (``projections.compute_season``); returns the number of games projected and the
    first game whose rows may have changed (the season's first, before or after).
    Cost: O(games) rating steps and rows, the rebuild's price."""
    season = Season.objects.select_related("club").get(pk=season_id)
    rules = standings_rules_for(club_id=season.club_id)
    computed = projections.compute_season(
        rows=_with_facts(selectors.season_game_rows(season_id=season_id)), rules=rules
    )
    _all_time_add(
        season,
        _season_figures(season_id),
        {
            int(row.standing.player_id): [getattr(row.standing, f) for f in FIGURES]
            for row in computed.table
        },
    )
    _replace_changed(
        StandingRow.objects.filter(season_id=season_id),
        projections.standing_values(season_id=season_id, computed=computed),
        key=("evening_id", "player_id"),
    )
    _replace_changed(
        PlayerRating.objects.filter(season_id=season_id),
        projections.rating_values(season_id=season_id, computed=computed),
        key=("player_id",),
    )
    keys = [
        projections.game_key(dict(zip(projections.PLAYER_GAME_FIELDS, row, strict=True)))
        for row in computed.player_games[:1]
    ]
    stored_first = (
        PlayerGame.objects.filter(season_id=season_id)
        .order_by("played_at", "game_id")
        .values("played_at", "game_id")
        .first()
    )
    if stored_first is not None:
        keys.append(projections.game_key(stored_first))
    PlayerGame.objects.filter(season_id=season_id).delete()
    player_games_insert(season_id=season_id, rows=computed.player_games)
    series.head_to_head = computed.head_to_head
    series.h2h_numerators = projections.numerators_as_json(computed.numerators)
    series.save(update_fields=["head_to_head", "h2h_numerators"])
    return computed.games, min(keys) if keys else None


def _apply_game_changes(
    season_id: int, series: SeasonSeries, game_ids: set[int]
) -> tuple[int, projections.GameKey | None]:
    """Apply the changes of ``game_ids`` (each finished, taken back, annulled or with
    a new result) to the stored projections; returns the change in finished games and
    the first changed game's key (``None``: nothing changed).

    The cost, per run: let P be the first changed game in game order (the earlier of
    its old and its new place). Sums (season and evening standings, head-to-head
    numerators, rated games) subtract the changed games' old rows and add their new
    ones: O(players) a game. Ratings and running nets are a fold in game order, so the
    ``PlayerGame`` rows from P on are folded again from each player's state before P:
    O(games after P) rating steps and rows. A game finished after all others (the
    table's every game) has nothing after it: one step. A late game, an undo or an
    annulment deep in the season pays for the games after it; the tables are ranked
    again over the players of the season and of the evenings touched (O(players)).
    """
    old_rows = list(
        PlayerGame.objects.filter(game_id__in=game_ids).values(*projections.PLAYER_GAME_FIELDS)
    )
    new_outcomes: list[tuple[int, GameOutcome]] = []
    for row in _with_facts(selectors.season_game_rows(season_id=season_id, game_ids=game_ids)):
        outcome = projections.readable_outcome(row)
        if outcome is not None:
            new_outcomes.append((row.evening_id, outcome))
    keys = [(r["played_at"], r["game_id"]) for r in old_rows]
    keys += [(o.played_at, o.game_id) for _e, o in new_outcomes]
    if not keys:
        return 0, None
    first = min(keys)
    # ``played_at >= `` is a range of the (season, played_at, game) index; the games
    # at the same instant but before ``first`` are dropped here (an OR of both in SQL
    # made SQLite scan the season).
    later = [
        r
        for r in PlayerGame.objects.filter(season_id=season_id, played_at__gte=first[0])
        .exclude(game_id__in=game_ids)
        .values(*projections.PLAYER_GAME_FIELDS)
        if projections.game_key(r) >= first
    ]
    # The games after the first changed one are folded from their own rows: a result
    # read from the games now could hold a change committed since the changes were
    # read, which its own ProjectionChange will apply (subtracting what is stored).
    later_games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in later:
        later_games[r["game_id"]].append(r)
    refold = list(new_outcomes)
    refold += [
        (rows[0]["evening_id"], projections.outcome_from_rows(rows))
        for rows in later_games.values()
    ]
    refold.sort(key=lambda item: (item[1].played_at, item[1].game_id))

    removed = old_rows + later  # every row at or after ``first``
    players = {str(r["player_id"]) for r in removed}
    for _e, outcome in refold:
        players.update(outcome.payouts, outcome.active)
    ratings = {str(r.player_id): r for r in PlayerRating.objects.filter(season_id=season_id)}
    nets = dict(
        StandingRow.objects.filter(season_id=season_id, evening__isnull=True).values_list(
            "player_id", "net"
        )
    )
    states = _states_before(season_id, first, players, removed, ratings, nets)
    fresh_rows = projections.fold_games(refold, states)
    PlayerGame.objects.filter(game_id__in=game_ids | later_games.keys()).delete()
    player_games_insert(
        season_id=season_id,
        rows=([r[f] for f in projections.PLAYER_GAME_FIELDS] for r in fresh_rows),
    )

    changed_new = [r for r in fresh_rows if r["game_id"] in game_ids]
    _apply_standings(season_id, old_rows, changed_new)
    _apply_ratings(season_id, states, removed, fresh_rows, ratings)
    numerators = projections.numerators_from_json(series.h2h_numerators)
    projections.merge_numerators(numerators, projections.numerators_of_rows(old_rows), -1)
    projections.merge_numerators(numerators, projections.numerators_of_rows(changed_new))
    _drop_lone_pairs(season_id, numerators, old_rows)
    series.h2h_numerators = projections.numerators_as_json(numerators)
    series.head_to_head = projections.head_to_head_of(numerators)
    series.save(update_fields=["head_to_head", "h2h_numerators"])
    changed = len({r["game_id"] for r in changed_new}) - len({r["game_id"] for r in old_rows})
    return changed, first


def _states_before(
    season_id: int,
    first: tuple[Any, int],
    players: set[str],
    removed: list[dict[str, Any]],
    ratings: Mapping[str, PlayerRating],
    nets: Mapping[int, int],
) -> dict[str, projections.PlayerState]:
    """Each of ``players``' state right before the game ``first``: his stored rating
    and net when no row of his is at or after it (the common case, no query), else
    his last rated row before it (one indexed query per such player). The net and
    the rated games before it are what is stored less the removed rows'."""
    removed_net: dict[str, int] = {}
    removed_rated: dict[str, int] = {}
    for r in removed:
        player = str(r["player_id"])
        removed_net[player] = removed_net.get(player, 0) + r["payout"]
        removed_rated[player] = removed_rated.get(player, 0) + r["rated"]
    start = projections.fresh_state()
    states: dict[str, projections.PlayerState] = {}
    for player in players:
        net = nets.get(int(player), 0) - removed_net.get(player, 0)
        stored = ratings.get(player)
        rated = (stored.games if stored is not None else 0) - removed_rated.get(player, 0)
        if not rated:
            states[player] = projections.PlayerState(start.mu, start.sigma, start.ordinal, net, 0)
            continue
        if not removed_rated.get(player) and stored is not None:
            states[player] = projections.PlayerState(
                stored.mu, stored.sigma, stored.ordinal, net, rated
            )
            continue
        before = (
            PlayerGame.objects.filter(
                season_id=season_id, player_id=int(player), rated=True, played_at__lte=first[0]
            )
            .order_by("-played_at", "-game_id")
            .values("played_at", "game_id", "mu", "sigma", "ordinal")
        )
        # The newest row before ``first``: the first one, but for rows at its instant.
        last = next(r for r in before.iterator(chunk_size=20) if projections.game_key(r) < first)
        states[player] = projections.PlayerState(
            last["mu"], last["sigma"], last["ordinal"], net, rated
        )
    return states


def _apply_standings(season_id: int, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    """Subtract the old rows' contributions and add the new ones' to the season table
    and the tables of their evenings, then rank those tables again."""
    deltas: dict[int | None, dict[int, list[int]]] = defaultdict(dict)
    for rows, sign in ((old, -1), (new, 1)):
        for r in rows:
            contribution = projections.standing_contribution(r)
            for scope in (None, r["evening_id"]):
                total = deltas[scope].setdefault(r["player_id"], [0] * len(contribution))
                for i, figure in enumerate(contribution):
                    total[i] += sign * figure
    season = Season.objects.only("club_id", "game_kind").get(pk=season_id)
    rules = standings_rules_for(club_id=season.club_id)
    # A player whose figures come to nothing is still listed if he sat in a game of
    # the table (paid 0): the rows of the new games say so, else one indexed look.
    appearing = {(None, r["player_id"]) for r in new}
    appearing |= {(r["evening_id"], r["player_id"]) for r in new}
    for scope, delta in deltas.items():
        stored = StandingRow.objects.filter(season_id=season_id)
        stored = (
            stored.filter(evening__isnull=True)
            if scope is None
            else stored.filter(evening_id=scope)
        )
        figures = {
            player: list(values) for player, *values in stored.values_list("player_id", *FIGURES)
        }
        for player, change in delta.items():
            total = figures.setdefault(player, [0] * len(change))
            for i, figure in enumerate(change):
                total[i] += figure
        gone = [
            player
            for player, total in figures.items()
            if not any(total)
            and (scope, player) not in appearing
            and not _appears(season_id, scope, player)
        ]
        for player in gone:
            del figures[player]
        if scope is None:
            _all_time_add(season, _season_figures(season_id), figures)
        standings = [PlayerStanding(str(player), *figures[player]) for player in sorted(figures)]
        table = season_table(standings, rules.min_games if scope is None else 0, rules.tie_break)
        rows = [
            projections.standing_row_values(
                season_id=season_id, evening_id=scope, position=i, row=row
            )
            for i, row in enumerate(table, start=1)
        ]
        _replace_changed(stored, rows, key=("player_id",))


def standings_rules_for(*, club_id: int) -> StandingsRules:
    """The club's ranking rules (the defaults when it has set none)."""
    config = StandingsConfig.objects.filter(club_id=club_id).first()
    if config is None:
        return StandingsRules()
    return StandingsRules(config.min_games, tuple(config.tie_break))
