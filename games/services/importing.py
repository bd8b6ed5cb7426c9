"""The import of whole records (a club's history, an offline tally), in batches: each
record judged first (``games.services.import_judging``, nothing written), then the
accepted ones written together in one transaction."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from games import listeners, selectors
from games.errors import EveningClosed
from games.events import CURRENT_SCHEMA_VERSION
from games.models import Evening, Game, GameEvent
from games.services.evenings import _lock_evening
from games.services.import_judging import ImportOutcome, _Accepted, _import_one, _name_resolver
from games.services.recording import EVENT_FIELDS, _apply_result, _numbered
from stichbuch import sql

MAX_IMPORT_RECORDS = 500

# Games per INSERT of an import: a batch costs one statement.
IMPORT_BATCH = 2000


def games_import(
    *,
    evening: Evening,
    user: Any,
    records: list[Any],
    players: dict[str, int] | None = None,
) -> list[ImportOutcome]:
    """Store each valid record as a new game of the evening, all-or-nothing per record.

    ``players`` maps names used in the records to player ids of the club; other
    names are matched case-insensitively against the evening's seated players'
    display names, then the club's players'. Every game is judged and stored under
    the evening's house rules (its rule profile, else its season's, else the
    defaults). A record is rejected (and the others still imported) when the engine
    finds it invalid, when it is a game of the other kind, when its own ``rules``
    come to other settings than the evening's (``house_rules_differ``: only admins
    set house rules, in a rule profile), or when a name matches no player.
    """
    if len(records) > MAX_IMPORT_RECORDS:
        raise ValidationError(
            {"records": _("At most %(n)d records at a time.") % {"n": MAX_IMPORT_RECORDS}}
        )
    evening = Evening.objects.select_related("club", "season").get(pk=evening.pk)
    if not evening.is_open:
        raise EveningClosed(_("This evening is closed."))
    mapping: dict[str, Player] = {}
    if players:
        ids = list(players.values())
        found = {p.pk: p for p in Player.objects.filter(club_id=evening.club_id, pk__in=ids)}
        missing = sorted({pid for pid in ids if pid not in found})
        if missing:
            raise ValidationError(
                {
                    "players": _("No such player in this club: %(ids)s.")
                    % {"ids": ", ".join(str(pid) for pid in missing)}
                }
            )
        mapping = {name: found[pid] for name, pid in players.items()}
    resolve = _name_resolver(evening, mapping)
    house_rules = selectors.evening_house_rules(evening=evening)
    # One transaction for the call, which judges every record first (the engine, once
    # each; nothing written) and then writes the accepted ones together: the games,
    # their events and their ledger entries in a constant number of statements per
    # batch of rows (a savepoint and some eleven statements per record took most of an
    # import's time). A refused record writes nothing; a failure while writing rolls
    # the whole call back. The evening stays locked for the call, so a game started
    # meanwhile waits for it and the numbers run on. The projections are asked for
    # once, after the commit: one run applies every imported game.
    with listeners.bulk(), transaction.atomic():
        _lock_evening(evening)
        judged = [
            _import_one(
                evening=evening,
                user=user,
                index=index,
                item=item,
                resolve=resolve,
                house_rules=house_rules,
            )
            for index, item in enumerate(records)
        ]
        accepted = [verdict for verdict in judged if isinstance(verdict, _Accepted)]
        games = iter(
            _new_games(evening=evening, user=user, house_rules=house_rules, accepted=accepted)
        )
    return [
        ImportOutcome(index=verdict.index, imported=True, game=next(games))
        if isinstance(verdict, _Accepted)
        else verdict
        for verdict in judged
    ]


def _new_games(
    *, evening: Evening, user: Any, house_rules: dict[str, Any], accepted: list[_Accepted]
) -> list[Game]:
    """Create the accepted records' games, numbered the evening's next in their order,
    with their events and ledger entries: the rows ``_new_game`` writes for each, with
    the same numbers, seqs, authors and the same order of their times, in a constant
    number of statements: the games in batches of ``IMPORT_BATCH``, the events in one
    COPY, the listeners told once (``games_added``: the ledger books them in bulk).
    The caller holds the evening's lock.
    """
    if not accepted:
        return []
    last = Game.objects.filter(evening_id=evening.pk).aggregate(number=Max("number"))["number"]
    author = user if getattr(user, "is_authenticated", False) else None
    games: list[Game] = []
    # Each game's times as ``_new_game`` takes them: created, finished, its events
    # recorded, its entries booked (played_at, the projections' order, follows).
    stamps: list[tuple[datetime.datetime, datetime.datetime]] = []
    for number, ready in enumerate(accepted, start=(last or 0) + 1):
        game = Game(
            evening=evening,
            game_kind=evening.game_kind,
            house_rules=dict(house_rules),
            last_seq=len(ready.events),
            created_by=author,
            number=number,
        )
        _apply_result(game, ready.result, ready.record, club_players=ready.club_players)
        games.append(game)
        stamps.append((timezone.now(), timezone.now()))
    Game.objects.bulk_create(games, batch_size=IMPORT_BATCH)
    # The events as plain rows through COPY (``stichbuch.sql.rows_insert``), not model
    # instances through ``bulk_create``: an import writes thousands of events, and
    # building and adapting an instance per event was most of its writing's CPU
    # (``bench/import_rate.py`` prints an import's rate).
    author_id = author.pk if author is not None else None
    sql.rows_insert(
        model=GameEvent,
        fields=EVENT_FIELDS,
        rows=(
            (game.pk, seq, kind, payload, CURRENT_SCHEMA_VERSION, author_id, recorded_at, None)
            for game, ready, (recorded_at, _booked) in zip(games, accepted, stamps, strict=True)
            for seq, (kind, payload) in _numbered(ready.events, first_seq=1)
        ),
    )
    # A game in progress holds no money (see ``_record``): only a record that is
    # already over has anything to book.
    listeners.games_added(
        evening=evening,
        games=[
            (game, booked_at)
            for game, (_recorded, booked_at) in zip(games, stamps, strict=True)
            if game.status != Game.Status.IN_PROGRESS
        ],
        club_players=frozenset().union(*(ready.club_players for ready in accepted)),
    )
    listeners.evening_changed(evening_id=evening.pk)
    return games
