"""The WSGI entry point a gunicorn worker imports: warmed and frozen, never blocked by a broker.

Run in a fresh interpreter each: importing ``stichbuch.wsgi`` freezes the garbage
collector's view of that process, which must not happen to the test process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
import stichbuch.wsgi
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "views_loaded": "games.apis" in sys.modules and "ledger.apis" in sys.modules,
}))
"""


def _import_wsgi(**env: str) -> dict[str, object]:
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))},
        "DEBUG": "0",
        "SECRET_KEY": "a-secret-key-for-this-test-only-" + "x" * 32,
        "ALLOWED_HOSTS": "testserver",
        **env,
    }
    finished = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode == 0, finished.stderr
    answer: dict[str, object] = json.loads(finished.stdout.strip().splitlines()[-1])
    return answer


def test_a_worker_loads_every_view_before_its_first_request_and_freezes_what_it_loaded() -> None:
    answer = _import_wsgi(CELERY_BROKER_URL="")
    assert answer["views_loaded"] is True
    frozen = answer["frozen"]
    assert isinstance(frozen, int) and frozen > 10_000


def test_a_worker_starts_while_the_broker_is_down() -> None:
    # Port 1 refuses connections: resolving the transport must not try to connect
    # (a retrying connect would hold the worker's start for many seconds).
    answer = _import_wsgi(CELERY_BROKER_URL="redis://127.0.0.1:1/0")
    assert answer["views_loaded"] is True
    frozen = answer["frozen"]
    assert isinstance(frozen, int) and frozen > 10_000
