""" "Ergebnis eintragen" as a class with named steps: what the page posted (``Choices``)
and the form that the steps build from it (``TallyForm``).

The steps, in the order a deal is told: the dealer (``choose_dealer``), the contract
(``choose_contract``: for Fuchsen the Macher and his called card,
``games.tally_fuchsen.FuchsenTallyForm``;
for Königrufen the declarer, his contract, the called card and a joiner, or the whole
auction, ``games.tally_koenig.KoenigTallyForm``), then the tally's questions
(``ask_tally``: the ``partner``, the ``level``, the outcome ``won`` and the ``extras``),
the labels (``decorate``), the ``preview`` (the services' dry run) and ``save``.

What each step offers comes from the engine's table view of the record so far (its
``legal`` moves and its ``tally`` fields) and the payouts from the services' dry run:
no rule of the games is written here.

The form's state travels in hidden fields; each choice is a submit button
``pick`` = ``"field:value"`` laid over that state, so the last tap always wins
whatever order a browser sends the fields in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext as _

from clubs.models import Club
from games import selectors
from games.access import player_names
from games.engine_text import explain
from games.errors import EngineRejected, GamesError
from games.game_values import record_silent, value_text
from games.vocabulary import error_titles, level_names, signed_money

FIELDS = (
    "dealer",
    "macher",
    "called",
    "partner",
    "level",
    "won",
    "augen",
    "silent",
    "fuchs",
    "forgotten",
    "auction",
    "losers",
    # Königrufen's quick result: who played what (and who joined), the auction left to
    # the engine; "full": the whole auction tapped bid by bid instead.
    "declarer",
    "contract",
    "joiner",
    "full",
)

# A choice that makes another call or deal: what the table view offered after it may differ.
_RESETS = ("macher", "called", "dealer", "declarer", "contract", "joiner")


@dataclass
class Choices:
    """What the page posted: the state so far (hidden fields) with the last tap laid over it."""

    values: dict[str, str]

    @classmethod
    def from_post(cls, data: QueryDict) -> Choices:
        values = {k: str(data.get(k, "")) for k in FIELDS}
        if "augen-typed" in data:  # the number pad, when drawn, holds the Augen
            values["augen"] = str(data.get("augen-typed", "")).strip()[:3]
        name, _sep, value = str(data.get("pick", "")).partition(":")
        choices = cls(values)
        choices.tap(name, value)
        return choices

    def tap(self, name: str, value: str) -> None:
        """Lay one tap (``pick`` = ``name:value``) over the choices so far."""
        values = self.values
        if name == "auction":
            steps = [s for s in values["auction"].split("|") if s]
            steps = steps[:-1] if value == "back" else [*steps, value]
            values["auction"] = "|".join(steps)
            # A changed auction makes its outcome a new question.
            for later in ("won", "partner", "losers"):
                values[later] = ""
        elif name == "losers":
            chosen = [p for p in values["losers"].split(",") if p]
            chosen = [p for p in chosen if p != value] if value in chosen else [*chosen, value]
            values["losers"] = ",".join(chosen)
        elif name == "full":
            # "full:1": the whole auction, bid by bid; "full:": only who played what.
            values["full"] = "1" if value else ""
            for later in ("auction", "declarer", "contract", "called", "joiner", "partner"):
                values[later] = ""
            for later in ("won", "losers"):
                values[later] = ""
        elif name == "won":
            # "won:silent": won as a Stilles Spiel, one tap (the engine judges both).
            values["won"] = "1" if value == "silent" else value
            values["silent"] = "1" if value == "silent" else ""
        elif name == "level":
            # "level:-+fuchs": the level and the Fuchs said, one chip where the Fuchs
            # decides the game; a plain level takes the Fuchs back.
            level, plus, _fuchs = value.partition("+")
            values["level"] = level
            values["fuchs"] = "1" if plus else ""
        elif name in ("silent", "fuchs", "forgotten"):
            values[name] = "" if values[name] else "1"
        elif name in FIELDS:
            values[name] = value
            if name in _RESETS:
                self._forget_after(name)

    def _forget_after(self, name: str) -> None:
        values = self.values
        for later in ("partner", "level", "won", "augen", "silent", "fuchs", "forgotten"):
            values[later] = ""
        values["losers"] = "" if name != "joiner" else values["losers"]
        if name == "dealer":
            values["auction"] = values["macher"] = values["called"] = ""
            values["declarer"] = values["contract"] = values["joiner"] = ""
        if name == "declarer":
            values["contract"] = values["called"] = values["joiner"] = ""
        if name == "contract":
            values["called"] = values["joiner"] = ""

    def get(self, name: str) -> str:
        return self.values.get(name, "")


def ascii_digits(value: str) -> bool:
    """Is ``value`` (spaces around aside) a number in ASCII digits? ``str.isdigit``
    also takes "²" and "١", which ``int()`` refuses or reads as another number."""
    value = value.strip()
    return value.isascii() and value.isdigit()


def error_text(error: dict[str, Any], club: Club) -> str:
    """The engine's refusal as the page says it: its title, then its sentence."""
    code = str(error.get("code", ""))
    title = error_titles().get(code, _("Not accepted"))
    sentence = explain(error, player_names(club), face=club.card_face)
    return sentence if sentence.startswith(title) else f"{title}: {sentence}"


