"""The README's production commands bind no public address next to a proxy count.

With ``TRUSTED_PROXY_COUNT`` set, the app trusts the proxy's ``X-Forwarded-For``;
a process that a client reaches directly (``--bind 0.0.0.0:8000``) lets him forge
that header: 40 wrong passwords without lockout, 80 of 80 logins without 429
(issue 38, point 3). Every server command in the README binds loopback or a socket.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"

# A server start: gunicorn, uvicorn, daphne, hypercorn or runserver, with its address.
SERVER = re.compile(
    r"^\s*(?:python -m |python manage\.py |\S*/)?(gunicorn|uvicorn|daphne|hypercorn|runserver)\b"
)
PROXY_COUNT = re.compile(r"\bTRUSTED_PROXY_COUNT=([0-9]+)")
PRIVATE = re.compile(r"^(?:127\.\d+\.\d+\.\d+|localhost|\[::1\]|unix:\S+)(?::\d+)?$")


def _commands(markdown: str) -> list[str]:
    """The lines of the shell blocks, continuation lines joined."""
    lines: list[str] = []
    for block in re.findall(r"```(?:sh|bash|shell|console)?\n(.*?)```", markdown, re.DOTALL):
        lines += [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]
    return lines


def _addresses(command: str) -> list[str]:
    """Where a server command listens: ``--bind``/``-b`` (gunicorn), ``--host``
    (uvicorn), ``runserver ADDR``; a server without one listens on its default."""
    found = re.findall(r"(?:--bind[= ]|-b )\s*(\S+)", command)
    found += [f"{host}" for host in re.findall(r"--host[= ]\s*(\S+)", command)]
    runserver = re.search(r"runserver\s+(\S+)", command)
    if runserver and not runserver.group(1).startswith("-"):
        found.append(runserver.group(1))
    return found


def public_binds(markdown: str) -> list[str]:
    """The server commands of ``markdown`` that listen beyond loopback while a
    command sets a proxy count; none if no command trusts a proxy."""
    commands = _commands(markdown)
    if not any(int(n) > 0 for c in commands for n in PROXY_COUNT.findall(c)):
        return []
    wrong = []
    for command in commands:
        if not SERVER.search(command) or command.lstrip().startswith("#"):
            continue
        addresses = _addresses(command)
        if not addresses or not all(PRIVATE.match(address) for address in addresses):
            wrong.append(command.strip())
    return wrong


def test_the_readme_binds_every_server_to_loopback_or_a_socket() -> None:
    text = README.read_text(encoding="utf-8")
    assert "TRUSTED_PROXY_COUNT=1" in text  # the production block sets one
    assert any(SERVER.search(c) for c in _commands(text))
    assert public_binds(text) == []


@pytest.mark.parametrize(
    "command",
    [
        "gunicorn stichbuch.asgi:application -k uvicorn.workers.UvicornWorker --bind 0.0.0.0:8000",
        "gunicorn stichbuch.wsgi --workers 4",  # gunicorn's default is loopback, but say it
        "uvicorn stichbuch.asgi:application --host 0.0.0.0",
        "gunicorn stichbuch.wsgi -b [::]:8000",
        "python manage.py runserver 0.0.0.0:8000",
        "gunicorn stichbuch.wsgi --bind 127.0.0.1:8000 --bind 0.0.0.0:8001",
    ],
)
def test_the_check_finds_a_public_bind_next_to_a_proxy_count(command: str) -> None:
    block = f"```sh\nexport DEBUG=0 \\\\\n       TRUSTED_PROXY_COUNT=1\n{command}\n```\n"
    assert public_binds(block) == [command]


def test_the_check_accepts_loopback_and_sockets() -> None:
    block = (
        "```sh\nexport TRUSTED_PROXY_COUNT=2\n"
        "gunicorn stichbuch.wsgi --bind 127.0.0.1:8000\n"
        "gunicorn stichbuch.asgi:application -k uvicorn.workers.UvicornWorker"
        " --bind unix:/run/sb.sock\n"
        "uvicorn stichbuch.asgi:application --host [::1] --port 8001\n"
        "```\n"
    )
    assert public_binds(block) == []
