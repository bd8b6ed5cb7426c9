"""What the other apps do not store: an evening's closes and reopens, and live table links.

Everything else a history or change log shows is stored already, with who and
when: game events (``recorded_by``/``recorded_at``, undo and annul are events),
games (``created_by``/``created_at``), payments and their reversals
(``recorded_by``/``created_at``), settlement transfers (``paid_by``/``paid_at``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Evening
from stichbuch.append_only import AppendOnlyModel, AppendOnlyQuerySet


class EveningChangeQuerySet(AppendOnlyQuerySet["EveningChange"]):
    noun = "evening changes"


class EveningChange(AppendOnlyModel):
    """An evening closed or opened again, by whom and when (append-only)."""

    class Kind(models.TextChoices):
        CLOSED = "closed", _("closed")
        REOPENED = "reopened", _("opened again")

    # CASCADE: only an evening with nothing recorded can be deleted (games.services).
    evening = models.ForeignKey(
        Evening, on_delete=models.CASCADE, related_name="changes", verbose_name=_("evening")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), default=timezone.now, editable=False)

    objects = EveningChangeQuerySet.as_manager()
    append_only_noun = "evening changes"
    append_only_one = "change"

    class Meta:
        ordering = ["evening_id", "at", "id"]
        verbose_name = _("evening change")
        verbose_name_plural = _("evening changes")

    def __str__(self) -> str:
        return f"{self.evening_id} {self.kind} {self.at:%Y-%m-%d %H:%M}"


class LiveLink(models.Model):
    """A read-only link to an evening's table for anyone holding it (no account needed).

    ``key`` is random (128 bits); the link's token is the key signed with the
    project's secret (``live.services.link_token``), so a token is checked before
    the database is asked and the key alone, read from the database, makes no
    working link. A revoked link (``revoked_at`` set) answers 404.
    """

    evening = models.ForeignKey(
        Evening, on_delete=models.CASCADE, related_name="live_links", verbose_name=_("evening")
    )
    key = models.CharField(_("key"), max_length=32, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["evening_id", "-created_at", "-id"]
        verbose_name = _("live link")
        verbose_name_plural = _("live links")

    def __str__(self) -> str:
        return f"live link {self.pk} ({self.evening_id})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
