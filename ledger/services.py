"""Writes of the ledger: keyword-only functions, each one transaction.

Money is written here and nowhere else, always as new ``LedgerEntry`` rows
whose amounts sum to zero per write:

- ``ledger_sync_game`` is the recording service's hook: it makes a game's
  entries match its current result (diff-based, idempotent).
- ``payment_record`` books a payment between two players.
- ``settlement_plan_create`` / ``settlement_transfer_mark_paid`` turn open
  balances into the fewest transfers and book them as they are paid.

The projections (standings, ratings, chart series) are recomputed by
``season_projections_recompute``, called by the Celery tasks in
``ledger.tasks``. A write that changes a season's games asks for that on
commit; if the broker is down the request is logged and dropped, and the
periodic repair task catches up: money never waits for a queue.

Services raise Django's ``ValidationError`` (keyed by field) for anything a
user can get wrong. ``LedgerError`` means a caller handed over a result that
breaks the ledger's invariants (not integers, not zero-sum, players of another
club): that is a bug upstream, and the whole recording must fail rather than
book wrong money.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player, Season
from games.models import Evening, Game
from ledger import projections, selectors
from ledger import sql as ledger_sql
from ledger.models import (
    LedgerEntry,
    Payment,
    PlayerRating,
    ProjectionState,
    SeasonSeries,
    SettlementPlan,
    SettlementTransfer,
    StandingRow,
    StandingsConfig,
)
from ledger.projections import GameRow
from ledger.settlement import settle
from ledger.standings import StandingsConfig as StandingsRules
from live.push import evening_changed_push

logger = logging.getLogger(__name__)

GAME_KINDS = (LedgerEntry.Kind.RESULT, LedgerEntry.Kind.REVERSAL)


class LedgerError(ValueError):
    """A game result the ledger refuses to book (see the module docstring)."""


# --- Games → ledger ----------------------------------------------------------------------


def game_wanted_amounts(*, game: Game) -> dict[int, int]:
    """What the ledger should hold for ``game``: {player pk: amount}, zeros left out.

    A finished game holds its result's payouts; any other status (in progress
    after an undo, annulled) holds nothing. Raises ``LedgerError`` when a
    finished game's payouts are missing, not integers, not keyed by player
    pks, or do not sum to zero.
    """
    return wanted_amounts(game_id=game.pk, status=game.status, result=game.result)


def wanted_amounts(*, game_id: int, status: str, result: Any) -> dict[int, int]:
    """``game_wanted_amounts`` from the bare fields (the repair reads no model instances)."""
    if status != Game.Status.FINISHED:
        return {}
    payouts = result.get("payouts") if isinstance(result, dict) else None
    if not isinstance(payouts, dict) or not payouts:
        raise LedgerError(f"game {game_id} is finished but its result has no payouts")
    wanted: dict[int, int] = {}
    for key, amount in payouts.items():
        # bool is an int; True as "one cent" is a bug upstream, not data.
        if type(amount) is not int:
            raise LedgerError(f"game {game_id}: payout of {key!r} is not an integer: {amount!r}")
        try:
            player_id = int(key)
        except (TypeError, ValueError):
            raise LedgerError(f"game {game_id}: payout key {key!r} is not a player id") from None
        if amount:
            wanted[player_id] = wanted.get(player_id, 0) + amount
    if sum(wanted.values()) != 0:
        raise LedgerError(f"game {game_id}: payouts sum to {sum(wanted.values())}, not zero")
    return wanted


def _booked_amounts(*, game_id: int) -> dict[int, int]:
    """What the ledger holds for the game now: {player pk: sum of its entries}, zeros left out."""
    return ledger_sql.booked_amounts(game_id=game_id)


def _sync_entries(
    *,
    game: Game,
    evening: Evening,
    wanted: Mapping[int, int],
    booked: Mapping[int, int],
) -> list[LedgerEntry]:
    """The entries that take the game from ``booked`` to ``wanted`` (none if they agree).

    Reverse-and-rebook rather than a bare delta: the old amounts are reversed
    in full and the new ones booked as results, so the books read as the
    story ("won 40 — taken back — won 20") and each group sums to zero on its
    own (``booked`` was written zero-sum, ``wanted`` is checked zero-sum).
    """
    if dict(wanted) == dict(booked):
        return []
    now = timezone.now()
    common = {
        "club_id": evening.club_id,
        "season_id": evening.season_id,
        "evening_id": evening.pk,
        "game_id": game.pk,
        "created_at": now,
    }
    entries = [
        LedgerEntry(player_id=player_id, amount=-amount, kind=LedgerEntry.Kind.REVERSAL, **common)
        for player_id, amount in sorted(booked.items())
    ]
    entries += [
        LedgerEntry(player_id=player_id, amount=amount, kind=LedgerEntry.Kind.RESULT, **common)
        for player_id, amount in sorted(wanted.items())
    ]
    return entries


def _check_players_of_club(
    *, club_id: int, player_ids: Iterable[int], game_id: int, known: Collection[int] = ()
) -> None:
    """Raise ``LedgerError`` unless every id is a player of the club; ``known``: ids the
    caller has read as players of the club (in its transaction), not looked up again."""
    ids = set(player_ids).difference(known)
    if not ids:
        return
    found = set(Player.objects.filter(club_id=club_id, pk__in=ids).values_list("pk", flat=True))
    missing = ids - found
    if missing:
        raise LedgerError(
            f"game {game_id}: players {sorted(missing)} are not players of club {club_id}"
        )


def ledger_sync_game(
    *, game: Game, locked: bool = False, club_players: Collection[int] = ()
) -> None:
    """Make the ledger hold exactly what ``game``'s current result says, and no more.

    Called by the recording service inside the transaction that appends the
    game's events, with the game as it now stands (``status`` and ``result``
    set, saved or not). Idempotent and diff-based: the amounts already booked
    for the game are summed per player and compared with the wanted ones
    (``game_wanted_amounts``); if they differ, the booked amounts are reversed
    and the wanted ones booked (``_sync_entries``), else nothing is written.
    So finishing writes result entries, an undo back into play or an
    annulment writes reversals, a re-finish writes results again, and calling
    it twice writes nothing the second time.

    When it writes, it bumps the season's projection version and asks for the
    season's projections on commit. It never talks to the broker itself.
    Raises ``LedgerError`` for a result that cannot be booked.

    ``locked=True`` is the caller's word (the recording service's) that it runs
    this inside its own transaction, holds the game's row lock (or created the
    row in it), has ``game.evening`` loaded, and lets any error here roll its
    whole transaction back: then the row is not locked again, the evening not
    read again and no savepoint is taken (four round trips fewer on the append
    that finishes a game). Any other caller gets all three.

    ``club_players``: ids the caller has read, in its transaction, as players of
    the game's club (the recording service: the evening's seated players); a
    payout to one of them needs no look at the players' table.
    """
    if locked:
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("ledger_sync_game(locked=True) needs the caller's transaction")
        _sync_game(game=game, evening=game.evening, club_players=club_players)
        return
    with transaction.atomic():
        # Two syncs of one game must not both see the old sums and both write the
        # difference: the game's row lock serialises them (the recording service
        # holds it already and says so with ``locked``).
        Game.objects.select_for_update().filter(pk=game.pk).values_list("pk").first()
        evening = Evening.objects.only("pk", "club_id", "season_id").get(pk=game.evening_id)
        _sync_game(game=game, evening=evening)


def _sync_game(*, game: Game, evening: Evening, club_players: Collection[int] = ()) -> None:
    """``ledger_sync_game``'s work, under the game's row lock."""
    wanted = game_wanted_amounts(game=game)
    booked = _booked_amounts(game_id=game.pk)
    entries = _sync_entries(game=game, evening=evening, wanted=wanted, booked=booked)
    if not entries:
        return
    _check_players_of_club(
        club_id=evening.club_id, player_ids=wanted, game_id=game.pk, known=club_players
    )
    ledger_sql.entries_insert(entries)
    projection_version_bump(season_id=evening.season_id)
    projection_request(season_id=evening.season_id)


# --- Projections: asking for them, and computing them ----------------------------------------


def projection_version_bump(*, season_id: int) -> None:
    """Count one change to the season's inputs (must run inside the changing transaction).

    The row lock this takes is held until that transaction commits, which
    serializes changes of one season with each other and with the write
    phase of its projection: short, and what makes ``version`` exact.
    """
    if not ledger_sql.version_bump(season_id=season_id):
        # get_or_create retries the read if a concurrent transaction created it first.
        ProjectionState.objects.get_or_create(season_id=season_id)
        ProjectionState.objects.filter(season_id=season_id).update(version=F("version") + 1)


def projection_request(*, season_id: int) -> None:
    """Ask for the season's projections to be recomputed once this transaction commits.

    Not ``delay_on_commit``: that lets a broker error escape from the commit
    hook into the request that recorded the game. Here the enqueue goes
    through ``ledger.tasks.send_quietly``, which fails fast on a dead broker
    and logs instead of raising; the season then stays *behind* and
    ``repair_projections`` recomputes it.
    """

    def enqueue() -> None:
        from ledger.tasks import project_season, send_quietly

        send_quietly(project_season, season_id)

    transaction.on_commit(enqueue)


def season_projections_recompute(*, season_id: int, force: bool = False) -> ProjectionState:
    """Recompute the season's standings, ratings and chart series from its games' results.

    Idempotent recompute-and-replace. The version is read first and the games
    after it, so what is computed includes at least that version; the results
    are then written in one short transaction under the season's
    ``ProjectionState`` row lock, and only if no run has stored a newer
    version meanwhile. A run repeated gives the same rows; a run killed
    mid-way has written nothing; two runs racing store the newer. Without
    ``force`` a season already computed from its current version is left
    alone, and the computation goes on from this process's last one for the
    season where its games did not change (``projections.compute_season``'s
    memo); ``force`` (the rebuild) computes everything afresh. Only the rows
    whose figures changed are replaced: a finishing game changes the season
    table, one evening's table and the ratings of the players at the table.
    Returns the state as stored.
    """
    state, _created = ProjectionState.objects.get_or_create(season_id=season_id)
    version = state.version
    if not force and state.computed_from == version:
        return state
    started = time.perf_counter()
    season = Season.objects.select_related("club").get(pk=season_id)
    rules = standings_rules_for(club_id=season.club_id)
    if force:
        computed = projections.compute_season(
            rows=selectors.season_game_rows(season_id=season_id), rules=rules
        )
    else:
        computed = projections.compute_season(
            rows=_season_rows(season_id), rules=rules, memo_key=season_id
        )
    computed_at = time.perf_counter()
    with transaction.atomic():
        state = ProjectionState.objects.select_for_update().get(pk=state.pk)
        if state.computed_from is not None and state.computed_from > version:
            return state  # a newer run already stored newer projections
        if not force and state.computed_from == version:
            return state  # a twin run stored the same version first
        _replace_changed(
            StandingRow,
            season_id,
            projections.standing_values(season_id=season_id, computed=computed),
            key=("evening_id", "player_id"),
            batch_size=2000,
        )
        _replace_changed(
            PlayerRating,
            season_id,
            projections.rating_values(season_id=season_id, computed=computed),
            key=("player_id",),
            batch_size=500,
            unread=("history",),  # its digest stands for it
        )
        SeasonSeries.objects.update_or_create(
            season_id=season_id,
            defaults={"cumulative": computed.cumulative, "head_to_head": computed.head_to_head},
        )
        state.computed_from = version
        state.computed_at = timezone.now()
        state.games = computed.games
        state.runs += 1
        state.save(update_fields=["computed_from", "computed_at", "games", "runs"])
    logger.info(
        "projected season %s at version %s: %s games, computed in %.2f s, stored in %.2f s",
        season_id,
        version,
        computed.games,
        computed_at - started,
        time.perf_counter() - computed_at,
    )
    return state


def _season_rows(season_id: int) -> list[GameRow]:
    """The season's finished games as the projections read them, in game id order:
    the rows this process read last time and whose fingerprint is unchanged from its
    memo, the others from the database (reading every result was most of the cost
    of a large season's projection)."""
    fingerprints = selectors.season_game_fingerprints(season_id=season_id)
    rows, missing = projections.known_rows(season_id, fingerprints)
    if missing:
        # Most of the season unknown (a fresh process): one read of all is cheaper.
        wanted = None if 2 * len(missing) > len(fingerprints) else missing
        if wanted is None:
            rows = []
        rows += selectors.season_game_rows(season_id=season_id, game_ids=wanted, fingerprints=True)
    rows.sort(key=lambda row: row.game_id)
    return rows


_Row = TypeVar("_Row", StandingRow, PlayerRating)


def _replace_changed(
    model: type[_Row],
    season_id: int,
    rows: list[dict[str, Any]],
    *,
    key: tuple[str, ...],
    batch_size: int,
    unread: tuple[str, ...] = (),
) -> None:
    """Make the season's stored rows of ``model`` equal ``rows`` (each a dict of every
    field but the id), writing only the difference. Rows are matched by ``key``
    (unique within the season); a stored row whose compared fields differ from its new
    row's, or that has no new row, is deleted, and the new rows not stored as they are
    are inserted (after the deletes, as the key is unique). Fields in ``unread`` are
    neither read nor compared: another field must change whenever they do."""
    fields = [
        f.attname
        for f in model._meta.concrete_fields
        if not f.primary_key and f.attname not in unread
    ]
    at = [fields.index(name) for name in key]
    stored: dict[tuple[Any, ...], tuple[int, tuple[Any, ...]]] = {}
    for pk, *values in model.objects.filter(season_id=season_id).values_list("pk", *fields):
        stored[tuple(values[i] for i in at)] = (pk, tuple(values))
    stale: list[int] = []
    fresh: list[_Row] = []
    for row in rows:
        values = tuple(row[name] for name in fields)
        old = stored.pop(tuple(values[i] for i in at), None)
        if old is not None and old[1] == values:
            continue  # stored as it is
        if old is not None:
            stale.append(old[0])
        fresh.append(model(**row))
    stale += [pk for pk, _ in stored.values()]
    if stale:
        model.objects.filter(pk__in=stale).delete()
    if fresh:
        model.objects.bulk_create(fresh, batch_size=batch_size)


def standings_rules_for(*, club_id: int) -> StandingsRules:
    """The club's ranking rules (the defaults when it has set none)."""
    config = StandingsConfig.objects.filter(club_id=club_id).first()
    if config is None:
        return StandingsRules()
    return StandingsRules(config.min_games, tuple(config.tie_break))


def ledger_repair_season(*, season_id: int) -> int:
    """Sync every game of the season whose ledger disagrees with its result; return how many.

    One aggregate query compares the books with the stored results, so a
    season of many games in order costs about one query; only the games that
    disagree are synced (each in its own transaction, under its row lock).
    """
    booked: dict[int, dict[int, int]] = defaultdict(dict)
    rows = (
        LedgerEntry.objects.filter(season_id=season_id, kind__in=GAME_KINDS)
        .values("game_id", "player_id")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    for row in rows:
        if row["total"]:
            booked[row["game_id"]][row["player_id"]] = row["total"]
    games = (
        Game.objects.filter(evening__season_id=season_id)
        .values_list("pk", "status", "result")
        .order_by("pk")
    )
    repaired = 0
    for game_id, game_status, result in games.iterator(chunk_size=5000):
        try:
            wanted = wanted_amounts(game_id=game_id, status=game_status, result=result)
        except LedgerError:
            logger.exception("game %s cannot be booked; left as it is", game_id)
            continue
        if wanted != booked.get(game_id, {}):
            with transaction.atomic():
                fresh = Game.objects.select_for_update().get(pk=game_id)
                ledger_sync_game(game=fresh)
            repaired += 1
    return repaired


# --- Payments --------------------------------------------------------------------------------


@transaction.atomic
def payment_record(
    *,
    club: Club,
    payer: Player,
    payee: Player,
    amount: int,
    recorded_by: Any | None,
    evening: Evening | None = None,
    season: Season | None = None,
) -> Payment:
    """Book money handed from ``payer`` to ``payee``.

    Writes the ``Payment`` and two entries: the payer +amount (he owes less),
    the payee −amount (he is owed less), so open balances are results minus
    payments. A payment made for an evening counts for that evening and its
    season. Raises ``ValidationError`` for an amount that is not a whole
    number > 0, a player paying himself, players, an evening or a season of
    another club, or an evening outside the given season.
    """
    errors: dict[str, str] = {}
    if type(amount) is not int or amount <= 0:
        errors["amount"] = _("The amount must be a whole number greater than zero.")
    if payer.club_id != club.pk:
        errors["payer"] = _("This player belongs to another club.")
    if payee.club_id != club.pk:
        errors["payee"] = _("This player belongs to another club.")
    if payer.pk == payee.pk:
        errors["payee"] = _("A player cannot pay himself.")
    if evening is not None and evening.club_id != club.pk:
        errors["evening"] = _("This evening belongs to another club.")
    elif evening is not None:
        # The evening's row locked as ``games.services.evening_delete`` locks it: a
        # payment booked while its (empty) evening is deleted waits, then finds it gone.
        rows = Evening.objects.select_for_update(no_key=True, of=("self",)).filter(pk=evening.pk)
        if not list(rows.values_list("pk", flat=True)):
            errors["evening"] = _("This evening has been deleted.")
    if season is not None and season.club_id != club.pk:
        errors["season"] = _("This season belongs to another club.")
    if (
        evening is not None
        and season is not None
        and "evening" not in errors
        and evening.season_id != season.pk
    ):
        errors["season"] = _("This evening belongs to another season.")
    if errors:
        raise ValidationError(errors)
    season_id = season.pk if season is not None else (evening.season_id if evening else None)
    payment = Payment.objects.create(
        club=club,
        season_id=season_id,
        evening=evening,
        payer=payer,
        payee=payee,
        amount=amount,
        recorded_by=recorded_by,
    )
    _payment_entries(payment)
    if payment.evening_id is not None:
        evening_changed_push(payment.evening_id)
    return payment


def _payment_entries(payment: Payment) -> None:
    """The payment's two entries: the payer +amount (he owes less), the payee −amount."""
    common = {
        "club_id": payment.club_id,
        "season_id": payment.season_id,
        "evening_id": payment.evening_id,
        "payment": payment,
        "kind": LedgerEntry.Kind.PAYMENT,
        "created_at": payment.created_at,
    }
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(player_id=payment.payer_id, amount=payment.amount, **common),
            LedgerEntry(player_id=payment.payee_id, amount=-payment.amount, **common),
        ]
    )


