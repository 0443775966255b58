"""Zip archives (.vmod, .vmdx, .vsav, .vlog) read into memory with caps, written atomically.

Nothing is ever extracted to disk, so member names (even `../x`) are only keys. The file is read
in bounded chunks (only a regular file: a device or a FIFO would never end), and a member is
inflated only when asked for, in bounded chunks while counting bytes: the sizes in the zip headers
are not trusted, so a zip bomb is stopped while it inflates, not after, and many members each
below the ratio cap are stopped by the same cap over the whole archive. All failures are
`ArchiveError` naming the file and the member; writing refuses to replace the input file
(`OutputError`).
"""
from __future__ import annotations

import io
import os
import re
import secrets
import stat
import struct
import time
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from vlog.errors import ArchiveError, OutputError

__all__ = [
    "Limits",
    "DEFAULT_LIMITS",
    "Archive",
    "open_archive",
    "is_zip",
    "write_archive",
    "atomic_write_bytes",
    "read_regular_file",
    "is_special_file",
]

MiB = 1 << 20
GiB = 1 << 30
_CHUNK = 64 * 1024  # zipfile reads compressed input lazily, about one chunk at a time


def _consumed(stream: object, compressed: int) -> int:
    """Compressed bytes zipfile has read so far (all of them if CPython's counter is absent).

    Comparing the output with what has been read, not with the whole member, stops a bomb after a
    few megabytes instead of after `max_ratio` times its full compressed size.
    """
    left = getattr(stream, "_compress_left", None)
    if not isinstance(left, int):
        return compressed
    return max(compressed - left, 1)


@dataclass(frozen=True)
class Limits:
    """Caps applied while reading an archive; the defaults are far above any real VASSAL file."""

    max_members: int = 10_000
    max_member_size: int = 512 * MiB
    max_total: int = 2 * GiB
    max_ratio: int = 200
    # The ratio cap only bites once a member has inflated past this many bytes: tiny members
    # (an empty-ish XML file, a run of spaces) legitimately compress far better than 200:1.
    ratio_floor: int = 1 * MiB
    max_name_len: int = 1024
    max_archive_size: int = 2 * GiB


DEFAULT_LIMITS = Limits()


def _display_name(source: object, name: str | None) -> str:
    if name is not None:
        return name
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "<bytes>"
    return os.fspath(source)  # type: ignore[arg-type]


def _declared_entry_count(data: bytes) -> int | None:
    """Entry count from the end-of-central-directory record, read before zipfile parses it all.

    Lets a file claiming millions of members be refused without building millions of ZipInfo
    objects. None when the record cannot be found (zipfile then reports the damage).
    """
    eocd = data.rfind(b"PK\x05\x06", max(0, len(data) - (65535 + 22)))
    if eocd < 0 or eocd + 22 > len(data):
        return None
    total = struct.unpack_from("<H", data, eocd + 10)[0]
    if total != 0xFFFF:
        return total
    loc = eocd - 20  # zip64 end-of-central-directory locator
    if loc < 0 or data[loc:loc + 4] != b"PK\x06\x07":
        return total
    rec = struct.unpack_from("<Q", data, loc + 8)[0]
    if rec + 56 > len(data) or data[rec:rec + 4] != b"PK\x06\x06":
        return None
    return struct.unpack_from("<Q", data, rec + 32)[0]


