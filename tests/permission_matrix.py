"""Table-driven permission tests: every endpoint × every persona.

An app describes each endpoint once, as an ``Endpoint`` row: how to build its
URL (and body) from the test's objects, and which status each persona gets.
A test then parametrizes over ``cases(ENDPOINTS)`` and calls ``check``::

    ENDPOINTS = [
        Endpoint("season list", "get", lambda w: f"/api/clubs/{w.club.slug}/seasons/",
                 expect=MEMBERS_READ),
        ...
    ]

    @pytest.mark.parametrize(("endpoint", "persona"), cases(ENDPOINTS))
    def test_permission(endpoint, persona, persona_client, world):
        check(endpoint, persona_client(persona), world, persona)

``world`` is whatever object the app's fixture builds (the club's objects the
URLs point at); each (endpoint, persona) case gets a fresh database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import PERSONAS, PersonaClient

Statuses = Mapping[str, int]


def members_read(ok: int = 200) -> dict[str, int]:
    """Every member may; a non-member sees nothing (404); anonymous must log in (401)."""
    return {
        "owner": ok,
        "admin": ok,
        "scorer": ok,
        "member": ok,
        "outsider": 404,
        "anonymous": 401,
    }


def scorers_write(ok: int = 200) -> dict[str, int]:
    """Scorers and above may; a plain member is refused (403)."""
    return {**members_read(ok), "member": 403}


def admins_write(ok: int = 200) -> dict[str, int]:
    """Owners and admins may; scorers and members are refused (403)."""
    return {**members_read(ok), "scorer": 403, "member": 403}


def any_user(ok: int = 200) -> dict[str, int]:
    """Anyone logged in may, member or not."""
    return {persona: ok for persona in PERSONAS} | {"anonymous": 401}


MEMBERS_READ = members_read()


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    url: Callable[[Any], str]
    expect: Statuses
    data: Callable[[Any], Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = set(PERSONAS) - set(self.expect)
        if missing:
            raise ValueError(f"{self.name}: no expected status for {', '.join(sorted(missing))}")


def cases(endpoints: Iterable[Endpoint]) -> list[Any]:
    """One pytest param per (endpoint, persona), with a readable id."""
    return [
        pytest.param(endpoint, persona, id=f"{endpoint.name} as {persona}")
        for endpoint in endpoints
        for persona in PERSONAS
    ]


def check(endpoint: Endpoint, client: PersonaClient, world: Any, persona: str) -> None:
    url = endpoint.url(world)
    kwargs: dict[str, Any] = {"format": "json", **endpoint.extra}
    if endpoint.data is not None:
        kwargs["data"] = endpoint.data(world)
    response = getattr(client, endpoint.method)(url, **kwargs)
    expected = endpoint.expect[persona]
    assert response.status_code == expected, (
        f"{endpoint.method.upper()} {url} as {persona}: expected {expected}, "
        f"got {response.status_code}: {getattr(response, 'data', response.content)!r}"
    )
