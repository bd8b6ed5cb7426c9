"""Reads of the tournaments app: the ranking, a table's sheet, the draw's history.

Points are read from the ledger: the entries of the games (results and their
reversals) of each table's evening, summed per player and series, in one query.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet, Sum

from clubs.models import Player
from games.models import Evening, Game
from ledger.models import LedgerEntry
from ledger.settlement import settle
from tournaments import ranking as ranks
from tournaments.models import Participant, Series, Tournament, TournamentLink, TournamentTable

GAME_KINDS = (LedgerEntry.Kind.RESULT, LedgerEntry.Kind.REVERSAL)


def tournament_list(*, club_id: int) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club_id=club_id).order_by("-date", "-id")


def tournament_get(*, club_id: int, tournament_id: int) -> Tournament:
    """Raise ``Tournament.DoesNotExist`` if it is not a tournament of the club."""
    return Tournament.objects.select_related("club", "season", "rule_profile", "cashier").get(
        club_id=club_id, pk=tournament_id
    )


def participants(*, tournament: Tournament) -> QuerySet[Participant]:
    return tournament.participants.select_related("player").order_by("start_number")


def series_list(*, tournament: Tournament) -> QuerySet[Series]:
    return tournament.series.prefetch_related("tables").order_by("number")


def link_tournament(*, key: str) -> Tournament | None:
    """The tournament behind an open ranking link, or None (revoked, unknown)."""
    link = (
        TournamentLink.objects.select_related("tournament__club")
        .filter(key=key, revoked_at__isnull=True)
        .first()
    )
    return link.tournament if link is not None else None


@dataclass(frozen=True)
class History:
    """What earlier series drew: pairs who shared a table, byes per start number."""

    met: set[frozenset[int]] = field(default_factory=set)
    byes: dict[int, int] = field(default_factory=dict)


def draw_history(*, tournament: Tournament) -> History:
    history = History()
    for series in tournament.series.filter(status=Series.Status.CONFIRMED).prefetch_related(
        "tables"
    ):
        for number in series.byes:
            history.byes[number] = history.byes.get(number, 0) + 1
        for table in series.tables.all():
            history.met.update(frozenset(p) for p in itertools.combinations(table.seats, 2))
    return history


@dataclass(frozen=True)
class Standing:
    """The ranking now: rows (``ranking.Row``), the participants by start number, the pot,
    and the series played (numbers)."""

    rows: list[ranks.Row]
    players: dict[int, Player]
    pot: int
    series: list[int]


def ranking(*, tournament: Tournament, up_to_series: int | None = None) -> Standing:
    """The ranking across all tables, in all or after series ``up_to_series``."""
    entrants = list(participants(tournament=tournament))
    by_player = {p.player_id: p.start_number for p in entrants}
    entries = LedgerEntry.objects.filter(
        evening__tournament_table__series__tournament=tournament, kind__in=GAME_KINDS
    )
    if up_to_series is not None:
        entries = entries.filter(evening__tournament_table__series__number__lte=up_to_series)
    points: dict[int, dict[int, int]] = {}
    for player_id, series, amount in (
        entries.values_list("player_id", "evening__tournament_table__series__number")
        .annotate(total=Sum("amount"))
        .values_list("player_id", "evening__tournament_table__series__number", "total")
    ):
        number = by_player.get(player_id)
        if number is not None:
            points.setdefault(number, {})[series] = int(amount)
    played = list(
        tournament.series.filter(status=Series.Status.CONFIRMED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if up_to_series is not None:
        played = [n for n in played if n <= up_to_series]
    return Standing(
        rows=ranks.rank([p.start_number for p in entrants], points),
        players={p.start_number: p.player for p in entrants},
        pot=tournament.entry_fee * len(entrants),
        series=played,
    )


def progress(*, tournament: Tournament) -> list[dict[str, int]]:
    """Per table of the latest confirmed series: the deals finished and to be played."""
    latest = tournament.series.filter(status=Series.Status.CONFIRMED).order_by("-number").first()
    if latest is None:
        return []
    finished = dict(
        Game.objects.filter(evening__tournament_table__series=latest, status=Game.Status.FINISHED)
        .values_list("evening__tournament_table__number")
        .annotate(n=Count("pk"))
        .values_list("evening__tournament_table__number", "n")
    )
    return [
        {
            "series": latest.number,
            "table": number,
            "finished": finished.get(number, 0),
            "deals": tournament.deals_per_series,
        }
        for number in latest.tables.order_by("number").values_list("number", flat=True)
    ]


@dataclass(frozen=True)
class Sheet:
    """A table's sheet: its evening's games, finished (counted) and in progress, the
    deals still to play, each seat's total, who confirmed, whether it is closed."""

    table: TournamentTable
    finished: int
    in_progress: bool
    to_play: int
    totals: dict[int, int]
    confirmed: set[int]
    closed: bool


