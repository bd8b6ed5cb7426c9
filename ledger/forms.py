"""Forms of the ledger pages: they parse what a page posts, the services judge and write."""

from __future__ import annotations

from django import forms

from clubs.forms import IdField, WholeNumberField


class PaymentForm(forms.Form):
    """Money one player handed another: ``payer`` and ``payee`` are player ids, the
    ``amount`` a whole number (its range is the page's to check, with its message)."""

    payer = IdField()
    payee = IdField()
    amount = WholeNumberField()
