"""Reads of the ledger: balances, payments, plans and the stored projections.

Balances are sums over the append-only entries, so they are exact and
immediate (no projection involved) and, over all players of any scope, sum
to zero.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Exists, F, Max, OuterRef, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from clubs.models import Club, GameKind, Season
from games.events import to_event
from games.models import Evening, Game, GameEvent
from ledger import statistics
from ledger.models import (
    AllTimeRow,
    GameFacts,
    LedgerEntry,
    Payment,
    PlayerGame,
    PlayerRating,
    ProjectionState,
    SeasonSeries,
    SettlementPlan,
    SettlementTransfer,
    StandingRow,
    StandingsConfig,
)
from ledger.projections import GameRow

GAME_KINDS = (LedgerEntry.Kind.RESULT, LedgerEntry.Kind.REVERSAL)


def _entries(
    *, club: Club, evening: Evening | None = None, season: Season | None = None
) -> QuerySet[LedgerEntry]:
    entries = LedgerEntry.objects.filter(club=club)
    if evening is not None:
        entries = entries.filter(evening=evening)
    if season is not None:
        entries = entries.filter(season=season)
    return entries


def balance_list(
    *, club: Club, evening: Evening | None = None, season: Season | None = None
) -> QuerySet[Any]:
    """Per player of ``club`` with entries in the scope: results, payments and the open balance.

    Rows are dicts ``{player_id, display_name, results, payments, balance}``
    (``balance = results + payments``; a tournament's entry fees and prizes count
    as results), by name. The scope is the whole club,
    or an evening and/or a season. The balances of a scope sum to zero.
    """
    return (
        _entries(club=club, evening=evening, season=season)
        .values("player_id", display_name=F("player__display_name"))
        .annotate(
            results=Coalesce(Sum("amount", filter=~Q(kind=LedgerEntry.Kind.PAYMENT)), 0),
            payments=Coalesce(Sum("amount", filter=Q(kind=LedgerEntry.Kind.PAYMENT)), 0),
            balance=Sum("amount"),
        )
        .order_by("display_name", "player_id")
    )


def balance_map(
    *, club: Club, evening: Evening | None = None, season: Season | None = None
) -> dict[int, int]:
    """{player pk: open balance} of the scope, players at zero included."""
    rows = (
        _entries(club=club, evening=evening, season=season)
        .values("player_id")
        .annotate(balance=Sum("amount"))
        .order_by("player_id")
    )
    return {row["player_id"]: int(row["balance"]) for row in rows}


def game_entry_totals(*, game: Game) -> dict[int, int]:
    """{player pk: sum of the game's entries}; what the ledger holds for one game."""
    rows = LedgerEntry.objects.filter(game=game).values("player_id").annotate(total=Sum("amount"))
    return {row["player_id"]: int(row["total"]) for row in rows.order_by("player_id")}


def payment_list(
    *, club: Club, evening: Evening | None = None, season: Season | None = None
) -> QuerySet[Payment]:
    """The club's payments (of an evening, of a season), the latest first; each with
    ``is_reversed``: whether a reversal names it."""
    payments = (
        Payment.objects.filter(club=club)
        .select_related("payer", "payee", "recorded_by")
        .annotate(is_reversed=Exists(Payment.objects.filter(reverses=OuterRef("pk"))))
    )
    if evening is not None:
        payments = payments.filter(evening=evening)
    if season is not None:
        payments = payments.filter(season=season)
    return payments.order_by("-created_at", "-id")


def evening_get(*, club: Club, evening_id: int) -> Evening:
    """Raise ``Evening.DoesNotExist`` if it is not an evening of ``club``."""
    return Evening.objects.get(club=club, pk=evening_id)


def settlement_plan_list(*, club: Club) -> QuerySet[SettlementPlan]:
    return (
        SettlementPlan.objects.filter(club=club)
        .select_related("evening", "season", "created_by")
        .prefetch_related("transfers__payer", "transfers__payee")
        .order_by("-created_at", "-id")
    )


def settlement_plan_get(*, club: Club, plan_id: int) -> SettlementPlan:
    """Raise ``SettlementPlan.DoesNotExist`` if it is not a plan of ``club``."""
    return settlement_plan_list(club=club).get(pk=plan_id)


def settlement_transfer_get(*, plan: SettlementPlan, transfer_id: int) -> SettlementTransfer:
    return SettlementTransfer.objects.select_related("payer", "payee").get(
        plan=plan, pk=transfer_id
    )


# --- Projections ------------------------------------------------------------------------------


def _finished_in(season_id: int) -> QuerySet[Game]:
    return Game.objects.filter(evening__season_id=season_id, status=Game.Status.FINISHED)


def season_game_rows(*, season_id: int, game_ids: Iterable[int] | None = None) -> Iterator[GameRow]:
    """The season's finished games with their stored results, for the projections,
    in game id order: all of them, or those of ``game_ids``."""
    games = _finished_in(season_id)
    if game_ids is not None:
        games = games.filter(pk__in=list(game_ids))
    fields = ["pk", "evening_id", "finished_at", "created_at", "game_kind", "result", "last_seq"]
    for pk, evening_id, finished_at, created_at, kind, result, seq in (
        games.values_list(*fields).order_by("pk").iterator(chunk_size=5000)
    ):
        yield GameRow(
            game_id=pk,
            evening_id=evening_id,
            played_at=finished_at or created_at,
            kind=kind,
            result=result or {},
            seq=seq,
        )


def game_facts_cached(*, game_ids: Iterable[int]) -> dict[int, tuple[int, Any]]:
    """The cached ``GameFacts`` of these games: game id → (seq, facts)."""
    rows = GameFacts.objects.filter(game_id__in=list(game_ids))
    return {
        game_id: (seq, facts) for game_id, seq, facts in rows.values_list("game_id", "seq", "facts")
    }


def game_records(*, game_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The records of these games (as ``games.selectors.game_record`` reads them), in
    two statements: the games' kinds and rules, then their events in seq order."""
    ids = list(game_ids)
    records: dict[int, dict[str, Any]] = {
        pk: {"game": kind, "rules": dict(rules) or None, "events": []}
        for pk, kind, rules in Game.objects.filter(pk__in=ids).values_list(
            "pk", "game_kind", "house_rules"
        )
    }
    events = (
        GameEvent.objects.filter(game_id__in=ids)
        .order_by("game_id", "seq")
        .values_list("game_id", "type", "payload", "schema_version")
    )
    for game_id, kind, payload, version in events.iterator(chunk_size=5000):
        records[game_id]["events"].append(to_event(kind, payload, version))
    return records


def projection_state_get(*, season: Season) -> ProjectionState | None:
    return ProjectionState.objects.filter(season=season).first()


def standing_list(*, season: Season, evening: Evening | None = None) -> QuerySet[StandingRow]:
    """The season table (or the evening's table), in table order."""
    rows = StandingRow.objects.filter(season=season).select_related("player")
    rows = (
        rows.filter(evening=evening) if evening is not None else rows.filter(evening__isnull=True)
    )
    return rows.order_by("position", "id")


def all_time_table(*, club: Club, game_kind: str) -> list[dict[str, Any]]:
    """The club's all-time table of one game ("ewige Tabelle"): each player's season
    lines summed over every season of that game, the most won first.

    Rows are dicts ``{rank, player_id, display_name, seasons, games, wins, net,
    win_pct, per_game, macher_games, macher_wins, rating, rated_games}``; players with
    equal net share a rank. ``rating`` is the all-time rating's ordinal (``mu - 3
    sigma``, rounded to 2 places; ``None`` before a game rated him), ``rated_games``
    the games that rated him. Read from the ``AllTimeRow`` projection (kept with the
    season tables), so a game just finished counts once its season's table has it.
    """
    rows = (
        AllTimeRow.objects.filter(club=club, game_kind=game_kind, games__gt=0)
        .annotate(display_name=F("player__display_name"))
        .order_by("-net", "-games", "display_name", "player_id")
        .values(
            "player_id",
            "display_name",
            "seasons",
            "games",
            "wins",
            "net",
            "macher_games",
            "macher_wins",
            "ordinal",
            "rated",
        )
    )
    table: list[dict[str, Any]] = []
    for row in rows:
        ordinal, rated = row.pop("ordinal"), row.pop("rated")
        row["rating"] = round(ordinal, 2) if ordinal is not None else None
        row["rated_games"] = rated
        games, net = row["games"], row["net"]
        rank = len(table) + 1
        if table and table[-1]["net"] == net:
            rank = table[-1]["rank"]
        table.append(
            {
                "rank": rank,
                **row,
                "win_pct": round(100 * row["wins"] / games, 1),
                "per_game": round(net / games, 2),
            }
        )
    return table


def player_statistics(
    *, player_id: int, season: Season | None = None, club: Club | None = None, game_kind: str = ""
) -> dict[str, Any]:
    """The player's statistics (``ledger.statistics``) over one season, or, with
    ``club`` and ``game_kind`` instead, over every season of that game (all-time);
    read from his ``PlayerGame`` rows."""
    rows = PlayerGame.objects.filter(player_id=player_id)
    if season is not None:
        rows = rows.filter(season=season)
        game_kind = season.game_kind
    else:
        rows = rows.filter(season__club=club, season__game_kind=game_kind)
    fields = ["role", "contract", "payout", "value", "reason", "silent", "raise_chances", "raises"]
    return statistics.player_statistics(game_kind, rows.values(*fields).iterator(chunk_size=5000))


def all_time_games(*, club: Club) -> list[str]:
    """The games (``GameKind`` values) the club has seasons of, in ``GameKind`` order."""
    kinds = set(Season.objects.filter(club=club).values_list("game_kind", flat=True))
    return [kind for kind in GameKind.values if kind in kinds]


def rating_list(*, season: Season) -> QuerySet[PlayerRating]:
    """The season's ratings, best conservative rating (ordinal) first."""
    return (
        PlayerRating.objects.filter(season=season)
        .select_related("player")
        .order_by("-ordinal", "player_id")
    )


def rating_get(*, season: Season, player_id: int) -> PlayerRating:
    """The player's rating with its ``history`` (one ``[game_id, mu, sigma, ordinal]``
    per rated game, in game order, read from his ``PlayerGame`` rows); raise
    ``PlayerRating.DoesNotExist`` if the player has no rating in the season."""
    rating = PlayerRating.objects.select_related("player").get(season=season, player_id=player_id)
    rating.history = [
        list(point)
        for point in PlayerGame.objects.filter(season=season, player_id=player_id, rated=True)
        .order_by("played_at", "game_id")
        .values_list("game_id", "mu", "sigma", "ordinal")
    ]
    return rating


def season_series_get(*, season: Season) -> SeasonSeries | None:
    """The season's series with ``cumulative`` set (``ledger.series.CumulativeSeries``
    as a dict: every player's running net after every game, read from the
    ``PlayerGame`` rows); ``None`` before the season was first projected."""
    series = SeasonSeries.objects.filter(season=season).first()
    if series is None:
        return None
    game_ids: list[int] = []
    at: dict[str, dict[int, int]] = defaultdict(dict)
    for game_id, player_id, net in (
        PlayerGame.objects.filter(season=season)
        .order_by("played_at", "game_id")
        .values_list("game_id", "player_id", "net_after")
        .iterator(chunk_size=5000)
    ):
        if not game_ids or game_ids[-1] != game_id:
            game_ids.append(game_id)
        at[str(player_id)][len(game_ids) - 1] = net
    values: dict[str, list[int]] = {}
    for player in sorted(at):
        points, running, line = at[player], 0, []
        for i in range(len(game_ids)):
            running = points.get(i, running)
            line.append(running)
        values[player] = line
    series.cumulative = {"game_ids": game_ids, "values": values}
    return series


def standings_config_get(*, club: Club) -> StandingsConfig:
    """The club's configuration; an unsaved default one if it never set any."""
    return StandingsConfig.objects.filter(club=club).first() or StandingsConfig(club=club)


def seasons_behind() -> QuerySet[ProjectionState]:
    """States of seasons whose projections miss changes (never computed or older version)."""
    behind = Q(computed_from__isnull=True) | ~Q(computed_from=F("version"))
    return ProjectionState.objects.filter(behind).order_by("season_id")


def seasons_by_last_play(seasons: QuerySet[Season]) -> QuerySet[Season]:
    """``seasons`` ordered as members look for them: the one whose evening was played
    last first; seasons nobody has played yet after those, the latest start first."""
    return seasons.annotate(
        last_played=Max("evenings__date"), last_opened=Max("evenings__id")
    ).order_by(
        F("last_played").desc(nulls_last=True),
        F("last_opened").desc(nulls_last=True),
        "-start",
        "-id",
    )


def season_current(*, club: Club) -> Season | None:
    """The season a member means by "the table": the open season played last (else,
    with none open, the season played last; ``seasons_by_last_play``).

    A club keeps one open season per game, so with Fuchsen and Königrufen both open
    the table shown is the game the club played most recently.
    """
    seasons = Season.objects.filter(club=club)
    open_seasons = seasons.filter(status=Season.Status.OPEN)
    return seasons_by_last_play(open_seasons if open_seasons.exists() else seasons).first()