class Archive:
    """An opened zip held in memory; `read` inflates one member under the caps."""

    def __init__(self, data: bytes, path: str, limits: Limits = DEFAULT_LIMITS):
        self.path = path
        self.limits = limits
        self._total_read = 0
        self._total_consumed = 0
        """Inflated and compressed bytes of every member read so far: the caps over the archive."""
        if len(data) > limits.max_archive_size:
            raise ArchiveError(
                f"archive is {len(data)} bytes, more than the limit of {limits.max_archive_size}",
                file=path)
        declared = _declared_entry_count(data)
        if declared is not None and declared > limits.max_members:
            raise ArchiveError(
                f"archive declares {declared} members, more than the limit of {limits.max_members}",
                file=path)
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except zipfile.BadZipFile as exc:
            if data.startswith(b"PK\x03\x04"):
                raise ArchiveError(f"truncated or damaged zip archive ({exc})", file=path) from None
            raise ArchiveError(f"not a zip archive ({exc})", file=path) from None
        except (OSError, EOFError, ValueError, struct.error, NotImplementedError,
                UnicodeDecodeError, OverflowError, MemoryError) as exc:
            raise ArchiveError(f"broken zip archive ({type(exc).__name__}: {exc})", file=path) from None
        if len(infos) > limits.max_members:
            raise ArchiveError(
                f"archive has {len(infos)} members, more than the limit of {limits.max_members}",
                file=path)
        self._infos = infos
        self._first: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            if len(info.filename) > limits.max_name_len:
                shown = info.filename[:60] + "…"
                raise ArchiveError(
                    f"member name of {len(info.filename)} characters is longer than the limit "
                    f"of {limits.max_name_len}", file=path, where=f"member {shown!r}")
            # VASSAL reads the first entry of a given name (GameState.decodeSavedGame scans in order).
            self._first.setdefault(info.filename, info)

    def names(self) -> list[str]:
        """Member names in zip (central directory) order, duplicates included."""
        return [i.filename for i in self._infos]

    def infos(self) -> list[zipfile.ZipInfo]:
        """The zip's own entries (sizes and dates as declared, not verified)."""
        return list(self._infos)

    def has(self, name: str) -> bool:
        return name in self._first

    def read(self, name: str) -> bytes:
        """The inflated member, checked against its CRC; refused as soon as a cap is exceeded."""
        where = f"member {name}"
        info = self._first.get(name)
        if info is None:
            raise ArchiveError("member is missing from the archive", file=self.path, where=where)
        if info.flag_bits & 0x1:
            raise ArchiveError("member is encrypted", file=self.path, where=where)
        lim = self.limits
        cap = min(lim.max_member_size, lim.max_total - self._total_read)
        compressed = max(info.compress_size, 1)
        out = io.BytesIO()      # getvalue() hands over its buffer: no second copy of the member
        size = consumed = 0
        try:
            with self._zip.open(info) as stream:
                while True:
                    chunk = stream.read(_CHUNK)
                    if not chunk:
                        break
                    out.write(chunk)
                    size += len(chunk)
                    consumed = _consumed(stream, compressed)
                    if size > lim.max_member_size:
                        raise ArchiveError(
                            f"member inflates to more than {lim.max_member_size} bytes",
                            file=self.path, where=where)
                    if size > cap:
                        raise ArchiveError(
                            f"archive inflates to more than {lim.max_total} bytes in total",
                            file=self.path, where=where)
                    if size > lim.ratio_floor and size > lim.max_ratio * consumed:
                        raise ArchiveError(
                            f"member inflates more than {lim.max_ratio} times its compressed "
                            f"size of {info.compress_size} bytes (zip bomb?)",
                            file=self.path, where=where)
                    total = self._total_read + size
                    if total > lim.ratio_floor and total > lim.max_ratio * (self._total_consumed + consumed):
                        raise ArchiveError(
                            f"the members read so far inflate more than {lim.max_ratio} times "
                            "their compressed size (zip bomb?)", file=self.path, where=where)
        except ArchiveError:
            raise
        except zipfile.BadZipFile as exc:
            raise ArchiveError(f"broken member ({exc})", file=self.path, where=where) from None
        except RuntimeError as exc:  # zipfile's way of saying "encrypted"
            raise ArchiveError(f"member cannot be read ({exc})", file=self.path, where=where) from None
        except NotImplementedError as exc:
            raise ArchiveError(f"unsupported compression ({exc})", file=self.path, where=where) from None
        except (OSError, EOFError, ValueError, zlib.error, struct.error, OverflowError,
                MemoryError) as exc:
            raise ArchiveError(f"broken member ({type(exc).__name__}: {exc})",
                               file=self.path, where=where) from None
        self._total_read += size
        self._total_consumed += consumed or compressed
        return out.getvalue()


def open_archive(source: str | os.PathLike | bytes, *, name: str | None = None,
                 limits: Limits = DEFAULT_LIMITS) -> Archive:
    """Open a zip from a path or from bytes; `name` is what error messages call it."""
    shown = _display_name(source, name)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return Archive(bytes(source), shown, limits)
    data = read_regular_file(source, limits.max_archive_size, shown, ArchiveError)
    return Archive(data, shown, limits)


_READ_CHUNK = 1 << 20


