"""Forms of the HTML pages; they validate input, the services write."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, GameKind, Player, RuleProfile, Season, validate_time_zone
from clubs.names import username_clean

# Ids beyond a signed 64-bit integer are no ids of ours (and SQLite cannot even compare them).
MAX_ID = 2**63 - 1


# A whole number as a page's select or number input sends it: ASCII digits, a minus
# at most (spaces around are stripped).
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


class WholeNumberField(forms.IntegerField):
    """A whole number written in ASCII digits 0–9, nothing else.

    ``int()`` alone would take "١" (ARABIC-INDIC DIGIT ONE) as 1, "1_000" as 1000
    and Django's field "+3" and "3.0" as 3: a page never sends those (a select's
    values and a number input are ASCII), so a post that does is refused with the
    field's "invalid" message rather than read as some other row's id.
    """

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str):
            value = value.strip()
            if value and not _WHOLE_NUMBER.fullmatch(value):
                raise ValidationError(self.error_messages["invalid"], code="invalid")
        found: int | None = super().to_python(value)
        return found


class IdField(WholeNumberField):
    """A row's id as a page posts it: ASCII digits naming a number from 1 to ``MAX_ID``.

    A number too large for the database is refused before any query.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)


def id_param(value: object) -> int | None:
    """The id a query parameter or a posted value names, or None if it names none
    (missing, blank, no whole number, or out of an id's range)."""
    try:
        found: int | None = IdField(required=False).clean(value)
    except ValidationError:
        return None
    return found


def form_messages(request: HttpRequest, form: forms.Form, extra_tags: str = "") -> None:
    """A refused form's errors as the page's error messages (for a button whose
    answer is a redirect to a page that does not show the form); ``extra_tags``
    ("at-<form>") puts them next to a form of the page instead."""
    for field_errors in form.errors.values():
        for message in field_errors:
            messages.error(request, str(message), extra_tags=extra_tags)


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=_("Email (optional)"), required=False)

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        """The username normalised and free (``clubs.names.username_clean``): a
        look-alike of a taken one is taken."""
        try:
            return username_clean(str(self.cleaned_data.get("username") or ""))
        except ValidationError as error:
            raise ValidationError(error.messages) from None


class PasswordChangeForm(forms.Form):
    """The fields of a password change; ``services.account_password_change`` judges them."""

    old_password = forms.CharField(
        label=_("Current password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    new_password1 = forms.CharField(
        label=_("New password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    new_password2 = forms.CharField(
        label=_("New password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("new_password1"), data.get("new_password2")
        if first and second and first != second:
            self.add_error("new_password2", _("The two new passwords differ."))
        return data


class ClubCreateForm(forms.Form):
    name = forms.CharField(label=_("Name of the club"), max_length=100)
    time_zone = forms.CharField(label=_("Time zone"), max_length=64, initial="Europe/Vienna")
    currency_unit = forms.ChoiceField(
        label=_("Amounts in"), choices=Club.CurrencyUnit.choices, initial=Club.CurrencyUnit.CENT
    )
    card_face = forms.ChoiceField(
        label=_("Cards"), choices=Club.CardFace.choices, initial=Club.CardFace.GERMAN
    )

    def clean_time_zone(self) -> str:
        value = str(self.cleaned_data["time_zone"]).strip()
        validate_time_zone(value)  # its refusal is shown at the field
        return value

    def as_service_kwargs(self) -> dict[str, Any]:
        return dict(self.cleaned_data)


class ClubSettingsForm(ClubCreateForm):
    """The club's settings as an admin changes them (its address, the slug, stays)."""

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "name": club.name,
                "time_zone": club.time_zone,
                "currency_unit": club.currency_unit,
                "card_face": club.card_face,
            },
        )
        super().__init__(*args, **kwargs)
        self.fields["currency_unit"].help_text = _(
            "Amounts already recorded keep their numbers: 250 cents become 250 points."
        )


class PlayerCreateForm(forms.Form):
    """A new player of the club: a guest until a member claims him by invitation."""

    display_name = forms.CharField(
        label=_("New player (several: separate the names with commas)"),
        # Several names fit; each is held to a player's limits by the service.
        max_length=20 * (Player._meta.get_field("display_name").max_length or 40),
    )

    def names(self) -> list[str]:
        """The names typed, split at commas, semicolons and line breaks."""
        text = self.cleaned_data["display_name"]
        return [n.strip() for n in re.split(r"[,;\n]", text) if n.strip()] or [text]


class PlayerRenameForm(forms.Form):
    """A player's corrected name (the same limits as a new player's)."""

    display_name = forms.CharField(
        label=_("Name"),
        max_length=Player._meta.get_field("display_name").max_length,
        error_messages={"required": _("A player needs a name.")},
    )


class _RuleProfileChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} · {obj.get_game_kind_display()}"


class SeasonCreateForm(forms.Form):
    """A new season: its name, game, first day and (optionally) the club's house rules."""

    name = forms.CharField(
        label=_("Name of the season"), max_length=Season._meta.get_field("name").max_length
    )
    game_kind = forms.ChoiceField(label=_("Game"), choices=GameKind.choices)
    start = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    rule_profile = _RuleProfileChoice(
        label=_("House rules"),
        queryset=RuleProfile.objects.none(),
        required=False,
        empty_label=_("the default rules"),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only this club's profiles; the service checks that the game matches.
        field = self.fields["rule_profile"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = RuleProfile.objects.filter(club=club).order_by("name", "id")
