"""The reference records in tests/reference are all there, unchanged since their last
refresh: every file of ``MANIFEST.sha256`` with its checksum, no file beside them,
and the counts their READMEs state (examples 01–70, 1,989 corpus records, 600 tally
records)."""

from __future__ import annotations

import re

from tests.reference import (
    CORPUS,
    EXAMPLES,
    REFERENCE,
    TALLY_CORPUS,
    TALLY_EXAMPLES,
    data_files,
    example_names,
    load,
    read_manifest,
    sha256,
)


def test_the_manifest_lists_exactly_the_reference_files_there_are() -> None:
    assert sorted(read_manifest()) == data_files(REFERENCE)


def test_every_reference_file_has_the_checksum_the_manifest_gives() -> None:
    changed = [
        name for name, digest in read_manifest().items() if sha256(REFERENCE / name) != digest
    ]
    assert changed == []


def test_the_examples_are_numbered_01_to_70_with_the_tallies_in_their_folder() -> None:
    names = example_names()
    numbers = [int(re.sub(r"^(tally/)?(\d\d)-.*", r"\2", name)) for name in names]
    assert numbers == list(range(1, 71))
    assert sorted(p.name[:2] for p in TALLY_EXAMPLES.glob("*.json")) == [
        str(n) for n in range(61, 71)
    ]
    assert len(list(EXAMPLES.glob("*.json"))) == 60


def test_each_example_has_a_description_a_record_and_an_expected_result() -> None:
    for name in example_names():
        example = load(EXAMPLES / name)
        assert set(example) == {"description", "record", "expected"}, name
        assert example["description"].strip() and example["expected"]["status"], name


def test_the_corpora_hold_1989_and_600_records_each_with_its_expected_result() -> None:
    cases, tallies = load(CORPUS), load(TALLY_CORPUS)
    assert (len(cases), len(tallies)) == (1989, 600)
    for case in cases + tallies:
        assert set(case) == {"record", "expected", "compare_code"}
        assert case["expected"]["status"] in {"finished", "in_progress", "annulled", "invalid"}