@transaction.atomic
def payment_reverse(*, payment: Payment, recorded_by: Any | None) -> Payment:
    """Book the reversal ("Storno") of a payment booked by mistake: the same amount
    back from its payee to its payer, with its two entries, for the same evening and
    season, so that every balance is as before the payment. Nothing is deleted. A
    settlement transfer marked paid with the payment is open again (to be marked
    paid when the money really changes hands).

    Raises ``ValidationError`` for a payment reversed already or one that is itself a
    reversal (book the payment anew instead).
    """
    locked = Payment.objects.select_for_update().get(pk=payment.pk)
    if locked.reverses_id is not None:
        raise ValidationError(_("This is a reversal: book the payment again instead."))
    if Payment.objects.filter(reverses=locked).exists():
        raise ValidationError(_("This payment has been reversed already."))
    reversal = Payment.objects.create(
        club_id=locked.club_id,
        season_id=locked.season_id,
        evening_id=locked.evening_id,
        payer_id=locked.payee_id,
        payee_id=locked.payer_id,
        amount=locked.amount,
        recorded_by=recorded_by,
        reverses=locked,
    )
    _payment_entries(reversal)
    if reversal.evening_id is not None:
        evening_changed_push(reversal.evening_id)
    SettlementTransfer.objects.filter(payment=locked).update(
        paid_at=None, paid_by=None, payment=None
    )
    return reversal


