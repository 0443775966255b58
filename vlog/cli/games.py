"""`vlog games`: every game vlog knows, with its checks — implemented, or why not.

Every game lists every item of its rules inventory (data/inventory.json): implemented, or the
reason it is not judged (cannot be judged from a log / needs data / not yet built). A game with
data only also names the checks its missing data would block.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import click

from vlog.cli._console import format_option, json_text, printable, stdout_console


def _game_entries() -> list[dict[str, Any]]:
    from vlog.gamedata import blocked_checks, load_game_data, status
    from vlog.games import game_ids
    from vlog.games.base import known_games
    from vlog.kit.inventory import load_inventory

    engines = known_games()
    out: list[dict[str, Any]] = []
    for name in game_ids():
        data = load_game_data(name)
        entries = status(data)
        counts = Counter(e.state for e in entries)
        checks = [{"id": c.id, "rule": c.rule, "description": c.description,
                   "implemented": c.implemented, "why_not": c.why_not} for c in load_inventory(name).specs()]
        entry: dict[str, Any] = {
            "game": name, "title": data.title, "engine": engines.get(name, False),
            "data": {k: counts.get(k, 0) for k in ("known", "partial", "unknown", "overridden")},
            "checks": checks, "implemented": sum(1 for c in checks if c["implemented"]),
        }
        if not entry["engine"]:
            entry["blocked_by_data"] = sorted(blocked_checks(entries))
        out.append(entry)
    return out


@click.command("games")
@format_option("text", "json")
def command(output_format: str) -> int:
    """List the games vlog knows and, for each, its checks: implemented, or why not.

    \b
    Examples:
      vlog games
      vlog games --format json
    """
    games = _game_entries()
    if output_format.lower() == "json":
        click.echo(json_text({"games": games}))
        return 0
    console = stdout_console()
    for game in games:
        data = game["data"]
        data_line = (f"data: {data['known']} known, {data['partial']} partial, {data['unknown']} unknown"
                     + (f", {data['overridden']} overridden" if data["overridden"] else ""))
        if game["engine"]:
            console.print(printable(f"{game['game']} — {game['title']}: rules engine, "
                                    f"{game['implemented']} of {len(game['checks'])} checks implemented; "
                                    f"{data_line}"), markup=False, highlight=False)
        else:
            blocked = game["blocked_by_data"]
            console.print(printable(f"{game['game']} — {game['title']}: no rules engine yet (not yet "
                                    f"built); {data_line}; {len(blocked)} checks blocked by missing data"
                                    + (f": {', '.join(blocked)}" if blocked else "")),
                          markup=False, highlight=False, soft_wrap=True)
        for check in game["checks"]:
            short = check["id"].split("/", 1)[1]
            state = "implemented" if check["implemented"] else check["why_not"]
            console.print(printable(f"  {short:<6} {check['rule']:<28} {state}: {check['description']}"),
                          markup=False, highlight=False, soft_wrap=True)
    return 0
