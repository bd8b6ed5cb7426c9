"""A player's statistics over a small fixed evening of each game, recorded through
the real services from the shared examples, against figures worked out by hand.

The Fuchsen evening (anna, bert, carl, dora, emil; anna deals every game):

G1 = example 04: bert Macher, carl Hilfer (E10); bert EO, carl RA, dora R10, kontra
     (dora), re (carl), emil R9, anna R7, end of the raising; played out at re, won
     without Stilles Spiel: bert +40, carl +20, anna, dora, emil -20.
     Chances by hand: dora kontra (said) and supp (lapsed at emil's card) = 2, said 1;
     re was open to bert and carl, carl said it: carl 1 said 1, bert 0; supp was open
     to emil until anna's card and to anna until the end: 1 each, none said.
G2 = example 07: the same first trick and raising (so the same chances), then bert
     and carl take every trick: Stilles Spiel, bert +60, carl +30, the others -30.
G3 = example 08: dora Macher calls S10, carl holds it and GO and plays GO without
     "Fuchs": forgotten Fuchs (carl forgot it), dora -40, carl -20, the others +20.
     Chances: bert (GA) kontra until carl's card, emil (R8) until anna's card, anna
     (G8) until the end of the raising: 1 each, none said; carl, dora none.
G4 = tally example 62: a pure tally at supp with Stilles Spiel, carl named Hilfer:
     bert +70, carl +35, the others -35. Nothing of the first trick is recorded: no
     raises to count (so the raises are "from 3 of 4 games").

So carl: 4 games as Hilfer, 3 won, net 20 + 30 - 20 + 35 = 65; values 20, 30, 20, 35:
average 26.25; Stilles Spiel for him 2 (G2, G4) of the 3 games decided by play (G1,
G2, G4), against 0; forgot the Fuchs once (G3, -20); raises said 2 of 2 chances
(100 %) from 3 of 4 games. dora: Stilles Spiel against 2; her Hilfer forgot it once
(-40); raises 2 of 4 chances (50 %). anna: an opponent's Hilfer forgot it once
(+20); 0 of 3 chances (0 %). bert: 0 of 1 chance.

The Königrufen evening (anna, bert, carl, dora; anna deals): example 19 (bert's
Bettler won, +90), 22 (bert's Durchmarsch with carl won, +40 each), 23 (the same
lost, -40 each), 38 (Schurln, bert loses -30, the others +10). bert: Bettler 1 game
won +90, Durchmarsch 2 games 1 won net 0, Schurln lost 1; 4 games, 2 won, net 60;
values 30, 40, 40, 10: average 30. carl: no contract of his own (a partner in 22
and 23), Schurln lost 0, net -30 + 40 - 40 + 10 = -20.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from clubs.models import GameKind
from games import services as games
from games.models import Game
from ledger import selectors
from tests.conftest import PersonaClient
from tests.ledger.factories import Table, make_table
from tests.ledger.test_recording_integration import renamed
from tests.reference import EXAMPLES

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
NAMES = ["anna", "bert", "carl", "dora", "emil"]


def _evening(club: Any, players: int, game_kind: str) -> Table:
    table = make_table(club=club, players=players, game_kind=game_kind)
    evening = games.evening_create(
        club=table.club, user=None, season=table.season, players=[p.pk for p in table.players]
    )
    return Table(table.club, table.season, evening, table.players)


def _record(table: Table, name: str) -> Game:
    path = EXAMPLES / f"{name}.json"
    example = json.loads(path.read_text(encoding="utf-8"))
    ids = {n: table.pk(i) for i, n in enumerate(NAMES[: len(table.players)])}
    events = renamed(example["record"]["events"], ids)
    game = games.game_started(evening=table.evening, user=None, events=events).game
    assert game.status == Game.Status.FINISHED, name
    return game


def _fuchsen_evening(club: Any, capture: Capture) -> Table:
    table = _evening(club, 5, GameKind.FUCHSEN)
    with capture(execute=True):
        for name in (
            "04-fuchsen-re-played-out-won",
            "07-fuchsen-stilles-spiel",
            "08-fuchsen-fuchs-forgotten-hands",
            "tally/62-tally-fuchsen-pure-silent",
        ):
            _record(table, name)
    return table


def _figures(table: Table, who: str) -> dict[str, Any]:
    player = table.players[NAMES.index(who)].pk
    return selectors.player_statistics(player_id=player, season=table.season)


def test_the_fuchsen_evening_gives_the_hand_counted_figures(
    club: Any, django_capture_on_commit_callbacks: Capture
) -> None:
    table = _fuchsen_evening(club, django_capture_on_commit_callbacks)
    carl = _figures(table, "carl")
    assert (carl["games"], carl["wins"], carl["net"]) == (4, 3, 65)
    assert carl["roles"]["hilfer"] == {"games": 4, "wins": 3, "net": 65}
    assert carl["average_value"] == 26.25
    assert carl["silent_game"] == {"for": 2, "against": 0, "games": 3}
    assert carl["forgotten_fuchs"] == {
        "forgot": {"games": 1, "net": -20},
        "partner_forgot": {"games": 0, "net": 0},
        "opponent_forgot": {"games": 0, "net": 0},
    }
    assert carl["raises"] == {"said": 2, "chances": 2, "per_cent": 100.0, "games": 3}

    dora = _figures(table, "dora")
    assert dora["silent_game"] == {"for": 0, "against": 2, "games": 3}
    assert dora["forgotten_fuchs"]["partner_forgot"] == {"games": 1, "net": -40}
    assert dora["raises"] == {"said": 2, "chances": 4, "per_cent": 50.0, "games": 3}

    anna = _figures(table, "anna")
    assert anna["forgotten_fuchs"]["opponent_forgot"] == {"games": 1, "net": 20}
    assert anna["raises"] == {"said": 0, "chances": 3, "per_cent": 0.0, "games": 3}

    bert = _figures(table, "bert")
    assert bert["silent_game"] == {"for": 2, "against": 0, "games": 3}
    assert bert["raises"] == {"said": 0, "chances": 1, "per_cent": 0.0, "games": 3}


def test_the_koenigrufen_evening_gives_the_hand_counted_figures(
    club: Any, django_capture_on_commit_callbacks: Capture
) -> None:
    table = _evening(club, 4, GameKind.KOENIGRUFEN)
    with django_capture_on_commit_callbacks(execute=True):
        for name in (
            "19-koenig-bettler-won",
            "22-koenig-durchmarsch-won",
            "23-koenig-durchmarsch-lost",
            "38-koenig-schurln-one-loser",
        ):
            _record(table, name)
    bert = _figures(table, "bert")
    assert (bert["games"], bert["wins"], bert["net"]) == (4, 2, 60)
    assert bert["contracts"] == {
        "bettler": {"games": 1, "won": 1, "net": 90},
        "durchmarsch": {"games": 2, "won": 1, "net": 0},
    }
    assert bert["schurln_lost"] == 1
    assert bert["average_value"] == 30.0
    assert "raises" not in bert  # no raising in Königrufen
    carl = _figures(table, "carl")
    assert carl["contracts"] == {} and carl["schurln_lost"] == 0 and carl["net"] == -20


def test_the_api_and_the_player_page_give_the_figures_of_the_evening(
    club: Any, member: PersonaClient, django_capture_on_commit_callbacks: Capture
) -> None:
    table = _fuchsen_evening(club, django_capture_on_commit_callbacks)
    carl = table.players[NAMES.index("carl")].pk
    answer = member.get(
        f"/api/clubs/{club.slug}/seasons/{table.season.pk}/players/{carl}/statistics/"
    )
    assert answer.status_code == 200
    figures = answer.json()["statistics"]
    assert figures["raises"] == {"said": 2, "chances": 2, "per_cent": 100.0, "games": 3}
    assert figures["silent_game"]["for"] == 2
    assert "not_recorded" not in figures
    url = reverse("player-page", args=[club.slug, carl])
    page = member.get(f"{url}?season={table.season.pk}").content.decode()
    assert "Stilles Spiel: 2 für ihn, 0 gegen ihn, von 3 ausgespielten Spielen." in page
    assert "Fuchs vergessen: selbst 1×" in page
    assert "Gefahren: 2 von 2 Gelegenheiten (100 %), aus 3 von 4 Spielen." in page