# --- Settlement --------------------------------------------------------------------------------


@transaction.atomic
def settlement_plan_create(
    *,
    club: Club,
    created_by: Any | None,
    evening: Evening | None = None,
    season: Season | None = None,
) -> SettlementPlan:
    """Plan the fewest transfers that clear the open balances of an evening or a season.

    Exactly one of ``evening`` and ``season`` must be given, of ``club``. The
    balances are read now and stored with the plan; later games or payments do
    not change a plan (make a new one). Open balances that are all zero give a
    plan without transfers. An evening is refused once payments were booked for
    its whole season (a season's plan paid, say): they are in the season's
    balance, not the evening's, so settling the evening would ask for them again.
    """
    if (evening is None) == (season is None):
        raise ValidationError(_("Settle either an evening or a season."))
    if evening is not None and evening.club_id != club.pk:
        raise ValidationError({"evening": _("This evening belongs to another club.")})
    if season is not None and season.club_id != club.pk:
        raise ValidationError({"season": _("This season belongs to another club.")})
    if (
        evening is not None
        and Payment.objects.filter(
            season_id=evening.season_id,
            evening__isnull=True,
            reverses__isnull=True,  # a payment reversed, and its reversal, pay nothing
            reversed_by__isnull=True,
        ).exists()
    ):
        # Payments for a whole season are no evening's: an evening's own balance
        # would still ask for money they paid. The season's balance counts them.
        raise ValidationError(
            {
                "evening": _(
                    "Payments were booked for this evening's whole season; settle the "
                    "season instead, which counts them."
                )
            }
        )
    balances = selectors.balance_map(club=club, evening=evening, season=season)
    transfers = settle({str(player_id): amount for player_id, amount in balances.items()})
    plan = SettlementPlan.objects.create(
        club=club,
        evening=evening,
        season=season,
        balances={str(player_id): amount for player_id, amount in sorted(balances.items())},
        created_by=created_by,
    )
    SettlementTransfer.objects.bulk_create(
        [
            SettlementTransfer(
                plan=plan, payer_id=int(t.payer), payee_id=int(t.payee), amount=t.amount
            )
            for t in transfers
        ]
    )
    return plan


