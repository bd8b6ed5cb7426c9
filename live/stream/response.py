"""The stream's HTTP answer: admitted within the limits (``live.stream.limits``),
the events of ``live.stream.events`` for a threaded or asynchronous server, the state
once for a single-threaded worker, and the places given back when it closes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase

import live.stream.limits as limits
from live.stream.events import Viewer, _async_events, _sync_events, once
from live.stream.limits import Slot, _too_many
from live.stream.state import first_state_json, read_in_pool
from stichbuch.client_ip import client_ip


async def stream_response(request: HttpRequest, find: Callable[[], Viewer]) -> HttpResponseBase:
    """The SSE answer for the ``Viewer`` that ``find`` gives (it raises ``Http404`` else).

    ``find`` runs in the pool (ASGI) or the request's thread (WSGI). A single-threaded
    WSGI worker (gunicorn's sync workers), which a stream would hold, answers with the
    state once and ends (``once``). Refused at once, before any database read: 503
    beyond ``LIVE_STREAMS_PER_PROCESS``; 429 beyond
    ``LIVE_STREAMS_PER_ADDRESS`` for the client's address and, once ``find`` named
    the holder, beyond ``LIVE_STREAMS_PER_LINK`` for it.
    """
    is_asgi = isinstance(request, ASGIRequest)
    if not is_asgi and not request.META.get("wsgi.multithread", False):
        viewer = await sync_to_async(find)()
        first = await sync_to_async(first_state_json)(viewer.evening_id)
        answer = StreamingHttpResponse(once(first), content_type="text/event-stream")
        answer["Cache-Control"] = "no-cache, no-store"
        return answer
    address = f"address:{client_ip(request) or '-'}"
    # ``limits.SLOTS`` is looked up on each call, not imported by name, so that
    # counts put in its place (a test's own) are the ones taken and given back.
    if not limits.SLOTS.take([("all", settings.LIVE_STREAMS_PER_PROCESS)]):
        return _too_many("all")
    slot = Slot(limits.SLOTS, ["all"])
    try:
        if not slot.add(address, settings.LIVE_STREAMS_PER_ADDRESS):
            slot.release()
            return _too_many(address)
        content: Any
        if is_asgi:
            # Nothing of the request's own thread keeps a connection open meanwhile.
            await sync_to_async(connections.close_all)()
            viewer = await read_in_pool(find)
        else:
            viewer = await sync_to_async(find)()
        if not slot.add(viewer.holder, settings.LIVE_STREAMS_PER_LINK):
            slot.release()
            return _too_many(viewer.holder)
        if is_asgi:
            content = _released(
                _async_events(viewer, await read_in_pool(first_state_json, viewer.evening_id)), slot
            )
        else:
            first = await sync_to_async(first_state_json)(viewer.evening_id)
            content = _released_sync(_sync_events(viewer, first), slot)
    except BaseException:
        slot.release()
        raise
    response = EventStreamResponse(content, slot)
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


class EventStreamResponse(StreamingHttpResponse):
    """The stream's answer; closing it gives its places back. The handler closes it
    when the stream ends or the client goes, even if the stream never started."""

    def __init__(self, content: Any, slot: Slot) -> None:
        super().__init__(content, content_type="text/event-stream")
        self.slot = slot

    def close(self) -> None:
        self.slot.release()
        super().close()


async def _released(events: AsyncIterator[str], slot: Slot) -> AsyncIterator[str]:
    try:
        async for chunk in events:
            yield chunk
    finally:
        slot.release()


def _released_sync(events: Iterator[str], slot: Slot) -> Iterator[str]:
    try:
        yield from events
    finally:
        slot.release()
