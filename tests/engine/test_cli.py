"""``python -m engine replay FILE|-`` as event-stream.md describes it, and ``python -m
engine analyse FILE|-`` as analysis.md does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.engine._shared import EXAMPLES, REPO, load

RECORD = {
    "game": "fuchsen",
    "events": [
        {"type": "deal", "dealer": "anna", "players": ["anna", "bert", "carl", "dora"]},
    ],
}


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )


def test_it_prints_one_result_for_one_record(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(RECORD))
    done = _run("replay", str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "status": "in_progress",
        "game": "fuchsen",
        "awaiting": "call",
    }


def test_it_reads_standard_input_and_answers_an_array_with_an_array() -> None:
    done = _run("replay", "-", stdin=json.dumps([RECORD, {"game": "skat", "events": []}]))
    assert done.returncode == 0
    results = json.loads(done.stdout)
    assert [r["status"] for r in results] == ["in_progress", "invalid"]
    assert results[1]["error"]["code"] == "malformed_record"


def test_it_exits_0_for_an_invalid_record_it_could_read() -> None:
    done = _run("replay", "-", stdin="[1, 2]")
    assert done.returncode == 0
    assert [r["error"]["code"] for r in json.loads(done.stdout)] == ["malformed_record"] * 2


def test_it_exits_2_for_a_missing_file(tmp_path: Path) -> None:
    done = _run("replay", str(tmp_path / "nope.json"))
    assert done.returncode == 2
    assert "cannot read" in done.stderr
    assert done.stdout == ""


def test_it_exits_2_for_text_that_is_not_json() -> None:
    done = _run("replay", "-", stdin="{not json")
    assert done.returncode == 2
    assert "not JSON" in done.stderr


def _example(name: str) -> dict[str, object]:
    path = EXAMPLES / name
    record: dict[str, object] = load(path)["record"]
    return record


def test_analyse_prints_the_analysis_of_one_record() -> None:
    record = _example("23-koenig-durchmarsch-lost.json")
    done = _run("analyse", "-", stdin=json.dumps(record))
    assert done.returncode == 0
    out = json.loads(done.stdout)
    assert out["status"] == "analysed"
    assert out["game"] == "koenigrufen"
    assert out["side"] == ["bert", "carl"]
    assert [c["card"] for c in out["cards"]] == ["E9", "EU", "EA", "S9"]
    assert out["cards"][0]["before"] is False


def test_analyse_answers_an_array_with_an_array_and_says_why_not(tmp_path: Path) -> None:
    path = tmp_path / "records.json"
    path.write_text(json.dumps([RECORD, _example("38-koenig-schurln-one-loser.json")]))
    done = _run("analyse", str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout) == [
        {"status": "not_analysable", "reason": "no_play"},
        {"status": "not_analysable", "reason": "schurln"},
    ]


def test_analyse_exits_2_for_text_that_is_not_json() -> None:
    done = _run("analyse", "-", stdin="{nope")
    assert done.returncode == 2
    assert "not JSON" in done.stderr
