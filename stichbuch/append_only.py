"""Append-only rows: the base classes of the tables whose stored rows never change.

Below every app (``games.GameEvent``, ``ledger.LedgerEntry``, ``live.EveningChange``
use them), so that no app takes a base class from another one.
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

from django.db import models

_M = TypeVar("_M", bound=models.Model)


class AppendOnlyError(Exception):
    """Someone tried to change or delete a row of an append-only table."""


class AppendOnlyQuerySet(models.QuerySet[_M]):
    """Rows are appended, never changed: bulk update and delete refuse.

    Subclasses name their rows in ``noun`` ("game events") for the message.
    (Django's cascade machinery uses private paths; foreign keys into these
    tables are PROTECT, so nothing cascades into them.)
    """

    noun = "rows"

    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self.noun} are append-only: they cannot be updated")

    def delete(self) -> NoReturn:
        raise AppendOnlyError(f"{self.noun} are append-only: they cannot be deleted")


class AppendOnlyModel(models.Model):
    """A model whose stored rows never change: ``save()`` only inserts, ``delete()`` refuses.

    Corrections are new rows (an ``undo`` event, a reversal entry), never edits.
    """

    append_only_noun = "rows"
    append_only_one = "row"

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(
                f"{self.append_only_noun} are append-only: "
                f"a stored {self.append_only_one} cannot change"
            )
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(
            f"{self.append_only_noun} are append-only: "
            f"a stored {self.append_only_one} cannot be deleted"
        )
