"""An admin demoted or removed while his invitation is being accepted: no deadlock.

The acceptance used to lock the invitation and then insert a membership (a KEY
SHARE lock on the club row), while the demotion held the club row and deleted the
maker's invitations: each waited for the other, and PostgreSQL answered "deadlock
detected" (a 500). Both now lock the club first (issue 38, point 8).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from clubs import services
from clubs.models import Invitation, Membership, Role
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 10


def _at_once(*calls: Callable[[], Any]) -> list[BaseException]:
    """Run ``calls`` in threads released together; the errors other than refusals."""
    start = threading.Barrier(len(calls))
    errors: list[BaseException] = []

    def run(call: Callable[[], Any]) -> None:
        try:
            start.wait(timeout=30)
            call()
        except ValidationError:
            pass  # a clear refusal (the link withdrawn, the demotion after the use)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return errors


def _one_round(*, removed: bool) -> None:
    club = ClubFactory.create()
    owner = MembershipFactory.create(club=club, role=Role.OWNER)
    admin = MembershipFactory.create(club=club, role=Role.ADMIN)
    invitation = services.invitation_create(club=club, created_by=admin.user, role=Role.SCORER)
    guest = UserFactory.create()

    def demote() -> None:
        if removed:
            services.membership_remove(membership=admin, actor=owner.user)
        else:
            services.membership_change_role(membership=admin, role=Role.MEMBER, actor=owner.user)

    errors = _at_once(
        lambda: services.invitation_accept(token=invitation.token, user=guest), demote
    )
    assert not errors, errors
    joined = Membership.objects.filter(club=club, user=guest).exists()
    used = Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=False).exists()
    # Either the link was used before the demotion, or withdrawn and nobody joined.
    assert joined == used


@pytest.mark.parametrize("removed", [False, True], ids=["demoted", "removed"])
def test_demoting_an_admin_while_his_invitation_is_accepted_never_deadlocks(
    removed: bool,
) -> None:
    for _ in range(ROUNDS):
        _one_round(removed=removed)
