"""The games REST API: evenings, seats, games, recording events, records in and out.

One view per operation: validate → service → serialize. Everything belongs to
the club of its evening: non-members get a 404, members read, scorers (and
admins, owners) record; anonymous visitors get a 401. Bad input is a 400 with
field messages, a conflict (stale ``expected_seq``, a closed evening) a 409, a
record the engine refuses a 422 carrying the engine's index, code and message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors as club_selectors
from clubs.models import GameKind, Player, Role, RuleProfile, Season
from clubs.permissions import membership_for, require_role
from games import engine_text, selectors, services
from games.checks import (
    MAX_EVENT_BYTES,
    MAX_EVENTS_PER_REQUEST,
    MAX_ID,
    MAX_IDEMPOTENCY_KEY,
    MAX_SEQ,
    check_import_records,
    has_nul,
    json_size,
)
from games.errors import (
    EngineRejected,
    EveningClosed,
    EveningNotEmpty,
    EveningOpen,
    GamesError,
    IdempotencyKeyReused,
    StaleSequence,
)
from games.models import Evening, EveningSeat, Game
from games.presenters import game_data, game_detail_data
from stichbuch.api import paginated_response

IDEMPOTENCY_HEADER = OpenApiParameter(
    name="Idempotency-Key",
    location=OpenApiParameter.HEADER,
    required=False,
    # 1 to 255 characters, not only blanks: what ``idempotency_key`` accepts.
    type={"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY, "pattern": r"\S"},
    description=(
        "Any unique string (e.g. a UUID). A retry with the same key and the same request "
        "returns the first answer instead of doing the work twice; the same key with a "
        "different request is a 422."
    ),
)

RefusalSerializer = inline_serializer("Refusal", {"detail": serializers.CharField()})
ConflictSerializer = inline_serializer(
    "GamesConflict",
    {"detail": serializers.CharField(), "current_seq": serializers.IntegerField(required=False)},
)
EngineRejectionSerializer = inline_serializer(
    "EngineRejection",
    {
        "detail": serializers.CharField(
            help_text=(
                "The engine's sentence in the request's language (Accept-Language; German "
                "by default), with the players' names for their ids."
            )
        ),
        # Without ``error`` and ``event_offset``: a refusal before the engine (a reused
        # Idempotency-Key, a record too long), its sentence alone.
        "error": inline_serializer(
            "EngineError",
            {
                "index": serializers.IntegerField(
                    help_text="Position in the combined record: stored events, then yours."
                ),
                "code": serializers.CharField(),
                "message": serializers.CharField(
                    help_text="The engine's own sentence (English, players as ids)."
                ),
            },
            required=False,
        ),
        "event_offset": serializers.IntegerField(
            required=False,
            help_text="Number of events stored before yours: yours is index - event_offset.",
        ),
    },
)


def _evening_names(evening: Evening) -> dict[str, str]:
    """``{str(pk): display_name}`` of everyone who sat at the evening (for an error's sentence)."""
    return {
        str(seat.player_id): seat.player.display_name
        for seat in selectors.evening_seats(evening=evening, active_only=False)
    }


def _game_names_and_face(game_id: int) -> tuple[dict[str, str], str | None]:
    """The names of everyone who sat at the game's evening and its club's card face."""
    game = selectors.game_get(game_id=game_id)
    return _evening_names(game.evening), game.evening.club.card_face


class GamesApi(APIView):
    """Base view: turns the games services' own errors into 409 / 422 answers."""

    # Set by a view that knows them: the names (``{str(pk): display_name}``) and the
    # club's card face an engine refusal's sentence is written with (read for a 422 only).
    error_context: Callable[[], tuple[Mapping[str, str], str | None]] | None = None

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, StaleSequence):
            return Response(
                {"detail": exc.message, "current_seq": exc.current_seq},
                status=status.HTTP_409_CONFLICT,
            )
        if isinstance(exc, EveningClosed | EveningOpen | EveningNotEmpty):
            return Response({"detail": exc.message}, status=status.HTTP_409_CONFLICT)
        if isinstance(exc, EngineRejected):
            return Response(
                {
                    "detail": self.engine_detail(exc.error),
                    "error": exc.error,
                    "event_offset": exc.event_offset,
                },
                status=status.HTTP_422_UNPROCESSABLE_ENTITY,
            )
        if isinstance(exc, IdempotencyKeyReused | GamesError):
            return Response({"detail": exc.message}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        return super().handle_exception(exc)

    def engine_detail(self, error: dict[str, Any]) -> str:
        """The engine's sentence in the request's language, with the players' names."""
        names, face = self.error_context() if self.error_context is not None else ({}, None)
        return engine_text.explain(error, names, face=face)

    # --- helpers shared by the views ---

    def evening_for(self, request: Request, evening_id: int, min_role: str) -> Evening:
        """The evening, if the user is a member of its club with ``min_role`` (else 404/403).

        The same answers as ``membership_for``, in one query: the caller's role
        comes with the evening and its club.
        """
        user = request.user
        if user is None or not user.is_authenticated:
            raise Http404
        try:
            evening = selectors.evening_get_with_role(evening_id=evening_id, user=user)
        except ObjectDoesNotExist:
            raise Http404 from None
        require_role(getattr(evening, "member_role", None), min_role)
        return evening

    def game_for(self, request: Request, game_id: int, min_role: str) -> Game:
        """The game, if the user is a member of its club with ``min_role`` (else 404/403).

        The same answers as ``membership_for``, in one query: the caller's role
        comes with the game, its evening and club.
        """
        user = request.user
        if user is None or not user.is_authenticated:
            raise Http404
        try:
            game = selectors.game_get_with_role(game_id=game_id, user=user)
        except ObjectDoesNotExist:
            raise Http404 from None
        require_role(getattr(game, "member_role", None), min_role)
        return game

    def idempotency_key(self, request: Request) -> str | None:
        key = request.headers.get("Idempotency-Key")
        if key is None:
            return None
        # The length as sent (the schema's maxLength), the key without blanks around it.
        if len(key) > MAX_IDEMPOTENCY_KEY or not key.strip():
            raise serializers.ValidationError(
                {"Idempotency-Key": [_("Send 1 to 255 characters, e.g. a UUID.")]}
            )
        return key.strip()

    def fingerprint(self, request: Request) -> str:
        return services.request_fingerprint(
            method=request.method or "", path=request.path, body=request.data
        )


# --- Output serializers shared by several views ---------------------------------------------


class EveningOutputSerializer(serializers.ModelSerializer[Evening]):
    club = serializers.CharField(source="club.slug")

    class Meta:
        model = Evening
        fields = [
            "id",
            "club",
            "season",
            "game_kind",
            "date",
            "place",
            "rule_profile",
            "status",
            "created_at",
            "closed_at",
        ]


class SeatOutputSerializer(serializers.ModelSerializer[EveningSeat]):
    display_name = serializers.CharField(source="player.display_name")

    class Meta:
        model = EveningSeat
        fields = ["player", "display_name", "position", "joined_at", "left_at"]


class GameSummarySerializer(serializers.ModelSerializer[Game]):
    # A plain string in the schema: "status" enums of several models would collide.
    status = serializers.CharField(help_text="in_progress, finished or annulled")

    class Meta:
        model = Game
        fields = [
            "id",
            "number",
            "status",
            "dealer",
            "result",
            "last_seq",
            "created_at",
            "finished_at",
        ]


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    display_name = serializers.CharField()


class NextDealSerializer(serializers.Serializer[Any]):
    dealer = PlayerRefSerializer(allow_null=True)
    players = PlayerRefSerializer(many=True)
    sitting_out = PlayerRefSerializer(allow_null=True)
    event = serializers.JSONField(
        allow_null=True, help_text="The deal event a start without a body writes."
    )
    problem = serializers.CharField(allow_null=True)


class EveningDetailSerializer(EveningOutputSerializer):
    seats = serializers.SerializerMethodField()
    games = serializers.SerializerMethodField()
    in_progress = serializers.SerializerMethodField()
    next_deal = serializers.SerializerMethodField()

    class Meta(EveningOutputSerializer.Meta):
        fields = [
            *EveningOutputSerializer.Meta.fields,
            "seats",
            "games",
            "in_progress",
            "next_deal",
        ]

    @extend_schema_field(SeatOutputSerializer(many=True))
    def get_seats(self, evening: Evening) -> Any:
        return SeatOutputSerializer(selectors.evening_seats(evening=evening), many=True).data

    @extend_schema_field(GameSummarySerializer(many=True))
    def get_games(self, evening: Evening) -> Any:
        return GameSummarySerializer(selectors.evening_games(evening=evening), many=True).data

    def get_in_progress(self, evening: Evening) -> list[int]:
        """Ids of the games still in progress (perhaps abandoned at the table)."""
        games = selectors.evening_games(evening=evening).filter(status=Game.Status.IN_PROGRESS)
        return list(games.values_list("id", flat=True))

    @extend_schema_field(NextDealSerializer)
    def get_next_deal(self, evening: Evening) -> Any:
        return NextDealSerializer(selectors.next_deal(evening=evening)).data


class GameEventOutputSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.SerializerMethodField()
    schema_version = serializers.IntegerField()
    recorded_by = serializers.CharField(
        source="recorded_by.username", default=None, allow_null=True
    )
    recorded_at = serializers.DateTimeField()

    def get_payload(self, event: Any) -> dict[str, Any]:
        """The payload in the current schema (upcast), without the ``type``."""
        return {k: v for k, v in event.as_event().items() if k != "type"}


class GameDetailSerializer(serializers.Serializer[Any]):
    """A game with its players, the engine's view of the table and its events."""

    id = serializers.IntegerField(source="game.pk")
    evening = serializers.IntegerField(source="game.evening_id")
    number = serializers.IntegerField(source="game.number")
    game_kind = serializers.CharField(source="game.game_kind")
    status = serializers.CharField(source="game.status")
    house_rules = serializers.JSONField(source="game.house_rules")
    players = serializers.DictField(child=serializers.CharField(), help_text="{id: display name}")
    state = serializers.JSONField(help_text="engine.table_view(record).to_dict()")
    tally = serializers.JSONField(
        allow_null=True,
        help_text=(
            "What a tally appended now may say (state.tally): kind, fields, needs_outcome; "
            "null when no tally may be recorded now."
        ),
    )
    result = serializers.JSONField(source="game.result")
    last_seq = serializers.IntegerField(source="game.last_seq")
    created_at = serializers.DateTimeField(source="game.created_at")
    finished_at = serializers.DateTimeField(source="game.finished_at", allow_null=True)
    events = GameEventOutputSerializer(many=True)
    explanation = serializers.CharField(
        allow_null=True,
        help_text=(
            "While the record is invalid: the engine's error as a sentence in the request's "
            "language, with the players' names (state.result.error keeps the engine's own)."
        ),
    )
    reasons = serializers.JSONField(
        help_text=(
            "Why each card the player to act may not play is refused, as sentences in the "
            "request's language: {play: {card: sentence}, face_down: {card: sentence}} "
            "(state.legal.refused and refused_face_down keep the engine's codes)."
        ),
    )


class GameDryRunSerializer(GameDetailSerializer):
    """A game as it would be (``dry_run``): nothing stored, so no id or number yet."""

    id = serializers.IntegerField(source="game.pk", allow_null=True)
    number = serializers.IntegerField(source="game.number", allow_null=True)


def appended_data(
    appended: services.Appended, *, answer: str = "full", names: dict[str, str] | None = None
) -> dict[str, Any]:
    """The answer to an append: the whole game, or (``answer="new"``) only the new events.

    ``names``: player names already read (``players_legend``'s ``known``).
    """
    rows = appended.rows[appended.new_from :] if answer == "new" else appended.rows
    return game_data(
        appended.game, record=appended.record, rows=rows, names=names, state=appended.state
    )


ExportSerializer = inline_serializer(
    "GameExport",
    {
        "record": serializers.JSONField(help_text="The spec's record; players as ids."),
        "players": serializers.DictField(child=serializers.CharField()),
        "result": serializers.JSONField(),
    },
)


# --- Evenings -------------------------------------------------------------------------------


class EveningListCreateApi(GamesApi):
    """GET: the club's evenings, newest first. POST: open an evening (scorers and up)."""

    class FilterSerializer(serializers.Serializer[Any]):
        season = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    class InputSerializer(serializers.Serializer[Any]):
        season = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        game_kind = serializers.ChoiceField(choices=GameKind.choices, required=False)
        date = serializers.DateField(required=False, help_text="Default: today, club time.")
        place = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
        players = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
            min_length=4,
            max_length=6,
            help_text="Player ids in clockwise seat order (Fuchsen 4–6, Königrufen 4).",
        )
        rule_profile = serializers.IntegerField(
            required=False, allow_null=True, min_value=1, max_value=MAX_ID
        )

    @extend_schema(parameters=[FilterSerializer], responses=EveningOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        season = None
        if "season" in filters.validated_data:
            season = Season.objects.filter(club=club, pk=filters.validated_data["season"]).first()
            if season is None:
                raise Http404
        return paginated_response(
            serializer_class=EveningOutputSerializer,
            queryset=selectors.evening_list(club=club, season=season),
            request=request,
            view=self,
        )

    @extend_schema(request=InputSerializer, responses={201: EveningDetailSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        season = Season.objects.filter(club=club, pk=data.pop("season")).first()
        if season is None:
            raise serializers.ValidationError({"season": [_("No such season in this club.")]})
        profile_id = data.pop("rule_profile", None)
        profile = None
        if profile_id is not None:
            profile = RuleProfile.objects.filter(club=club, pk=profile_id).first()
            if profile is None:
                raise serializers.ValidationError(
                    {"rule_profile": [_("No such rule profile in this club.")]}
                )
        evening = services.evening_create(
            club=club, user=request.user, season=season, rule_profile=profile, **data
        )
        return Response(EveningDetailSerializer(evening).data, status=status.HTTP_201_CREATED)


class EveningDetailApi(GamesApi):
    """An evening with its seats, its games and the proposed next deal."""

    @extend_schema(responses=EveningDetailSerializer)
    def get(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.MEMBER)
        return Response(EveningDetailSerializer(evening).data)


class EveningCloseApi(GamesApi):
    """Close the evening: no more games, seats or events (409 if already closed)."""

    @extend_schema(request=None, responses={200: EveningDetailSerializer, 409: ConflictSerializer})
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        evening = services.evening_close(evening=evening, user=request.user)
        return Response(EveningDetailSerializer(evening).data)


class EveningReopenApi(GamesApi):
    """Open a closed evening again (admins and up; 409 if it is open or its season closed)."""

    @extend_schema(request=None, responses={200: EveningDetailSerializer, 409: ConflictSerializer})
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.ADMIN)
        evening = services.evening_reopen(evening=evening, user=request.user)
        return Response(EveningDetailSerializer(evening).data)


class EveningDeleteApi(GamesApi):
    """Delete an evening opened by mistake, while nothing is recorded in it (scorers
    and up; 409 once it holds a game, payment or plan). 204, also if it is gone."""

    @extend_schema(request=None, responses={204: None, 409: ConflictSerializer})
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        services.evening_delete(evening=evening)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EveningSeatAddApi(GamesApi):
    """Seat a player between games; those at ``position`` and after move one seat on."""

    class InputSerializer(serializers.Serializer[Any]):
        player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        position = serializers.IntegerField(
            min_value=1,
            max_value=1000,
            required=False,
            allow_null=True,
            help_text="1 = first seat; default last.",
        )

    @extend_schema(
        request=InputSerializer, responses={201: EveningDetailSerializer, 409: ConflictSerializer}
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = Player.objects.filter(
            club_id=evening.club_id, pk=serializer.validated_data["player"]
        ).first()
        if player is None:
            raise serializers.ValidationError({"player": [_("No such player in this club.")]})
        services.evening_seat_add(
            evening=evening, player=player, position=serializer.validated_data.get("position")
        )
        return Response(EveningDetailSerializer(evening).data, status=status.HTTP_201_CREATED)


class EveningSeatRemoveApi(GamesApi):
    """The player leaves the table between games (his seat stays in the history)."""

    @extend_schema(request=None, responses={204: None, 409: ConflictSerializer})
    def delete(self, request: Request, evening_id: int, player_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        player = Player.objects.filter(club_id=evening.club_id, pk=player_id).first()
        if player is None:
            raise Http404
        services.evening_seat_remove(evening=evening, player=player)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Games ----------------------------------------------------------------------------------


class GameStartApi(GamesApi):
    """Start the next game of the evening; its deal is its first event.

    Without a ``deal`` the proposed one (``next_deal`` of the evening) is written.
    A given deal uses player ids as strings (``str(player.pk)``) of seated players.
    """

    class InputSerializer(serializers.Serializer[Any]):
        deal = serializers.DictField(
            required=False,
            allow_null=True,
            help_text="dealer, players, optional hands, removed, sitting_out (ids as strings)",
        )
        events = serializers.ListField(
            child=serializers.DictField(),
            required=False,
            max_length=MAX_EVENTS_PER_REQUEST,
            help_text=(
                "More events of the game, appended with the deal in the same transaction (all "
                "or nothing); the first may be the deal itself, e.g. deal, call, tally."
            ),
        )
        dry_run = serializers.BooleanField(
            required=False,
            default=False,
            help_text="true: answer (200) with the game as it would be; nothing is written.",
        )

    @extend_schema(
        request=InputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            200: GameDryRunSerializer,
            201: GameDetailSerializer,
            409: ConflictSerializer,
            422: EngineRejectionSerializer,
        },
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        self.error_context = lambda: (_evening_names(evening), evening.club.card_face)
        key = self.idempotency_key(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        deal = serializer.validated_data.get("deal")
        if deal is not None and (json_size(deal) > MAX_EVENT_BYTES or has_nul(deal)):
            raise serializers.ValidationError(
                {"deal": [_("The deal is too large or contains a NUL character.")]}
            )
        events = [dict(event) for event in serializer.validated_data.get("events") or []]
        for i, event in enumerate(events):
            if json_size(event) > MAX_EVENT_BYTES or has_nul(event):
                raise serializers.ValidationError(
                    {
                        "events": [
                            _("Event %(i)d is too large or contains a NUL character.") % {"i": i}
                        ]
                    }
                )
        dry_run = serializer.validated_data["dry_run"]
        if dry_run:
            key = None  # nothing is written, not even the answer

        def work() -> tuple[int, Any]:
            started = services.game_started(
                evening=evening, user=request.user, deal=deal, events=events, dry_run=dry_run
            )
            return status.HTTP_200_OK if dry_run else status.HTTP_201_CREATED, game_data(
                started.game,
                record=started.record,
                rows=started.rows,
                names=started.names,
                state=started.state,
            )

        answer = services.idempotent_call(
            user=request.user,
            key=key,
            fingerprint=self.fingerprint(request),
            lock=lambda: services.evening_lock(evening=evening),
            work=work,
        )
        return Response(answer.body, status=answer.status)


class GameDetailApi(GamesApi):
    """A game: meta, players, the table (whose turn, what is legal), result and events."""

    @extend_schema(responses=GameDetailSerializer)
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game_for(request, game_id, Role.MEMBER)
        return Response(game_detail_data(game))


class GameAppendAnswerSerializer(GameDetailSerializer):
    """The answer to an append: the game as ``GET /api/games/{id}/`` shows it after the append.

    ``state``, ``result``, ``status`` and ``last_seq`` are always those after the
    append. ``events`` holds every event of the game by default; a request with
    ``"answer": "new"`` gets only the events it appended (``seq`` from
    ``expected_seq + 1`` to ``last_seq``), which is what the recording page asks
    for: it already has the others, and a long game's whole stream in every
    answer (and in its stored idempotent copy) is most of an append's cost.
    """

    events = GameEventOutputSerializer(
        many=True,
        help_text=(
            'Every event of the game; with "answer": "new" only the appended ones '
            "(seq expected_seq + 1 .. last_seq)."
        ),
    )


class GameEventAppendApi(GamesApi):
    """Record events: ``expected_seq`` is the ``last_seq`` the client saw.

    409 with ``current_seq`` if someone recorded in between; 422 with the
    engine's error if the record would become invalid (nothing is written; the
    error's ``index`` counts the stored events first, ``event_offset`` of them).
    """

    class InputSerializer(serializers.Serializer[Any]):
        expected_seq = serializers.IntegerField(min_value=0, max_value=MAX_SEQ)
        events = serializers.ListField(
            child=serializers.DictField(),
            min_length=1,
            max_length=MAX_EVENTS_PER_REQUEST,
            help_text="Event objects as in the record format (spec/event-stream.md).",
        )
        answer = serializers.ChoiceField(
            choices=[("full", "full"), ("new", "new")],
            required=False,
            default="full",
            help_text=(
                "full (default): the answer lists every event of the game; new: only the "
                "events this request appended (the rest of the answer is the same)."
            ),
        )
        dry_run = serializers.BooleanField(
            required=False,
            default=False,
            help_text=(
                "true: judge the events as for a real append and answer (200) with the game as "
                "it would be; nothing is written (no event, no idempotency record, no ledger)."
            ),
        )
        correct = serializers.IntegerField(
            min_value=0,
            required=False,
            allow_null=True,
            default=None,
            help_text=(
                "Correct an entry found wrong in hindsight: the position of the stored "
                "event (as the engine's error index names it) that events[0] replaces. "
                "The append undoes back to it, appends events[0], the later events "
                "again and then events[1:] — all or nothing."
            ),
        )
        stop_at_misfit = serializers.BooleanField(
            required=False,
            default=False,
            help_text=(
                "With correct and one event: where a later entry no longer fits the "
                "corrected game, stop before it (the answer's left_out lists it and the "
                "ones after, misfit the engine's error) instead of refusing it all."
            ),
        )

        def validate_events(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
            for i, event in enumerate(events):
                if has_nul(event):
                    raise serializers.ValidationError(
                        _("Event %(i)d contains a NUL character.") % {"i": i}
                    )
                if json_size(event) > MAX_EVENT_BYTES:
                    raise serializers.ValidationError(
                        _("Event %(i)d is larger than %(n)d bytes.")
                        % {"i": i, "n": MAX_EVENT_BYTES}
                    )
            return events

    @extend_schema(
        request=InputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            200: GameAppendAnswerSerializer,
            201: GameAppendAnswerSerializer,
            409: ConflictSerializer,
            422: EngineRejectionSerializer,
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        try:
            key = self.idempotency_key(request)
            serializer.is_valid(raise_exception=True)
        except serializers.ValidationError:
            # Who may not record here learns only that (404/403), not what was wrong
            # with his input; the check is a query of its own, so only for bad input.
            self.game_for(request, game_id, Role.SCORER)
            raise
        data = serializer.validated_data
        # A 422's sentence names the evening's players and the club's cards (read then).
        self.error_context = lambda: _game_names_and_face(game_id)
        if data["stop_at_misfit"] and data.get("correct") is not None and not data["dry_run"]:
            return self._replace(request, game_id, data, key)
        appended = services.game_events_append(
            game=game_id,
            user=request.user,
            expected_seq=data["expected_seq"],
            events=[dict(event) for event in data["events"]],
            correct=data.get("correct"),
            idempotency_key=key,
            fingerprint=self.fingerprint(request) if key is not None else "",
            answer=data["answer"],
            min_role=Role.SCORER,
            dry_run=data["dry_run"],
        )
        if appended.answer is not None:  # the answer stored for the key, maybe the first one
            return Response(appended.answer.body, status=appended.answer.status)
        status_code = status.HTTP_200_OK if data["dry_run"] else status.HTTP_201_CREATED
        return Response(
            appended_data(appended, answer=data["answer"], names=appended.names),
            status=status_code,
        )

    def _replace(
        self, request: Request, game_id: int, data: dict[str, Any], key: str | None
    ) -> Response:
        """An entry replaced, the later ones entered again up to the first that no longer
        fits (``services.game_entry_replace``)."""
        events = [dict(event) for event in data["events"]]
        if len(events) != 1:
            raise serializers.ValidationError(
                {"events": [_("Replacing an entry takes exactly one event.")]}
            )
        replaced = services.game_entry_replace(
            game=game_id,
            user=request.user,
            expected_seq=data["expected_seq"],
            index=data["correct"],
            replacement=events[0],
            idempotency_key=key,
            fingerprint=self.fingerprint(request) if key is not None else "",
            answer=data["answer"],
            min_role=Role.SCORER,
        )
        appended = replaced.appended
        if appended.answer is not None and appended.answer.replayed:
            return Response(appended.answer.body, status=appended.answer.status)
        body = appended_data(appended, answer=data["answer"], names=appended.names)
        body["left_out"] = replaced.left_out
        body["misfit"] = replaced.error
        body["misfit_detail"] = self.engine_detail(replaced.error) if replaced.error else ""
        return Response(body, status=status.HTTP_201_CREATED)


# --- Records out ----------------------------------------------------------------------------


class GameRecordApi(GamesApi):
    """The game as the spec's record (players as ids), a legend of names and its result."""

    @extend_schema(responses=ExportSerializer)
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game_for(request, game_id, Role.MEMBER)
        return Response(selectors.game_export(game=game))


class EveningRecordsApi(GamesApi):
    """Every game of the evening as records (the same shape as one game's record)."""

    @extend_schema(responses=inline_serializer("GameExportList", {}, many=True))
    def get(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.MEMBER)
        return Response(selectors.game_exports(games=selectors.evening_games(evening=evening)))


class SeasonRecordsApi(GamesApi):
    """Every game of the season as records, by evening date and game number."""

    @extend_schema(responses=inline_serializer("SeasonGameExportList", {}, many=True))
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        club = membership_for(request.user, slug).club
        try:
            season = club_selectors.season_get(club=club, season_id=season_id)
        except ObjectDoesNotExist:
            raise Http404 from None
        return Response(selectors.game_exports(games=selectors.season_games(season=season)))


# --- Records in -----------------------------------------------------------------------------


class EveningImportApi(GamesApi):
    """Import records as new games of the evening, all-or-nothing per record.

    The answer reports each record: imported (game id, status, result) or
    rejected (reason, and the engine's error where it judged the record). It
    is a 200 if any record was imported, a 422 if every record was rejected.

    The body is one record, an array of records (≤ 500), exported entries
    (``{"record", "players", "result"}``), or ``{"records": [...], "players":
    {name: player_id}}`` to say which player a name stands for. Unmapped names
    are matched (case-insensitively) against the seated players, then the club's.
    """

    class InputSerializer(serializers.Serializer[Any]):
        records = serializers.ListField(
            child=serializers.JSONField(), min_length=1, max_length=services.MAX_IMPORT_RECORDS
        )
        players = serializers.DictField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
            required=False,
            default=dict,
        )

    OutcomeSerializer = inline_serializer(
        "ImportOutcome",
        {
            "index": serializers.IntegerField(),
            "status": serializers.CharField(help_text="imported or rejected"),
            "game": serializers.IntegerField(required=False),
            "game_status": serializers.CharField(required=False),
            "result": serializers.JSONField(required=False),
            "reason": serializers.CharField(required=False),
            "detail": serializers.CharField(required=False),
            "error": serializers.JSONField(required=False),
            "unknown_players": serializers.ListField(child=serializers.CharField(), required=False),
        },
        many=True,
    )

    ImportReportSerializer = inline_serializer(
        "ImportReport",
        {
            "imported": serializers.IntegerField(),
            "rejected": serializers.IntegerField(),
            "results": OutcomeSerializer,
        },
    )

    @extend_schema(
        request=InputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            200: ImportReportSerializer,
            409: ConflictSerializer,
            # Every record rejected (the report), or refused before any was judged.
            422: PolymorphicProxySerializer(
                component_name="ImportRefusal",
                serializers=[ImportReportSerializer, RefusalSerializer],
                resource_type_field_name=None,
            ),
        },
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        key = self.idempotency_key(request)
        body = request.data
        if isinstance(body, list):
            body = {"records": body}
        elif isinstance(body, dict) and "records" not in body:
            body = {"records": [body]}
        serializer = self.InputSerializer(data=body)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        check_import_records(data["records"])

        def work() -> tuple[int, Any]:
            outcomes = services.games_import(
                evening=evening, user=request.user, records=data["records"], players=data["players"]
            )
            results = []
            for outcome in outcomes:
                if outcome.imported and outcome.game is not None:
                    results.append(
                        {
                            "index": outcome.index,
                            "status": "imported",
                            "game": outcome.game.pk,
                            "game_status": outcome.game.status,
                            "result": outcome.game.result,
                        }
                    )
                else:
                    row: dict[str, Any] = {
                        "index": outcome.index,
                        "status": "rejected",
                        "reason": outcome.reason,
                        "detail": outcome.detail,
                    }
                    if outcome.error is not None:
                        row["error"] = outcome.error
                    if outcome.unknown_players:
                        row["unknown_players"] = outcome.unknown_players
                    results.append(row)
            imported = sum(1 for outcome in outcomes if outcome.imported)
            # Nothing usable at all is an unprocessable request; any import is a 200.
            code = (
                status.HTTP_422_UNPROCESSABLE_ENTITY
                if outcomes and not imported
                else status.HTTP_200_OK
            )
            return code, {
                "imported": imported,
                "rejected": len(outcomes) - imported,
                "results": results,
            }

        answer = services.idempotent_call(
            user=request.user,
            key=key,
            fingerprint=self.fingerprint(request),
            lock=lambda: services.evening_lock(evening=evening),
            work=work,
        )
        return Response(answer.body, status=answer.status)
