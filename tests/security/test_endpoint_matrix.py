"""Every URL of the project (API and pages) × every persona: who gets in, and who does not.

The endpoints are collected from the URL resolver, so a new URL without a row
here fails ``test_every_url_has_a_row_in_the_matrix``. A row says, per persona,
one of:

- ``IN``: past the door — any answer but 401/403/404 or a redirect to a login
  page, and never a 5xx (the exact success answers are the apps' own tests);
- ``NO``: a member whose role is too low: 403;
- ``HIDDEN``: not a member: 404, as if the club did not exist;
- ``LOGIN``: anonymous: 401 on the API, a redirect to the login page on a page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from clubs.models import Club, Invitation, Membership, Player, Role, RuleProfile, Season
from games import services
from games.models import Evening, Game
from ledger import services as ledger_services
from ledger.models import SettlementTransfer
from live import services as live_services
from tests.conftest import PERSONAS, PersonaClient
from tests.factories import InvitationFactory, MembershipFactory, RuleProfileFactory
from tests.games import records
from tournaments import services as tournament_services

IN, NO, HIDDEN, LOGIN = "in", "no", "hidden", "login"

MEMBERS = {"owner": IN, "admin": IN, "scorer": IN, "member": IN, "outsider": HIDDEN}
SCORERS = {**MEMBERS, "member": NO}
ADMINS = {**SCORERS, "scorer": NO}
ANY_USER = dict.fromkeys(PERSONAS, IN)
MEMBERS_ONLY = {**MEMBERS, "anonymous": LOGIN}
SCORERS_ONLY = {**SCORERS, "anonymous": LOGIN}
ADMINS_ONLY = {**ADMINS, "anonymous": LOGIN}
LOGGED_IN = {**ANY_USER, "anonymous": LOGIN}
PUBLIC = ANY_USER

# Routes with no row, and why.
EXEMPT_PREFIXES = {
    "admin/": "Django's admin: staff only, behind its own login (checked by the admin row)",
}


@dataclass
class World:
    club: Club
    season: Season
    evening: Evening
    game: Game
    players: dict[str, Player]
    target: Membership
    invitation: Invitation
    rule_profile: RuleProfile
    plan_id: int
    transfer_id: int
    season_transfer_id: int
    payment_id: int
    live_token: str = ""
    live_link_id: int = 0
    tournament_id: int = 0
    tournament_link_id: int = 0
    tournament_key: str = ""


@pytest.fixture
def world(
    club: Club,
    owner: PersonaClient,
    players: dict[str, Player],
    evening: Evening,
    dealt_game: Game,
    as_ids: Any,
) -> World:
    game = services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
    ).game
    ledger_services.season_projections_recompute(season_id=evening.season_id)
    plan = ledger_services.settlement_plan_create(club=club, created_by=None, evening=evening)
    transfer = SettlementTransfer.objects.filter(plan=plan).first()
    assert transfer is not None
    season_plan = ledger_services.settlement_plan_create(
        club=club, created_by=None, season=evening.season
    )
    season_transfer = SettlementTransfer.objects.filter(plan=season_plan).first()
    assert season_transfer is not None
    payment = ledger_services.payment_record(
        club=club,
        payer=players["anna"],
        payee=players["bert"],
        amount=100,
        recorded_by=None,
        evening=evening,
    )
    link = live_services.live_link_create(evening=evening, user=None)
    tournament = tournament_services.tournament_create(
        club=club,
        user=None,
        name="Preisfuchsen",
        game_kind="fuchsen",
        series_count=2,
        deals_per_series=1,
        players=[p.pk for p in players.values()],
    )
    tournament_services.series_confirm(
        series=tournament_services.series_draw(tournament=tournament), user=None
    )
    ranking_link = tournament_services.ranking_link_create(tournament=tournament)
    return World(
        club=club,
        season=evening.season,
        evening=evening,
        game=game,
        players=players,
        target=MembershipFactory.create(club=club, role=Role.MEMBER),
        invitation=InvitationFactory.create(club=club, created_by=owner.user),
        rule_profile=RuleProfileFactory.create(club=club),
        plan_id=plan.pk,
        transfer_id=transfer.pk,
        season_transfer_id=season_transfer.pk,
        payment_id=payment.pk,
        live_token=live_services.link_token(link),
        live_link_id=link.pk,
        tournament_id=tournament.pk,
        tournament_link_id=ranking_link.pk,
        tournament_key=ranking_link.key,
    )


@dataclass(frozen=True)
class Row:
    method: str
    url: Callable[[World], str]
    expect: dict[str, str]
    data: Any = None


def c(suffix: str) -> Callable[[World], str]:
    return lambda w: f"/api/clubs/{w.club.slug}/{suffix}".format(w=w)


def page(template: str) -> Callable[[World], str]:
    return lambda w: template.format(w=w)


E = "{w.evening.pk}"
G = "{w.game.pk}"
S = "{w.season.pk}"
P = "{w.players[anna].pk}"
SEATED = "{w.players[emil].pk}"
PLAN = "{w.plan_id}"
T_API = "tournaments/{w.tournament_id}/"
T_PAGE = "/clubs/{w.club.slug}/tournaments/{w.tournament_id}/"
TABLE = "series/1/tables/1/"

MATRIX: dict[str, Row] = {
    # --- public ---
    "home": Row("get", page("/"), PUBLIC),
    "login": Row("get", page("/accounts/login/"), PUBLIC),
    "logout": Row("post", page("/accounts/logout/"), PUBLIC),
    "signup": Row("get", page("/accounts/signup/"), PUBLIC),
    "password-reset": Row("get", page("/accounts/password/reset/"), PUBLIC),
    "password-reset-done": Row("get", page("/accounts/password/reset/sent/"), PUBLIC),
    "password-reset-confirm": Row("get", page("/accounts/password/reset/MQ/bad-token/"), PUBLIC),
    "password-link-confirm": Row("get", page("/accounts/password/reset/MQ/MQ/bad-token/"), PUBLIC),
    "password-reset-complete": Row("get", page("/accounts/password/reset/done/"), PUBLIC),
    "set_language": Row("post", page("/i18n/setlang/"), PUBLIC, {"language": "en"}),
    "javascript-catalog": Row("get", page("/jsi18n/de/"), PUBLIC),
    "api-schema": Row("get", page("/api/schema/"), PUBLIC),
    "api-docs": Row("get", page("/api/docs/"), PUBLIC),
    "auth-token": Row("post", page("/api/auth/token/"), PUBLIC, {"username": "x"}),
    "auth-signup": Row("post", page("/api/auth/signup/"), PUBLIC, {"username": "x"}),
    # --- any logged-in user ---
    "auth-me": Row("get", page("/api/auth/me/"), LOGGED_IN),
    "auth-password": Row("post", page("/api/auth/password/"), LOGGED_IN, {}),
    "password-change": Row("get", page("/accounts/password/"), LOGGED_IN),
    # Only one's own tokens: another user's id revokes nothing (tests/security/test_token_*).
    "api-token-revoke": Row("post", page("/accounts/tokens/1/revoke/"), LOGGED_IN, {}),
    "club-list": Row("get", page("/api/clubs/"), LOGGED_IN),
    "club-create": Row("post", page("/api/clubs/create/"), LOGGED_IN, {}),
    "house-rule-list": Row("get", page("/api/house-rules/fuchsen/"), LOGGED_IN),
    "invitation-detail": Row("get", page("/api/invitations/{w.invitation.token}/"), LOGGED_IN),
    "invitation-accept-api": Row(
        "post", page("/api/invitations/{w.invitation.token}/accept/"), LOGGED_IN, {}
    ),
    "club-create-page": Row("get", page("/clubs/new/"), LOGGED_IN),
    "invitation-accept": Row("get", page("/join/{w.invitation.token}/"), LOGGED_IN),
    # --- clubs API ---
    "club-detail": Row("get", c(""), MEMBERS_ONLY),
    "club-update": Row("post", c("update/"), ADMINS_ONLY, {}),
    "membership-list": Row("get", c("memberships/"), MEMBERS_ONLY),
    "membership-role-change": Row(
        "post", c("memberships/{w.target.pk}/role/"), ADMINS_ONLY, {"role": "scorer"}
    ),
    "membership-remove": Row("post", c("memberships/{w.target.pk}/remove/"), ADMINS_ONLY, {}),
    "membership-password-link": Row(
        "post", c("memberships/{w.target.pk}/password-link/"), ADMINS_ONLY, {}
    ),
    "invitation-list": Row("get", c("invitations/"), ADMINS_ONLY),
    "invitation-create": Row("post", c("invitations/create/"), ADMINS_ONLY, {}),
    "invitation-revoke": Row("post", c("invitations/{w.invitation.pk}/revoke/"), ADMINS_ONLY, {}),
    "player-list": Row("get", c("players/"), MEMBERS_ONLY),
    "player-create": Row("post", c("players/create/"), SCORERS_ONLY, {}),
    "player-update": Row("post", c("players/" + P + "/update/"), ADMINS_ONLY, {}),
    "season-list": Row("get", c("seasons/"), MEMBERS_ONLY),
    "season-create": Row("post", c("seasons/create/"), ADMINS_ONLY, {}),
    "season-close": Row("post", c("seasons/" + S + "/close/"), ADMINS_ONLY, {}),
    "season-reopen": Row("post", c("seasons/" + S + "/reopen/"), ADMINS_ONLY, {}),
    "rule-profile-list": Row("get", c("rule-profiles/"), MEMBERS_ONLY),
    "rule-profile-create": Row("post", c("rule-profiles/create/"), ADMINS_ONLY, {}),
    "rule-profile-update": Row(
        "post", c("rule-profiles/{w.rule_profile.pk}/update/"), ADMINS_ONLY, {}
    ),
    # --- ledger API ---
    "balance-list": Row("get", c("balances/"), MEMBERS_ONLY),
    "balance-csv": Row("get", c("balances/csv/"), MEMBERS_ONLY),
    "payment-list": Row("get", c("payments/"), MEMBERS_ONLY),
    "payment-create": Row("post", c("payments/create/"), SCORERS_ONLY, {}),
    "settlement-plan-list": Row("get", c("settlement-plans/"), MEMBERS_ONLY),
    "settlement-plan-create": Row(
        "post", c("settlement-plans/create/"), SCORERS_ONLY, {"evening": "{w.evening.pk}"}
    ),
    "settlement-plan-detail": Row("get", c("settlement-plans/" + PLAN + "/"), MEMBERS_ONLY),
    "settlement-plan-csv": Row("get", c("settlement-plans/" + PLAN + "/csv/"), MEMBERS_ONLY),
    "settlement-transfer-mark-paid": Row(
        "post",
        c("settlement-plans/" + PLAN + "/transfers/{w.transfer_id}/mark-paid/"),
        SCORERS_ONLY,
        {},
    ),
    "season-standings": Row("get", c("seasons/" + S + "/standings/"), MEMBERS_ONLY),
    "season-ratings": Row("get", c("seasons/" + S + "/ratings/"), MEMBERS_ONLY),
    "season-rating-history": Row("get", c("seasons/" + S + "/ratings/" + P + "/"), MEMBERS_ONLY),
    "season-series": Row("get", c("seasons/" + S + "/series/"), MEMBERS_ONLY),
    "season-player-statistics": Row(
        "get", c("seasons/" + S + "/players/" + P + "/statistics/"), MEMBERS_ONLY
    ),
    "all-time-player-statistics": Row("get", c("players/" + P + "/statistics/"), MEMBERS_ONLY),
    "standings-config": Row("get", c("standings-config/"), MEMBERS_ONLY),
    "payment-reverse": Row("post", c("payments/{w.payment_id}/reverse/"), SCORERS_ONLY, {}),
    "all-time": Row("get", c("all-time/"), MEMBERS_ONLY),
    "standings-config-update": Row("post", c("standings-config/update/"), ADMINS_ONLY, {}),
    # --- games API ---
    "evening-list": Row("get", c("evenings/"), MEMBERS_ONLY),
    "season-records": Row("get", c("seasons/" + S + "/records/"), MEMBERS_ONLY),
    "evening-detail": Row("get", page("/api/evenings/" + E + "/"), MEMBERS_ONLY),
    "evening-close": Row("post", page("/api/evenings/" + E + "/close/"), SCORERS_ONLY, {}),
    "evening-reopen": Row("post", page("/api/evenings/" + E + "/reopen/"), ADMINS_ONLY, {}),
    # The world's evening holds a game: those let in get 409, and it stays.
    "evening-delete": Row("post", page("/api/evenings/" + E + "/delete/"), SCORERS_ONLY, {}),
    "evening-seat-add": Row("post", page("/api/evenings/" + E + "/seats/"), SCORERS_ONLY, {}),
    "evening-seat-remove": Row(
        "delete", page("/api/evenings/" + E + "/seats/" + SEATED + "/"), SCORERS_ONLY
    ),
    "game-start": Row("post", page("/api/evenings/" + E + "/games/"), SCORERS_ONLY, {}),
    "evening-records": Row("get", page("/api/evenings/" + E + "/records/"), MEMBERS_ONLY),
    "evening-import": Row("post", page("/api/evenings/" + E + "/import/"), SCORERS_ONLY, []),
    "game-detail": Row("get", page("/api/games/" + G + "/"), MEMBERS_ONLY),
    "game-event-append": Row(
        "post", page("/api/games/" + G + "/events/"), SCORERS_ONLY, {"expected_seq": 0}
    ),
    "game-record": Row("get", page("/api/games/" + G + "/record/"), MEMBERS_ONLY),
    "game-history": Row("get", page("/api/games/" + G + "/history/"), MEMBERS_ONLY),
    "game-analysis": Row("get", page("/api/games/" + G + "/analysis/"), MEMBERS_ONLY),
    "evening-log": Row("get", page("/api/evenings/" + E + "/log/"), MEMBERS_ONLY),
    "live-link-list": Row("get", page("/api/evenings/" + E + "/live-links/"), SCORERS_ONLY),
    "live-link-revoke-api": Row(
        "post",
        page("/api/evenings/" + E + "/live-links/{w.live_link_id}/revoke/"),
        SCORERS_ONLY,
        {},
    ),
    "live-state-api": Row("get", page("/api/live/{w.live_token}/"), PUBLIC),
    # --- pages ---
    "club-page": Row("get", page("/clubs/{w.club.slug}/"), MEMBERS_ONLY),
    "invitation-revoke-page": Row(
        "post",
        page("/clubs/{w.club.slug}/invitations/{w.invitation.pk}/revoke/"),
        ADMINS_ONLY,
        {},
    ),
    "invitation-create-page": Row(
        "post", page("/clubs/{w.club.slug}/invitations/new/"), ADMINS_ONLY, {}
    ),
    "player-create-page": Row("post", page("/clubs/{w.club.slug}/players/new/"), SCORERS_ONLY, {}),
    "player-rename-page": Row(
        "post", page("/clubs/{w.club.slug}/players/" + P + "/rename/"), ADMINS_ONLY, {}
    ),
    "player-active-page": Row(
        "post", page("/clubs/{w.club.slug}/players/" + P + "/active/"), ADMINS_ONLY, {}
    ),
    "season-create-page": Row("post", page("/clubs/{w.club.slug}/seasons/new/"), ADMINS_ONLY, {}),
    "season-close-page": Row(
        "post", page("/clubs/{w.club.slug}/seasons/" + S + "/close/"), ADMINS_ONLY, {}
    ),
    "season-reopen-page": Row(
        "post", page("/clubs/{w.club.slug}/seasons/" + S + "/reopen/"), ADMINS_ONLY, {}
    ),
    "rule-profile-new-page": Row(
        "get", page("/clubs/{w.club.slug}/rules/new/fuchsen/"), ADMINS_ONLY
    ),
    "rule-profile-page": Row(
        "get", page("/clubs/{w.club.slug}/rules/{w.rule_profile.pk}/"), MEMBERS_ONLY
    ),
    "membership-role-page": Row(
        "post",
        page("/clubs/{w.club.slug}/members/{w.target.pk}/role/"),
        ADMINS_ONLY,
        {"role": "member"},
    ),
    "password-link-page": Row(
        "post", page("/clubs/{w.club.slug}/members/{w.target.pk}/password-link/"), ADMINS_ONLY, {}
    ),
    "membership-remove-page": Row(
        "post", page("/clubs/{w.club.slug}/members/{w.target.pk}/remove/"), ADMINS_ONLY, {}
    ),
    "club-book": Row("get", page("/clubs/{w.club.slug}/book/"), MEMBERS_ONLY),
    "club-settings-page": Row("get", page("/clubs/{w.club.slug}/settings/"), ADMINS_ONLY),
    "evening-new": Row("get", page("/clubs/{w.club.slug}/evenings/new/"), SCORERS_ONLY),
    "evening-archive": Row("get", page("/clubs/{w.club.slug}/evenings/"), MEMBERS_ONLY),
    "all-time-page": Row("get", page("/clubs/{w.club.slug}/all-time/"), MEMBERS_ONLY),
    "payment-reverse-page": Row(
        "post", page("/clubs/{w.club.slug}/payments/{w.payment_id}/reverse/"), SCORERS_ONLY, {}
    ),
    "evening-page": Row("get", page("/evenings/" + E + "/"), MEMBERS_ONLY),
    "evening-close-page": Row("post", page("/evenings/" + E + "/close/"), SCORERS_ONLY, {}),
    "evening-reopen-page": Row("post", page("/evenings/" + E + "/reopen/"), ADMINS_ONLY, {}),
    "evening-delete-page": Row("post", page("/evenings/" + E + "/delete/"), SCORERS_ONLY, {}),
    "evening-settle": Row("post", page("/evenings/" + E + "/settle/"), SCORERS_ONLY, {}),
    "seat-add-page": Row("post", page("/evenings/" + E + "/seats/add/"), SCORERS_ONLY, {}),
    "payment-new-page": Row("post", page("/evenings/" + E + "/payments/new/"), SCORERS_ONLY, {}),
    "seat-leave-page": Row(
        "post", page("/evenings/" + E + "/seats/" + SEATED + "/leave/"), SCORERS_ONLY, {}
    ),
    "transfer-paid": Row(
        "post", page("/evenings/" + E + "/transfers/{w.transfer_id}/paid/"), SCORERS_ONLY, {}
    ),
    "evening-import-page": Row("post", page("/evenings/" + E + "/import/"), SCORERS_ONLY, {}),
    "game-new": Row("get", page("/evenings/" + E + "/new-game/"), SCORERS_ONLY),
    "evening-tally": Row("get", page("/evenings/" + E + "/tally/"), SCORERS_ONLY),
    "game-tally": Row("get", page("/games/" + G + "/tally/"), SCORERS_ONLY),
    "game-result-change": Row("get", page("/games/" + G + "/change/"), SCORERS_ONLY),
    "game-page": Row("get", page("/games/" + G + "/"), MEMBERS_ONLY),
    "game-rules": Row("get", page("/games/" + G + "/rules/"), MEMBERS_ONLY),
    "evening-rules": Row("get", page("/evenings/" + E + "/rules/"), MEMBERS_ONLY),
    "club-rules": Row("get", page("/clubs/{w.club.slug}/rules/fuchsen/"), MEMBERS_ONLY),
    "game-replay": Row("get", page("/games/" + G + "/replay/"), MEMBERS_ONLY),
    "game-analysis-page": Row("get", page("/games/" + G + "/analysis/"), MEMBERS_ONLY),
    "game-history-page": Row("get", page("/games/" + G + "/history/"), MEMBERS_ONLY),
    "evening-log-page": Row("get", page("/evenings/" + E + "/log/"), MEMBERS_ONLY),
    # A live link opens for anyone holding it; its stream for members is 404 to the rest
    # (an EventSource cannot follow a login redirect).
    "service-worker": Row("get", page("/sw.js"), PUBLIC),
    "web-manifest": Row("get", page("/manifest.webmanifest"), PUBLIC),
    "favicon": Row("get", page("/favicon.ico"), PUBLIC),
    "live-page": Row("get", page("/live/{w.live_token}/"), PUBLIC),
    "live-state": Row("get", page("/live/{w.live_token}/state/"), PUBLIC),
    "live-events": Row("get", page("/live/{w.live_token}/events/"), PUBLIC),
    "evening-live-state": Row("get", page("/evenings/" + E + "/live/state/"), MEMBERS_ONLY),
    "evening-live-events": Row(
        "get", page("/evenings/" + E + "/live/events/"), {**MEMBERS, "anonymous": HIDDEN}
    ),
    "live-link-new": Row("post", page("/evenings/" + E + "/live-links/new/"), SCORERS_ONLY, {}),
    "live-link-revoke": Row(
        "post", page("/evenings/" + E + "/live-links/{w.live_link_id}/revoke/"), SCORERS_ONLY, {}
    ),
    "live-link-qr": Row(
        "get", page("/evenings/" + E + "/live-links/{w.live_link_id}/qr.svg"), SCORERS_ONLY
    ),
    "season-current": Row("get", page("/clubs/{w.club.slug}/table/"), MEMBERS_ONLY),
    "season-settle": Row(
        "post", page("/clubs/{w.club.slug}/seasons/" + S + "/settle/"), SCORERS_ONLY, {}
    ),
    "season-payment-new-page": Row(
        "post", page("/clubs/{w.club.slug}/seasons/" + S + "/payments/new/"), SCORERS_ONLY, {}
    ),
    "season-transfer-paid": Row(
        "post",
        page("/clubs/{w.club.slug}/seasons/" + S + "/transfers/{w.season_transfer_id}/paid/"),
        SCORERS_ONLY,
        {},
    ),
    "standings-page": Row(
        "get", page("/clubs/{w.club.slug}/seasons/" + S + "/table/"), MEMBERS_ONLY
    ),
    "player-page": Row("get", page("/clubs/{w.club.slug}/players/" + P + "/"), MEMBERS_ONLY),
    # --- tournaments (API) ---
    "tournament-list": Row("get", c("tournaments/"), MEMBERS_ONLY),
    "tournament-create": Row("post", c("tournaments/create/"), ADMINS_ONLY, {}),
    "tournament-detail": Row("get", c(T_API), MEMBERS_ONLY),
    "tournament-join": Row("post", c(T_API + "participants/"), ADMINS_ONLY, {}),
    "tournament-leave": Row("post", c(T_API + "participants/1/leave/"), ADMINS_ONLY, {}),
    "tournament-draw": Row("post", c(T_API + "draw/"), ADMINS_ONLY, {}),
    "tournament-series-confirm": Row("post", c(T_API + "series/1/confirm/"), ADMINS_ONLY, {}),
    "tournament-sheet": Row("get", c(T_API + TABLE), MEMBERS_ONLY),
    # Past the door for every member: whom he may confirm for is decided inside (403
    # for another's line, tests/tournaments/test_permission_matrix.py).
    "tournament-sheet-confirm": Row("post", c(T_API + TABLE + "confirm/"), MEMBERS_ONLY, {}),
    "tournament-ranking": Row("get", c(T_API + "ranking/"), MEMBERS_ONLY),
    "tournament-ranking-csv": Row("get", c(T_API + "ranking/csv/"), MEMBERS_ONLY),
    "tournament-close": Row("post", c(T_API + "close/"), ADMINS_ONLY, {}),
    "tournament-settlement": Row("get", c(T_API + "settlement/"), MEMBERS_ONLY),
    "tournament-links": Row("get", c(T_API + "links/"), ADMINS_ONLY),
    "tournament-link-revoke": Row(
        "post", c(T_API + "links/{w.tournament_link_id}/revoke/"), ADMINS_ONLY, {}
    ),
    "tournament-link-api": Row("get", page("/api/tournament-links/{w.tournament_key}/"), PUBLIC),
    # --- tournaments (pages) ---
    "tournament-list-page": Row("get", page("/clubs/{w.club.slug}/tournaments/"), MEMBERS_ONLY),
    "tournament-page": Row("get", page(T_PAGE), MEMBERS_ONLY),
    "tournament-join-page": Row("post", page(T_PAGE + "join/"), ADMINS_ONLY, {}),
    "tournament-leave-page": Row("post", page(T_PAGE + "participants/1/leave/"), ADMINS_ONLY, {}),
    "tournament-draw-page": Row("post", page(T_PAGE + "draw/"), ADMINS_ONLY, {}),
    "tournament-confirm-page": Row("post", page(T_PAGE + "series/1/confirm/"), ADMINS_ONLY, {}),
    "tournament-close-page": Row("post", page(T_PAGE + "close/"), ADMINS_ONLY, {}),
    "tournament-link-new": Row("post", page(T_PAGE + "links/new/"), ADMINS_ONLY, {}),
    "tournament-link-revoke-page": Row(
        "post", page(T_PAGE + "links/{w.tournament_link_id}/revoke/"), ADMINS_ONLY, {}
    ),
    "tournament-sheet-page": Row("get", page(T_PAGE + TABLE), MEMBERS_ONLY),
    "tournament-ranking-page": Row("get", page(T_PAGE + "ranking/"), MEMBERS_ONLY),
    "tournament-ranking-state": Row("get", page(T_PAGE + "ranking/state/"), MEMBERS_ONLY),
    "tournament-ranking-events": Row(
        "get", page(T_PAGE + "ranking/events/"), {**MEMBERS, "anonymous": HIDDEN}
    ),
    "tournament-ranking-csv-page": Row("get", page(T_PAGE + "ranking.csv"), MEMBERS_ONLY),
    "tournament-print-seating": Row("get", page(T_PAGE + "print/series/1/"), MEMBERS_ONLY),
    "tournament-print-sheet": Row("get", page(T_PAGE + TABLE + "print/"), MEMBERS_ONLY),
    "tournament-print-ranking": Row("get", page(T_PAGE + "print/ranking/"), MEMBERS_ONLY),
    "tournament-link-page": Row("get", page("/turnier/{w.tournament_key}/"), PUBLIC),
    "tournament-link-state": Row("get", page("/turnier/{w.tournament_key}/state/"), PUBLIC),
    "tournament-link-events": Row("get", page("/turnier/{w.tournament_key}/events/"), PUBLIC),
}


def routes() -> Iterator[tuple[str, str | None]]:
    """(route, name) of every URL the project serves."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, str | None]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.name

    yield from walk(get_resolver().url_patterns, "")


