"""The client's address, as login throttling (django-axes) should see it.

Behind a reverse proxy every request comes from the proxy's address; locking
"username + address" would then lock a username for everyone. With
``TRUSTED_PROXY_COUNT`` proxies in front, the client is the address that the
outermost trusted proxy appended to ``X-Forwarded-For``: counted from the right,
because anything further left was sent by the client and can be forged.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    proxies: int = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if proxies <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    if len(forwarded) < proxies:
        return remote  # not the chain we expect: don't trust it
    return forwarded[-proxies]
