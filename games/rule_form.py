"""The house-rule form of the club pages, built from the engine's own list of rules.

``engine.house_rules(game)`` names every rule, its kind and default; the form has a
field per rule (a number, a yes/no, a choice, the two removed cards) and one per
entry of a table (the value of each Fahren level or contract). Only what differs
from the defaults is stored, so a later change of a default reaches every profile
that never changed that rule. The engine still judges the result
(``services.rule_overrides_validate``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import engine
from clubs.forms import WholeNumberField
from clubs.models import GameKind, RuleProfile
from engine.rules import effective_rules

# Fuchsen's removed cards: two distinct plain cards without Augen (the engine's rule).
REMOVABLE = ("E9", "E8", "E7", "G9", "G8", "G7", "S9", "S8", "S7")
SEP = "__"  # between a table's key and an entry's key in a field name


def rule_labels() -> dict[str, Any]:
    return {
        "removed_cards": _("Cards taken out with five at the table"),
        "sit_out": _("Who sits out with six at the table"),
        "call_own_card": _("The Macher may call a card he holds"),
        "turn_low_plain": _("The Macher may turn a plain 7 or 8 without six trumps"),
        "alone_requires_six_trumps": _("Herausspielen only with six trumps"),
        "strict_raise_windows": _("An unused chance to raise lapses at the next card"),
        "level_values": _("Value of each Fahren level"),
        "game_cost": _("Spielkosten, added to every level from Re up"),
        "end_bonus": _("Added once End is reached"),
        "min_value": _("Value of a game without Re"),
        "fuchs_penalty": _("Added when the Fuchs was forgotten"),
        "silent_bonus": _("Added for a Stilles Spiel"),
        "values": _("Value of each contract"),
    }


def _choice_labels() -> dict[str, Any]:
    return {"dealer": _("the dealer"), "named": _("the player the deal names")}


def _entry_labels(key: str) -> dict[str, str]:
    # The pages' names of levels and contracts (imported here: games depends on clubs).
    from games.vocabulary import contract_names, level_names

    if key == "level_values":
        return level_names()
    return {
        **contract_names(),
        "bettler_joined": str(_("Bettler with a second beggar")),
        "plauderer_joined": str(_("Plauderer with a second talker")),
    }


def _card_names(face: str) -> dict[str, str]:
    from games.vocabulary import card_view

    return {code: str(card_view(code, face, GameKind.FUCHSEN)["name"]) for code in REMOVABLE}


class HouseRulesForm(forms.Form):
    """A rule profile's name and every house rule of ``game_kind``.

    ``overrides`` (the profile's stored differences) fill the fields with the
    rules in force; ``face`` names the cards as the club's cards show them.
    ``cleaned_overrides()`` gives what differs from the defaults.
    """

    name = forms.CharField(
        label=_("Name of the house rules"),
        max_length=RuleProfile._meta.get_field("name").max_length,
    )

    def __init__(
        self,
        *args: Any,
        game_kind: str,
        face: str,
        overrides: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game_kind = game_kind
        self.rules = engine.house_rules(game_kind)
        current = effective_rules(game_kind, overrides or {})
        labels = rule_labels()
        self.tables: list[tuple[str, str, list[str]]] = []  # (key, label, field names)
        for key, rule in self.rules.items():
            label = labels.get(key, key)
            value = current[key]
            kind = rule.kind
            if kind == "int":
                self.fields[key] = WholeNumberField(
                    label=label, initial=value, min_value=0, max_value=1_000_000
                )
            elif kind == "bool":
                self.fields[key] = forms.BooleanField(label=label, initial=value, required=False)
            elif kind.startswith("one of "):
                spoken = _choice_labels()
                options = kind.removeprefix("one of ").split("|")
                self.fields[key] = forms.ChoiceField(
                    label=label, initial=value, choices=[(o, spoken.get(o, o)) for o in options]
                )
            elif kind == "card list":
                self.fields[key] = forms.MultipleChoiceField(
                    label=label,
                    initial=list(value),
                    choices=list(_card_names(face).items()),
                    widget=forms.CheckboxSelectMultiple,
                )
            elif kind.startswith("mapping "):
                entries = _entry_labels(key)
                names = []
                for entry, amount in value.items():
                    field_name = f"{key}{SEP}{entry}"
                    self.fields[field_name] = WholeNumberField(
                        label=entries.get(entry, entry),
                        initial=amount,
                        min_value=0,
                        max_value=1_000_000,
                    )
                    if amount != rule.default[entry]:
                        self.fields[field_name].help_text = _("changed (default: %(default)s)") % {
                            "default": rule.default[entry]
                        }
                    names.append(field_name)
                self.tables.append((key, label, names))
            else:  # pragma: no cover - a kind the engine adds later shows up here first
                raise ValueError(f"house rule {key}: unknown kind {kind!r}")
            default = rule.default
            field = self.fields.get(key)
            if field is not None and value != default:
                field.help_text = _("changed (default: %(default)s)") % {
                    "default": self._shown(key, default)
                }

    def _shown(self, key: str, value: Any) -> str:
        field = self.fields[key]
        if isinstance(field, forms.BooleanField):
            return str(_("yes") if value else _("no"))
        if isinstance(field, forms.ChoiceField):
            choices: Any = field.choices  # flat (value, name) pairs here
            names = {str(k): str(v) for k, v in choices}
            values = value if isinstance(value, list) else [value]
            return ", ".join(names.get(str(v), str(v)) for v in values)
        return str(value)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        removed = data.get("removed_cards")
        if removed is not None and len(removed) != 2:
            self.add_error("removed_cards", _("Choose exactly two cards."))
        return data

    def scalar_fields(self) -> list[forms.BoundField]:
        """The fields of single rules (not of a table), in the engine's order."""
        in_tables = {name for _key, _label, names in self.tables for name in names}
        return [self[name] for name in self.fields if name != "name" and name not in in_tables]

    def table_fields(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(label, [self[name] for name in names]) for _key, label, names in self.tables]

    def cleaned_overrides(self) -> dict[str, Any]:
        """What the cleaned form sets differently from the defaults."""
        overrides: dict[str, Any] = {}
        for key, rule in self.rules.items():
            default = rule.default
            if isinstance(default, dict):
                changed = {
                    entry: self.cleaned_data[f"{key}{SEP}{entry}"]
                    for entry in default
                    if self.cleaned_data[f"{key}{SEP}{entry}"] != default[entry]
                }
                if changed:
                    overrides[key] = changed
                continue
            value = self.cleaned_data[key]
            if isinstance(default, list):
                # The deck's order, so the same two cards always compare equal.
                value = [code for code in REMOVABLE if code in value]
                if sorted(value) == sorted(default):
                    continue
            elif value == default:
                continue
            overrides[key] = value
        return overrides
