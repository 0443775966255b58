"""vlog: read, convert and judge VASSAL modules, saved games and logs."""
from __future__ import annotations

from vlog.errors import VlogError
from vlog.vassal.savefile import read, write

__version__ = "0.1.0"
__all__ = ["VlogError", "__version__", "read", "write"]
