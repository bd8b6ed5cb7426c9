"""The ranking and the prizes of a small tournament, counted by hand; the close freezes
them, and a correction after the close moves the live ranking but no prize.

Eight players, start numbers 1–8 (Anna … Hans), two series of one deal per table,
entry fee 5.00, prizes 50 % and 30 % of the pot and a fixed 5.00. Every deal is a
tally at re (20 a head) or supp (25 a head) with a Hilfer, so at four seats the
Macher's side wins or loses that much each:

series 1: table 1 A B C D — Bert with Carl win at re: B +20, C +20, A −20, D −20
          table 2 E F G H — Fritz with Gerda lose at re: F −20, G −20, E +20, H +20
series 2: table 1 A C E G — Carl with Anna win at re: C +20, A +20, E −20, G −20
          table 2 B D F H — Bert with Hans win at supp: B +25, H +25, D −25, F −25

totals (best series): B 45 (25), H 45 (25), C 40 (20), A 0 (20), E 0 (20),
G −40 (−20), D −45 (−20), F −45 (−20)
places: B, H 1st (same points, same best series); C 3rd; A, E 4th; G 6th; D, F 7th.
pot 8 × 500 = 4000; places 1–3 pay 2000, 1200, 500: B and H share 2000 + 1200 → 1600
each, C 500.
"""

from __future__ import annotations

import pytest

from clubs.models import Club, Player
from games import services as games
from ledger.models import LedgerEntry
from ledger.selectors import balance_list, balance_map
from tests.tournaments.conftest import confirm_all, fixed_series, record_tally
from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.services import TournamentConflict

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(club: Club, eight: dict[str, Player], cashier: Player) -> Tournament:
    p = eight
    tournament = services.tournament_create(
        club=club,
        user=None,
        name="Preisfuchsen",
        game_kind="fuchsen",
        series_count=2,
        deals_per_series=1,
        entry_fee=500,
        prizes=[{"percent": 50}, {"percent": 30}, {"amount": 500}],
        cashier=cashier,
        seed="hand",
        players=[p[c].pk for c in "ABCDEFGH"],
    )
    first = fixed_series(tournament, [[1, 2, 3, 4], [5, 6, 7, 8]])
    t1, t2 = first.tables.order_by("number")
    record_tally(t1, macher=p["B"], partner=p["C"])
    record_tally(t2, macher=p["F"], partner=p["G"], augen=40)
    confirm_all(t1)
    confirm_all(t2)
    second = fixed_series(tournament, [[1, 3, 5, 7], [2, 4, 6, 8]])
    t1, t2 = second.tables.order_by("number")
    record_tally(t1, macher=p["C"], partner=p["A"])
    record_tally(t2, macher=p["B"], partner=p["H"], level="supp")
    confirm_all(t1)
    confirm_all(t2)
    return tournament


def _places(standing: selectors.Standing) -> list[tuple[int, int, int, int]]:
    return [(r.place, r.start_number, r.total, r.best_series) for r in standing.rows]


def test_the_ranking_of_a_small_tournament_is_what_was_counted_by_hand(
    played: Tournament,
) -> None:
    assert _places(selectors.ranking(tournament=played)) == [
        (1, 2, 45, 25),
        (1, 8, 45, 25),
        (3, 3, 40, 20),
        (4, 1, 0, 20),
        (4, 5, 0, 20),
        (6, 7, -40, -20),
        (7, 4, -45, -20),
        (7, 6, -45, -20),
    ]


def test_the_ranking_after_the_first_series_counts_only_that_series(
    played: Tournament,
) -> None:
    after_one = selectors.ranking(tournament=played, up_to_series=1)
    assert {r.start_number: r.total for r in after_one.rows} == {
        1: -20,
        2: 20,
        3: 20,
        4: -20,
        5: 20,
        6: -20,
        7: -20,
        8: 20,
    }
    assert after_one.series == [1]


def test_each_sheet_shows_its_total_per_seat_and_no_deal_left(played: Tournament) -> None:
    table = played.series.get(number=2).tables.get(number=2)
    sheet = selectors.sheet(table=table)
    assert sheet.totals == {2: 25, 4: -25, 6: -25, 8: 25}
    assert sheet.to_play == 0 and sheet.closed
    assert sheet.confirmed == {2, 4, 6, 8}


def test_the_close_awards_the_prizes_counted_by_hand(played: Tournament) -> None:
    closed = services.tournament_close(tournament=played, user=None)
    assert closed.final_ranking is not None
    prizes = {row["start_number"]: row["prize"] for row in closed.final_ranking["rows"]}
    assert closed.final_ranking["pot"] == 4000
    assert {n: v for n, v in prizes.items() if v} == {2: 1600, 8: 1600, 3: 500}


def test_a_correction_after_the_close_moves_the_ranking_but_no_prize(
    played: Tournament, admin: object
) -> None:
    closed = services.tournament_close(tournament=played, user=None)
    frozen = closed.final_ranking
    table = played.series.get(number=2).tables.get(number=2)
    evening = table.evening
    assert evening is not None
    # The correction is on record: the evening is reopened (its change log says so)
    # and Bert's game annulled.
    games.evening_reopen(evening=evening, user=None)
    game = evening.games.get()
    games.game_events_append(
        game=game,
        user=None,
        expected_seq=game.last_seq,
        events=[{"type": "annul", "reason": "falsch gegeben"}],
    )
    live = {r.start_number: r.total for r in selectors.ranking(tournament=played).rows}
    assert live[2] == 20 and live[8] == 20
    played.refresh_from_db()
    assert played.final_ranking == frozen
    assert evening.changes.filter(kind="reopened").exists()


def test_the_close_books_prizes_less_fees_into_the_ledger_and_says_who_owes_whom(
    played: Tournament, eight: dict[str, Player], cashier: Player
) -> None:
    closed = services.tournament_close(tournament=played, user=None)
    booked = dict(
        LedgerEntry.objects.filter(kind=LedgerEntry.Kind.PRIZE).values_list("player_id", "amount")
    )
    p = eight
    # Prize less the fee of 500; the Kassa took in 4000 and paid out 3700.
    # Carl's prize of 500 less his fee is nothing: no entry for him.
    assert booked == {
        p["B"].pk: 1100,
        p["H"].pk: 1100,
        p["A"].pk: -500,
        p["D"].pk: -500,
        p["E"].pk: -500,
        p["F"].pk: -500,
        p["G"].pk: -500,
        cashier.pk: 300,
    }
    assert balance_map(club=played.club, season=played.season)[p["B"].pk] == 45 + 1100
    # The season's balances count the prize with the results, not as a payment.
    rows = {r["player_id"]: r for r in balance_list(club=played.club, season=played.season)}
    assert (rows[p["B"].pk]["results"], rows[p["B"].pk]["payments"]) == (45 + 1100, 0)
    plan = selectors.settlement(tournament=closed)
    assert sum(plan.balances.values()) == 0
    assert plan.balances[p["D"].pk] == -45 - 500
    # Paying clears the books: a payer who owes goes up to zero, a payee down to zero.
    after = dict(plan.balances)
    for payer, payee, amount in plan.transfers:
        after[payer] += amount
        after[payee] -= amount
    assert set(after.values()) == {0}


def test_a_second_close_is_refused_and_books_nothing_more(played: Tournament) -> None:
    services.tournament_close(tournament=played, user=None)
    entries = LedgerEntry.objects.count()
    with pytest.raises(TournamentConflict):
        services.tournament_close(tournament=played, user=None)
    assert LedgerEntry.objects.count() == entries
