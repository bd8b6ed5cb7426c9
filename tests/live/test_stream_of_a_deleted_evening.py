"""A stream asked for an evening deleted between finding its viewer and reading the
first state (the evening deleted, a test's database flushed under an open page) answers
404, never a server error, and gives back its places."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.http import Http404
from django.test import RequestFactory

from live import stream

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

    # In a thread of its own: a browser test earlier in the run may leave an event loop
    # in this one, where no coroutine can be run to the end.
    with ThreadPoolExecutor(1) as pool, pytest.raises(Http404):
        pool.submit(asyncio.run, stream.stream_response(request, find)).result()
    assert stream.SLOTS.count("all") == before
