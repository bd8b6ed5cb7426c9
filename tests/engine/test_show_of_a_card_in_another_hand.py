"""A ``show`` that breaks two rules at once gets the first code of the spec's table
(event-stream.md, "Error codes"): a card another hand holds is ``card_not_in_hand``
even when that hand has already shown it; ``card_already_played`` wins only for a card
played before, or a card the same player shows again."""

from __future__ import annotations

from tests.engine.records import (
    FOUR,
    HANDS4,
    HANDS5,
    bid,
    call,
    deal,
    error_of,
    fuchsen,
    koenig,
    pass_,
    play,
    show,
)


def test_a_show_of_a_card_dealt_to_another_player_who_showed_it_is_card_not_in_hand() -> None:
    # carl was dealt E10 and shows it; then dora shows E10 too.
    result = fuchsen(
        deal(hands=HANDS5), call("bert", "E10"), show("carl", "E10"), show("dora", "E10")
    )
    assert error_of(result) == (3, "card_not_in_hand")
    assert result.error is not None and result.error.params["other"] == "carl"


def test_a_show_of_a_card_another_player_showed_without_hands_is_card_not_in_hand() -> None:
    result = fuchsen(deal(), call("bert", "E10"), show("carl", "E10"), show("dora", "E10"))
    assert error_of(result) == (3, "card_not_in_hand")


def test_a_show_of_a_card_dealt_to_another_player_who_played_it_is_card_already_played() -> None:
    result = fuchsen(
        deal(hands=HANDS5),
        call("bert", "E10"),
        play("bert", "EA"),
        play("carl", "E10"),
        show("dora", "E10"),
    )
    assert error_of(result) == (4, "card_already_played")


def test_a_player_who_shows_his_own_card_twice_is_told_it_was_shown() -> None:
    result = fuchsen(
        deal(hands=HANDS5), call("bert", "E10"), show("carl", "E10"), show("carl", "E10")
    )
    assert error_of(result) == (3, "card_already_played")
    assert result.error is not None and "already shown" in result.error.message


def test_in_koenigrufen_too_the_other_hand_comes_before_the_earlier_show() -> None:
    auction = [bid("bert", "zehnermord"), pass_("carl"), pass_("dora"), pass_("anna")]
    result = koenig(deal(FOUR, hands=HANDS4), *auction, show("carl", "EO"), show("dora", "EO"))
    assert error_of(result) == (6, "card_not_in_hand")
