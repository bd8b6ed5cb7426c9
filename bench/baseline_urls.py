"""Stichbuch's URLs plus ``/bench/insert/``: authenticate, parse the JSON, insert one row."""

from __future__ import annotations

import json
from typing import Any

from django.db import connection, transaction
from django.urls import path
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from stichbuch.urls import urlpatterns as stichbuch_urlpatterns

TABLE = "bench_insert"  # created (and dropped with its database) by bench/api_load.py


class BaselineInsertApi(APIView):
    """The least a write can do: one row in one transaction, answered as JSON."""

    def post(self, request: Request) -> Response:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {TABLE} (user_id, payload) VALUES (%s, %s) RETURNING id",
                [request.user.pk, json.dumps(request.data)],
            )
            (row_id,) = cursor.fetchone()
        body: dict[str, Any] = {"id": row_id}
        return Response(body, status=status.HTTP_201_CREATED)


urlpatterns = [
    *stichbuch_urlpatterns,
    path("bench/insert/", BaselineInsertApi.as_view(), name="bench-insert"),
]
