"""The live views' server-sent events: the evening's state, again after every push.

One stream per open live view. It sends the state at once, then waits on the
process's ``live.push.HUB`` for the evening; on a push it sends the state anew
(``event: state``), and a comment line every few seconds in between so that
proxies keep the connection. Under ASGI (uvicorn) a stream is a coroutine: one
process holds hundreds, and the state for a push is read once for all of its
viewers of that evening (``StateCache``). Under a threaded WSGI server
(``runserver``, the embedded default) a stream holds a thread, which is right for
a few phones; a single-threaded WSGI worker (gunicorn's sync workers) answers the
state once and ends, rather than be held by one phone: the browser asks again
every 5 s, as the page's polling would.

A stream holds no database connection while open: it authenticates and reads
through a small pool of threads (``LIVE_DB_THREADS`` per process, each with its
connection), whatever the number of viewers. Every ``RECHECK`` seconds it asks
again whether its holder may still look (the link not revoked, the member still
in the club and logged in) and ends if not. The streams per process, per client
address and per link (or member) are bounded (``StreamSlots``): beyond, a clear
503 or 429 at once.

One module per part:

- ``state``: the state read (``state_json``), once per push for all of an event
  loop's streams (``StateCache``), and the streams' pool of threads, in which every
  database read of a stream under ASGI runs (``read_in_pool``; ``pool_close``; the
  tournament's ranking streams read there too);
- ``events``: what an open stream sends and when (``Viewer``, the rechecks, ``END``;
  ``once``, a single-threaded worker's answer, the tournament's ranking's too);
- ``limits``: the streams counted (``SLOTS``) and the 503 or 429 beyond a limit;
- ``response``: the SSE answer (``stream_response``, ``EventStreamResponse``).

Callers keep using ``live.stream.X``. A test that patches a name patches it in the
module that reads it (``events.HUB``, ``events.RECHECK``, ``limits.SLOTS``): the
names here are the same objects, not the ones the modules read.
"""

from live.stream.events import (
    END,
    KEEPALIVE,
    MAX_AGE,
    NOT_ALLOWED,
    POLL_MS,
    RECHECK,
    CheckCache,
    Viewer,
    once,
)
from live.stream.limits import SLOTS, Slot, StreamSlots
from live.stream.response import EventStreamResponse, stream_response
from live.stream.state import StateCache, first_state_json, pool_close, read_in_pool, state_json

__all__ = [
    "END",
    "KEEPALIVE",
    "MAX_AGE",
    "NOT_ALLOWED",
    "POLL_MS",
    "RECHECK",
    "SLOTS",
    "CheckCache",
    "EventStreamResponse",
    "Slot",
    "StateCache",
    "StreamSlots",
    "Viewer",
    "first_state_json",
    "once",
    "pool_close",
    "read_in_pool",
    "state_json",
    "stream_response",
]
