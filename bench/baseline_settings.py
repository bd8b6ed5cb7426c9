"""Settings for the API benchmark: Stichbuch's, plus a bare insert endpoint as the baseline.

``bench/api_load.py`` serves the app with these settings, so the baseline runs
through the same gunicorn, middleware, token authentication and JSON parsing as
the recording API; only the work behind the view differs (one INSERT).
"""

from __future__ import annotations

import os
from pathlib import Path

from stichbuch.settings import *  # noqa: F403

ROOT_URLCONF = "bench.baseline_urls"

# ``api_load.py`` asks each worker to write its collector's pauses down.
if _gc_log := os.environ.get("BENCH_GC_LOG"):
    from bench.pauses import Pauses

    WORKER_PAUSES = Pauses(Path(_gc_log))
