"""URLs of the pages above the apps (``web.pages``)."""

from __future__ import annotations

from django.urls import path

from web import pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("clubs/<slug:slug>/book/", pages.club_book, name="club-book"),
    path("evenings/<int:evening_id>/", pages.evening_page, name="evening-page"),
    path("evenings/<int:evening_id>/seats/add/", pages.seat_add, name="seat-add-page"),
    path(
        "evenings/<int:evening_id>/payments/new/",
        pages.evening_payment_new,
        name="payment-new-page",
    ),
]
