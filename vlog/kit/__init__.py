"""The game kit: a game's data bound to the rules engine (`vlog.engine`), what every game's rules
are built from.

Every game under `vlog.games` is built from these modules; they may import `vlog.engine`,
`vlog.gamedata`, `vlog.table`, `vlog.hexes` and `vlog.findings`, never a game or `converters`.
"""
