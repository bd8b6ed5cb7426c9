"""Forms of the HTML pages; they validate input, the services write."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from clubs.models import Club


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=_("Email (optional)"), required=False)

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username", "email")


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

    def as_service_kwargs(self) -> dict[str, Any]:
        return dict(self.cleaned_data)
