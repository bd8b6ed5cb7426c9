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
