"""CSRF on every unsafe request made with a session, the token on every form, cookie flags."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import PersonaClient
from tests.factories import PASSWORD, UserFactory
from tests.security.test_endpoint_matrix import MATRIX, World, routes, served_names
from tests.security.test_endpoint_matrix import world as world

# API endpoints without session authentication: they take no session, so need no token.
NO_SESSION = {"auth-token", "auth-signup"}


API_NAMES = {name for route, name in routes() if route.startswith("api/")}


def unsafe(api: bool) -> list[str]:
    """The rows that change something, of the API or of the pages."""
    return sorted(
        name
        for name, row in MATRIX.items()
        if name in served_names()
        and row.method in ("post", "delete")
        and name not in NO_SESSION
        and (name in API_NAMES) == api
    )


def owner_session(world: World, *, enforce_csrf: bool) -> Any:
    from clubs.models import Membership

    owner = Membership.objects.get(club=world.club, role="owner").user
    client = APIClient(enforce_csrf_checks=enforce_csrf)
    client.force_login(owner)
    return client


@pytest.mark.parametrize("name", unsafe(api=True))
def test_an_unsafe_api_request_with_a_session_but_no_csrf_token_is_refused(
    name: str, world: World, owner: PersonaClient
) -> None:
    row = MATRIX[name]
    client = owner_session(world, enforce_csrf=True)
    kwargs: dict[str, Any] = {"format": "json"}
    if row.data is not None:
        kwargs["data"] = row.data
    response = getattr(client, row.method)(row.url(world), **kwargs)
    assert response.status_code == 403, (name, response.status_code)
    assert "CSRF" in response.json()["detail"]


@pytest.mark.parametrize("name", unsafe(api=False))
def test_a_page_form_posted_without_a_csrf_token_is_refused(
    name: str, world: World, owner: PersonaClient
) -> None:
    client = owner_session(world, enforce_csrf=True)
    response = client.post(MATRIX[name].url(world), {}, format="multipart")
    assert response.status_code == 403, (name, response.status_code)


def test_the_same_api_request_with_the_session_s_csrf_token_passes(
    world: World, owner: PersonaClient
) -> None:
    client = owner_session(world, enforce_csrf=True)
    client.get("/accounts/login/")  # sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        f"/api/clubs/{world.club.slug}/players/create/",
        {"display_name": "Vroni"},
        format="json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 201


def test_a_token_authenticated_request_needs_no_csrf_token(
    world: World, owner: PersonaClient
) -> None:
    from clubs.services import api_token_create

    assert owner.user is not None
    token = api_token_create(user=owner.user, name="test")
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post(
        f"/api/clubs/{world.club.slug}/players/create/", {"display_name": "Vroni"}, format="json"
    )
    assert response.status_code == 201


FORM = re.compile(r"<form\b[^>]*>(.*?)</form>", re.S | re.I)


def page_gets() -> list[str]:
    served = served_names()
    return sorted(
        name
        for name, row in MATRIX.items()
        if name in served and row.method == "get" and name not in API_NAMES
    )


@pytest.mark.parametrize("name", page_gets())
def test_every_post_form_on_every_page_carries_the_csrf_token(
    name: str, world: World, persona_client: Callable[[str], PersonaClient]
) -> None:
    for persona in ("owner", "anonymous"):
        response = persona_client(persona).get(MATRIX[name].url(world))
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        html = response.content.decode()
        for match in FORM.finditer(html):
            opening = match.group(0)[: match.group(0).index(">") + 1].lower()
            if 'method="post"' in opening or "method=post" in opening:
                assert "csrfmiddlewaretoken" in match.group(1), (name, persona, opening)
        if "hx-post" in html or "hx-delete" in html or "data-csrf" in html:
            # htmx and the recording script send the token as X-CSRFToken.
            assert "X-CSRFToken" in html or 'data-csrf="' in html, name


@pytest.mark.django_db
def test_the_session_cookie_is_secure_http_only_and_same_site() -> None:
    UserFactory.create(username="franz")
    client = Client()
    response = client.post("/accounts/login/", {"username": "franz", "password": PASSWORD})
    assert response.status_code == 302
    session = response.cookies["sessionid"]
    assert session["httponly"]
    assert session["secure"]  # DEBUG is off in tests, as in production
    assert session["samesite"].lower() in ("lax", "strict")
    csrf = client.get("/accounts/login/").cookies.get("csrftoken") or client.cookies["csrftoken"]
    assert csrf["secure"]