def read_regular_file(path: str | os.PathLike, limit: int, shown: str | None = None,
                      error: type = ArchiveError) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, read in bounded chunks.

    Anything but a regular file is refused before it is opened: `/dev/zero` never ends and a FIFO
    without a writer blocks the open itself. Errors are `error` (a VlogError class) naming the file.
    """
    shown = shown if shown is not None else os.fspath(path)
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise error("is a folder, not a file", file=shown)
        if not stat.S_ISREG(st.st_mode):
            raise error("is not a regular file (a device, a pipe or a socket); give a saved file",
                        file=shown)
        if st.st_size > limit:
            raise error(f"is {st.st_size} bytes, more than the limit of {limit}", file=shown)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb", buffering=0) as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # replaced since the stat
                raise error("is not a regular file", file=shown)
            # The first read asks for the size the stat gave and one byte more, so a file read
            # whole is one buffer of its own size (no growing buffer, no copy); a file that grew
            # since the stat is read on in bounded chunks up to the limit.
            want, chunks, size = st.st_size + 1, [], 0
            while True:
                chunk = fh.read(want - size if size < want else _READ_CHUNK)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:  # the file grew while being read
                    raise error(f"is more than the limit of {limit} bytes", file=shown)
    except error:
        raise
    except OSError as exc:
        raise error(f"cannot read the file ({exc.strerror or exc})", file=shown) from None
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def is_zip(data_or_path: str | os.PathLike | bytes) -> bool:
    """True when the bytes or file end with a zip central directory (what zipfile can open)."""
    try:
        if isinstance(data_or_path, (bytes, bytearray, memoryview)):
            return zipfile.is_zipfile(io.BytesIO(bytes(data_or_path)))
        return zipfile.is_zipfile(data_or_path)
    except (OSError, ValueError):
        return False


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def atomic_write_bytes(path: str | os.PathLike, data: bytes, *,
                       protect: Iterable[str | os.PathLike] = ()) -> None:
    """Write `data` to `path` all at once: a temp file in the same folder, then `os.replace`.

    A reader never sees a half-written file, and a crash leaves the old file intact. Refuses
    (`OutputError`) to overwrite any path in `protect` (the input files). A special file at `path`
    (`/dev/stdout`, a FIFO, a device) is written to as a stream, never replaced by a regular file.
    The temp file's name carries the writer's process id, so temp files stranded by a writer that
    was killed (`kill -9`) are removed by the next write beside them.
    """
    target = Path(path)
    shown = os.fspath(path)
    for p in protect:
        guarded = Path(p)
        if target.resolve() == guarded.resolve() or _same_file(target, guarded):
            raise OutputError("refusing to overwrite the input file", file=shown)
    if target.is_dir():
        raise OutputError("the output path is a folder", file=shown)
    if is_special_file(target):
        _write_stream(target, data, shown)
        return
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"the folder {os.fspath(folder)!r} does not exist", file=shown)
    _remove_stranded_temps(folder, target.name)
    tmp = folder / f".{target.name}.{os.getpid()}-{secrets.token_hex(6)}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    except OSError as exc:
        raise OutputError(f"cannot write in {os.fspath(folder)!r} ({exc.strerror or exc})",
                          file=shown) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            try:
                os.chmod(tmp, target.stat().st_mode & 0o7777)
            except OSError:
                pass
        os.replace(tmp, target)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise OutputError(f"cannot write the file ({exc.strerror or exc})", file=shown) from None


def is_special_file(path: str | os.PathLike) -> bool:
    """True for an existing path that is neither a regular file nor a folder (a device, a FIFO,
    a socket, or any path under /dev and /proc: `/dev/stdout` may lead to the file the shell
    redirected to): written to as a stream, not replaced."""
    if os.name != "nt" and os.path.abspath(path).startswith(("/dev/", "/proc/")):
        return os.path.exists(path)
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


_STANDARD_FDS = {"/dev/stdout": 1, "/dev/stderr": 2, "/dev/fd/1": 1, "/dev/fd/2": 2,
                 "/proc/self/fd/1": 1, "/proc/self/fd/2": 2}


def _write_stream(target: Path, data: bytes, shown: str) -> None:
    """Writes to the process's own stdout/stderr descriptor when the path names it (keeping the
    shell's redirection, `>>` included), else opens the special file without truncating it."""
    try:
        fd = _STANDARD_FDS.get(os.path.abspath(target))
        if fd is not None:
            import sys
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError, AttributeError):
                    pass
        own = fd is None
        if own:
            fd = os.open(target, os.O_WRONLY | getattr(os, "O_BINARY", 0))
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            if own:
                os.close(fd)
    except OSError as exc:
        raise OutputError(f"cannot write to it ({exc.strerror or exc})", file=shown) from None


_TEMP = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)-[0-9a-f]{12}\.tmp\Z")


def _remove_stranded_temps(folder: Path, name: str) -> None:
    """Removes `.NAME.PID-XXXX.tmp` files beside the output whose writer no longer runs."""
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(f".{name}.") and e.name.endswith(".tmp")]
    except OSError:
        return
    for entry in entries:
        m = _TEMP.match(entry.name)
        if m is None or m.group("name") != name or not entry.is_file(follow_symlinks=False):
            continue
        if _process_runs(int(m.group("pid"))):
            continue
        try:
            os.unlink(entry.path)
        except OSError:
            pass


def _process_runs(pid: int) -> bool:
    if os.name == "nt":
        return True  # os.kill would end the process there, not probe it
    if pid == os.getpid():
        return False  # this process writes one file at a time; its own leftovers are stranded
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):
        return True  # not ours to judge (another user's process, or no signals here)
    return True


def write_archive(path: str | os.PathLike, members: list[tuple[str, bytes]], *,
                  protect: Iterable[str | os.PathLike] = (),
                  date_time: tuple[int, int, int, int, int, int] | None = None) -> None:
    """Write a zip with DEFLATED members in the given order, as VASSAL's ZipWriter does.

    `date_time` stamps every member (default: now, local time, as VASSAL does); pass a fixed
    one for reproducible output.
    """
    stamp = date_time or time.localtime()[:6]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    atomic_write_bytes(path, buf.getvalue(), protect=protect)
