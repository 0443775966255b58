"""The `vlog` command line: one module per subcommand, loaded only when used.

Data goes to stdout, diagnostics to stderr. `main()` turns every failure into one clean line and
an exit code: 0 ok, 1 findings, 2 usage, 3 unreadable input, 4 internal error (traceback only
with `--debug`).
"""
from __future__ import annotations

import importlib
import os
import sys
import traceback

import click
from click.utils import make_default_short_help

from vlog import __version__
from vlog.errors import VlogError

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4

# subcommand name (also its module under vlog.cli, which defines `command`) -> its one-line summary.
# The summary is the first sentence of the command's help, kept here so that `vlog --help`
# lists every command without importing any of them (tests/cli keep the two equal).
COMMANDS: dict[str, str] = {
    "info": "Summarise a save (.vsav), log (.vlog), its JSON form, or a module "
            "(.vmod/.vmdx/buildFile/folder).",
    "dump": "List everything in a save (.vsav), a log (.vlog) or its JSON form.",
    "convert": "Convert between saves, logs, modules, scripts, game data and JSON.",
    "data": "Inspect and complete the game data (counters, map, tables, scenarios, "
            "VASSAL bindings).",
    "where": "Name a point of a map exactly as VASSAL would, or find the centre of a "
            "named location.",
    "check": "Replay logs (.vlog) or saves (.vsav) and report what breaks the rules.",
    "batch": "Judge many logs at once: group them into games and judge each game's logs in order.",
    "dice": "Dice statistics across logs (.vlog): were each player's dice fair?",
    "games": "List the games vlog knows and, for each, its checks: implemented, or why not.",
    "refresh": "Replace every piece's definition in SAVE by the one in the module, "
            "keeping its state.",
    "bind": "Draft the bindings of MODULE (.vmod, module folder or buildFile.xml) to a "
            "game's data.",
}


class LazyGroup(click.Group):
    """Imports a subcommand's module only when that subcommand runs (fast `--help`, light start)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(f"vlog.cli.{name}")
        return module.command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the summaries above: no subcommand module is imported."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, make_default_short_help(COMMANDS[name], limit)) for name in sorted(COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vlog")
@click.option("--debug", is_flag=True, help="Show a full traceback on internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Read, convert and judge VASSAL modules (.vmod), saves (.vsav) and logs (.vlog).

    \b
    Example:
      vlog info turn3.vlog
      vlog check turn3.vlog --game lion-of-judah
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def main(argv: list[str] | None = None) -> int:
    """Entry point: runs the command and maps every failure onto an exit code."""
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args or bool(os.environ.get("VLOG_DEBUG"))
    try:
        rv = cli.main(args=args, prog_name="vlog", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("vlog: aborted", err=True)
        return EXIT_USAGE
    except click.UsageError as e:
        e.show()
        return EXIT_USAGE
    except click.ClickException as e:
        e.show()
        return EXIT_USAGE
    except VlogError as e:
        if debug:
            traceback.print_exc()
        click.echo(f"vlog: error: {e}", err=True)
        return EXIT_INPUT
    except MemoryError:  # an input too large for this machine is unreadable input, not a crash
        click.echo("vlog: error: out of memory: the input is too large for this machine, or "
            "hostile; check that it is the file you meant", err=True)
        return EXIT_INPUT
    except KeyboardInterrupt:
        click.echo("vlog: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as e:  # noqa: BLE001 - the one place that turns crashes into a clean line
        if debug:
            # the traceback, yet still exit 4: an uncaught exception would exit 1 ("findings")
            traceback.print_exc()
            click.echo(f"vlog: internal error: {type(e).__name__}: {e}", err=True)
            return EXIT_INTERNAL
        click.echo(f"vlog: internal error: {type(e).__name__}: {e} (run with --debug for details)", err=True)
        return EXIT_INTERNAL
    return rv if isinstance(rv, int) else EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
