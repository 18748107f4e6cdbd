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
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
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
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    blocker = tmp_path / "a file"
    blocker.write_text("in the way")
    for where in (str(blocker / "parsed"), "off", ""):
        monkeypatch.setenv("WARGAME_CACHE_DIR", where)
        _new_run()
        assert parse_module(TEXT, "house.rules").decls
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a file", "config"]
    _parsed.cache_clear()


def test_the_folder_keeps_at_most_its_number_of_files(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_cache, "MAX_FILES", 6)
    for i in range(20):
        parse_module(TEXT.replace("2", str(i + 10)), "house.rules")
        assert len(list(cache.glob("*.tree"))) <= 6


class _Planted:
    """What a planted pickle does when it is read: leaves a mark (it could do anything)."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path.touch, (str(self.mark),))  # type: ignore[return-value]


def test_a_file_planted_in_the_folder_never_runs(cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Someone who can write into the cache folder (a shared one) plants a pickle under the
    name a rules file will be looked for: `wargame check` parses the file, the pickle is
    never read, and nothing it would have run runs."""
    import pickle

    from clients.cli import main

    rules = tmp_path / "house.rules"
    rules.write_text(TEXT)
    mark = tmp_path / "ran"
    cache.mkdir()
    planted = parse_cache._path(cache, str(rules), TEXT)
    for data in (pickle.dumps(_Planted(mark)), bytes(32) + pickle.dumps(_Planted(mark))):
        planted.write_bytes(data)
        _new_run()
        assert main(["check", str(rules)]) == 0
        assert f"{rules}: ok" in capsys.readouterr().out
        assert not mark.exists()


def test_a_fifo_or_a_device_planted_in_the_folder_is_not_read(cache: Path, tmp_path: Path) -> None:
    """A FIFO planted under the name a rules file will be looked for would block `wargame
    check` for ever, and a link to /dev/zero fill its memory: neither is read, the file is
    parsed afresh."""
    import os
    import subprocess
    import sys

    rules = tmp_path / "house.rules"
    rules.write_text(TEXT)
    cache.mkdir()
    planted = parse_cache._path(cache, str(rules), TEXT)
    os.mkfifo(planted)
    done = subprocess.run([sys.executable, "-m", "clients", "check", str(rules)], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0 and f"{rules}: ok" in done.stdout, done.stderr
    planted.unlink()
    planted.symlink_to("/dev/zero")
    done = subprocess.run([sys.executable, "-m", "clients", "check", str(rules)], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0 and f"{rules}: ok" in done.stdout, done.stderr


def test_the_key_is_the_users_own_and_lies_outside_the_folder(cache: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    parse_module(TEXT, "house.rules")
    key = tmp_path / "config" / "wargame" / "parse-cache.key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32
    assert len(list(cache.glob("*.tree"))) == 1
    # a key others may read, or one inside the cache folder: nothing is read or kept
    for config in (tmp_path / "shared", cache):
        monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
        other = config / "wargame" / "parse-cache.key"
        other.parent.mkdir(parents=True, exist_ok=True)
        other.write_bytes(bytes(32))
        other.chmod(0o644)
        parse_cache._key.cache_clear()
        _new_run()
        assert parse_module(TEXT.replace("2", "5"), "house.rules").decls
        assert len(list(cache.glob("*.tree"))) == 1
