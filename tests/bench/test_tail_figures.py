"""The load benchmark's account of a latency tail: collector pauses and quiet spells."""

from __future__ import annotations

import gc
from pathlib import Path

from bench.api_load import Phase, Tally, quiet_spells
from bench.pauses import Pauses, read_log


def _phase(*requests: tuple[float, float]) -> Phase:
    """A phase of one scorer whose requests were sent and answered as given (seconds)."""
    tally = Tally()
    for sent, answered in requests:
        tally.sent.append(sent)
        tally.latencies.append(answered - sent)
    return Phase([tally], 1.0, {}, 0.0, 1.0)


def test_a_spell_without_answers_is_found_and_shorter_gaps_are_not() -> None:
    ran = _phase((0.000, 0.004), (0.004, 0.009), (0.009, 0.034), (0.034, 0.040), (0.040, 0.052))
    spells = quiet_spells(ran)
    assert [round(1000 * s, 3) for s in spells] == [25.0, 12.0]


def test_answers_of_every_scorer_count_against_a_spell() -> None:
    # Scorer 0 waits 30 ms, but scorer 1's answers arrive in between: no spell.
    slow, busy = Tally(), Tally()
    slow.sent, slow.latencies = [0.0], [0.030]
    busy.sent = [0.000, 0.008, 0.016, 0.024]
    busy.latencies = [0.008, 0.008, 0.008, 0.008]
    assert quiet_spells(Phase([slow, busy], 1.0, {}, 0.0, 1.0)) == []


def test_a_full_collection_is_recorded_with_its_time_and_written_to_the_log(
    tmp_path: Path,
) -> None:
    log = tmp_path / "pauses.csv"
    pauses = Pauses(log)
    try:
        gc.collect()
    finally:
        pauses.close()
    full = [p for p in pauses.pauses if p[0] == 2]
    assert full, "gc.collect() is a collection of generation 2"
    _, started, ended = full[-1]
    assert started <= ended
    assert pauses.between(started, ended + 1)[-1] == full[-1]
    logged = [row for row in read_log(log) if row[1] == 2]
    assert logged[-1][2] == round(started, 6)
    assert abs(logged[-1][3] - ended) < 1e-5


def test_a_missing_log_reads_as_no_pauses(tmp_path: Path) -> None:
    assert read_log(tmp_path / "never-written.csv") == []
