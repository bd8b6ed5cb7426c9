"""A club's rule profiles: the house rules a season plays under."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club, GameKind, RuleProfile


def rule_overrides_validate(*, game_kind: str, overrides: object) -> None:
    """Check house-rule overrides against the engine's rules of ``game_kind``.

    Raises ``ValidationError({"overrides": [...]})`` with one message per bad key,
    each naming the key.
    """
    import engine  # the engine is pure Python; imported here so clubs loads without it

    if not isinstance(overrides, dict):
        raise ValidationError({"overrides": _("House rules must be an object of settings.")})
    messages = []
    # One key at a time, so every bad key is reported, not only the first.
    for key, value in overrides.items():
        try:
            engine.validate_rules(game_kind, {key: value})
        except engine.InvalidRules as error:
            # The engine's sentence quotes the value as sent: a "%" in it is text, not a
            # placeholder for Django's ``message % params``.
            text = str(error).replace("%", "%%")
            messages.append(ValidationError(text, code="invalid_rule", params={"key": key}))
    if messages:
        raise ValidationError({"overrides": messages})


def _check_rule_profile_name_free(
    *, club: Club, game_kind: str, name: str, exclude_pk: int | None = None
) -> None:
    clash = RuleProfile.objects.filter(club=club, game_kind=game_kind, name__iexact=name)
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    if clash.exists():
        raise ValidationError(
            {"name": _("This club already has rules of that name for this game.")}
        )


@transaction.atomic
def rule_profile_create(
    *, club: Club, game_kind: str, name: str, overrides: dict[str, Any] | None = None
) -> RuleProfile:
    """Save a named set of house rules; unknown keys or wrong values are refused."""
    if game_kind not in GameKind.values:
        raise ValidationError({"game_kind": _("Unknown game.")})
    overrides = {} if overrides is None else overrides
    rule_overrides_validate(game_kind=game_kind, overrides=overrides)
    _check_rule_profile_name_free(club=club, game_kind=game_kind, name=name)
    profile = RuleProfile(club=club, game_kind=game_kind, name=name, overrides=overrides)
    profile.full_clean()
    profile.save()
    return profile


@transaction.atomic
def rule_profile_update(
    *,
    rule_profile: RuleProfile,
    name: str | None = None,
    overrides: dict[str, Any] | None = None,
) -> RuleProfile:
    """Rename a rule profile or replace its overrides.

    Games already created keep the copy of the rules they started with.
    """
    if name is not None:
        _check_rule_profile_name_free(
            club=rule_profile.club,
            game_kind=rule_profile.game_kind,
            name=name,
            exclude_pk=rule_profile.pk,
        )
        rule_profile.name = name
    if overrides is not None:
        rule_overrides_validate(game_kind=rule_profile.game_kind, overrides=overrides)
        rule_profile.overrides = overrides
    rule_profile.full_clean()
    rule_profile.save()
    return rule_profile
