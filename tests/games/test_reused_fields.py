"""The append's input serializer copies its fields once per thread and still judges
every request on its own, exactly as DRF's plain serializer does."""

from __future__ import annotations

import threading
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from games.apis import MAX_EVENTS_PER_REQUEST, MAX_SEQ, GameEventAppendApi
from stichbuch.api import ReusedFieldsSerializer

Reused = GameEventAppendApi.InputSerializer


class Plain(serializers.Serializer[Any]):
    """The same fields on DRF's own serializer (a fresh copy per instance)."""

    expected_seq = serializers.IntegerField(min_value=0, max_value=MAX_SEQ)
    events = serializers.ListField(
        child=serializers.DictField(), min_length=1, max_length=MAX_EVENTS_PER_REQUEST
    )
    answer = serializers.ChoiceField(
        choices=[("full", "full"), ("new", "new")], required=False, default="full"
    )
    dry_run = serializers.BooleanField(required=False, default=False)
    correct = serializers.IntegerField(min_value=0, required=False, allow_null=True, default=None)

    def validate_events(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return Reused.validate_events(self, events)  # type: ignore[arg-type]


def _judged(serializer_class: type[serializers.Serializer[Any]], data: Any) -> Any:
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return "valid", serializer.validated_data
    return "invalid", serializer.errors


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "expected_seq": st.one_of(st.integers(-3, 10**20), json_values),
            "events": st.one_of(
                st.lists(st.dictionaries(st.sampled_from(["type", "card"]), json_values)),
                json_values,
            ),
            "answer": st.one_of(st.sampled_from(["full", "new", "half"]), json_values),
            "dry_run": st.one_of(st.booleans(), json_values),
        },
    ),
)


@settings(max_examples=300)
@given(first=bodies, second=bodies)
def test_each_request_is_judged_as_drfs_own_serializer_judges_it(first: Any, second: Any) -> None:
    # Two requests in a row on one thread: the second is judged on its own.
    assert _judged(Reused, first) == _judged(Plain, first)
    assert _judged(Reused, second) == _judged(Plain, second)


def test_the_threads_copy_is_bound_to_each_new_instance() -> None:
    one = Reused(data={"expected_seq": 1, "events": [{"type": "play"}]})
    one_fields = one.fields
    two = Reused(data={"expected_seq": 2, "events": [{"type": "play"}]})
    assert two.fields.fields is one_fields.fields  # the same field objects: not copied again
    for field in two.fields.values():
        assert field.parent is two and field.root is two
    events = two.fields["events"]
    assert isinstance(events, serializers.ListField) and events.child.root is two
    assert two.is_valid() and two.validated_data["expected_seq"] == 2


def test_each_thread_copies_the_fields_for_itself() -> None:
    here = Reused(data={}).fields
    seen: list[Any] = []
    thread = threading.Thread(target=lambda: seen.append(Reused(data={}).fields))
    thread.start()
    thread.join()
    assert seen and seen[0]["events"] is not here["events"]


def test_a_class_of_its_own_gets_fields_of_its_own() -> None:
    class Other(ReusedFieldsSerializer):
        events = serializers.IntegerField()

    assert isinstance(Other(data={}).fields["events"], serializers.IntegerField)
    assert isinstance(Reused(data={}).fields["events"], serializers.ListField)
