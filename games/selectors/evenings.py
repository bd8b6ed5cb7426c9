"""Reads of evenings: the club's evenings, one evening (with the reader's role, or
locked), its seats and games, and who deals the next game from those seats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from clubs.models import Club, GameKind, Membership, Player, Season
from games.models import Evening, EveningSeat, Game
from games.selectors.rules import evening_house_rules

# Seated players a game needs: Fuchsen 4 or 5 active (6 seated: one sits out),
# Königrufen exactly 4.
SEATS_ALLOWED: dict[str, tuple[int, int]] = {
    GameKind.FUCHSEN: (4, 6),
    GameKind.KOENIGRUFEN: (4, 4),
}


def evening_list(*, club: Club, season: Season | None = None) -> QuerySet[Evening]:
    evenings = Evening.objects.filter(club=club).select_related("season", "rule_profile")
    if season is not None:
        evenings = evenings.filter(season=season)
    return evenings.order_by("-date", "-id")


def evening_archive(*, club: Club, season: Season | None = None) -> QuerySet[Evening]:
    """``evening_list`` with each evening's games counted: ``games_done`` (finished or
    annulled) and ``games_open`` (in progress), for the club's list of evenings."""
    return evening_list(club=club, season=season).annotate(
        games_done=Count("games", filter=~Q(games__status=Game.Status.IN_PROGRESS)),
        games_open=Count("games", filter=Q(games__status=Game.Status.IN_PROGRESS)),
    )


def open_evenings_of(*, clubs: list[Club]) -> dict[int, list[Evening]]:
    """The open evenings of each of ``clubs`` (by club id), the latest first."""
    found: dict[int, list[Evening]] = {club.pk: [] for club in clubs}
    evenings = Evening.objects.filter(club__in=clubs, status=Evening.Status.OPEN)
    for evening in evenings.order_by("-date", "-id"):
        found[evening.club_id].append(evening)
    return found


def evening_get(*, evening_id: int) -> Evening:
    """Raise ``Evening.DoesNotExist`` for an unknown id (the caller checks membership)."""
    return Evening.objects.select_related("club", "season", "rule_profile").get(pk=evening_id)


def evening_get_with_role(*, evening_id: int, user: Any) -> Evening:
    """``evening_get`` plus ``member_role``: ``user``'s role in the evening's club.

    One statement (the membership is a subquery); ``member_role`` is None for a
    non-member. Raises ``Evening.DoesNotExist`` for an unknown id.
    """
    role = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user.pk).order_by()
    return (
        Evening.objects.select_related("club", "season", "rule_profile")
        .annotate(member_role=Subquery(role.values("role")[:1]))
        .get(pk=evening_id)
    )


def evening_for_update(*, evening_id: int) -> Evening | None:
    """Lock the evening's row (inside the caller's transaction) and read it afresh with
    its club and season; None if it is gone.

    ``FOR NO KEY UPDATE`` of the evening's row only: see ``services._lock_evening``.
    """
    return (
        Evening.objects.select_for_update(no_key=True, of=("self",))
        .select_related("club", "season")
        .filter(pk=evening_id)
        .first()
    )


def seated_names(*, evening_id: int) -> dict[str, str]:
    """``{str(player pk): display_name}`` of the evening's active seats, clockwise (the
    order of ``evening_seats``). One statement."""
    seats = EveningSeat.objects.filter(evening_id=evening_id, left_at__isnull=True).order_by(
        "position", "joined_at", "id"
    )
    return {str(pk): name for pk, name in seats.values_list("player_id", "player__display_name")}


def evening_seats(*, evening: Evening, active_only: bool = True) -> list[EveningSeat]:
    """The evening's seats in clockwise order (active ones, or the whole history)."""
    seats = EveningSeat.objects.filter(evening=evening).select_related("player")
    if active_only:
        seats = seats.filter(left_at__isnull=True)
    return list(seats.order_by("position", "joined_at", "id"))


def evening_games(*, evening: Evening) -> QuerySet[Game]:
    return Game.objects.filter(evening=evening).order_by("number", "id")


# --- The next deal ----------------------------------------------------------------------


@dataclass(frozen=True)
class DealProposal:
    """Who deals next, who plays (clockwise) and who sits out (Fuchsen, six seated)."""

    dealer: Player | None
    players: list[Player]
    sitting_out: Player | None
    # The deal event the proposal amounts to, or None when the seats do not allow a game.
    event: dict[str, Any] | None
    problem: str | None = None


def _next_dealer(evening: Evening, seats: list[EveningSeat]) -> Player:
    """The seated player clockwise after the previous game's dealer (first seat for game 1).

    If the previous dealer has left the table, the deal passes to the first seated
    player after the seat he held.
    """
    previous = (
        Game.objects.filter(evening=evening, dealer__isnull=False)
        .order_by("-number", "-id")
        .values_list("dealer_id", flat=True)
        .first()
    )
    if previous is None:
        return seats[0].player
    positions = [seat.position for seat in seats]
    seated_ids = [seat.player_id for seat in seats]
    if previous in seated_ids:
        index = seated_ids.index(previous)
        return seats[(index + 1) % len(seats)].player
    last_seat = (
        EveningSeat.objects.filter(evening=evening, player_id=previous)
        .order_by("-joined_at", "-id")
        .first()
    )
    if last_seat is None:  # dealt without ever being seated (an imported game)
        return seats[0].player
    later = [i for i, position in enumerate(positions) if position > last_seat.position]
    return seats[later[0]].player if later else seats[0].player


def next_deal(*, evening: Evening, house_rules: dict[str, Any] | None = None) -> DealProposal:
    """Propose the next game's deal from the seats.

    With six seated at a Fuchsen table one sits out: under the default house rule
    ``sit_out: "dealer"`` the dealer (the deal event names nobody, the engine knows);
    under ``sit_out: "named"`` we propose the player clockwise after the dealer, so
    that the one sitting out goes round the table with the deal.
    """
    seats = evening_seats(evening=evening)
    low, high = SEATS_ALLOWED[evening.game_kind]
    if not low <= len(seats) <= high:
        return DealProposal(
            dealer=None,
            players=[seat.player for seat in seats],
            sitting_out=None,
            event=None,
            problem=(
                _("%(game)s needs %(low)d to %(high)d seated players; %(n)d are seated.")
                if high != low
                else _("%(game)s needs %(low)d seated players; %(n)d are seated.")
            )
            % {"game": evening.get_game_kind_display(), "low": low, "high": high, "n": len(seats)},
        )
    players = [seat.player for seat in seats]
    dealer = _next_dealer(evening, seats)
    event: dict[str, Any] = {
        "type": "deal",
        "dealer": str(dealer.pk),
        "players": [str(player.pk) for player in players],
    }
    sitting_out: Player | None = None
    if evening.game_kind == GameKind.FUCHSEN and len(players) == 6:
        rules = house_rules if house_rules is not None else evening_house_rules(evening=evening)
        if rules.get("sit_out", "dealer") == "named":
            sitting_out = players[(players.index(dealer) + 1) % len(players)]
            event["sitting_out"] = str(sitting_out.pk)
        else:
            sitting_out = dealer
    return DealProposal(dealer=dealer, players=players, sitting_out=sitting_out, event=event)
