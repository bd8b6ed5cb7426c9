"""Output serializers the games API's views share (and the schema names)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from games import selectors
from games.models import Evening, EveningSeat, Game

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


ExportSerializer = inline_serializer(
    "GameExport",
    {
        "record": serializers.JSONField(help_text="The spec's record; players as ids."),
        "players": serializers.DictField(child=serializers.CharField()),
        "result": serializers.JSONField(),
    },
)
