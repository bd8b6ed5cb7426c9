"""A player's statistics per role and per contract, from his ``PlayerGame`` rows.

Pure Python, no Django import. Every figure is a count or a sum over the rows
of the games he took part in (the roles, contracts, reasons and facts the
engine's results and ``engine.game_facts`` name; the ledger decides no rule here):

- Fuchsen: games, wins and net as Macher, as Hilfer (the partner) and as
  opponent; the games he played alone (Macher of the contract ``"alone"``);
  the average value of the games he played; Stilles Spiel for him (on the
  Macher's side) and against him (an opponent), out of the games decided by play
  (where one can happen); a forgotten Fuchs — the games he forgot it as Hilfer,
  and the games his Hilfer forgot it (as Macher) or an opponent's Hilfer did (he
  gained), each with its net; the raises he said and his chances to say them
  (``engine.statistics``: a level he could have said), with the share in per cent.
- Königrufen: per contract he bid and played (as declarer): games, won, net;
  the games of ``schurln`` he lost (paid in).

Tally games (recorded as a tally rather than card by card) count wherever their
tally says enough: results, roles, contracts, Stilles Spiel (a tally of a game
played out says it, and is paid by it), a forgotten Fuchs. The raises need the
first trick's events: a pure tally (nothing of the first trick recorded) has none,
so the raises are counted over the games that have them, and say how many
(``raises["games"]``, of ``games``) for the note "from N of M games".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["player_statistics"]

DECLARING = frozenset({"macher", "partner"})


def _line() -> dict[str, int]:
    return {"games": 0, "wins": 0, "net": 0}


def _add(line: dict[str, int], payout: int) -> None:
    line["games"] += 1
    line["wins"] += payout > 0
    line["net"] += payout


def _games_net(rows: list[Mapping[str, Any]]) -> dict[str, int]:
    return {"games": len(rows), "net": sum(row["payout"] for row in rows)}


def _fuchsen_facts(played: list[Mapping[str, Any]]) -> dict[str, Any]:
    """Stilles Spiel, the forgotten Fuchs and the raises (see the module docstring)."""
    decided_by_play = [row for row in played if row.get("silent") is not None]
    silent = [row for row in decided_by_play if row["silent"]]
    forgotten = [row for row in played if row.get("reason") == "fuchs_forgotten"]
    counted = [row for row in played if row.get("raise_chances") is not None]
    said = sum(row["raises"] for row in counted)
    chances = sum(row["raise_chances"] for row in counted)
    return {
        "silent_game": {
            "for": sum(row["role"] in DECLARING for row in silent),
            "against": sum(row["role"] == "opponent" for row in silent),
            "games": len(decided_by_play),
        },
        "forgotten_fuchs": {
            # The Hilfer forgot it (fuchsen.md rule 6): he, his Macher, or the opponents.
            "forgot": _games_net([row for row in forgotten if row["role"] == "partner"]),
            "partner_forgot": _games_net([row for row in forgotten if row["role"] == "macher"]),
            "opponent_forgot": _games_net([row for row in forgotten if row["role"] == "opponent"]),
        },
        "raises": {
            "said": said,
            "chances": chances,
            "per_cent": round(100 * said / chances, 1) if chances else None,
            "games": len(counted),
        },
    }


def player_statistics(game_kind: str, rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The statistics of one player over ``rows`` (his ``PlayerGame`` rows, each with
    ``role``, ``contract``, ``payout`` and ``value``; for Fuchsen also ``reason``,
    ``silent``, ``raise_chances`` and ``raises``), for ``game_kind``'s figures.

    Rows of games he sat out (role ``"out"``) are not counted. ``average_value`` is
    ``None`` when no game he played has a value.
    """
    played: list[Mapping[str, Any]] = [row for row in rows if row["role"] != "out"]
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
        figures.update(_fuchsen_facts(played))
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
