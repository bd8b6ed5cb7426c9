"""The one place names of people are checked: player names and usernames.

A name is what other members read and pick from, so two names that look alike must
be the same name. Every name is normalised (Unicode NFKC: a full-width ``ｄｅｍｏ`` is
``demo``, a ligature its letters; runs of spaces become one; no spaces at the ends)
and refused if it holds a character one cannot see or that reorders the text around
it: control characters, format characters (Unicode category Cf: zero-width spaces and
joiners, bidi embeddings, overrides and isolates, the byte-order mark, soft hyphens),
line and paragraph separators, private-use, unassigned or surrogate code points, and
the letters that print as a blank (the Hangul fillers, the braille blank).
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# Categories of characters a name never holds: control, format, surrogate, private use,
# unassigned; line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Letters and marks that are invisible though not of those categories.
_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0")
_SPACES = re.compile(r"\s+")


def _refused(char: str) -> bool:
    return unicodedata.category(char) in _REFUSED_CATEGORIES or char in _INVISIBLE


def normalise_name(value: str) -> str:
    """``value`` as a name is stored and compared: NFKC, spaces collapsed and trimmed.

    Raises ``ValidationError`` (code ``invisible_character``) if it holds a character
    that cannot be seen or that reorders the text (see the module's docstring); the
    message names the character's code point.
    """
    name = unicodedata.normalize("NFKC", value)
    for char in name:
        if _refused(char):
            raise ValidationError(
                _("A name may not contain invisible or control characters (such as U+%(code)s).")
                % {"code": f"{ord(char):04X}"},
                code="invisible_character",
            )
    return _SPACES.sub(" ", name).strip()


def username_clean(value: str) -> str:
    """A new account's username, normalised (``normalise_name``) and free.

    Raises ``ValidationError`` for an invisible character, for a character Django's
    usernames do not take (letters, digits and ``@ . + - _`` only), and with "This
    username is taken." when an account of that name exists, whatever the case or
    width of its letters (``ｄｅｍｏ`` is ``demo``).
    """
    from django.contrib.auth import get_user_model
    from django.contrib.auth.validators import UnicodeUsernameValidator

    username = normalise_name(value)
    UnicodeUsernameValidator()(username)
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise ValidationError(_("This username is taken."), code="username_taken")
    return username
