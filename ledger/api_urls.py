"""URLs of the ledger API, included under /api/."""

from __future__ import annotations

from django.urls import path

from ledger import apis

club = "clubs/<slug:slug>"
season = f"{club}/seasons/<int:season_id>"
plan = f"{club}/settlement-plans/<int:plan_id>"

urlpatterns = [
    path(f"{club}/balances/", apis.BalanceListApi.as_view(), name="balance-list"),
    path(f"{club}/balances/csv/", apis.BalanceCsvApi.as_view(), name="balance-csv"),
    path(f"{club}/payments/", apis.PaymentListApi.as_view(), name="payment-list"),
    path(f"{club}/payments/create/", apis.PaymentCreateApi.as_view(), name="payment-create"),
    path(
        f"{club}/payments/<int:payment_id>/reverse/",
        apis.PaymentReverseApi.as_view(),
        name="payment-reverse",
    ),
    path(
        f"{club}/settlement-plans/",
        apis.SettlementPlanListApi.as_view(),
        name="settlement-plan-list",
    ),
    path(
        f"{club}/settlement-plans/create/",
        apis.SettlementPlanCreateApi.as_view(),
        name="settlement-plan-create",
    ),
    path(f"{plan}/", apis.SettlementPlanDetailApi.as_view(), name="settlement-plan-detail"),
    path(f"{plan}/csv/", apis.SettlementPlanCsvApi.as_view(), name="settlement-plan-csv"),
    path(
        f"{plan}/transfers/<int:transfer_id>/mark-paid/",
        apis.SettlementTransferMarkPaidApi.as_view(),
        name="settlement-transfer-mark-paid",
    ),
    path(f"{season}/standings/", apis.SeasonStandingsApi.as_view(), name="season-standings"),
    path(f"{club}/all-time/", apis.AllTimeApi.as_view(), name="all-time"),
    path(f"{season}/ratings/", apis.SeasonRatingListApi.as_view(), name="season-ratings"),
    path(
        f"{season}/ratings/<int:player_id>/",
        apis.SeasonRatingHistoryApi.as_view(),
        name="season-rating-history",
    ),
    path(f"{season}/series/", apis.SeasonSeriesApi.as_view(), name="season-series"),
    path(
        f"{season}/players/<int:player_id>/statistics/",
        apis.SeasonPlayerStatisticsApi.as_view(),
        name="season-player-statistics",
    ),
    path(
        f"{club}/players/<int:player_id>/statistics/",
        apis.AllTimePlayerStatisticsApi.as_view(),
        name="all-time-player-statistics",
    ),
    path(
        f"{club}/standings-config/",
        apis.StandingsConfigDetailApi.as_view(),
        name="standings-config",
    ),
    path(
        f"{club}/standings-config/update/",
        apis.StandingsConfigUpdateApi.as_view(),
        name="standings-config-update",
    ),
]
