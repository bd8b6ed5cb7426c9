"""The web pages of the ledger: a season's table with its charts, and a player's page.

Thin views over ``ledger.selectors``: the numbers are the stored projections
(recomputed on commit by the ledger's tasks). Charts are inline SVG drawn here,
on the server: no chart library travels to the phone.

One module per use case: ``season_table`` (a season's table, its settlement, the
all-time table), ``player`` (a player's page), ``payments`` (booking and reversing
a payment), ``evening_money`` (an evening's settlement); the charts' drawing is in
``charts``.
"""

from ledger.pages.charts import PALETTE, line_chart, round_ticks
from ledger.pages.evening_money import evening_settle, evening_transfer_paid
from ledger.pages.payments import MAX_PAYMENT, book_payment, payment_reverse, season_payment_new
from ledger.pages.player import player_page
from ledger.pages.season_table import (
    all_time_page,
    season_current,
    season_settle,
    season_standings,
    season_transfer_paid,
)

__all__ = [
    "MAX_PAYMENT",
    "PALETTE",
    "all_time_page",
    "book_payment",
    "evening_settle",
    "evening_transfer_paid",
    "line_chart",
    "payment_reverse",
    "player_page",
    "round_ticks",
    "season_current",
    "season_payment_new",
    "season_settle",
    "season_standings",
    "season_transfer_paid",
]
