"""Reading a file someone else may have made (a mod's rules, manifest, data, map or
scenario; a save): a regular file only, and never more of it than its limit.

A FIFO would block the reader forever and a device (/dev/zero) never ends; a file's size is
known before it is read, so a 10 GB "map" is refused, not read whole. The file is asked what
it is before it is opened (opening a FIFO blocks), and asked again once open (opened without
blocking), in case it was swapped in between. The rules language reads its files this way,
and the engine the rest.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["NotAFile", "TooBig", "read_bounded", "what_it_is", "unix_newlines"]


class NotAFile(OSError):
    """Not a regular file: `kind` says what it is (`a folder`, `a FIFO`...)."""

    def __init__(self, path: Path | str, kind: str) -> None:
        super().__init__(errno.EINVAL, f"{kind}, not a file", str(path))
        self.kind = kind


class TooBig(OSError):
    """A file larger than its limit: `size` bytes (at least), `most` allowed."""

    def __init__(self, path: Path | str, size: int, most: int) -> None:
        super().__init__(errno.EFBIG, f"{size:,} bytes, more than the {most:,} it may have", str(path))
        self.size = size
        self.most = most


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def what_it_is(mode: int) -> str | None:
    """None for a regular file; what else it is, in words."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def check_file(path: Path | str, most: int) -> os.stat_result:
    """Refuse `path` unless it is a regular file of at most `most` bytes (it is not opened)."""
    st = os.stat(path)
    kind = what_it_is(st.st_mode)
    if kind is not None:
        raise NotAFile(path, kind)
    if st.st_size > most:
        raise TooBig(path, st.st_size, most)
    return st


def read_bounded(path: Path | str, most: int) -> bytes:
    """The bytes of the regular file `path`, at most `most` of them: NotAFile, TooBig, or
    the OSError of the system (no such file, no permission)."""
    check_file(path, most)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                 | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        kind = what_it_is(os.fstat(fd).st_mode)
        if kind is not None:
            raise NotAFile(path, kind)
        data = f.read(most + 1)
    if len(data) > most:
        raise TooBig(path, len(data), most)
    return data


def unix_newlines(text: str) -> str:
    """`text` with its lines ended by `\\n` alone: a file saved with `\\r\\n` (Windows) or `\\r`
    (old Macs) reads as the same lines (with `\\r` alone, a first line that is a comment would
    otherwise be the whole file)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
