"""What the analysis page, the evening's and the player's includes and the API show.

Every figure comes from the stored analysis: the engine's answer and what the
engine's functions derived from it (``analysis.derive``); here they are only put
into words (German first, through gettext) and laid out. Nothing is computed about
the game itself.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from analysis.models import GameAnalysis
from analysis.selectors import PlayerFigures, is_current
from clubs.models import GameKind
from games.models import Game
from games.vocabulary import card_view, contract_names, level_names

# The chart of the Macher's side's Augen after each card (an inline SVG).
CHART_W, CHART_H, CHART_PAD = 360, 150, 12


def reason_texts() -> dict[str, str]:
    """Why a game has no analysis, by the engine's reason."""
    return {
        "no_play": _(
            "No cards were recorded: the game was entered as a result, so there is nothing "
            "to analyse."
        ),
        "hands_unknown": _(
            "Not every hand is known: without every card of every player the game cannot "
            "be analysed."
        ),
        "schurln": _("Schurln: every player plays for himself, there are no two sides to judge."),
        "invalid": _("The record of this game is not valid, so it cannot be analysed."),
    }


def state_of(game: Game, analysis: GameAnalysis | None) -> str:
    """``in_progress``, ``annulled``, ``pending``, ``too_costly``, ``not_analysable`` or
    ``analysed``."""
    if game.status == Game.Status.IN_PROGRESS:
        return "in_progress"
    if game.status == Game.Status.ANNULLED:
        return "annulled"
    if analysis is None or not is_current(analysis, game):
        return "pending"
    return str(analysis.status)


