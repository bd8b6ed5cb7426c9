"""Forms of the evening pages: they parse what a page posts, the services judge and write.

Their limits are the API's (``games.apis``): the same ids, the same length of a
place, and a text field refuses a NUL character (PostgreSQL cannot store one).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.forms import IdField, WholeNumberField
from games.models import Evening

# An evening seats at most six (Fuchsen); the page offers six seats.
SEATS = 6


def _player_field(*, required: bool, message: Any) -> IdField:
    return IdField(
        required=required,
        error_messages={
            "required": message,
            "invalid": message,
            "min_value": message,
            "max_value": message,
        },
    )


class EveningNewForm(forms.Form):
    """A new evening: its season, its place and who sits where (``seat1`` … ``seat6``,
    clockwise; an empty seat is left out). The season is matched by the view
    against the club's open ones."""

    season = forms.CharField(required=False, strip=True)
    place = forms.CharField(
        required=False,
        max_length=Evening._meta.get_field("place").max_length,
        error_messages={
            "max_length": _("The place may be at most %(limit_value)d characters long.")
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, SEATS + 1):
            self.fields[f"seat{i}"] = _player_field(
                required=False, message=_("Choose the players from the list.")
            )

    def seat_ids(self) -> list[int]:
        """The chosen players' ids in seat order (valid form only)."""
        chosen = (self.cleaned_data.get(f"seat{i}") for i in range(1, SEATS + 1))
        return [pid for pid in chosen if pid is not None]


class SeatAddForm(forms.Form):
    """A player who sits down between games, at ``position`` (1 = first; none: last)."""

    player = _player_field(required=True, message=_("Choose a player."))
    position = WholeNumberField(
        required=False,
        # As the API allows: a position past the last seat means the last.
        min_value=1,
        max_value=1000,
        error_messages={
            "invalid": _("Choose the place from the list."),
            "min_value": _("Choose the place from the list."),
            "max_value": _("Choose the place from the list."),
        },
    )
