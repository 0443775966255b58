"""Console, progress and output helpers shared by every `vlog` subcommand.

Chat and piece names in saves and logs are written by players, so nothing vlog prints is ever
read as rich markup, emoji codes or terminal control sequences. Data goes to stdout or to a file
given with `-o`; progress and warnings go to stderr, and only when stderr is a terminal.
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence, TypeVar

import click
from rich.console import Console

from vlog.errors import OutputError, VlogError

T = TypeVar("T")

__all__ = [
    "stdout_console",
    "stderr_console",
    "progress",
    "progress_wanted",
    "text_style",
    "warn",
    "printable",
    "format_option",
    "output_option",
    "check_output_path",
    "write_atomic",
    "emit",
    "json_text",
    "write_stdout",
    "input_argument",
    "check_input",
]


class _Console(Console):
    """rich's Console, but a closed pipe (`vlog dump x | head`) ends quietly with exit 0."""

    def on_broken_pipe(self) -> None:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, (sys.stderr if self.stderr else sys.stdout).fileno())
        except (OSError, ValueError, AttributeError):
            pass
        raise BrokenPipeError


def _console(stderr: bool) -> Console:
    return _Console(stderr=stderr, markup=False, highlight=False, emoji=False, soft_wrap=True)


def stdout_console() -> Console:
    """A console for data: no markup, no highlighting, no emoji, no wrapping."""
    return _console(stderr=False)


def stderr_console() -> Console:
    """A console for diagnostics and progress, same safety settings as stdout."""
    return _console(stderr=True)


def text_style(output: Path | None, *, default_width: int = 100) -> tuple[int, bool]:
    """(width, colour) for a report in text: the terminal's width, and colour unless NO_COLOR
    says otherwise, when it goes to a terminal (FORCE_COLOR counts as one); `default_width` and
    plain text when it goes to a file or a pipe."""
    if output is not None and str(output) != "-":
        return default_width, False
    console = stdout_console()
    if not console.is_terminal:
        return default_width, False
    return console.width, console.color_system is not None and not console.no_color


def progress_wanted() -> bool:
    """True only when stderr is an interactive terminal outside CI (no bar in pipes or logs)."""
    if os.environ.get("CI") or os.environ.get("VLOG_NO_PROGRESS"):
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def progress(iterable: Iterable[T], total: int | None, description: str) -> Iterator[T]:
    """Yields from `iterable`, drawing a progress bar on stderr only when it is a terminal."""
    if not progress_wanted():
        yield from iterable
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=stderr_console(),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)
        for item in iterable:
            yield item
            bar.advance(task)


def warn(message: str) -> None:
    """One warning line on stderr, `vlog: warning: ...`."""
    stderr_console().out(f"vlog: warning: {printable(message)}", highlight=False)


_CONTROL_ESCAPES = {"\t": "\\t", "\r": "\\r", "\x1b": "\\e"}


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """`text` with control characters shown as escapes, so player text cannot drive the terminal."""
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if ch == "\n" and keep_newlines:
            out.append(ch)
        elif code < 0x20 or code == 0x7F or 0x80 <= code < 0xA0 or ch in "\u2028\u2029":
            out.append(_CONTROL_ESCAPES.get(ch) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"))
        else:
            out.append(ch)
    return "".join(out)


def format_option(*choices: str, default: str = "text") -> Callable:
    """The `--format` option shared by the commands: one of `choices`, `default` when not given."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(choices, case_sensitive=False),
        default=default,
        show_default=True,
        help="Output format: " + ", ".join(choices) + ".",
    )


def output_option() -> Callable:
    """The `-o/--output FILE` and `--force` options: write to FILE (atomically) instead of stdout,
    replacing an existing FILE only with `--force` (the one overwrite rule of every command)."""
    output = click.option(
        "-o",
        "--output",
        "output",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write to FILE instead of standard output (never over an input file, nor over an "
             "existing file unless --force is given).",
    )
    force = click.option("--force", is_flag=True, help="With -o: replace FILE if it exists (never an input).")
    return lambda f: output(force(f))


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def check_output_path(output: Path, inputs: Sequence[Path], *, force: bool) -> None:
    """Refuses an output that is one of the inputs, a folder, or (without `force`) an existing file."""
    for source in inputs:
        if _same_file(output, source):
            raise OutputError(
                "the output would overwrite the input; choose another output file name",
                file=str(output),
            )
    if output.is_dir():
        raise OutputError("is a folder; give a file name for the output", file=str(output))
    from vlog.vassal.archive import is_special_file

    if is_special_file(output):  # /dev/stdout, a FIFO: written to as a stream, nothing replaced
        return
    if output.exists() and not force:
        raise OutputError("already exists; use --force to replace it", file=str(output))
    parent = output.parent if str(output.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"folder {parent} does not exist; create it first", file=str(output))


def write_atomic(output: Path, data: bytes, *, inputs: Sequence[Path] = ()) -> None:
    """Writes `data` through a temporary file in the same folder, then renames it over `output`.

    A failure leaves no partial file behind and an existing file intact; `inputs` are never replaced.
    """
    from vlog.vassal.archive import atomic_write_bytes

    atomic_write_bytes(output, data, protect=inputs)


def emit(text: str, output: Path | None, *, inputs: Sequence[Path] = (), force: bool = False) -> None:
    """Sends finished command output to stdout, or atomically to `output`.

    `text` must already be printable (see `printable`); it is written as UTF-8 and ends with one
    newline. `-o` never replaces an input, nor an existing file unless `force`; a special file
    (`/dev/stdout`, a FIFO) is written to as a stream.
    """
    if text and not text.endswith("\n"):
        text += "\n"
    if output is None or str(output) == "-":
        write_stdout(text)
        return
    check_output_path(output, inputs, force=force)
    write_atomic(output, text.encode("utf-8"), inputs=inputs)


def write_stdout(text: str) -> None:
    """Writes already printable data to stdout as UTF-8, whatever the locale says.

    Bulk data skips rich's rendering (it costs about a second per megabyte) — the text is made
    safe by `printable`/`json_text` before it gets here. A closed pipe ends quietly.
    """
    stream = sys.stdout
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            stream.flush()
            buffer.write(text.encode("utf-8"))
            buffer.flush()
        else:
            stream.write(text)
            stream.flush()
    except BrokenPipeError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        raise


def json_text(data: object, *, lines: bool = False) -> str:
    """JSON as vlog prints it: UTF-8 (not \\u escapes), indented, or one compact object per line."""
    if lines:
        text = "".join(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n" for item in data)  # type: ignore[union-attr]
    else:
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    # json leaves DEL, C1 controls and line separators raw; inside JSON they occur only in strings
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029]")


def input_argument(name: str = "file") -> Callable:
    """A FILE argument whose absence is reported by the command as unreadable input (exit 3)."""
    return click.argument(name, metavar=name.upper(), type=click.Path(path_type=Path))


def check_input(path: Path) -> Path:
    """Returns `path` when it is a readable file; otherwise raises VlogError naming what to fix."""
    if not path.exists():
        raise VlogError("no such file; check the name and folder", file=str(path))
    if path.is_dir():
        raise VlogError("is a folder; give a .vsav, .vlog, .vmod or .json file", file=str(path))
    if not path.is_file():  # a device never ends, a FIFO without a writer blocks
        raise VlogError("is not a regular file (a device, a pipe or a socket); give a saved file",
                        file=str(path))
    if not os.access(path, os.R_OK):
        raise VlogError("cannot be read: permission denied", file=str(path))
    return path
