"""Benchmark the rules engine's replay on seeded complete games (one core).

    python bench/engine.py [--records N] [--repeat R] [--suite S] [--profile]

For five-player Fuchsen and for Königrufen, with and without the deal's hands, it
prints records/s and µs/event for ``json.loads`` + ``replay`` of each record, and in
the same run the floor: ``json.loads`` of the same text plus one walk over the events.
The ratio is replay time over floor time. Games come from ``engine.generate`` (the
same generator the property tests use), so every record replays as a complete game.

Three more kinds of suite: ``corpus`` replays the records of ``tests/reference/corpus``
(``cases.json`` and ``tally.json``: every shape the spec allows, played out or ended
early, valid or not; each record counted once, ``--records`` ignored) per game; ``view``
computes ``table_view`` of every prefix of ``--records // 20`` generated games (what the
recording API computes per appended event) against the floor of the same prefixes, with
the deal's hands and without them (a game recorded live card by card, as most tables
do: the partner then often unknown, so the view follows every candidate);
``view_json`` adds what the API then does with the view, ``json.dumps(view.to_dict())``
(the issue's view target is on ``table_view`` alone; this line shows what an append
costs the engine in all).

Times are this process's CPU time (``time.process_time``): on a machine shared with
other work, wall-clock time measures the neighbours too (``--wall`` times with
``time.perf_counter`` instead). Two ways of taking the best of ``--repeat`` rounds:

- ``ratio``: per chunk of ``--chunk`` records (100), the floor and the replay run one
  after the other on the same chunk, the best of each kept per chunk and summed. A
  neighbour's burst of load then spoils one chunk's time of one side in one round,
  which the other rounds make up for.
- ``whole``: the best of whole runs over all the records, the replay's and the
  floor's runs alternated (the method of the earlier figures). A burst spoils a
  whole run, and a replay run lasts four times as long as a floor run, so on a
  noisy machine this ratio drifts upwards.

Both are printed; records/s and µs/event are the chunked times'.

``--old REV`` also measures the engine of git revision ``REV`` (``bench/old_engine.py``
extracts it from git and imports it beside the current one): per chunk the floor, the
new and the old engine run one after the other (the order turning each round), and a
second line per suite gives the old engine's figures from the same run. ``--push-pop``
times the board's push and pop of every card of generated deals (the analysis' inner
loop), per card.

``--bound`` adds, for the generated games' suites, a line timed in the same chunks: a
strict part of what any replay of the record must do, with the engine's own functions
— ``json.loads``, the record's frame and house rules (``replay._frame``), the shape check
of every event but a plain play (``core.check_event_shape``; a play of the three usual
fields has its fields' types checked inline, as the fold does), the deal's seating and
hands (``replay.deal_table``), and every card of the record pushed on the game's board
after its player and card are looked up and its legal mask asked. The board as it stands
before the first card is built outside the timing (``replay.board_at``) and copied per
record, so the call, the raises, the auction, the knowledge gathered in hindsight, the
checks of those events and the result are all left out. Its ratio is a lower bound on
the replay's: what the replay may spend on everything else is the target's ratio minus
this one. For the views of every prefix (``view`` suites) it adds two such lines on the
same prefixes: ``replay`` alone (the view's fold and result, without the legal moves)
and the bound.

Each ``view`` suite also counts, untimed, the folds a view makes (``replay.fold``: the
record's events folded from the deal, or once per candidate partner from where he is
needed, and again for each move the view tries in hindsight), for the old engine too.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import replay, table_view
from engine.generate import random_game

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "reference" / "corpus"

# label, kind ("games", "corpus" or "view"), game, seats, hands
SUITES = (
    ("fuchsen, 5 players, with hands", "games", "fuchsen", 5, True),
    ("fuchsen, 5 players, no hands", "games", "fuchsen", 5, False),
    ("koenigrufen, with hands", "games", "koenigrufen", 4, True),
    ("koenigrufen, no hands", "games", "koenigrufen", 4, False),
    ("corpus, fuchsen", "corpus", "fuchsen", 0, False),
    ("corpus, koenigrufen", "corpus", "koenigrufen", 0, False),
    ("view of each prefix, fuchsen 5", "view", "fuchsen", 5, True),
    ("view of each prefix, koenigrufen", "view", "koenigrufen", 4, True),
    ("view of each prefix, fuchsen 5, no hand", "view", "fuchsen", 5, False),
    ("view of each prefix, koenigr., no hand", "view", "koenigrufen", 4, False),
    ("view+JSON each prefix, fuchsen 5", "view_json", "fuchsen", 5, True),
    ("view+JSON each prefix, koenigrufen", "view_json", "koenigrufen", 4, True),
)


def _texts(game: str, seats: int, hands: bool, count: int) -> list[str]:
    # Complete games: the generator plays until the game is decided.
    return [json.dumps(random_game(10_000 + i, game, seats, hands=hands)) for i in range(count)]


def _corpus_texts(game: str) -> list[str]:
    """The corpus's records of ``game`` whose events are a list of objects (the floor
    walks them)."""
    out: list[str] = []
    for path in sorted(CORPUS.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            record = case["record"]
            if not isinstance(record, dict) or record.get("game") != game:
                continue
            events = record.get("events")
            if isinstance(events, list) and all(isinstance(e, dict) for e in events):
                out.append(json.dumps(record))
    return out


def _prefix_texts(game: str, seats: int, count: int, hands: bool = True) -> list[str]:
    """Every prefix (from the deal on) of ``count`` generated games, with the deal's hands
    or without."""
    out: list[str] = []
    for i in range(count):
        record = random_game(20_000 + i, game, seats, hands=hands)
        events = record["events"]
        out.extend(json.dumps({**record, "events": events[:k]}) for k in range(1, len(events) + 1))
    return out


def _walk(texts: list[str]) -> int:
    events = 0
    for text in texts:
        record = json.loads(text)
        for event in record["events"]:
            if event.get("type"):
                events += 1
    return events


def _counting(judge: Callable[[object], Any]) -> Callable[[list[str]], int]:
    """A run of ``judge`` (``replay`` or ``table_view``) over parsed texts, counting
    the finished games."""

    def run(texts: list[str]) -> int:
        finished = 0
        for text in texts:
            if judge(json.loads(text)).status == "finished":
                finished += 1
        return finished

    return run


def _with_json(view: Callable[[object], Any]) -> Callable[[object], Any]:
    """``view`` and the JSON text of its ``to_dict()``, as the recording API answers
    an append (the view of the record as it stands)."""

    def judge(record: object) -> Any:
        seen = view(record)
        json.dumps(seen.to_dict())
        return seen

    return judge


_views = _counting(table_view)
_views_json = _counting(_with_json(table_view))
_replay = _counting(replay)


def _best(
    fn: Callable[[list[str]], int], texts: list[str], repeat: int, clock: Callable[[], float]
) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = clock()
        fn(texts)
        best = min(best, clock() - start)
    return best


def _best_pair(
    fn: Callable[[list[str]], int],
    floor: Callable[[list[str]], int],
    texts: list[str],
    repeat: int,
    clock: Callable[[], float],
) -> tuple[float, float]:
    """The best time of ``fn`` and of ``floor``, their runs alternated: a neighbour's
    burst of load then weighs on both sides alike instead of on one block of runs."""
    best_fn = best_floor = float("inf")
    for _ in range(repeat):
        best_fn = min(best_fn, _best(fn, texts, 1, clock))
        best_floor = min(best_floor, _best(floor, texts, 1, clock))
    return best_fn, best_floor


def _best_chunked(
    runs: list[Callable[[list[str]], int]],
    texts: list[str],
    repeat: int,
    clock: Callable[[], float],
    chunk: int,
) -> list[float]:
    """The time of each of ``runs`` over ``texts``: per chunk of ``chunk`` records the
    best of ``repeat`` rounds, summed over the chunks. In each round they run one after
    the other on each chunk, the order turning by one each round."""
    parts = [texts[i : i + chunk] for i in range(0, len(texts), chunk)]
    best = [[float("inf")] * len(parts) for _ in runs]
    for round_ in range(repeat):
        gc.collect()
        turn = round_ % len(runs)
        order = list(range(len(runs)))[turn:] + list(range(len(runs)))[:turn]
        for j, part in enumerate(parts):
            for k in order:
                start = clock()
                runs[k](part)
                best[k][j] = min(best[k][j], clock() - start)
    return [sum(b) for b in best]


def _bound_run(texts: list[str]) -> Callable[[list[str]], int]:
    """The ``--bound`` run over ``texts`` (see the module's docstring)."""
    from engine.cards import INDEX
    from engine.core import check_event_shape
    from engine.replay import _frame, board_at, deal_table

    boards = {text: board_at(json.loads(text)) for text in texts}

    def run(part: list[str]) -> int:
        pushed = 0
        for text in part:
            record = json.loads(text)
            variant, rules, events = _frame(record)
            table = deal_table(variant, rules, events[0])
            seats = table.index
            start = boards[text]
            board = None if start is None else start.copy()
            for event in events[1:]:
                # A plain play as the fold reads it (its fields' types checked
                # inline); any other event through the shape check.
                if type(event) is dict and len(event) == 3 and event.get("type") == "play":
                    player = event.get("player")
                    code = event.get("card")
                    if type(player) is str and type(code) is str and board is not None:
                        card = INDEX[code]
                        if seats[player] != board.to_act or not board.legal() >> card & 1:
                            board = None
                            continue
                        board.push(card)
                        pushed += 1
                        continue
                check_event_shape(variant, event)
        return pushed

    return run


def _push_pop(records: int, clock: Callable[[], float], repeat: int) -> None:
    """The board's push and pop of every card of generated played-out deals with
    hands (the analysis' inner loop): the deal's plays pushed one by one, each
    asked for its legal mask and trick winner, then popped back."""
    from engine.replay import board_at

    for game, seats in (("fuchsen", 5), ("koenigrufen", 4)):
        boards = []
        for i in range(records):
            record = random_game(40_000 + i, game, seats, hands=True)
            found = board_at(record)
            if found is not None:
                boards.append((found, list(found.pending)))
        cards = sum(len(moves) for _, moves in boards)
        best = float("inf")
        for _ in range(repeat):
            gc.collect()
            start = clock()
            for board, moves in boards:
                for move in moves:
                    board.legal()
                    board.push(move)
                for _move in moves:
                    board.pop()
            best = min(best, clock() - start)
        print(
            f"push/pop {game:12} {len(boards)} deals, {cards} cards: "
            f"{best / cards * 1e6:.2f} µs per card (legal mask + push + pop)"
        )


def _folds_per_view(package: str, texts: list[str]) -> float:
    """The folds (``replay.fold``: the record's events folded from the deal, or from a
    candidate partner's start) the table view of the engine ``package`` makes per
    record of ``texts`` (the issue counted them: the view's probes), untimed."""
    modules = [sys.modules[f"{package}.replay"], sys.modules[f"{package}.view"]]
    original = modules[0].fold
    calls = 0

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    for module in modules:
        if getattr(module, "fold", None) is original:
            vars(module)["fold"] = counting
    try:
        for text in texts:
            modules[1].table_view(json.loads(text))
    finally:
        for module in modules:
            if getattr(module, "fold", None) is counting:
                vars(module)["fold"] = original
    return calls / len(texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile the first suite")
    parser.add_argument(
        "--suite",
        action="append",
        help="only the suites whose label contains this text (repeatable), e.g. 'no hands'",
    )
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    parser.add_argument(
        "--chunk", type=int, default=100, help="records per chunk of the chunked ratio"
    )
    parser.add_argument("--old", metavar="REV", help="also measure the engine at git REV")
    parser.add_argument("--push-pop", action="store_true", help="time the board's push/pop")
    parser.add_argument(
        "--bound", action="store_true", help="time a lower bound of the games' replay too"
    )
    args = parser.parse_args()
    old_runs: dict[str, Callable[[list[str]], int]] = {}
    if args.old:
        from bench.old_engine import load

        old = load(args.old)
        old_runs = {
            "view": _counting(old.table_view),
            "view_json": _counting(_with_json(old.table_view)),
            "replay": _counting(old.replay),
        }
    clock = time.perf_counter if args.wall else time.process_time

    kind = "wall-clock" if args.wall else "CPU"
    print(
        f"python {sys.version.split()[0]}, {args.records} records per suite, "
        f"best of {args.repeat}, {kind} time, one core"
    )
    header = (
        f"{'suite':40} {'records/s':>10} {'µs/event':>9} {'floor rec/s':>12} {'ratio':>6}"
        f" {'whole':>6}"
    )
    print(header)
    print("-" * len(header))
    for label, kind, game, seats, hands in SUITES:
        if args.suite and not any(part in label for part in args.suite):
            continue
        if kind == "corpus":
            texts = _corpus_texts(game)
        elif kind in ("view", "view_json"):
            texts = _prefix_texts(game, seats, max(1, args.records // 20), hands)
        else:
            texts = _texts(game, seats, hands, args.records)
        run = {"view": _views, "view_json": _views_json}.get(kind, _replay)
        n_events = _walk(texts)
        finished = run(texts)
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(run, texts)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
            args.profile = False
        runs = [_walk, run]
        if old_runs:
            runs.append(old_runs[kind if kind in old_runs else "replay"])
        bound = args.bound and kind in ("games", "view")
        if bound and kind == "view":
            runs.append(_replay)  # the view's own replay of each prefix, alone
        if bound:
            runs.append(_bound_run(texts))
        t_floor, t_replay, *t_other = _best_chunked(runs, texts, args.repeat, clock, args.chunk)
        t_old = t_other[:1] if old_runs else []
        w_replay, w_floor = _best_pair(run, _walk, texts, args.repeat, clock)
        rate = len(texts) / t_replay
        us_event = t_replay / n_events * 1e6
        print(
            f"{label:40} {rate:10,.0f} {us_event:9.2f} {len(texts) / t_floor:12,.0f} "
            f"{t_replay / t_floor:6.2f} {w_replay / w_floor:6.2f}"
        )
        for t in t_old:
            print(
                f"{'  old ' + args.old[:10]:40} {len(texts) / t:10,.0f} "
                f"{t / n_events * 1e6:9.2f} {'':12} {t / t_floor:6.2f}"
            )
        if bound and kind == "view":
            t = t_other[-2]
            print(
                f"{'  replay of the same prefixes':40} {len(texts) / t:10,.0f} "
                f"{t / n_events * 1e6:9.2f} {'':12} {t / t_floor:6.2f}"
            )
        if bound:
            t = t_other[-1]
            print(
                f"{'  bound (parse, deal, push)':40} {len(texts) / t:10,.0f} "
                f"{t / n_events * 1e6:9.2f} {'':12} {t / t_floor:6.2f}"
            )
        if kind == "view":
            folds = f"  folds a view: {_folds_per_view('engine', texts):.2f}"
            if old_runs:
                folds += f" (old: {_folds_per_view(old.__name__, texts):.2f})"
            print(folds)
        if kind == "games" and finished != len(texts):
            # Without hands an early-ended game may not show who the partner is.
            print(f"  ({len(texts) - finished} of them await the partner)")
    if args.push_pop:
        _push_pop(max(1, args.records // 10), clock, args.repeat)


if __name__ == "__main__":
    main()