def table_state(record: dict[str, Any]) -> dict[str, Any]:
    """The engine's table view of ``record``."""
    return selectors.table_state(record=record)


def seat_rows(state: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    return [{"id": p, "name": names.get(p, p)} for p in state.get("active") or []]


def result_of(answer: Any) -> dict[str, Any]:
    """The result dict in what a service answers (a game, or what ``game_started`` returns)."""
    game = getattr(answer, "game", answer)
    state = getattr(answer, "state", None)
    if isinstance(state, dict) and isinstance(state.get("result"), dict):
        return dict(state["result"])
    return dict(getattr(game, "result", None) or {})


# ``run(dry_run=…)``: the services' call the form's events make (a dry run for the preview).
Runner = Callable[..., dict[str, Any]]


@dataclass
class TallyForm:
    """Everything the template draws; ``events``: the record's new events the choices make.

    A step reads the choices and the engine's table view, sets what the page draws for
    it (``step``, ``seats``, ``fields``, ``extra``) and adds the events the choices make;
    a step whose question is still open stops there (``step`` names it)."""

    kind: str
    choices: Choices
    club: Club
    names: dict[str, str]
    events: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    step: str = ""
    tally: dict[str, Any] | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    ready: bool = False
    result: dict[str, Any] | None = None
    payouts: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""
    error_field: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    run: Runner | None = None

    # --- The deal and the contract ---------------------------------------------------------------

    def choose_dealer(self, deal: dict[str, Any]) -> dict[str, Any]:
        """The deal with the dealer chosen (where the table lets him be chosen)."""
        deal = dict(deal)
        if self.choices.get("dealer") in deal["players"] and "sitting_out" not in deal:
            deal["dealer"] = self.choices.get("dealer")
        self.choices.values["dealer"] = deal["dealer"]
        self.extra["dealers"] = [
            {"id": p, "name": self.names.get(p, p), "on": p == deal["dealer"]}
            for p in deal["players"]
        ]
        return deal

    def choose_contract(self, record: dict[str, Any]) -> None:
        """Who plays what, then the tally's questions (each game's own steps)."""
        raise NotImplementedError

    # --- The tally: partner, level, won, extras --------------------------------------------------

    def ask_tally(self, record: dict[str, Any]) -> None:
        """The tally's questions, from the table view of the record with the events so far."""
        state = table_state({**record, "events": [*record["events"], *self.events]})
        if state.get("status") == "invalid":
            error = (state.get("result") or {}).get("error") or {}
            self.error = error_text(error, self.club)
            self.step = "error"
            return
        self.tally = state.get("tally")
        if not self.tally:
            self.step = "no_tally"
            return
        self.fields = dict(self.tally.get("fields") or {})
        self.step = "tally"
        event: dict[str, Any] = {"type": "tally"}
        self.level(event)
        self.won(event)
        self.partner(event)
        if "losers" in self.fields:
            event["losers"] = [p for p in self.choices.get("losers").split(",") if p]
        self.events.append(event)
        self.extras(event)
        self.ready = self.complete()

    def level(self, event: dict[str, Any]) -> None:
        """The level raised to (only where the view offers one: in a pure tally)."""
        c = self.choices
        if "level" in self.fields and c.get("level"):
            event["level"] = None if c.get("level") == "-" else c.get("level")

    def won(self, event: dict[str, Any]) -> None:
        """The outcome: won or lost (or the default, ``won_default``), a Stilles Spiel,
        or the Augen counted."""
        c = self.choices
        chosen = c.get("won") or self.won_default()
        if "won" in self.fields and chosen in ("1", "0"):
            event["won"] = chosen == "1"
        if "augen" in self.fields and ascii_digits(c.get("augen")):
            event["augen"] = int(c.get("augen").strip()[:3])
        if "silent" in self.fields and c.get("silent"):
            event["silent"] = True

    def partner(self, event: dict[str, Any]) -> None:
        """The Hilfer (Fuchsen) or the partner (Königrufen), one of those the view offers."""
        c = self.choices
        offered = self.fields.get("partner", {}).get("choices", [])
        if "partner" in self.fields and c.get("partner") not in offered:
            c.values["partner"] = ""
        if "partner" in self.fields and c.get("partner") in offered:
            event["partner"] = c.get("partner")

    def extras(self, event: dict[str, Any]) -> None:
        """The Fuchs: said (on the tally), or forgotten ("Fuchs vergessen": the Hilfer
        shows the Fuchs, which the record then proves he held)."""
        c = self.choices
        if "fuchs" in self.fields and c.get("fuchs"):
            event["fuchs"] = True
        if "fuchs" in self.fields and c.get("forgotten") and event.get("partner"):
            self.events.append({"type": "show", "player": event["partner"], "cards": ["GO"]})

    def won_default(self) -> str:
        """The outcome taken when none is tapped: none (each game may say otherwise)."""
        return ""

    def needs_outcome(self) -> bool:
        """Does the table view ask for ``won`` or ``augen`` before the result can stand?"""
        tally, fields, c = self.tally or {}, self.fields, self.choices
        if "level" in fields:
            chosen = None if c.get("level") in ("", "-") else c.get("level")
            key = "played_out_with_fuchs" if c.get("fuchs") else "played_out"
            for choice in fields["level"].get("choices", []):
                if choice.get("level") == chosen:
                    return bool(choice.get(key))
            return True
        return bool(tally.get("needs_outcome"))

    def complete(self) -> bool:
        """The choices the table view requires are made (the engine still judges them all)."""
        fields, c = self.fields, self.choices
        if "level" in fields and not c.get("level"):
            return False
        if "losers" in fields and not c.get("losers"):
            return False
        if fields.get("won", {}).get("required") and c.get("won") not in ("1", "0"):
            return False
        augen = c.get("augen")
        if augen.strip() and not ascii_digits(augen):
            # Typed but no number ("²", "٩٦"): said, not dropped for the default outcome.
            self.error = _("The Augen are a number from 0 to 121.")
            self.error_field = "augen"
            return False
        won = c.get("won") or self.won_default()
        has_outcome = won in ("1", "0") or ascii_digits(augen)
        return not (self.needs_outcome() and not has_outcome)

    # --- Labels, preview, save -------------------------------------------------------------------

    def decorate(self) -> None:
        """Labels for the tally's choices (the choices themselves are the engine's)."""
        fields, c, names = self.fields, self.choices, self.names
        if "level" in fields:
            self.extra["ladder"] = self.ladder(fields["level"].get("choices", []))
        if "partner" in fields:
            self.extra["partners"] = [
                {"id": p, "name": names.get(p, p), "on": c.get("partner") == p}
                for p in fields["partner"].get("choices", [])
            ]
        if "losers" in fields:
            chosen = set(c.get("losers").split(","))
            self.extra["losers"] = [
                {"id": p, "name": names.get(p, p), "on": p in chosen}
                for p in fields["losers"].get("choices", [])
            ]
        if "augen" in fields:
            self.extra["augen_min"] = fields["augen"].get("min", 0)
            self.extra["augen_max"] = fields["augen"].get("max", 121)
        self.extra["needs_outcome"] = self.tally is not None and self.needs_outcome()
        self.extra["won_default"] = self.tally is not None and bool(self.won_default())

    def ladder(self, choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The levels the view offers; where it says the Fuchs said decides whether the
        game is played out (``played_out_with_fuchs`` unlike ``played_out``), the level
        comes twice: without and with the Fuchs, one tap each."""
        levels, c = level_names(), self.choices
        fuchs = bool(c.get("fuchs"))
        ladder = []
        for choice in choices:
            value = choice.get("level") or "-"
            name = levels.get(choice.get("level") or "", _("no Kontra"))
            twin = "fuchs" in self.fields and bool(choice.get("played_out")) != bool(
                choice.get("played_out_with_fuchs")
            )
            on = c.get("level") == value
            plain = on and not (twin and fuchs)
            ladder.append({"value": value, "name": name, "on": plain, "with_fuchs": False})
            if twin:
                # Drawn short beside its level; the name it is read by says it whole.
                ladder.append(
                    {
                        "value": f"{value}+fuchs",
                        "name": _("%(level)s + Fuchs said") % {"level": name},
                        "short": _("+ Fuchs"),
                        "on": on and fuchs,
                        "with_fuchs": True,
                    }
                )
        return ladder

    def preview(self, run: Runner, record: dict[str, Any]) -> None:
        """Ask the services' dry run for the game the choices make (``record``: the game's
        record as saving makes it); its payouts and value, or its refusal."""
        self.run = run
        if not self.ready:
            return
        result = self._attempt(dry_run=True)
        if result is None:
            self.ready = False
            return
        self.result = result
        rows = [
            {
                "name": self.names.get(str(p), str(p)),
                "amount": v,
                "text": signed_money(v, self.club),
            }
            for p, v in (result.get("payouts") or {}).items()
        ]
        self.payouts = sorted(rows, key=lambda row: -row["amount"])
        self.extra["value"] = value_text(
            self.kind,
            result.get("value") or None,
            silent=result.get("status") == "finished" and record_silent(record),
            house_rules=record.get("rules"),
            club=self.club,
        )
        self.extra["awaiting_partner"] = result.get("awaiting") == "partner"

    def save(self) -> dict[str, Any] | None:
        """Store what the choices make (one request to the services): the result, or None
        with ``error`` saying why not."""
        if not self.ready or self.run is None:
            return None
        return self._attempt(dry_run=False)

    def _attempt(self, *, dry_run: bool) -> dict[str, Any] | None:
        assert self.run is not None
        try:
            return self.run(dry_run=dry_run)
        except EngineRejected as error:
            self.error = error_text(error.error, self.club)
            self.error_field = str(error.error.get("field") or "")
        except (ValidationError, GamesError) as error:
            self.error = getattr(error, "message", "") or "; ".join(getattr(error, "messages", []))
        return None
