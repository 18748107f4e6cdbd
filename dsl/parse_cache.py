"""Parsed rules files kept on disk from one run of `wargame` to the next.

Parsing is most of loading a ruleset (AARHE: about 1.6 of 2.4 s), and the files of an
installed ruleset do not change between runs. A file's tree is kept under a hash of its name,
its text and the parser's own code (the grammar, the parser, the tree's nodes), so that an
edited file, or another version of the language, is parsed afresh. Nothing that goes wrong
with the cache (no folder, no room, a damaged or foreign file) is an error: the file is
parsed as if nothing were kept.

WARGAME_CACHE_DIR names the folder (empty or "off": nothing is kept); by default it is
$XDG_CACHE_HOME/wargame/parsed, or ~/.cache/wargame/parsed.

The files are pickles, which can run code when read, so a kept file is read only if it
bears the HMAC (SHA-256) of a key kept outside the folder: $XDG_CONFIG_HOME/wargame/
parse-cache.key (or ~/.config/wargame/...), 32 random bytes made on first use, readable by
the user alone. A file planted in the folder (a shared or world-writable cache) does not
bear it and is parsed afresh, never unpickled; one that is not a regular file (a FIFO, a link
to /dev/zero) or is too big is not even read. Checking costs a hash of bytes already read
(see the commit that added it for the figures). No usable key (not ours, readable by others,
inside the cache folder): nothing is kept.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import pickle
import stat
import tempfile
from pathlib import Path

from . import ast as A
from .files import read_bounded

#: past this many kept files, the oldest half are removed when one more is kept
MAX_FILES = 1000
#: a kept file larger than this is not read (a 256 KB rules file keeps a tree of about 1 MB)
MAX_TREE_BYTES = 16 << 20
_CODE = ("grammar.lark", "parser.py", "ast.py", "parse_cache.py")


def folder() -> Path | None:
    where = os.environ.get("WARGAME_CACHE_DIR")
    if where is not None:
        return None if where.strip() in ("", "off") else Path(where)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wargame" / "parsed"


#: the HMAC that begins every kept file
_MAC = 32


def key_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "wargame" / "parse-cache.key"


@functools.cache
def _key(path: Path, where: Path) -> bytes | None:
    """The key that signs kept files (made on first use), or None if there is no safe one."""
    try:
        if path.resolve().is_relative_to(where.resolve()):
            return None                 # a key the cache's writers could read or replace
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(_MAC))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            key = f.read(_MAC + 1)
    except OSError:
        return None
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    if not stat.S_ISREG(st.st_mode) or not mine or st.st_mode & 0o077 or len(key) != _MAC:
        return None
    return key


@functools.cache
def _code_hash() -> bytes:
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in _CODE:
        h.update((here / name).read_bytes())
    return h.digest()


def _path(where: Path, file: str, text: str) -> Path:
    h = hashlib.sha256(_code_hash())
    h.update(file.encode("utf-8", "surrogatepass") + b"\0")
    h.update(text.encode("utf-8", "surrogatepass"))
    return where / (h.hexdigest() + ".tree")


def load(file: str, text: str) -> A.Module | None:
    """The tree kept for this file, or None."""
    where = folder()
    if where is None:
        return None
    key = _key(key_file(), where)
    if key is None:
        return None
    try:
        blob = read_bounded(_path(where, file, text), MAX_TREE_BYTES)   # (not a FIFO or /dev/zero)
        mac, data = blob[:_MAC], blob[_MAC:]
        if not hmac.compare_digest(mac, hmac.digest(key, data, "sha256")):
            return None             # not written by this user's wargame: never unpickled
        module = pickle.loads(data)
    except Exception:  # noqa: BLE001 (missing, damaged, another Python's: parse it again)
        return None
    return module if isinstance(module, A.Module) else None


def store(file: str, text: str, module: A.Module) -> None:
    """Keep a file's tree, if the folder will have it."""
    where = folder()
    if where is None:
        return
    key = _key(key_file(), where)
    if key is None:
        return
    try:
        data = pickle.dumps(module, protocol=pickle.HIGHEST_PROTOCOL)
        data = hmac.digest(key, data, "sha256") + data
        where.mkdir(parents=True, exist_ok=True)
        _prune(where)
        # written beside, then moved into place: a reader sees a whole file or none
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, _path(where, file, text))
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, RecursionError, pickle.PicklingError):
        pass


def _prune(where: Path) -> None:
    kept = list(where.glob("*.tree"))
    if len(kept) < MAX_FILES:
        return
    kept.sort(key=lambda p: p.stat().st_mtime)
    for p in kept[: len(kept) // 2]:
        p.unlink(missing_ok=True)
