"""A stream asked for an evening deleted between finding its viewer and reading the
first state (the evening deleted, a test's database flushed under an open page) answers
404, never a server error, and gives back its places."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.test import RequestFactory

from live import stream
from tests.asgi_stream import run_own_loop

pytestmark = pytest.mark.django_db(transaction=True)


def _gone() -> None:
    raise AssertionError("not asked: the stream never opened")


@pytest.mark.parametrize("threaded", [True, False], ids=["threaded worker", "sync worker"])
def test_a_stream_of_an_evening_deleted_after_its_viewer_was_found_is_a_404(
    threaded: bool,
) -> None:
    request = RequestFactory().get("/evenings/999999/live/events/")
    request.META["wsgi.multithread"] = threaded
    before = stream.SLOTS.count("all")

    def find() -> stream.Viewer:
        return stream.Viewer(999999, "member:0", "member:0:-:999999", _gone)

    # On an event loop of its own thread (a browser test earlier in the run may leave
    # one in this thread), the connection of asgiref's thread closed after it: left
    # open, it kept the test database from being dropped at the end of the run.
    with pytest.raises(Http404):
        run_own_loop(lambda: stream.stream_response(request, find))
    assert stream.SLOTS.count("all") == before
