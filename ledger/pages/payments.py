"""Payments typed on a page (a season's or an evening's), and reversing one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.models import Club, Role, Season
from clubs.permissions import membership_for
from games.models import Evening
from games.vocabulary import money
from ledger import selectors, services
from ledger.forms import PaymentForm
from ledger.pages.season_table import _season_for

# What one payment typed on a page may book: ten thousand euros in cents (or as many
# points) is beyond any card table, so more is a slip of the finger.
MAX_PAYMENT = 1_000_000


def book_payment(
    request: HttpRequest,
    club: Club,
    *,
    evening: Evening | None = None,
    season: Season | None = None,
    at: str = "at-payment",
) -> bool:
    """Book the payment the posted form names (``payer``, ``payee``, ``amount``) for the
    evening or the season; the outcome, or why it was refused, becomes a message and
    nothing is written on a refusal. True if it was booked. The messages carry ``at``
    (the form's "at-<form>" tag): they are shown next to the payment form."""
    players = {p.pk: p for p in club_selectors.player_list(club=club)}
    form = PaymentForm(request.POST)
    form.is_valid()
    payer = players.get(form.cleaned_data.get("payer") or 0)
    payee = players.get(form.cleaned_data.get("payee") or 0)
    amount = form.cleaned_data.get("amount")
    if payer is None or payee is None:
        messages.error(request, _("Choose who paid and who received the money."), extra_tags=at)
        return False
    if amount is None or not 0 < amount <= MAX_PAYMENT:
        messages.error(
            request,
            _("The amount must be a whole number from 1 to %(max)s.")
            % {"max": number_format(MAX_PAYMENT, force_grouping=True)},
            extra_tags=at,
        )
        return False
    try:
        services.payment_record(
            club=club,
            payer=payer,
            payee=payee,
            amount=amount,
            recorded_by=request.user,
            evening=evening,
            season=season,
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message, extra_tags=at)
        return False
    messages.success(
        request,
        _("Payment booked: %(payer)s paid %(payee)s %(amount)s.")
        % {
            "payer": payer.display_name,
            "payee": payee.display_name,
            "amount": money(amount, club),
        },
        extra_tags=at,
    )
    return True


@login_required
@require_POST
def season_payment_new(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Book a payment for the season as a whole (settling up after the last evening)."""
    club = membership_for(request.user, slug, Role.SCORER).club
    season = _season_for(club, season_id)
    book_payment(request, club, season=season)
    return redirect(reverse("standings-page", args=[club.slug, season.pk]) + "#payment")


@login_required
@require_POST
def payment_reverse(request: HttpRequest, slug: str, payment_id: int) -> HttpResponse:
    """Reverse a payment booked by mistake (a reversal of the same amount back), then
    back to the evening or season it was booked for."""
    club = membership_for(request.user, slug, Role.SCORER).club
    payment = get_object_or_404(selectors.payment_list(club=club), pk=payment_id)
    try:
        services.payment_reverse(payment=payment, recorded_by=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("Payment reversed: %(payer)s paid %(payee)s %(amount)s, which counts no more.")
            % {
                "payer": payment.payer.display_name,
                "payee": payment.payee.display_name,
                "amount": money(payment.amount, club),
            },
        )
    if payment.evening_id is not None:
        return redirect(reverse("evening-page", args=[payment.evening_id]) + "#payments")
    if payment.season_id is not None:
        return redirect(
            reverse("standings-page", args=[club.slug, payment.season_id]) + "#payments"
        )
    return redirect("club-book", slug=club.slug)
