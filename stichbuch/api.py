"""Project-wide REST API pieces: pagination and the exception handler.

Bad input is always a 400 that names the fields; it is never a 500. Services
raise Django's ``ValidationError`` (they know nothing of DRF), and this handler
turns it into the same shape DRF's own serializer errors have:
``{"field": ["message", ...], ...}`` or ``{"detail": "message"}``.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers, status
from rest_framework.pagination import BasePagination, PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView, set_rollback
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


class _OnlyJsonStrings(serializers.CharField):
    """Text taken only from a JSON string: ``5`` is not the name "5" (DRF would convert).

    ``max_length`` bounds the string as sent, which is what the schema's ``maxLength``
    says: DRF measures it after trimming, and ``str.strip`` also takes away control
    characters such as U+001C, so an over-long string would pass if it began or ended
    with them."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return str(super().to_internal_value(data))


class StrictCharField(_OnlyJsonStrings):
    """``CharField`` for JSON strings only."""


class StrictSlugField(_OnlyJsonStrings, serializers.SlugField):
    """``SlugField`` for JSON strings only."""


class StrictBooleanField(serializers.BooleanField):
    """A yes/no field that takes only JSON ``true``/``false``, not ``"yes"`` or ``1``."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictDateField(serializers.DateField):
    """A date only as ``YYYY-MM-DD`` (what the schema says), not ``2025-1-5``."""

    def to_internal_value(self, value: Any) -> Any:
        if not (isinstance(value, str) and _FULL_DATE.fullmatch(value)):
            self.fail("invalid", format="YYYY-MM-DD")
        return super().to_internal_value(value)


_FULL_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class DefaultPagination(PageNumberPagination):
    """Pages of 50; ``?page_size=`` from 1 to 200. A page size that is not such a
    number (``null``, ``0``, ``abc``, ``1000``) is a 400 naming the parameter, not
    silently the default: a client should learn that his parameter was ignored."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= self.max_page_size:
            raise exceptions.ValidationError(
                {
                    self.page_size_query_param: [
                        _("Must be a whole number from 1 to %(max)s.") % {"max": self.max_page_size}
                    ]
                }
            )
        return int(raw)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
            elif parameter["name"] == self.page_query_param:
                parameter["schema"].update(minimum=1)
        return parameters


# The schema and its Swagger page are not operations (the page asks for ``?script=``).
_NOT_OPERATIONS = ("/api/docs/", "/api/schema/")


def refuse_empty_query_parameters(get_response: Any) -> Any:
    """Middleware: an API query parameter sent empty (``?game=``) is a 400 naming it.

    An empty value is not a choice, an id or a number; answering as if the
    parameter were absent would hide the client's mistake. Leave a filter out
    instead of sending it empty."""

    def middleware(request: Any) -> Any:
        if (
            request.GET
            and request.path.startswith("/api/")
            and not request.path.startswith(_NOT_OPERATIONS)
        ):
            empty = sorted(name for name, values in request.GET.lists() if "" in values)
            if empty:
                from django.http import JsonResponse

                message = _("Leave this parameter out instead of sending it empty.")
                return JsonResponse({name: [message] for name in empty}, status=400)
        return get_response(request)

    return middleware


def django_validation_error_detail(error: DjangoValidationError) -> dict[str, Any]:
    """Shape a Django ValidationError like DRF's serializer errors."""
    if hasattr(error, "error_dict"):
        return {
            ("non_field_errors" if field == "__all__" else field): [str(m) for m in messages]
            for field, messages in error.message_dict.items()
        }
    return {"non_field_errors": [str(message) for message in error.messages]}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(django_validation_error_detail(exc))
    elif isinstance(exc, IntegrityError):
        # The services check every constraint first; reaching this means two requests
        # raced for the same unique value. Tell the client, don't crash.
        logger.info("integrity error turned into a 409: %s", exc)
        set_rollback()
        return Response(
            {"detail": "This conflicts with data that was just saved; reload and try again."},
            status=status.HTTP_409_CONFLICT,
        )
    elif isinstance(exc, DataError):
        # The database refused a value the serializers let through (a NUL byte in
        # text, a number out of range): bad input, not a server fault. The atomic
        # block it happened in has already been rolled back.
        logger.info("data error turned into a 400: %s", exc)
        set_rollback()
        return Response(
            {"detail": "A value in this request cannot be stored (out of range or bad text)."},
            status=status.HTTP_400_BAD_REQUEST,
        )
    return drf_exception_handler(exc, context)


def paginated_response(
    *,
    serializer_class: type[Serializer[Any]],
    queryset: QuerySet[Any],
    request: Request,
    view: APIView,
    pagination_class: type[BasePagination] = DefaultPagination,
) -> Response:
    """Serialize one page of ``queryset`` with the standard envelope.

    The envelope is ``{"count", "next", "previous", "results"}``; the queryset
    must already be ordered (selectors order by a unique key last), so pages
    never overlap.
    """
    paginator = pagination_class()
    page = paginator.paginate_queryset(queryset, request, view=view)
    if page is None:
        return Response(serializer_class(queryset, many=True).data)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


def not_found(request: Any, exception: Exception) -> Any:
    """handler404: under /api/ a JSON ``{"detail": ...}`` like every API refusal
    (a path that matches no URL, e.g. a negative id); elsewhere the page."""
    if request.path.startswith("/api/"):
        from django.http import JsonResponse

        return JsonResponse({"detail": _("Not found.")}, status=404)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)
