"""The club page manages the club: scorers add guests, admins open and close seasons,
set players aside and invite a member to take over a guest. Refusals come back as a
400 page with the reason at the field, and nothing is written."""

from __future__ import annotations

import datetime

from clubs.models import Club, GameKind, Invitation, Membership, Player, Role, Season
from tests.conftest import PersonaClient
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    RuleProfileFactory,
    SeasonFactory,
)


def _page(client: PersonaClient, club: Club) -> str:
    return client.get(f"/clubs/{club.slug}/").content.decode()


def test_a_scorer_adds_a_guest_who_can_then_be_seated(club: Club, scorer: PersonaClient) -> None:
    response = scorer.post(
        f"/clubs/{club.slug}/players/new/", {"display_name": " Hansi "}, format="multipart"
    )
    assert response.status_code == 302
    player = Player.objects.get(club=club, display_name="Hansi")
    assert player.is_guest and player.is_active
    assert "Hansi spielt jetzt im Verein mit." in _page(scorer, club)
    picker = scorer.get(f"/clubs/{club.slug}/evenings/new/")
    assert player in picker.context["players"]


def test_a_name_the_club_already_has_is_refused_at_the_field(
    club: Club, scorer: PersonaClient
) -> None:
    PlayerFactory.create(club=club, display_name="Hansi")
    before = Player.objects.filter(club=club).count()
    response = scorer.post(
        f"/clubs/{club.slug}/players/new/", {"display_name": "hansi"}, format="multipart"
    )
    assert response.status_code == 400
    form = response.context["player_form"]
    assert form.errors["display_name"]
    assert Player.objects.filter(club=club).count() == before


def test_an_empty_or_overlong_name_is_refused(club: Club, scorer: PersonaClient) -> None:
    before = Player.objects.filter(club=club).count()
    for name in ("   ", "x" * 61):
        response = scorer.post(
            f"/clubs/{club.slug}/players/new/", {"display_name": name}, format="multipart"
        )
        assert response.status_code == 400
        assert response.context["player_form"].errors["display_name"]
    assert Player.objects.filter(club=club).count() == before


def test_a_plain_member_cannot_add_players_and_sees_no_form(
    club: Club, member: PersonaClient
) -> None:
    assert 'id="player-form"' not in _page(member, club)
    response = member.post(
        f"/clubs/{club.slug}/players/new/", {"display_name": "Hansi"}, format="multipart"
    )
    assert response.status_code == 403
    assert not Player.objects.filter(club=club, display_name="Hansi").exists()


def test_an_admin_opens_a_season_with_the_clubs_house_rules(
    club: Club, admin: PersonaClient
) -> None:
    Season.objects.filter(club=club).update(status=Season.Status.CLOSED)
    profile = RuleProfileFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    response = admin.post(
        f"/clubs/{club.slug}/seasons/new/",
        {
            "name": "Königrufen 2027",
            "game_kind": GameKind.KOENIGRUFEN,
            "start": "2027-01-06",
            "rule_profile": profile.pk,
        },
        format="multipart",
    )
    assert response.status_code == 302
    season = Season.objects.get(club=club, name="Königrufen 2027")
    assert season.status == Season.Status.OPEN
    assert season.start == datetime.date(2027, 1, 6)
    assert season.rule_profile == profile


def test_the_start_may_be_typed_the_german_way(club: Club, admin: PersonaClient) -> None:
    Season.objects.filter(club=club).update(status=Season.Status.CLOSED)
    admin.cookies["django_language"] = "de"
    response = admin.post(
        f"/clubs/{club.slug}/seasons/new/",
        {"name": "Fuchsen 2027", "game_kind": GameKind.FUCHSEN, "start": "06.01.2027"},
        format="multipart",
    )
    assert response.status_code == 302
    assert Season.objects.get(club=club, name="Fuchsen 2027").start == datetime.date(2027, 1, 6)