def served_names() -> set[str]:
    return {
        name or route
        for route, name in routes()
        if not any(route.startswith(prefix) for prefix in EXEMPT_PREFIXES)
    }


def test_every_url_has_a_row_in_the_matrix() -> None:
    missing = sorted(served_names() - set(MATRIX))
    assert not missing, (
        f"URLs without a row in tests/security/test_endpoint_matrix.py: {missing}. "
        "Add one saying which personas may use them."
    )


def fill(value: Any, world: World) -> Any:
    if isinstance(value, str):
        return value.format(w=world)
    if isinstance(value, dict):
        return {k: fill(v, world) for k, v in value.items()}
    return value


def cases() -> list[Any]:
    served = served_names()
    return [
        pytest.param(name, persona, id=f"{name} as {persona}")
        for name in sorted(MATRIX)
        if name in served  # a row for a URL not (yet) served is not run
        for persona in PERSONAS
    ]


@pytest.mark.parametrize(("name", "persona"), cases())
def test_each_persona_gets_in_only_where_its_role_allows(
    name: str, persona: str, persona_client: Callable[[str], PersonaClient], world: World
) -> None:
    row = MATRIX[name]
    client = persona_client(persona)
    url = row.url(world)
    kwargs: dict[str, Any] = {}
    if row.data is not None:
        kwargs["data"] = fill(row.data, world)
        kwargs["format"] = "json" if url.startswith("/api/") else "multipart"
    response = getattr(client, row.method)(url, **kwargs)
    status = response.status_code
    location = response.get("Location", "")
    said = f"{row.method.upper()} {url} as {persona}: {status} {location}"
    expected = row.expect[persona]
    assert status < 500, said
    if expected == LOGIN:
        if url.startswith("/api/"):
            assert status == 401, said
        else:
            assert status == 302 and location.startswith("/accounts/login/"), said
    elif expected == NO:
        assert status == 403, said
    elif expected == HIDDEN:
        assert status == 404, said
    else:
        assert status not in (401, 403, 404), said
        assert not (status == 302 and "/login/" in location), said


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_no_persona_is_staff_so_the_admin_sends_everyone_to_its_login(
    persona: str, persona_client: Callable[[str], PersonaClient]
) -> None:
    response = persona_client(persona).get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