class Words:
    """Names of players and cards for one game."""

    def __init__(self, kind: str, names: dict[str, str], face: str) -> None:
        self.kind, self.face, self.names = kind, face, names

    def who(self, pid: Any) -> str:
        return self.names.get(str(pid), str(pid))

    def card(self, code: str) -> dict[str, Any]:
        return card_view(code, self.face, self.kind)

    def card_name(self, code: str) -> str:
        return str(self.card(code)["name"])

    def cards_or(self, codes: list[str]) -> str:
        names = [self.card_name(c) for c in codes]
        if len(names) < 2:
            return "".join(names)
        return _("%(first)s or %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def _contract(figures: dict[str, Any]) -> str:
    contract = str(figures.get("contract") or "")
    return contract_names().get(contract, contract)


def _mark(card: dict[str, Any], fuchsen: bool) -> tuple[str, str]:
    """The mark beside a card and its CSS class: ``=`` for a best card, else its cost."""
    if card.get("is_best"):
        return "=", "best"
    if fuchsen:
        return _("−%(n)s Augen") % {"n": card.get("cost", 0)}, "cost"
    return "✗", "cost"


def turning_sentence(figures: dict[str, Any], words: Words) -> str:
    """The card where the game was lost, in words; "" when there is none."""
    at = figures.get("lost_at")
    cards = figures.get("cards") or []
    if at is None or not 0 <= at < len(cards):
        return ""
    card = cards[at]
    where = _("Here the game was lost: trick %(trick)s, %(who)s plays %(card)s") % {
        "trick": card.get("trick"),
        "who": words.who(card.get("player")),
        "card": words.card_name(card["card"]),
    }
    best = words.cards_or(list(card.get("best") or []))
    if figures.get("game") == GameKind.FUCHSEN:
        then = _(
            "with %(best)s the Macher's side would have made %(before)s instead of %(after)s Augen"
        ) % {"best": best, "before": card.get("before"), "after": card.get("after")}
    elif card.get("own_side"):
        then = _("with %(best)s %(contract)s could still have been made") % {
            "best": best,
            "contract": _contract(figures),
        }
    else:
        then = _("with %(best)s %(contract)s could still have been beaten") % {
            "best": best,
            "contract": _contract(figures),
        }
    return f"{where} — {then}."


def _outcome_sentence(figures: dict[str, Any]) -> str:
    start = figures.get("start")
    if not figures.get("cards"):
        return _(
            "No card to judge: the game was decided before the first card the analysis "
            "judges (in a Bettler or Plauderer, trick 1 is not judged)."
        )
    if figures.get("game") == GameKind.FUCHSEN:
        return _(
            "With best play on both sides from the first card: %(n)s Augen for the Macher's side."
        ) % {"n": start}
    made = (
        _("With best play on both sides from the first card, %(contract)s would have been made.")
        if start
        else _("With best play on both sides from the first card, %(contract)s would have failed.")
    )
    return made % {"contract": _contract(figures)}


def raising_sentences(figures: dict[str, Any], words: Words) -> list[str]:
    """Fuchsen: each raise judged against the cards (the engine's verdict)."""
    raising = figures.get("raising")
    if not raising:
        return []
    value = raising.get("value")
    levels = level_names()
    out = []
    for said in raising.get("raises") or []:
        level = levels.get(said.get("level", ""), said.get("level", ""))
        template = (
            _("%(level)s (%(who)s) was right: with best play %(n)s Augen for the Macher.")
            if said.get("right")
            else _("%(level)s (%(who)s) was wrong: with best play %(n)s Augen for the Macher.")
        )
        out.append(template % {"level": level, "who": words.who(said.get("player")), "n": value})
    if not out:
        out.append(
            _(
                "Nobody raised; after the raising the cards gave the Macher %(n)s Augen "
                "with best play."
            )
            % {"n": value}
        )
    return out


def higher_sentence(figures: dict[str, Any]) -> str:
    """Königrufen: the higher contracts the declarer's hand would have made alone."""
    higher = figures.get("higher_contracts")
    if higher is None:
        return ""
    names = contract_names()
    named = [names.get(c, c) for c in higher]
    if not named:
        return _("With these cards no higher contract would have been made alone.")
    joined = (
        named[0]
        if len(named) == 1
        else _("%(first)s and %(last)s")
        % {
            "first": ", ".join(named[:-1]),
            "last": named[-1],
        }
    )
    return ngettext(
        "With these cards %(contracts)s would have been made.",
        "With these cards %(contracts)s would have been made.",
        len(named),
    ) % {"contracts": joined}


def value_chart(figures: dict[str, Any]) -> dict[str, Any] | None:
    """Fuchsen: the Macher's side's Augen under best play before the first card and
    after each card, as SVG coordinates, with the 61 line (None in Königrufen)."""
    cards = figures.get("cards") or []
    if figures.get("game") != GameKind.FUCHSEN or not cards:
        return None
    values = [cards[0].get("before", 0), *(c.get("after", 0) for c in cards)]
    # The scale and the line come with the figures: the engine's Augen in a deal and
    # the Augen that win it.
    total, goal = int(figures.get("total") or 1), int(figures.get("goal") or 0)
    inner_w, inner_h = CHART_W - 2 * CHART_PAD, CHART_H - 2 * CHART_PAD

    # Strings, not floats: a float in a template would be written the German way.
    def x(i: int) -> str:
        return f"{CHART_PAD + inner_w * i / max(len(values) - 1, 1):.1f}"

    def y(v: float) -> str:
        return f"{CHART_PAD + inner_h * (total - v) / total:.1f}"

    at = figures.get("lost_at")
    return {
        "width": CHART_W,
        "height": CHART_H,
        "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)),
        "line_y": y(goal),
        "goal": goal,
        "line_x1": str(CHART_PAD),
        "line_x2": str(CHART_W - CHART_PAD),
        "turn_x": x(at + 1) if isinstance(at, int) else None,
        "label": _("Augen of the Macher's side under best play, after each card (%(goal)s wins)")
        % {"goal": goal},
    }


def tricks(figures: dict[str, Any], words: Words) -> list[dict[str, Any]]:
    """The analysed cards trick by trick, each with its mark and its best cards."""
    fuchsen = figures.get("game") == GameKind.FUCHSEN
    out: list[dict[str, Any]] = []
    for card in figures.get("cards") or []:
        if not out or out[-1]["no"] != card.get("trick"):
            out.append({"no": card.get("trick"), "cards": []})
        mark, mark_class = _mark(card, fuchsen)
        out[-1]["cards"].append(
            {
                "index": card.get("index"),
                "who": words.who(card.get("player")),
                "card": words.card(card["card"]),
                "mark": mark,
                "mark_class": mark_class,
                "forced": bool(card.get("forced")),
                "turning": bool(card.get("turning")),
                "after": _value_text(card.get("after"), fuchsen, figures),
                "best": [words.card(c) for c in card.get("best") or []],
            }
        )
    return out


def _value_text(value: Any, fuchsen: bool, figures: dict[str, Any]) -> str:
    if fuchsen:
        return _("%(n)s Augen") % {"n": value}
    return (
        _("%(contract)s still makeable") % {"contract": _contract(figures)}
        if value
        else _("%(contract)s lost") % {"contract": _contract(figures)}
    )


def analysis_context(
    game: Game, analysis: GameAnalysis | None, names: dict[str, str], face: str
) -> dict[str, Any]:
    """Everything the analysis page shows."""
    state = state_of(game, analysis)
    context: dict[str, Any] = {"state": state, "is_fuchsen": game.game_kind == GameKind.FUCHSEN}
    if analysis is None or state != "analysed":
        if state == "not_analysable" and analysis is not None:
            context["why"] = reason_texts().get(analysis.reason, reason_texts()["invalid"])
        return context
    figures = analysis.figures or {}
    words = Words(game.game_kind, names, face)
    context.update(
        {
            "side": ", ".join(words.who(p) for p in figures.get("side") or []),
            "outcome": _outcome_sentence(figures),
            "turning": turning_sentence(figures, words),
            "raising": raising_sentences(figures, words),
            "higher": higher_sentence(figures),
            "chart": value_chart(figures),
            "tricks": tricks(figures, words),
            "duration": number_format((analysis.duration_ms or 0) / 1000, decimal_pos=1),
        }
    )
    return context


def evening_turning_points(
    analyses: list[GameAnalysis], names: dict[str, str], face: str
) -> list[dict[str, Any]]:
    """One line per game of the evening whose analysis names where it was lost."""
    rows = []
    for analysis in analyses:
        words = Words(analysis.game.game_kind, names, face)
        sentence = turning_sentence(analysis.figures or {}, words)
        if sentence:
            rows.append({"game": analysis.game, "text": sentence})
    return rows


def player_figures_view(figures: PlayerFigures, kind: str) -> dict[str, Any] | None:
    """The player's page: Augen given away per game and the share of best cards."""
    if not figures.games:
        return None
    share = figures.best_share
    per_game = figures.augen_per_game
    return {
        "games": figures.games,
        "cards": figures.cards,
        "best_pct": round(100 * share) if share is not None else None,
        "augen_per_game": (
            number_format(per_game, decimal_pos=1)
            if per_game is not None and kind == GameKind.FUCHSEN
            else None
        ),
    }