@transaction.atomic
def settlement_transfer_mark_paid(
    *, transfer: SettlementTransfer, paid_by: Any | None
) -> SettlementTransfer:
    """Mark a planned transfer paid and book its payment, once.

    Idempotent: the transfer is claimed with a conditional update, and only the
    caller that changed the row books the payment; a second mark (a retry, a
    double tap, a concurrent request) books nothing and returns the transfer as
    it is.
    """
    claimed = SettlementTransfer.objects.filter(pk=transfer.pk, paid_at__isnull=True).update(
        paid_at=timezone.now(), paid_by=paid_by
    )
    if claimed == 1:
        plan = SettlementPlan.objects.select_related("club", "evening", "season").get(
            pk=transfer.plan_id
        )
        payment = payment_record(
            club=plan.club,
            payer=Player.objects.get(pk=transfer.payer_id),
            payee=Player.objects.get(pk=transfer.payee_id),
            amount=transfer.amount,
            recorded_by=paid_by,
            evening=plan.evening,
            season=plan.season,
        )
        SettlementTransfer.objects.filter(pk=transfer.pk).update(payment=payment)
    transfer.refresh_from_db()
    return transfer


# --- Standings configuration ------------------------------------------------------------------


@transaction.atomic
def standings_config_update(
    *, club: Club, min_games: int | None = None, tie_break: list[str] | None = None
) -> StandingsConfig:
    """Change how the club ranks its tables; every season's projections follow.

    Raises ``ValidationError`` naming the field for a negative minimum or a
    tie-break order that is empty, repeats a key or names an unknown one.
    """
    config, _created = StandingsConfig.objects.select_for_update().get_or_create(club=club)
    if min_games is not None:
        config.min_games = min_games
    if tie_break is not None:
        config.tie_break = list(tie_break)
    try:
        StandingsRules(int(config.min_games), tuple(config.tie_break))
    except (ValueError, TypeError) as error:
        field = "min_games" if "min_games" in str(error) else "tie_break"
        raise ValidationError({field: str(error)}) from None
    config.save()
    # In season order: two writers locking several state rows never wait on each other in a ring.
    for season_id in (
        ProjectionState.objects.filter(season__club=club)
        .order_by("season_id")
        .values_list("season_id", flat=True)
    ):
        projection_version_bump(season_id=season_id)
        projection_request(season_id=season_id)
    return config