def test_a_second_open_season_of_a_game_is_refused_and_nothing_is_written(
    club: Club, admin: PersonaClient
) -> None:
    SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN, status=Season.Status.OPEN)
    before = Season.objects.filter(club=club).count()
    response = admin.post(
        f"/clubs/{club.slug}/seasons/new/",
        {"name": "Noch eine", "game_kind": GameKind.FUCHSEN, "start": "2027-01-06"},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.context["season_form"].errors["game_kind"]
    assert Season.objects.filter(club=club).count() == before
    # The form comes back open, with what was typed.
    assert 'value="Noch eine"' in response.content.decode()


def test_house_rules_of_another_game_or_club_are_refused(club: Club, admin: PersonaClient) -> None:
    Season.objects.filter(club=club).update(status=Season.Status.CLOSED)
    other_game = RuleProfileFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    other_club = RuleProfileFactory.create(club=ClubFactory.create(), game_kind=GameKind.FUCHSEN)
    for profile in (other_game, other_club):
        response = admin.post(
            f"/clubs/{club.slug}/seasons/new/",
            {
                "name": "Fuchsen 2027",
                "game_kind": GameKind.FUCHSEN,
                "start": "2027-01-06",
                "rule_profile": profile.pk,
            },
            format="multipart",
        )
        assert response.status_code == 400
        assert response.context["season_form"].errors["rule_profile"]
    assert not Season.objects.filter(club=club, name="Fuchsen 2027").exists()


def test_a_bad_date_or_game_is_refused_at_the_field(club: Club, admin: PersonaClient) -> None:
    response = admin.post(
        f"/clubs/{club.slug}/seasons/new/",
        {"name": "X", "game_kind": "skat", "start": "31.02.2027"},
        format="multipart",
    )
    assert response.status_code == 400
    errors = response.context["season_form"].errors
    assert set(errors) == {"game_kind", "start"}


def test_an_admin_closes_a_season_once(club: Club, admin: PersonaClient) -> None:
    season = SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    url = f"/clubs/{club.slug}/seasons/{season.pk}/close/"
    assert admin.post(url, {}, format="multipart").status_code == 302
    season.refresh_from_db()
    assert season.status == Season.Status.CLOSED and season.end is not None
    again = admin.post(url, {}, format="multipart", follow=True)
    assert "Diese Saison ist schon abgeschlossen." in again.content.decode()


def test_scorers_cannot_open_or_close_seasons_or_set_players_aside(
    club: Club, scorer: PersonaClient
) -> None:
    season = SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    player = PlayerFactory.create(club=club)
    page = _page(scorer, club)
    assert 'id="season-form"' not in page
    assert f"/seasons/{season.pk}/close/" not in page
    assert f"/players/{player.pk}/active/" not in page
    slug = club.slug
    for url, data in (
        (
            f"/clubs/{slug}/seasons/new/",
            {"name": "X", "game_kind": "fuchsen", "start": "2027-01-01"},
        ),
        (f"/clubs/{slug}/seasons/{season.pk}/close/", {}),
        (f"/clubs/{slug}/players/{player.pk}/active/", {"active": "0"}),
    ):
        assert scorer.post(url, data, format="multipart").status_code == 403
    season.refresh_from_db()
    player.refresh_from_db()
    assert season.status == Season.Status.OPEN and player.is_active


def test_a_player_set_aside_leaves_the_seat_picker_and_comes_back(
    club: Club, admin: PersonaClient
) -> None:
    player = PlayerFactory.create(club=club, display_name="Vroni")
    url = f"/clubs/{club.slug}/players/{player.pk}/active/"
    picker = f"/clubs/{club.slug}/evenings/new/"
    assert admin.post(url, {"active": "0"}, format="multipart").status_code == 302
    player.refresh_from_db()
    assert not player.is_active
    assert player not in admin.get(picker).context["players"]
    assert admin.post(url, {"active": "1"}, format="multipart").status_code == 302
    player.refresh_from_db()
    assert player.is_active
    assert player in admin.get(picker).context["players"]


def test_another_clubs_player_or_season_is_not_found(club: Club, admin: PersonaClient) -> None:
    other = ClubFactory.create()
    player = PlayerFactory.create(club=other)
    season = SeasonFactory.create(club=other)
    slug = club.slug
    assert (
        admin.post(f"/clubs/{slug}/players/{player.pk}/active/", {}, format="multipart").status_code
        == 404
    )
    assert (
        admin.post(f"/clubs/{slug}/seasons/{season.pk}/close/", {}, format="multipart").status_code
        == 404
    )


def test_an_invitation_may_offer_a_guest_to_take_over(club: Club, admin: PersonaClient) -> None:
    guest = PlayerFactory.create(club=club, display_name="Hansi")
    assert f'<option value="{guest.pk}">Hansi</option>' in _page(admin, club)
    response = admin.post(
        f"/clubs/{club.slug}/invitations/new/",
        {"role": "member", "player": guest.pk},
        format="multipart",
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(club=club)
    assert invitation.player == guest
    assert "Hansi" in _page(admin, club)


def _membership(client: PersonaClient, club: Club) -> Membership:
    return Membership.objects.get(club=club, user=client.user)


def test_an_admin_makes_a_member_a_scorer(
    club: Club, admin: PersonaClient, member: PersonaClient
) -> None:
    target = _membership(member, club)
    url = f"/clubs/{club.slug}/members/{target.pk}/role/"
    response = admin.post(url, {"role": "scorer"}, format="multipart", follow=True)
    assert response.status_code == 200
    target.refresh_from_db()
    assert target.role == Role.SCORER
    assert "ist jetzt Schreiber." in response.content.decode()


def test_only_an_owner_grants_ownership_and_the_last_owner_stays(
    club: Club, owner: PersonaClient, admin: PersonaClient, member: PersonaClient
) -> None:
    target = _membership(member, club)
    refused = admin.post(
        f"/clubs/{club.slug}/members/{target.pk}/role/",
        {"role": "owner"},
        format="multipart",
        follow=True,
    )
    assert "Nur ein Eigentümer" in refused.content.decode()
    target.refresh_from_db()
    assert target.role == Role.MEMBER
    mine = _membership(owner, club)
    response = owner.post(
        f"/clubs/{club.slug}/members/{mine.pk}/role/",
        {"role": "member"},
        format="multipart",
        follow=True,
    )
    assert "Ein Verein braucht einen Eigentümer" in response.content.decode()
    mine.refresh_from_db()
    assert mine.role == Role.OWNER


def test_scorers_and_members_cannot_change_roles(
    club: Club, scorer: PersonaClient, member: PersonaClient
) -> None:
    target = _membership(member, club)
    page = _page(scorer, club)
    assert f"/members/{target.pk}/role/" not in page
    url = f"/clubs/{club.slug}/members/{target.pk}/role/"
    assert scorer.post(url, {"role": "admin"}, format="multipart").status_code == 403
    remove = f"/clubs/{club.slug}/members/{target.pk}/remove/"
    assert scorer.post(remove, {}, format="multipart").status_code == 403
    assert Membership.objects.filter(pk=target.pk, role=Role.MEMBER).exists()


def test_an_admin_removes_a_member_whose_player_stays(
    club: Club, admin: PersonaClient, member: PersonaClient
) -> None:
    target = _membership(member, club)
    player = PlayerFactory.create(club=club, user=member.user, display_name="Gretl")
    url = f"/clubs/{club.slug}/members/{target.pk}/remove/"
    response = admin.post(url, {}, format="multipart", follow=True)
    assert "ist kein Mitglied mehr" in response.content.decode()
    assert not Membership.objects.filter(pk=target.pk).exists()
    assert Player.objects.filter(pk=player.pk).exists()
    assert member.get(f"/clubs/{club.slug}/").status_code == 404


def test_a_member_leaves_the_club_himself(club: Club, member: PersonaClient) -> None:
    mine = _membership(member, club)
    assert f"/members/{mine.pk}/remove/" in _page(member, club)
    response = member.post(f"/clubs/{club.slug}/members/{mine.pk}/remove/", {}, format="multipart")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert not Membership.objects.filter(pk=mine.pk).exists()


def test_another_clubs_membership_is_not_found(club: Club, admin: PersonaClient) -> None:
    stranger = MembershipFactory.create(club=ClubFactory.create())
    for action, data in (("role", {"role": "member"}), ("remove", {})):
        url = f"/clubs/{club.slug}/members/{stranger.pk}/{action}/"
        assert admin.post(url, data, format="multipart").status_code == 404
    assert Membership.objects.filter(pk=stranger.pk).exists()


def test_an_admin_withdraws_an_invitation_link_that_then_fails(
    club: Club, admin: PersonaClient, member: PersonaClient
) -> None:
    admin.post(f"/clubs/{club.slug}/invitations/new/", {"role": "member"}, format="multipart")
    invitation = Invitation.objects.get(club=club)
    assert (
        member.post(
            f"/clubs/{club.slug}/invitations/{invitation.pk}/revoke/", {}, format="multipart"
        ).status_code
        == 403
    )
    response = admin.post(
        f"/clubs/{club.slug}/invitations/{invitation.pk}/revoke/",
        {},
        format="multipart",
        follow=True,
    )
    assert "Der Einladungslink gilt nicht mehr." in response.content.decode()
    assert not Invitation.objects.filter(pk=invitation.pk).exists()
    assert admin.get(f"/join/{invitation.token}/").status_code == 404


def test_an_admin_renames_a_player_on_his_page(club: Club, admin: PersonaClient) -> None:
    SeasonFactory.create(club=club)
    player = PlayerFactory.create(club=club, display_name="Hansi")
    PlayerFactory.create(club=club, display_name="Sepp")
    page = admin.get(f"/clubs/{club.slug}/players/{player.pk}/").content.decode()
    assert 'id="rename"' in page
    url = f"/clubs/{club.slug}/players/{player.pk}/rename/"
    response = admin.post(url, {"display_name": "Hans"}, format="multipart", follow=True)
    assert "heißt jetzt Hans" in response.content.decode()
    player.refresh_from_db()
    assert player.display_name == "Hans"
    taken = admin.post(url, {"display_name": "sepp"}, format="multipart", follow=True)
    assert "Der Verein hat schon einen Spieler mit diesem Namen." in taken.content.decode()
    player.refresh_from_db()
    assert player.display_name == "Hans"


def test_only_admins_rename_players(club: Club, scorer: PersonaClient) -> None:
    SeasonFactory.create(club=club)
    player = PlayerFactory.create(club=club, display_name="Hansi")
    assert (
        'id="rename"' not in scorer.get(f"/clubs/{club.slug}/players/{player.pk}/").content.decode()
    )
    url = f"/clubs/{club.slug}/players/{player.pk}/rename/"
    assert scorer.post(url, {"display_name": "X"}, format="multipart").status_code == 403
    player.refresh_from_db()
    assert player.display_name == "Hansi"
