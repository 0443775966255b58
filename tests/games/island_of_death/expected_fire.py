"""The findings the fixture logs of fire tied to its dice plant (checks/communications.py,
bombardment_targets.py, penetration.py, coastal_guns.py) and the fort an advance may not pass
(SPR-01, judged under CBT-31): merged into test_end_to_end.EXPECTED."""
from __future__ import annotations

from typing import Any, Mapping

EXPECTED_FIRE: dict[str, list[tuple[str, int, Mapping[str, Any]]]] = {
    "CBT-13": [("CBT-13", 9, {"target": "1208", "warships": ["ax-ws-trieste", "ax-ws-gorizia"], "single_dice": 1})],
    "CBT-13-failed": [("CBT-13", 16, {"target": "0809", "unit": "ax-ws-gorizia", "failed_roll": 2, "failed_step": 11})],
    "CBT-13-bombard": [("CBT-13", 13, {"target": "1208", "unit": "ax-ws-gorizia", "failed_roll": 2, "failed_step": 8})],
    "SPC-03": [("SPC-03", 5, {"target": "1309", "side": "axis", "night": True, "within_two": ["1110"]})],
    "SPC-06": [("SPC-06", 7, {"target": "1311", "steps_in_hex": 8, "steps_lost": 5, "limit": 4})],
    "SPC-09": [("SPC-09", 17, {"target": "1411", "formations": ["4th Infantry Division (Livorno)"]})],
    "WSH-02": [("WSH-02", 4, {"unit": "ax-ws-trieste", "target": "al-coastal-gun-2-6", "dice": [6, 2, 1],
                               "hex": "1316"})],
    "WSH-02-phase": [("WSH-02", 10, {"unit": "ax-ws-trieste", "target": "al-coastal-gun-2-6", "phase": "axis-movement"})],
    "WSH-02-range": [("WSH-02", 7, {"unit": "ax-ws-trieste", "target": "al-coastal-gun-2-6", "distance": 10, "range": 5})],
    "WSH-02-gun-twice": [("WSH-02", 11, {"unit": "al-coastal-gun-2-6", "target": "ax-ws-gorizia", "first_step": 7})],
    "WSH-02-ship-dice": [("WSH-02", 10, {"unit": "ax-ws-trieste", "target": "al-coastal-gun-2-4", "dice": 4, "allowed": 3})],
    "WSH-02-gun-dice": [("WSH-02", 9, {"unit": "al-coastal-gun-2-4", "target": "ax-ws-gorizia", "dice": 3, "allowed": 2})],
    "WSH-02-support": [("WSH-02", 17, {"unit": "ax-ws-trieste", "target": "1311", "fired_step": 4})],
    "SPR-04": [("SPR-04", 7, {"hex": "1516", "attacks": 7, "total": 13, "allowed": 12, "weather": "clear"})],
    "WSH-02-order": [("WSH-02", 5, {"unit": "ax-ws-trieste", "target": "al-coastal-gun-2-6", "allied_step": 3})],
    "SPR-04-dice": [("SPR-04", 6, {"dice": 6, "allowed": 4})],
    "JMP-15": [("JMP-15", 7, {"hex": "1316", "axis_units": ["ax-iv-187"], "allied_units": [],
                               "coastal_guns": ["al-coastal-gun-2-6", "al-coastal-gun-2-4"]})],
    "CBT-31-fort": [("CBT-31", 17, {"target": "1114", "unit": "ax-1-88", "to": "1115", "length": 2})],
    "clean-fire-intro": [],
    "clean-fire-hercules": [],
}
