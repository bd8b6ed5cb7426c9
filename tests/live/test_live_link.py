"""A live link shows one evening's table to anyone holding it: read-only, revocable."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.http import StreamingHttpResponse

from clubs.models import Club
from games import services as game_services
from games.models import Evening, Game
from live import services
from live.models import LiveLink
from tests.conftest import PersonaClient
from tests.games import records
from tests.games.factories import seated_evening


def _token(evening: Evening) -> str:
    return services.link_token(services.live_link_create(evening=evening, user=None))


def test_a_scorer_opens_a_link_and_the_evening_page_shows_it_with_its_qr_code(
    scorer: PersonaClient, evening: Evening
) -> None:
    response = scorer.post(f"/evenings/{evening.pk}/live-links/new/")
    assert response.status_code == 302
    link = LiveLink.objects.get(evening=evening)
    page = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    url = re.search(r'class="live-url">([^<]+)<', page)
    assert url is not None and url.group(1).endswith(f"/live/{services.link_token(link)}/")
    qr = scorer.get(f"/evenings/{evening.pk}/live-links/{link.pk}/qr.svg")
    assert qr["Content-Type"] == "image/svg+xml"
    assert b"<svg" in qr.content


def test_a_plain_member_can_neither_open_nor_see_a_link(
    member: PersonaClient, evening: Evening
) -> None:
    assert member.post(f"/evenings/{evening.pk}/live-links/new/").status_code == 403
    _token(evening)
    assert b'class="live-url"' not in member.get(f"/evenings/{evening.pk}/").content


def test_anyone_with_the_link_sees_the_game_in_progress_without_an_account(
    anonymous: PersonaClient, dealt_game: Game, as_ids: Any, evening: Evening
) -> None:
    game_services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA[:3])
    )
    token = _token(evening)
    page = anonymous.get(f"/live/{token}/")
    assert page.status_code == 200
    assert page["Referrer-Policy"] == "no-referrer"
    state = anonymous.get(f"/live/{token}/state/").json()
    current = state["current"]
    assert current["number"] == dealt_game.number
    assert current["state"]["to_act"] == "Dora"
    assert [p["card"] for p in current["trick"]] == ["EO", "RA"]
    assert [e["type"] for e in current["events"]] == ["call"]
    assert anonymous.get(f"/api/live/{token}/").json() == state


def test_the_live_state_tells_nothing_of_the_hands(
    anonymous: PersonaClient, dealt_game: Game, evening: Evening
) -> None:
    body = anonymous.get(f"/live/{_token(evening)}/state/").content.decode()
    assert "hands" not in body
    assert "legal" not in body
    assert "refused" not in body
    # Bert's cards (dealt, not played) appear nowhere.
    assert not any(f'"{card}"' in body for card in records.HANDS["bert"])


def test_a_revoked_or_tampered_link_is_not_found(
    anonymous: PersonaClient, scorer: PersonaClient, evening: Evening
) -> None:
    token = _token(evening)
    key, signature = token.split(".")
    tampered = [f"{key[:-1]}{'A' if key[-1] != 'A' else 'B'}.{signature}", key, f"{key}.x", "x"]
    for bad in tampered:
        for path in ("", "state/", "events/"):
            assert anonymous.get(f"/live/{bad}/{path}").status_code == 404, (bad, path)
        assert anonymous.get(f"/api/live/{bad}/").status_code == 404
    link = LiveLink.objects.get(evening=evening)
    assert scorer.post(f"/evenings/{evening.pk}/live-links/{link.pk}/revoke/").status_code == 302
    assert anonymous.get(f"/live/{token}/").status_code == 404
    assert anonymous.get(f"/live/{token}/state/").status_code == 404
    assert anonymous.get(f"/api/live/{token}/").status_code == 404


def test_a_link_cannot_write(anonymous: PersonaClient, evening: Evening) -> None:
    token = _token(evening)
    for path in (f"/live/{token}/", f"/live/{token}/state/", f"/api/live/{token}/"):
        assert anonymous.post(path, {}).status_code in (403, 405)
        assert anonymous.put(path, {}).status_code in (403, 405)


def test_a_link_shows_only_its_own_evening(
    anonymous: PersonaClient, evening: Evening, other_club: Club
) -> None:
    other = seated_evening(other_club, ("Xaver", "Yvonne", "Zenzi", "Wastl"))
    body = anonymous.get(f"/live/{_token(evening)}/state/").json()
    assert body["evening"]["id"] == evening.pk
    assert "Xaver" not in str(body)
    assert anonymous.get(f"/live/{_token(other)}/state/").json()["evening"]["id"] == other.pk


@pytest.mark.django_db
def test_the_stream_sends_the_state_at_once_and_again_after_a_push(
    anonymous: PersonaClient, evening: Evening
) -> None:
    from live.push import HUB

    # A threaded WSGI server (runserver) streams; a single-threaded worker would not.
    threaded: dict[str, Any] = {"wsgi.multithread": True}
    response = anonymous.get(f"/live/{_token(evening)}/events/", **threaded)
    assert response["Content-Type"] == "text/event-stream"
    assert isinstance(response, StreamingHttpResponse)
    chunks = iter(cast(Iterator[bytes], response.streaming_content))
    first = next(chunks).decode()
    assert "event: state" in first and f'"id":{evening.pk}' in first
    HUB.publish(evening.pk)
    assert next(chunks).decode().startswith("event: state")
    response.close()
    assert HUB.viewers() == 0


def test_members_see_the_live_view_on_the_evening_and_game_pages(
    member: PersonaClient, dealt_game: Game, evening: Evening
) -> None:
    for path in (f"/evenings/{evening.pk}/", f"/games/{dealt_game.pk}/"):
        page = member.get(path).content.decode()
        assert 'id="live-view"' in page
        assert f"/evenings/{evening.pk}/live/events/" in page
    assert member.get(f"/evenings/{evening.pk}/live/state/").json()["current"]["id"] == (
        dealt_game.pk
    )


@pytest.mark.django_db
def test_the_service_worker_is_served_from_the_root_and_the_app_is_installable(
    anonymous: PersonaClient,
) -> None:
    worker = anonymous.get("/sw.js")
    assert worker["Content-Type"] == "application/javascript"
    assert worker["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("fetch"' in worker.content
    manifest = anonymous.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    assert manifest.json()["start_url"] == "/"
    assert b'rel="manifest"' in anonymous.get("/accounts/login/").content


def test_opening_the_live_link_again_shows_the_one_that_exists(
    evening: Evening, scorer: PersonaClient
) -> None:
    scorer.post(f"/evenings/{evening.pk}/live-links/new/")
    first = LiveLink.objects.get(evening=evening)
    answer = scorer.post(f"/evenings/{evening.pk}/live-links/new/")
    assert answer.status_code == 302 and answer["Location"].endswith("#live-links")
    assert list(LiveLink.objects.filter(evening=evening)) == [first]  # no second link
    page = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    assert 'id="live-link-new"' not in page  # the link is shown, not offered anew
