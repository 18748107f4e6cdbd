"""Parsed rules files kept on disk between runs (dsl.parse_cache): a file read in a later run
comes back from the folder as the same tree, and nothing wrong with the folder is ever an
error: a damaged file, an unwritable folder or the cache turned off only means parsing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dsl import parse_cache
from dsl.parser import _parsed, parse_module

TEXT = "procedure two() -> int {\n    return 2\n}\n"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("WARGAME_CACHE_DIR", str(tmp_path / "parsed"))
    _parsed.cache_clear()           # (as a new run starts: nothing parsed in this process)
    yield tmp_path / "parsed"
    _parsed.cache_clear()


def _new_run() -> None:
    _parsed.cache_clear()


def test_a_file_parsed_in_one_run_is_read_back_in_the_next(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = parse_module(TEXT, "house.rules")
    assert len(list(cache.glob("*.tree"))) == 1
    _new_run()
    monkeypatch.setattr("dsl.parser._parse", lambda text, file: pytest.fail("parsed again"))
    again = parse_module(TEXT, "house.rules")
    assert again == first and again is not first
    assert again.decls[0].pos.file == "house.rules" and again.texts == first.texts


def test_an_edited_file_or_another_name_is_parsed_afresh(cache: Path) -> None:
    parse_module(TEXT, "house.rules")
    edited = parse_module(TEXT.replace("2", "3"), "house.rules")
    renamed = parse_module(TEXT, "other.rules")
    assert len(list(cache.glob("*.tree"))) == 3
    assert renamed.decls[0].pos.file == "other.rules" and "3" in edited.texts[0]


def test_a_damaged_kept_file_is_parsed_again_and_replaced(cache: Path) -> None:
    want = parse_module(TEXT, "house.rules")
    (kept,) = cache.glob("*.tree")
    for damage in (b"", b"not a pickle", kept.read_bytes()[:40]):
        kept.write_bytes(damage)
        _new_run()
        assert parse_module(TEXT, "house.rules") == want
        assert kept.read_bytes() != damage


def test_a_folder_that_cannot_be_made_or_the_cache_turned_off_keeps_nothing(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("in the way")
    for where in (str(blocker / "parsed"), "off", ""):
        monkeypatch.setenv("WARGAME_CACHE_DIR", where)
        _new_run()
        assert parse_module(TEXT, "house.rules").decls
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a file"]
    _parsed.cache_clear()


def test_the_folder_keeps_at_most_its_number_of_files(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_cache, "MAX_FILES", 6)
    for i in range(20):
        parse_module(TEXT.replace("2", str(i + 10)), "house.rules")
        assert len(list(cache.glob("*.tree"))) <= 6
