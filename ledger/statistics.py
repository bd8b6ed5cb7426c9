"""A player's statistics per role and per contract, from his ``PlayerGame`` rows.

Pure Python, no Django import. Every figure is a count or a sum over the rows
of the games he took part in (the roles and contracts the engine's results
name; the ledger decides no rule here):

- Fuchsen: games, wins and net as Macher, as Hilfer (the partner) and as
  opponent; the games he played alone (Macher of the contract ``"alone"``);
  the average value of the games he played.
- Königrufen: per contract he bid and played (as declarer): games, won, net;
  the games of ``schurln`` he lost (paid in).

Tally games (recorded as a tally rather than card by card) count everywhere
here: their results name the contract, the declarers and the payouts. Figures
that need the cards — Stilles Spiel for and against, a forgotten Fuchs, raises
said per chance to say them — are not in the engine's results, so they are
listed under ``not_recorded`` with a note rather than guessed from the rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["NOT_RECORDED", "player_statistics"]

# What the issue asks for and the engine's result does not report (see the module's
# docstring): named, so the page and the API can say so instead of showing a zero.
NOT_RECORDED = ("silent_game_for", "silent_game_against", "forgotten_fuchs", "raises_per_chance")


def _line() -> dict[str, int]:
    return {"games": 0, "wins": 0, "net": 0}


def _add(line: dict[str, int], payout: int) -> None:
    line["games"] += 1
    line["wins"] += payout > 0
    line["net"] += payout


def player_statistics(game_kind: str, rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The statistics of one player over ``rows`` (his ``PlayerGame`` rows, each with
    ``role``, ``contract``, ``payout`` and ``value``), for ``game_kind``'s figures.

    Rows of games he sat out (role ``"out"``) are not counted. ``average_value`` is
    ``None`` when no game he played has a value.
    """
    played = [row for row in rows if row["role"] != "out"]
    total = _line()
    values = [row["value"] for row in played if row["value"] is not None]
    for row in played:
        _add(total, row["payout"])
    figures: dict[str, Any] = {
        **total,
        "average_value": round(sum(values) / len(values), 2) if values else None,
    }
    if game_kind == "fuchsen":
        roles = {"macher": _line(), "hilfer": _line(), "opponent": _line()}
        alone = _line()
        names = {"macher": "macher", "partner": "hilfer", "opponent": "opponent"}
        for row in played:
            role = names.get(row["role"])
            if role is not None:
                _add(roles[role], row["payout"])
            if row["role"] == "macher" and row["contract"] == "alone":
                _add(alone, row["payout"])
        figures.update(roles=roles, alone=alone)
        figures["not_recorded"] = list(NOT_RECORDED)
    else:
        contracts: dict[str, dict[str, int]] = {}
        schurln_lost = 0
        for row in played:
            if row["role"] == "macher":
                line = contracts.setdefault(row["contract"], {"games": 0, "won": 0, "net": 0})
                line["games"] += 1
                line["won"] += row["payout"] > 0
                line["net"] += row["payout"]
            if row["contract"] == "schurln" and row["payout"] < 0:
                schurln_lost += 1
        figures.update(contracts=dict(sorted(contracts.items())), schurln_lost=schurln_lost)
    return figures
