"""Project-wide REST API pieces: pagination and the exception handler.

Bad input is always a 400 that names the fields; it is never a 500. Services
raise Django's ``ValidationError`` (they know nothing of DRF), and this handler
turns it into the same shape DRF's own serializer errors have:
``{"field": ["message", ...], ...}`` or ``{"detail": "message"}``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.db.models import QuerySet
from rest_framework import exceptions, status
from rest_framework.pagination import BasePagination, PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView, set_rollback
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


class DefaultPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


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
