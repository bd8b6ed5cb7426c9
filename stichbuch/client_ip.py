"""The client's address: the one code path for login throttling (django-axes), the
API throttles and the per-address login limit.

Behind a reverse proxy every request comes from the proxy's address; locking
"username + address" would then lock a username for everyone. With
``TRUSTED_PROXY_COUNT`` proxies in front, the client is the address that the
outermost trusted proxy appended to ``X-Forwarded-For``: counted from the right,
because anything further left was sent by the client and can be forged. The
parsing is django-ipware's; this module only maps our one setting onto it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from ipware.ip import get_client_ip


def client_ip(request: Any) -> str | None:
    """The client's address for ``request`` (a Django or DRF request).

    ``TRUSTED_PROXY_COUNT = 0``: ``REMOTE_ADDR`` (a client's own ``X-Forwarded-For``
    is ignored). ``n > 0``: the n-th entry from the right of ``X-Forwarded-For``; a
    chain shorter than that (not from our proxies) falls back to ``REMOTE_ADDR``.
    """
    remote: str | None = request.META.get("REMOTE_ADDR")
    proxies: int = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if proxies <= 0:
        return remote
    # ipware counts the proxies *inside* the header (the last one is REMOTE_ADDR):
    # one proxy in front means the header's last entry is the client. Not strict:
    # entries a client put in front of ours must not make the chain "invalid".
    address, _routable = get_client_ip(
        request,
        proxy_order="left-most",
        proxy_count=proxies - 1,
        request_header_order=("HTTP_X_FORWARDED_FOR",),
        strict=False,
    )
    return address or remote