def sheet(*, table: TournamentTable) -> Sheet:
    tournament = table.series.tournament
    finished, in_progress = 0, False
    totals: dict[int, int] = {}
    confirmed: set[int] = set()
    if table.evening_id is not None:
        counts = Game.objects.filter(evening_id=table.evening_id).aggregate(
            finished=Count("pk", filter=Q(status=Game.Status.FINISHED)),
            playing=Count("pk", filter=Q(status=Game.Status.IN_PROGRESS)),
        )
        finished, in_progress = counts["finished"], counts["playing"] > 0
        numbers = dict(tournament.participants.values_list("player_id", "start_number"))
        for player_id, total in (
            LedgerEntry.objects.filter(evening_id=table.evening_id, kind__in=GAME_KINDS)
            .values_list("player_id")
            .annotate(total=Sum("amount"))
            .values_list("player_id", "total")
        ):
            if player_id in numbers:
                totals[numbers[player_id]] = int(total)
        confirmed = set(table.confirmations.values_list("participant__start_number", flat=True))
    return Sheet(
        table=table,
        finished=finished,
        in_progress=in_progress,
        to_play=max(0, tournament.deals_per_series - finished),
        totals={n: totals.get(n, 0) for n in table.seats},
        confirmed=confirmed,
        closed=table.closed_at is not None,
    )


def tournament_evening_ids(*, tournament: Tournament) -> list[int]:
    """The evenings of the tournament's tables (the live push's channels)."""
    return list(
        Evening.objects.filter(tournament_table__series__tournament=tournament)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def table_for_evening(*, evening_id: int) -> TournamentTable | None:
    return (
        TournamentTable.objects.select_related("series__tournament")
        .filter(evening_id=evening_id)
        .first()
    )


@dataclass(frozen=True)
class Settlement:
    """Who owes whom at the end: each player's balance over the tournament (its tables'
    ledger entries, payments booked for them included, and the booked fees and prizes)
    and the fewest transfers that clear them."""

    balances: dict[int, int]
    names: dict[int, str]
    transfers: list[tuple[int, int, int]]


def settlement(*, tournament: Tournament) -> Settlement:
    balances: dict[int, int] = {}
    for player_id, total in (
        LedgerEntry.objects.filter(evening__tournament_table__series__tournament=tournament)
        .values_list("player_id")
        .annotate(total=Sum("amount"))
        .values_list("player_id", "total")
    ):
        balances[player_id] = int(total)
    booked = (tournament.final_ranking or {}).get("booked", {})
    for player_id, amount in booked.items():
        balances[int(player_id)] = balances.get(int(player_id), 0) + int(amount)
    names = dict(Player.objects.filter(pk__in=balances).values_list("pk", "display_name"))
    transfers = [
        (int(t.payer), int(t.payee), t.amount)
        for t in settle({str(k): v for k, v in balances.items() if v})
    ]
    return Settlement(balances=balances, names=names, transfers=transfers)
