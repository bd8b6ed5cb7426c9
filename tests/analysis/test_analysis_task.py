"""The analysis task with the engine itself: run in-process (no broker) when a game
finishes, idempotent, again when the game changes, "zu aufwendig" past its budget,
rebuilt by ``rebuild_projections``; the API and the page answer what it stored."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

import engine
from analysis import services
from analysis.models import GameAnalysis, PlayerCardFigures
from analysis.tasks import REPAIR_WINDOW, analyse_game, repair_analyses
from clubs.models import GameKind, Player
from games import selectors as game_selectors
from games import services as games
from games.models import Evening, Game
from tests.analysis.records import LOST_IN_TRICK_2
from tests.conftest import PersonaClient
from tests.engine._shared import EXAMPLES
from tests.games import records
from tests.games.factories import NAMES, ids, seated_evening

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def play_out(evening: Evening, players: dict[str, Player]) -> Game:
    """Record shared example 04 card by card: the deal, then the rest in one append."""
    events = ids(records.RE_PLAYED_OUT, players)["events"]
    game = games.game_start(evening=evening, user=None, deal=events[0])
    return games.game_events_append(game=game, user=None, expected_seq=1, events=events[1:]).game


def test_a_game_played_out_is_analysed_in_process_once_its_last_card_commits(
    evening: Evening, players: dict[str, Player], django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = play_out(evening, players)
    analysis = GameAnalysis.objects.get(game=game)
    assert analysis.status == GameAnalysis.Status.ANALYSED
    assert analysis.seq == game.last_seq
    plays = [e for e in records.RE_PLAYED_OUT["events"] if e["type"] == "play"]
    assert len(analysis.answer["cards"]) == len(plays) == len(analysis.figures["cards"])
    # The engine's answer, stored as it gave it, and its figures beside it.
    record = game_selectors.game_record(game=game)
    assert analysis.answer == engine.analyse(record)
    assert analysis.figures["start"] == analysis.answer["cards"][0]["before"]
    assert analysis.duration_ms is not None
    rows = PlayerCardFigures.objects.filter(analysis=analysis)
    seated = {p.pk for name, p in players.items() if name != "franz"}
    assert {row.player_id for row in rows} == seated


def test_the_task_leaves_an_analysis_at_the_current_seq_alone(
    played_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = services.game_analyse(game_id=played_game.pk)
    assert first is not None and first.status == GameAnalysis.Status.ANALYSED
    calls: list[Any] = []

    def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append(args)
        return {}

    monkeypatch.setattr(engine, "analyse", counted)
    assert analyse_game.apply(args=(played_game.pk,)).get() == "analysed"
    assert calls == []
    again = GameAnalysis.objects.get(game=played_game)
    assert again.analysed_at == first.analysed_at


def test_a_change_to_a_finished_game_drops_its_analysis_and_analyses_it_again(
    played_game: Game, as_ids: Any, django_capture_on_commit_callbacks: Capture
) -> None:
    services.game_analyse(game_id=played_game.pk)
    last = records.RE_PLAYED_OUT["events"][-1]
    with django_capture_on_commit_callbacks(execute=True):
        undone = games.game_events_append(
            game=played_game,
            user=None,
            expected_seq=played_game.last_seq,
            events=[{"type": "undo"}],
        ).game
    assert undone.status == Game.Status.IN_PROGRESS
    assert not GameAnalysis.objects.filter(game=played_game).exists()
    with django_capture_on_commit_callbacks(execute=True):
        again = games.game_events_append(
            game=undone, user=None, expected_seq=undone.last_seq, events=as_ids([last])
        ).game
    analysis = GameAnalysis.objects.get(game=played_game)
    assert analysis.status == GameAnalysis.Status.ANALYSED and analysis.seq == again.last_seq


def test_a_deal_past_its_time_budget_is_stored_as_too_costly(played_game: Game) -> None:
    analysis = services.game_analyse(game_id=played_game.pk, budget=-1)
    assert analysis is not None and analysis.status == GameAnalysis.Status.TOO_COSTLY
    assert analysis.answer == {} and analysis.figures == {}
    # Too costly is a result at this seq: the task does not try again by itself.
    assert services.game_analyse(game_id=played_game.pk) == analysis


def test_a_tally_only_game_is_stored_as_not_analysable_because_no_cards_were_played(
    tally_game: Game,
) -> None:
    analysis = services.game_analyse(game_id=tally_game.pk)
    assert analysis is not None and analysis.status == GameAnalysis.Status.NOT_ANALYSABLE
    assert analysis.reason == "no_play"
    assert not PlayerCardFigures.objects.filter(analysis=analysis).exists()


def test_a_lost_claim_is_taken_over_but_a_fresh_one_is_left_to_its_worker(
    played_game: Game,
) -> None:
    GameAnalysis.objects.create(
        game=played_game, seq=played_game.last_seq, status=GameAnalysis.Status.PENDING
    )
    fresh = services.game_analyse(game_id=played_game.pk)
    assert fresh is not None and fresh.status == GameAnalysis.Status.PENDING
    GameAnalysis.objects.filter(game=played_game).update(
        started_at=fresh.started_at.replace(year=2000)
    )
    taken = services.game_analyse(game_id=played_game.pk)
    assert taken is not None and taken.status == GameAnalysis.Status.ANALYSED


def test_rebuild_projections_analyses_the_games_left_without_one(
    played_game: Game, tally_game: Game
) -> None:
    assert not GameAnalysis.objects.exists()
    call_command("rebuild_projections", stdout=open("/dev/null", "w"))  # noqa: SIM115
    statuses = dict(GameAnalysis.objects.values_list("game_id", "status"))
    assert statuses == {
        played_game.pk: GameAnalysis.Status.ANALYSED,
        tally_game.pk: GameAnalysis.Status.NOT_ANALYSABLE,
    }
    call_command("rebuild_projections", "--skip-analyses", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert GameAnalysis.objects.count() == 2


def test_the_api_answers_the_engines_analysis_of_the_game(
    member: PersonaClient, played_game: Game
) -> None:
    services.game_analyse(game_id=played_game.pk)
    body = member.get(f"/api/games/{played_game.pk}/analysis/").json()
    assert body["state"] == "analysed"
    assert body["answer"] == engine.analyse(game_selectors.game_record(game=played_game))
    assert body["figures"]["cards"][0]["index"] == body["answer"]["cards"][0]["index"]


def test_the_page_shows_the_engines_analysis_in_german(
    member: PersonaClient, played_game: Game
) -> None:
    services.game_analyse(game_id=played_game.pk)
    html = member.get(f"/games/{played_game.pk}/analysis/").content.decode()
    assert "Mit bestem Spiel beider Seiten ab der ersten Karte:" in html
    assert html.count('class="mark"') == 30
    assert "Beste Karten:" in html


def test_the_page_names_where_the_engine_found_the_game_lost(
    member: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    events = ids(LOST_IN_TRICK_2, players)["events"]
    game = games.game_started(evening=evening, user=None, events=events).game
    services.game_analyse(game_id=game.pk)
    html = " ".join(member.get(f"/games/{game.pk}/analysis/").content.decode().split())
    assert (
        "Hier wurde das Spiel verloren: Stich 2, Dora spielt Eichel-Unter — mit Schellen-Neuner "
        "hätte die Machermannschaft 69 statt 43 Augen gemacht." in html
    )
    # With 69 Augen for the Macher's side after trick 1, Bert's Kontra went against the cards.
    assert "Kontra (Bert) war falsch: mit bestem Spiel 69 Augen für den Macher." in html
    assert "Re (Carl) war richtig: mit bestem Spiel 69 Augen für den Macher." in html
    evening_html = " ".join(member.get(f"/evenings/{evening.pk}/").content.decode().split())
    assert "Wendepunkte des Abends" in evening_html
    assert "Stich 2, Dora spielt Eichel-Unter" in evening_html


def test_an_import_without_a_broker_leaves_its_analyses_to_the_rebuild(
    evening: Evening, players: dict[str, Player], django_capture_on_commit_callbacks: Capture
) -> None:
    # An import names players by their display names.
    shown = {name: player.display_name for name, player in players.items()}
    played = games._renamed_record(records.RE_PLAYED_OUT, shown)
    with django_capture_on_commit_callbacks(execute=True):
        outcomes = games.games_import(evening=evening, user=None, records=[played, played])
    assert all(outcome.imported for outcome in outcomes), [o.detail for o in outcomes]
    assert not GameAnalysis.objects.exists()
    call_command("rebuild_analyses", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert GameAnalysis.objects.filter(status=GameAnalysis.Status.ANALYSED).count() == 2


def test_the_repair_enqueues_the_games_left_behind_but_not_one_a_worker_holds(
    played_game: Game, tally_game: Game
) -> None:
    GameAnalysis.objects.create(
        game=tally_game, seq=tally_game.last_seq, status=GameAnalysis.Status.PENDING
    )
    assert repair_analyses.apply().get() == [played_game.pk]
    assert GameAnalysis.objects.get(game=played_game).status == GameAnalysis.Status.ANALYSED
    assert GameAnalysis.objects.get(game=tally_game).status == GameAnalysis.Status.PENDING
    assert repair_analyses.apply().get() == []


def test_an_analysis_of_a_game_that_changed_meanwhile_is_not_stored(
    played_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = engine.analyse

    def while_a_scorer_takes_the_last_card_back(record: Any, **kwargs: Any) -> dict[str, Any]:
        answer: dict[str, Any] = real(record, **kwargs)
        game = Game.objects.get(pk=played_game.pk)
        games.game_events_append(
            game=game, user=None, expected_seq=game.last_seq, events=[{"type": "undo"}]
        )
        return answer

    monkeypatch.setattr(engine, "analyse", while_a_scorer_takes_the_last_card_back)
    assert services.game_analyse(game_id=played_game.pk) is None
    assert not GameAnalysis.objects.filter(
        game=played_game, status=GameAnalysis.Status.ANALYSED
    ).exists()


def test_the_players_rows_hold_what_the_engine_says_his_cards_cost(
    evening: Evening, players: dict[str, Player]
) -> None:
    events = ids(LOST_IN_TRICK_2, players)["events"]
    game = games.game_started(evening=evening, user=None, events=events).game
    analysis = services.game_analyse(game_id=game.pk)
    assert analysis is not None
    expected = engine.analysis.player_figures(analysis.answer)
    rows = {
        row.player_id: (row.cards, row.best, row.augen_given)
        for row in PlayerCardFigures.objects.filter(analysis=analysis)
    }
    assert rows == {
        int(pid): (f["cards"], f["best"], f["given_away"]) for pid, f in expected.items()
    }
    # Dora's Eichel-Unter in trick 2 alone gave 26 Augen away.
    assert rows[players["dora"].pk][2] >= 26


def test_a_koenigrufen_page_names_the_higher_contract_the_hand_would_have_made(
    member: PersonaClient, club: Any, players: dict[str, Player]
) -> None:
    shared = json.loads(next(EXAMPLES.glob("22-*.json")).read_text(encoding="utf-8"))
    evening = seated_evening(club, NAMES[:4], game_kind=GameKind.KOENIGRUFEN)
    events = ids(shared["record"], players)["events"]
    game = games.game_started(evening=evening, user=None, events=events).game
    analysis = services.game_analyse(game_id=game.pk)
    assert analysis is not None and analysis.status == GameAnalysis.Status.ANALYSED
    html = " ".join(member.get(f"/games/{game.pk}/analysis/").content.decode().split())
    assert "Mit diesen Karten wäre Königmord gegangen." in html
    assert "wäre Durchmarsch gegangen." in html
    assert html.count('<span class="mark">=</span>') == len(analysis.answer["cards"])


def test_an_annulled_game_loses_its_analysis_and_says_why(
    member: PersonaClient, played_game: Game, django_capture_on_commit_callbacks: Capture
) -> None:
    services.game_analyse(game_id=played_game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        games.game_events_append(
            game=played_game,
            user=None,
            expected_seq=played_game.last_seq,
            events=[{"type": "annul"}],
        )
    assert not GameAnalysis.objects.filter(game=played_game).exists()
    html = member.get(f"/games/{played_game.pk}/analysis/").content.decode()
    assert "Das Spiel wurde annulliert" in html
    assert member.get(f"/api/games/{played_game.pk}/analysis/").json()["state"] == "annulled"


def test_the_repair_leaves_games_finished_long_ago_to_the_rebuild(played_game: Game) -> None:
    Game.objects.filter(pk=played_game.pk).update(
        finished_at=timezone.now() - REPAIR_WINDOW - timedelta(hours=1)
    )
    assert repair_analyses.apply().get() == []
    assert not GameAnalysis.objects.exists()
