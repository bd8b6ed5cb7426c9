"""Input fields whose constraints the OpenAPI schema states, so that a client (and
schemathesis) knows them before a 400: time-zone names, objects of house rules."""

from __future__ import annotations

import zoneinfo
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from stichbuch.api import StrictCharField

# The names the IANA database knows here (Europe/Vienna, UTC, ...): what
# clubs.models.validate_time_zone accepts.
TIME_ZONES = sorted(zoneinfo.available_timezones())


@extend_schema_field(
    {"type": "string", "enum": TIME_ZONES, "maxLength": 64, "example": "Europe/Vienna"}
)
class TimeZoneField(StrictCharField):
    """A time zone's name; an unknown one is refused by the club's model (400)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 64)
        super().__init__(**kwargs)


@extend_schema_field({"type": "object", "additionalProperties": True})
class ObjectField(serializers.DictField):
    """A JSON object of any values (house-rule overrides: a key per rule); anything else
    is a 400 here, the keys and values are the engine's to judge."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("child", serializers.JSONField())
        super().__init__(**kwargs)
