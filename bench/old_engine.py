"""The engine as it stood at a git revision, importable beside the current one.

``load(ref)`` extracts ``engine/`` at ``ref`` from this repository (``git archive``),
renames the package to ``engine_old_<hash>`` (its own absolute imports rewritten) in a
temporary directory and imports it, so the migration harness and ``bench/engine.py``
can run the old and the new engine in one process. Nothing is committed: the old
engine always comes from git.
"""

from __future__ import annotations

import atexit
import importlib
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
_IMPORT = re.compile(r"^(\s*)(from|import) engine(?=[\s.])", re.MULTILINE)


def load(ref: str) -> ModuleType:
    """The package ``engine`` at git revision ``ref``, imported under another name
    (its submodules ``replay``, ``view``, ``generate``, ... imported too)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    name = f"engine_old_{commit[:10]}"
    if name in sys.modules:
        return sys.modules[name]
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit, "engine"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    where = Path(tempfile.mkdtemp(prefix="stichbuch-old-engine-"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    package = where / name
    (where / "engine").rename(package)
    for path in package.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(_IMPORT.sub(rf"\1\2 {name}", text), encoding="utf-8")
    sys.path.insert(0, str(where))
    module = importlib.import_module(name)
    for sub in ("replay", "view", "generate"):
        importlib.import_module(f"{name}.{sub}")
    return module
