"""The game kit: game data bound to the engine, what every game's rules are built from."""
