"""Which inventory items the Lion of Judah engine judges, and why each other item is not judged.

Every item of the rules inventory (`inventory.INVENTORY`, 245 items) appears once: implemented
(with the check that raises its findings, when another check carries them), or not, with the
reason: it cannot be judged from a log, it needs data the game data lacks (named), or it is
not yet built.
"""
from __future__ import annotations

from vlog.games.base import CheckSpec
from vlog.games.lion_of_judah.inventory import INVENTORY, item

__all__ = ["IMPLEMENTED", "NOT_JUDGEABLE", "NEEDS_DATA", "check_specs", "why_not"]

IMPLEMENTED: dict[str, str] = {
    # movement (checks/movement.py)
    "MV-01": "path cost: TEC cost of each hex plus hexside costs (findings under MV-03/MV-23)",
    "MV-02": "foot or motorized costs by unit class (findings under MV-03/MV-23)",
    "MV-03": "a move needs a path within the available MF",
    "MV-05": "the one-hex minimum move is accepted (findings under MV-03)",
    "MV-06": "no move into a hex with enemy units other than defenseless ones",
    "MV-07": "no move into prohibited terrain (desert) or areas not in play",
    "MV-10": "town and amba hexes cost the hex's other terrain (errata 11.4.3) (findings under MV-03/MV-23)",
    "MV-11": "ambas are mountains for movement (findings under MV-03/MV-23)",
    "MV-12": "rail/road 1 MP per hex, motorized 1/2 per road hex, hexside costs still paid (findings under MV-03/MV-23)",
    "MV-13": "(40) the Asmara - Addis Ababa track is a road (when the map data lists its hexes) (findings under MV-03/MV-23)",
    "MV-15": "+1 MP into a hex of defenseless enemy units other than RPs and trucks (findings under MV-03/MV-23)",
    "MV-16": "a unit may not end its move out of supply",
    "MV-17": "half MF and no forced march when out of supply at the segment's start (findings under MV-03/MV-24)",
    "MV-23": "one logged forced-march roll per hex beyond the MF, the table's extra MPs counted",
    "MV-24": "forced march only by European units and Eritrean colonial regulars, never into desert or amba",
    "MV-28": "an HQ on its CS side does not move; a moved HQ shows M",
    "MV-29": "a moving HQ goes one hex, or its MF along tracks/rail/roads, or by truck",
    "MV-08": "stacks in a movement segment: a unit moving again after another stack began is possible "
             "(the opponent may allow it); units dragged together in one step began the segment in one hex; "
             "a unit left behind when its stack went on moves no further (trucks, air and RP markers aside)",
    "MV-09": "each member of a stack is judged by its own MF from where it began, so none outruns the "
             "slowest while they move together (findings under MV-03/MV-23)",
    "MV-04": "only the phasing player's units move (when the turn tracker tells the phase)",
    "TS-01": "only the phasing player's units move (when the turn tracker tells the phase) (findings under MV-04)",
    "TS-08": "(35) no unit enters a hex outside Eritrea, Ethiopia and Italian Somaliland (findings under MV-07)",
    # stacking (checks/stacking.py)
    "ST-01": "stacking judged at the end of the MAP and of each movement and combat segment (findings under ST-02/ST-04/ST-05/ST-06)",
    "ST-02": "3 or 4 divisions or equivalents per hex by terrain",
    "ST-03": "non-division units count 1/2; unknown sizes bounded 1/2..1 (findings under ST-02)",
    "ST-09": "(40) face-down dummies count for stacking, 1/2 to 1 division (findings under ST-02)",
    "ST-07": "units over the limit at a check point (findings under ST-02/ST-05)",
    "ST-12": "reinforcements within the stacking limits, judged at the end of the MAP (findings under ST-02)",
    "ST-04": "one HQ per hex",
    "MV-30": "one HQ per hex (findings under ST-04)",
    "ST-05": "(35) 8 Ethiopian units per hex; leaders' count per 8.2 vs PB 13.6.1 named",
    "ST-06": "(35) no two tribal factions nor two leaders (Negus excepted) in a hex",
    "ST-08": "(40) each side's stacking counted apart (findings under ST-02)",
    # supply (checks/supply.py), judged through MV-16 and combat halving
    "SP-01": "supply judged at the start of each movement segment, at the end of each move, at the "
             "time of combat, at the start of the MAP (rail movement, KAR withdrawal), when breakdown units are "
             "formed and replacements made; the checks when reinforcements are placed and in the End of "
             "Turn Phase set nothing a log shows beyond rebuilt units (RR-15) and the final VP count "
             "(findings under MV-16, CB-19, SP-16, RR-14, RR-16 and RR-20)",
    "SP-02": "3 hexes to a friendly-controlled USS (findings under MV-16)",
    "SP-03": "3 hexes to a road/rail/track then along it (findings under MV-16)",
    "SP-04": "2 hexes to a friendly HQ that traces on (findings under MV-16)",
    "SP-05": "USS hexes by scenario and side (findings under MV-16)",
    "SP-06": "only the side's own, controlled USS (findings under MV-16)",
    "SP-07": "no supply path through desert (findings under MV-16)",
    "SP-08": "the line part avoids enemy-controlled towns (findings under MV-16)",
    "SP-09": "no path into enemy units or across all-sea/impassable hexsides (findings under MV-16)",
    "SP-10": "a hex next to the enemy only when a friend is in it (findings under MV-16)",
    "SP-11": "colonial irregulars, (35) Ethiopians, (40) guerrillas always supplied in Ethiopia (findings under MV-16)",
    "SP-13": "out of supply: half MF at the segment's start, halved factors in combat (findings under MV-03/MV-24 and CB-19)",
    "SP-14": "no end-of-move supply test after an advance after combat (findings under MV-16)",
    "SP-15": "(35) air-supplied units (at most two steps, under an Italian marker placed in the Italian "
             "movement segment) count as in supply until the turn ends (findings under MV-16 and CB-19)",
    "SP-16": "supply before rail movement and a division's motorisation (at the start of the MAP) and HQ "
             "combat support; breaking down, consolidation, replacement and air bases under "
             "RR-16/RR-17/RR-14/AR-01",
    # combat (checks/combat.py)
    "CB-01": "attackers adjacent to the target hex",
    "CB-02": "a hex attacked at most once per combat segment",
    "CB-03": "HQs and trucks never attack",
    "CB-06": "initial ratio rounded down to a column; true odds kept for shifting (findings under CB-19)",
    "CB-07": "halving of out-of-supply and gassed units once, 0.5 up, before the ratio (findings under CB-19)",
    "CB-09": "one terrain shift: town/city 1L, amba, TEC terrain (findings under CB-19)",
    "CB-10": "river 1L when more than half the attack factors cross a river (findings under CB-19)",
    "CB-11": "attackers per adjacent hex within the defending hex's stacking limit",
    "CB-12": "concentric +1 DRM, never against an amba (findings under CB-19)",
    "CB-04": "an attack declared (in order otherwise) with no die roll, loss or advance logged for it "
             "was cancelled, unless some roll gives it a result without loss (possible where the CRT "
             "cells are missing)",
    "CB-13": "HQ support: CS side, in or next to its units, at most two per side",
    "CB-14": "air shifts at most two per side (results from the log or every reading) (findings under CB-19)",
    "CB-15": "extended scale clamped to 1:3..7:1; 0 vs x eliminates the attackers; 0 vs 0 on 1:1",
    "CB-16": "modified die clamped to 1..7 (findings under CB-19)",
    "CB-19": "losses equal the CRT cell for the final column and modified roll",
    "CB-20": "loss distribution: spread before second steps, attacker's first not from 0-attack units",
    "CB-22": "second attacks only after advancing on a Recon result, at most twice a phase",
    "CB-23": "a cleared hex is entered by at least one attacker, never HQs, within the stacking limit",
    "CB-24": "attacks on defenseless units: all eliminated, no attacker loss, advance",
    "CB-26": "(35) Ethiopian attacks on the Ethiopian CRT with its own modifiers (findings under CB-19)",
    "CB-33": "(40) guerrillas attack only with Commonwealth units, with 0 factors",
    "CB-34": "(40) no air or HQ support named for guerrillas alone in a hex",
    "CB-36": "(40) Italian units attack guerrillas in their own hex, and guerrillas them, without being "
             "adjacent (findings under CB-01); guerrillas defending a hex shared with Italian units get only "
             "its other terrain's shift, never the town, city or amba (findings under CB-19)",
    "CB-35": "(40) guerrillas defending with other Allied units add no defence, take no losses, "
             "and go when those units are eliminated",
    "CB-29": "(35) one tribal faction per Ethiopian combat, Negus units excepted",
    "CB-21": "the pieces show the losses: no Step layer rising in a combat, no unit removed with steps "
             "left over what its side owed (a 3/4-step unit swapped for its replacement counter in its hex)",
    "CB-08": "(35) units under a Gassed marker (one per affected unit) attack at half, defend at full",
    "CB-38": "(40) a dummy attacked is flipped once the attackers are declared; a true Dummy is removed "
             "with no loss and no Recon, a 0-x-4 fights",
    "FW-06": "(40) a dummy is flipped only in combat or when an enemy unit enters its hex, never back "
             "to its front side, and leaves the map outside a combat only as a true Dummy, on an enemy's "
             "entry or in the End of Turn Phase (its return to the pool not judged)",
    "CB-05": "defenders revealed after the attack is declared and before the combat die (the air and HQ "
             "commitment order is not shown by a log; a reveal before the declaration: FW-02/FW-06)",
    "CB-37": "(40) an Italian attack on guerrillas alone: the counter-guerrilla roll first (its card "
             "modifiers from the data, else possible only), no combat on 4 or less, the attack on 5+",
    "FW-08": "(40) guerrillas attacked alone are revealed only after the counter-guerrilla roll, and "
             "not at all when they escape",
    "CB-18": "(40) an Italian attacker whose supply line must pass through a guerrilla hex 1L, else next "
             "to one -1 DRM, not cumulative (each attacker's supply traced avoiding those hexes)",
    "TS-11": "no HQ still on its M side once a new turn has begun",
    "TS-09": "(40) no unit enters French Somaliland while it is neutral (proven once the log shows C1 "
             "undrawn or failed; possible while it shows no event draws, or C1 rolled a 4)",
    "TS-02": "no move in the Event or End of Turn Phase, no attack declared outside a combat "
             "segment (when the turn track tells the phase)",
    "TS-03": "no play beyond the scenario's last turn (when the turn track tells the turn)",
    "TS-04": "control kept from the log's history: the side last in a hex with a combat unit "
             "(used by supply and sudden death; no finding of its own)",
    "TS-05": "air markers, HQs and trucks never take control (no finding of its own)",
    "TS-07": "(40) a dummy not revealed as a true Dummy takes control like a unit (no finding of its own)",
    "MV-21": "(35) Shoa units have 4 MPs on turn 1 (findings under MV-03)",
    "MV-42": "(35) no path through hexes of another tribal faction (Negus units excepted)",
    "ST-10": "attackers per adjacent hex within the defending hex's limit (findings under CB-11)",
    "ST-11": "advance after combat up to the hex's stacking limit (findings under CB-23)",
    "HQ-01": "HQs never attack nor absorb step losses (findings under CB-03/CB-20)",
    "FW-02": "?-side units flipped only when revealed in a combat",
    "FW-03": "defenders revealed only once an attack is declared (a reveal before it: findings under FW-02)",
    "ET-14": "(35) Ethiopian units from the pools placed ?-side up (findings under FW-04)",
    # the Ethiopian activations (checks/activation.py): `activate LEADER` in chat, else inferred
    "ET-01": "(35) each faction moves and fights only in its own activation (declared in chat, else "
             "inferred from the order factions act); a leader activated once a turn",
    "ET-02": "(35) only units stacked with or adjacent to their leader at the segment's start move more "
             "than one hex",
    "ET-03": "(35) a half activation moves or attacks with half the eligible units, 0.5 up (possible, "
             "naming the activation table cell, where the data lack it)",
    "ET-04": "(35) the activation roll's result, Ras Imru +1 and the bribe modifier: No Activation moves "
             "one hex (possible, naming the table cell or modifier, where the data lack them)",
    "ET-05": "(35) a bribe announced before the activation roll (its RP box not judged)",
    "ET-06": "(35) no Negus activation before turn 4, nor later before a Success on the availability "
             "rolls declared in each MAP from turn 4 (possible, naming the table cell, with the shipped "
             "data), unless an Italian unit came within two hexes of Addis Ababa",
    "ET-07": "(35) a KZ battalion activated once a turn, by a leader it is with or next to or by the Negus",
    "ET-08": "(35) the Negus activates his units and up to six others stacked with or adjacent to him",
    "ET-09": "(35) a dead leader's faction, and the Imperial Guard once the Negus is dead, move one hex",
    "ET-10": "(35) a Great Offensive only on turns 2-5, once a game, as the segment's first action; its "
             "front's tribes activate fully without a roll (its combats: CB-32)",
    "ET-11": "(35) attrition in the End of Turn Phase: one unit from a stack of six or more, as the "
             "declared roll says (-1 in amba and mountain hexes)",
    "MV-49": "(35) non-activated Ethiopian units move at most one hex (findings under ET-02/ET-03/ET-04/ET-09)",
    "CB-30": "(35) each tribe's combats within its own activation",
    "CB-32": "(35) a Great Offensive's combats: 2R, 1R when some attackers are gassed, none and no extra "
             "loss when all are; one more Ethiopian loss (findings under CB-19; the three attacks are VP)",
    "CB-31": "(35) attacks only by units their activation lets attack (leader adjacency, result, "
             "dead leader, half activation)",
    "FW-05": "(35) no Ethiopian unit flipped in the End of Turn Phase (attrition losses go uninspected)",
    "SP-12": "(35) Ethiopian units outside Ethiopia in supply along a track, road or rail (in or next to "
             "their hex) to a town of Ethiopia, clear of Italian units and towns (findings under MV-16 and CB-19)",
    "FW-04": "Ethiopian levies, colonial irregulars and guerrillas enter play ?-side up",
    "VC-04": "(35) play stops when the Ethiopian takes Asmara, Massawa or Mogadishu",
    "VC-08": "(40) play stops when the Allies hold supply sources in one home country only",
    "VC-03": "(35) a result declared in chat is the level the victory-level table gives for its VP",
    "VC-07": "(40) a result declared in chat is the level the victory-level table gives for its VP",
    "SU-03": "(35) the bombing attacks and eliminated steps markers start in GRT box 0, on their front, "
             "the air markers in their fronts' boxes, 4 and 6 RPs (or RP markers) in the Southern and Northern "
             "Front boxes and at most 1 and 2 trucks in them, when a log begins at turn 1 (the turn marker "
             "is the turn track's)",
    "VC-01": "(35) a VP total declared at the end of turn 7 is the tally: VP hexes held by supplied Italian units",
    "VC-02": "(35) the declared total's other VP: leaders, Negus, Italian steps lost, events A1/A4, Great Offensive, air",
    "VC-05": "(40) a VP total declared at the end of turn 11 is the tally: VP hexes held by supplied Allied units",
    "VC-06": "(40) the declared total's other VP: Negus, Berbera, IPL turns, Open City, air markers lost",
    "MV-44": "(40) the Negus enters Ethiopian hexes only stacked with the Gideon Force",
    "MV-50": "(35) an Ethiopian RP moves only with a leader it began the movement segment stacked "
             "with; the leader carrying it has 2 MPs fewer",
    "CB-28": "(35) an Ethiopian RP placed in the Ethiopian combat segment: an attack of the segment against a "
             "non-irregular Italian or Eritrean unit, the RP in a hex of one of its attackers, at most "
             "one RP per such attack (the 'R' result itself is CB-19's CRT cell)",
    "CB-27": "(35) Ethiopian RPs used in a combat (a marker on the map flipped down or removed while "
             "it is open): 1R each on attack, 1L on defence in the odds (CB-19); each in a hex with an "
             "Ethiopian leader next to the units using it; at most one, two next to the Negus",
    # rail movement (checks/rail.py), in the MAP shown by the turn track
    "MV-36": "a map move in the MAP is rail movement: only the side and lines the scenario allows, "
             "from a hex of the line to another through friendly rail hexes (supply at the MAP's start under "
             "SP-16; a truck moved next door onto a unit goes under it, HQ-08)",
    "MV-37": "a rail line carries up to two RPs and one division or equivalent a MAP",
    # RPs, storage boxes, RP routes and trucks (checks/logistics.py): RP markers' faces in the
    # box zones, totals per box kept from the log's history; judged once the turn track has moved
    "HQ-10": "RPs leave the boxes only as spent: per phase no more than one per HQ named in an attack "
             "(two per combat for the defender), replacement step, rebuild or road, and (35) one bribe "
             "per Ethiopian leader; none in movement segments (change making is not spending)",
    "RR-04": "(35) Italian RPs arrive only in the MAP, +3/+2 on turns 2-3, +5/+4 on turns 4-7",
    "RR-09": "(40) Allied RPs arrive only in the MAP, 3 (turns 2-6) or 4 (turns 7-11) a turn, at "
             "most one into British Somaliland, half (rounded up) in a MAP C4 is played in; one into British "
             "Somaliland in the Event Phase C1 brings French Somaliland in (possible while the log shows no draws)",
    "RR-12": "(40) Italian RPs never arrive after the start (possible for two in the Event Phase: Event C3)",
    "HQ-04": "RPs for bribes, Mission 101 and the desertion bribe may come from any box of the side with no "
             "RP route: HQ-02's per-box check and HQ-10 count them so (no finding of its own)",
    "HQ-02": "an HQ named in an attack reaches a box of its side with RPs by an RP route of 4 hexes "
             "+1 per truck in the box (at most 3) from its USS: rail and road 0, track 1/2, no enemy hexes; "
             "the RPs each box loses in the phase are covered by the HQs named that reach it (and by "
             "spending whose box the log does not tell: defensive support, bribes)",
    "HQ-03": "the USS hexes of each RP box by scenario (findings under HQ-02/MV-32/HQ-06/HQ-07)",
    "MV-32": "RPs leave a box only onto its USS hex with a truck there (the MAP's rail and naval "
             "movement excepted) and go into it only from that hex; a truck carries RPs at most 6 "
             "motorized MPs from where it loaded them, or what it has left when it loaded on the way",
    "MV-35": "an RP (not (35) Ethiopian) on the map at the end of a phase has a truck with it",
    "MV-31": "a truck carries one type of thing a turn (RP, HQ or combat unit) and only units of its nationality",
    "MV-33": "a truck carries more than one RP only out of a USS hex of its side it began the segment in, "
             "never more than it left with, and 1 MP less per RP above one",
    "MV-34": "a foot combat unit moving with the trucks placed under it pays motorized costs with 2 MPs "
             "more (findings under MV-03/MV-23), and its trucks stand in its hex at the end of every "
             "segment until the next MAP",
    "HQ-08": "a unit moving motorized has the trucks it began the segment with (none picked up on the "
             "way): two for an infantry or mountain-infantry division, one for a non-division unit, none "
             "for other divisions; a division's supply at the start of the MAP under SP-16; a truck moved "
             "in the MAP next to a foot unit or HQ of its side goes under it (not rail movement)",
    "HQ-09": "an HQ moved by trucks (of its side, near it when the segment began, in its new hex) spends at "
             "most its M-side MF +1 MP per truck beyond the first",
    "HQ-06": "trucks enter and leave an RP box only in the MAP, from and to its USS hex, at most three in a box",
    "HQ-07": "the RPs and trucks of a box are gone by the end of the phase in which an enemy unit "
             "entered its USS (possible where the box has several USS)",
    "CB-25": "an RP alone with an enemy unit is gone by the end of the phase",
    "HQ-05": "a road marker placed under construction in the MAP, not in desert, with an HQ of the "
             "hex's controller in or next to it, and a friendly unit in it next to the enemy; one left "
             "without its builder's units next to the enemy is gone by the end of the phase (its RPs "
             "counted under HQ-10)",
    "MV-14": "a road marker flipped to its road side only in a MAP after the one it was placed in "
             "(RP routes count only finished roads)",
    "RR-08": "(35) an Ethiopian RP placed on the map outside the Event Phase only after an Ethiopian "
             "attack in the segment (an 'R' result); Event A3 itself under EV-05",
    "MV-45": "(40) a dummy on its front side has 4 foot MPs and may not force march",
    "MV-18": "MF -2 for a unit under an enemy air marker at the start of its movement segment (10.1.5's -2, "
             "not the index's 1/2); (35) possible only, as the marker may have flown a gas attack",
    "MV-20": "(40) each guerrilla interdicts one Italian-controlled unit of its hex, not under an air "
             "marker: more units of the hex moved on their full MF than it has uninterdicted ones",
    "MV-22": "(40) turns 2-4 (the turn track telling the turn): hex and hexside costs doubled, roads and "
             "rail too, outside Eritrea, the Ogaden and the Somalilands (PB 14.6.2.2's doubling, not the "
             "Extended SoP's 1/2 MPs)",
    "MV-25": "supply checked at each forced-march drag of one hex that brings its roll: no forced march "
             "from a hex out of supply",
    "MV-26": "an ambush result (the forced march table's 'A') to or from a hex outside a friendly country "
             "or next to an enemy unit costs the moving stack a step by the end of its move (the roll "
             "read as the table row; the last roll of a drag, for the hex it ends in)",
    "MV-43": "(40) guerrillas never leave Ethiopia nor pass through another faction's guerrilla hexes",
    "MV-27": "(35) European units and Eritrean colonial regulars entering only contiguous Tug hexes move up "
             "to twice their MF without forced-march rolls (findings under MV-03/MV-23)",
    "MV-19": "(35) each Gassed marker interdicts one unit of its hex (MF -2): more units of the hex moved on "
             "their full MF than it has ungassed ones",
    "MV-38": "a unit taken from the map onto the turn track (a General Records Track box) in the MAP the turn "
             "track tells moves by sea: only (35) Italian, (40) Allied units, from the coastal town or capital "
             "hex it began the MAP in (possible while the map data lacks the coast), arriving next turn",
    "MV-39": "naval movement carries one division or equivalent a MAP (RPs, which never go on the turn track, "
             "not counted)",
    "MV-41": "(35) optional First to enter: an Eritrean colonial or colonial irregular first into an Ethiopian "
             "town or capital (possible: the log does not say the option is played)",
    "MV-40": "(35) optional Danakil desert: a move only an air-supplied colonial irregular crossing the desert "
             "along its dirt track (1 MP a hex) explains is possible, not proven (the one-a-turn limit not judged)",
    "AR-03": "an air marker flies at most one mission a game turn (when the turn track tells the turn)",
    "AR-06": "interdiction in the enemy movement segment the turn track tells: on an enemy unit or stack, "
             "at the segment's start, one air marker per hex ((35) possible only when a gas attack may share the hex)",
    "AR-09": "(35) air supply (an Italian marker placed in the Italian movement segment the turn track tells) "
             "before any unit moves, on an Italian unit of at most two steps, one marker a turn (the units' "
             "front under AR-02; which units of the hex it supplies is not logged, so their staying "
             "stacked is not judged)",
    "AR-11": "no Ethiopian air in 1935-36; in 1940-41 no mission in the owner's own movement segment (no air "
             "supply); no bombing in 1940-41 (a marker placed in a combat segment on a hex no attack of it names)",
    "AR-12": "no air marker left on the map when the turn track shows a new turn (the delayed-return "
             "rolls under AR-05)",
    "AR-01": "air missions within the marker's range of a friendly, supplied town or capital",
    "AR-02": "(35) the E markers (III Br) fly only from Northern Front air bases, 7 St only from Southern Front ones (not once the fronts are connected); air supply only by a Northern Front marker, never to a unit tracing to the Southern Front only; air support only to a combat with Italian units of the marker's front",
    "SP-17": "(35) a unit or air base's Italian front: its colony, or in Ethiopia the front USS(s) it traces supply to (findings under AR-02)",
    "AR-07": "(35) a marker placed in a combat segment on a hex no attack of it names is a bombing: Italian, "
             "on an enemy unit or stack, one a hex, in the Italian combat segment before any attack is "
             "declared (the air attack table's result not judged)",
    "AR-08": "(35) a Gassed marker only on Ethiopian units under an Italian air marker placed in the same "
             "Ethiopian movement segment, one per unit (possible in the Italian combat segment: optional rule); "
             "the number gassed (air attack table) not judged",
    "AR-05": "a marker leaving the map goes to a Committed box on 5 or less, to the turn track two turns "
             "on for a 6 (possible where a bombing or gas mission's +1 may apply); on the last turn a 6 costs a VP "
             "instead, counted by the VP tally (VC-02, VC-06)",
    # reinforcements (checks/reinforcements.py), in the MAP shown by the turn track
    "RR-01": "not before the turn of entry, where the data gives it",
    "RR-02": "never into an entry hex occupied by the enemy",
    "RR-03": "(35) Italian units enter at Massawa or Mogadishu, or next to one",
    "RR-06": "(35) no Ethiopian reinforcements while the capital is enemy-held or the leader dead",
    "RR-07": "(35) Ethiopian units enter in or next to their capital or leader",
    "RR-05": "(35) Ethiopian units placed in a MAP: each front's additional units (besides the free Shoa "
             "unit) within the reinforcement table's number, raised after a step loss inflicted or a Great "
             "Offensive the previous turn; no faction two while another got none (POSSIBLE: pools not logged)",
    "RR-10": "(40) Allied units enter at their entry hexes, or next to one",
    "RR-13": "(40) Black Shirt units and the 40th and 65th divisions are never replaced",
    "RR-14": "replacements only in the MAP, in supply, with a friendly HQ in or next to the hex",
    "RR-15": "eliminated units (gone in a combat, or from a hex the enemy holds) placed again in a MAP: never with a black circle; (40) no Italian unit (POSSIBLE for colonial regulars: campaign rule); entry hex under RR-03/RR-10",
    "RR-16": "breakdown units formed from a unit of 3+ steps and the same class in their hex that gives "
             "up a step in the same MAP (in either order), in supply; (40) only the 40th and 65th",
    "RR-18": "(40) the Allied breakdown units A-D never come back once eliminated (Italian ones re-form "
             "through breaking down, under RR-16)",
    "RR-20": "(40) KAR1 and KAR2, in play and in supply when the turn 5 MAP begins, withdrawn in it; the EA "
             "brigades enter only then, each in a withdrawn KAR's hex (their full strength: the data gives their "
             "counters a single level)",
    "RR-22": "(40) the Gideon Force and the Negus arrive on turn 6",
    "RR-26": "(40) the Free French: BdO and TS Allied only once French Somaliland joins, the BdO otherwise "
             "from turn 9 (findings under SC-08), Djibouti an Allied entry hex and supply source once it "
             "joins (findings under RR-10), and its +1 RP to the Berbera box in the Event Phase only then "
             "(findings under RR-09)",
    "RR-27": "(40) optional rule: the BF and GF regiments placed in Sudan, each for one KAR brigade step "
             "eliminated so far",
    "RR-21": "(40) the SOM HQ comes in on turn 5 at Berbera while the Allies control it (the two truck "
             "reinforcements it replaces not shown by a log; later arrivals may be rebuilds)",
    "RR-23": "(40) reinforcement dummies on turns 2 to 6, in a hex with an Allied unit or as Allied "
             "reinforcements enter, two a turn, at most 8 in play (which 8 of the 12 were drawn is not logged)",
    "RR-19": "(35) the Starace, Frusci and Badoglio columns from turn 4, from a 3/4-step Black Shirt or "
             "Italian regular division in their hex, one truck removed for one column and two for two or three",
    "RR-17": "consolidation only in supply",
    "EV-04": "(35) Rebellion: colonial irregulars placed within 2 hexes of 0910, not in a town, "
             "capital or enemy hex (Event Phase shown by the turn track)",
    "EV-09": "(35) Revolt: the same within 2 hexes of 1418, from turn 5",
    # events (checks/events.py): markers drawn from the "event cup" box to "Events drawn"
    "EV-01": "the pool a draw is made from holds the markers of the scenario's strategic turns so far, "
             "less those drawn (No Event excepted); none put in before its turn",
    "EV-02": "one draw in each Event Phase the turn track shows (when the log shows draws at all), "
             "No Event back in the pool, no other marker back, no held event played twice",
    "EV-06": "(35) A4: no bombing (an Italian air marker placed in the Italian combat segment off a declared "
             "attack) nor gas attack (a Gassed marker placed) in the turn League of Nations is drawn; the VP "
             "roll is the tally's (VC-02)",
    "EV-05": "(35) A3: two Ethiopian RPs, each on a map hex with an Ethiopian leader, by the Event "
             "Phase's end (counted from the RP markers' faces)",
    "EV-12": "(40) C3: two Italian RPs, both in the same Italian RP storage box, by the Event Phase's end",
    "EV-11": "(40) C2 with Italian units in British Somaliland is rolled in its Event Phase; on 1-4 no Allied "
             "unit is placed at Berbera while Italian units stay in British Somaliland (a 4 read against the prestige "
             "marker, possible without it; the optional rule's C2 held from the start counts as the turn's event "
             "when played, its trigger and the design-note variant not judged)",
    "EV-03": "(35) A1: the draw read from the event markers; the VP tally counts -2 per attack of the four not made "
             "that turn, counting attacks on Northern Front hexes by a division or equivalent (findings under VC-02)",
    "EV-14": "(40) D6 drawn after D7 lets three Commonwealth brigades enter one turn early, a fourth and any "
             "after a D6 drawn before D7 (discarded) still early, where the data gives their entry turns "
             "(findings under RR-01)",
    "EV-07": "(35) B6 Coordination (findings under ET-12)",
    "EV-08": "(35) B7 Wireless Interception (findings under ET-13; the air use is AR-13)",
    "EV-10": "(40) C1 is rolled in the Event Phase it is drawn; its roll decides French Somaliland for "
             "TS-09 and SC-08 (a 4 read against the prestige marker's GRT box; possible without it)",
    "EV-13": "(40) C4 is played in the MAP of a later turn; the Allied RPs of that MAP are halved, rounded up (findings under RR-09)",
    "EV-16": "(40) D8 is played in the MAP of a later turn (the +2 recruitment DRM not judged)",
    "EV-17": "(40) D9/D10 used or discarded in the Event Phase drawn (discarded at a high IPL), on a town or "
             "capital of Eritrea, Ethiopia or Italian Somaliland next to a Commonwealth unit and not surrounded "
             "by Allied units; the Open City marker stays only after a roll above the hex's VP, and the Italian "
             "units then leave the hex",
    "ET-12": "(35) Coordination is placed on an Ethiopian leader, in the Ethiopian activation segment",
    "ET-13": "(35) Wireless Interception on Ethiopian units not within one hex of the Negus, in the "
             "Ethiopian movement only right after an activation roll; the marked stack stays put",
    "MV-46": "(40) no Italian move into a hex with an Open City marker (advances after combat excepted)",
    "SC-08": "(40) no Free French unit moves before French Somaliland joins on C1 (the BdO from turn 9 "
             "excepted; possible while the log shows no draws or the roll was a 4)",
    "RR-11": "(40) captured Massawa, Mogadishu, Kismayo and a joined Djibouti as Allied entry hexes "
             "(findings under RR-10)",
    # Italian fuel and the starting markers (checks/fuel.py), when the turn track tells the phase
    "SC-01": "(40) the fuel marker's GRT box at the end of each player phase is the fuel kept from the "
             "log: 6 at the start, -1 a player phase with Italian armour/HQ/truck moves, armour attacks "
             "or air markers placed, -1/-1/-2 for Kismayo/Massawa/Addis Ababa conquered (guerrillas "
             "alone and the optional captured depots kept as readings)",
    "SC-02": "(40) nothing that burns fuel at fuel 0 (findings under MV-47, CB-40 and AR-10)",
    "MV-47": "(40) no Italian HQ, truck or armour move at fuel 0",
    "CB-40": "(40) no Italian armour attack at fuel 0; an armour attack spends the phase's fuel",
    "AR-10": "(40) no Italian air marker placed at fuel 0; placing one spends the phase's fuel",
    # set-up areas (checks/setup.py), judged when play begins (turn 1, first movement segment)
    "SU-01": "(35) Ethiopian units at or within two hexes of their leader's hex in Ethiopia, the KZ "
             "battalion exception once; POSSIBLE where the data lacks the country's borders",
    "SU-02": "(35) Italian units in their front's country or exact hex (21A in Massawa, the irregular "
             "in Walwal); POSSIBLE where the data lacks the country's borders",
    "SU-05": "(40) Allied units in their country, guerrillas within two hexes of their hex in Ethiopia "
             "and not in an Italian-occupied hex, the Free French in 1910",
    "SC-05": "(40) guerrillas recruited in a MAP: one per faction a turn, within two hexes of their "
             "faction's hex, not with Italian-controlled units, not in a pro-Italian region "
             "(the number the roll allows needs the recruitment table, absent)",
    "SC-04": "(40) colonial deserters removed in a MAP only after the desertion roll ('desertion' in chat, "
             "else the MAP's last roll), only Italian colonial units, never inspected, at most what the "
             "modified roll allows (table absent: POSSIBLE naming it)",
    "RR-24": "RPs by nationality, one a step: each side's boxes pay only for that side's replacements, "
             "rebuilds, HQ support and roads (findings under HQ-10; Allied spending in a 1940-41 MAP and "
             "all Event Phase spending are not bounded)",
    "RR-25": "RPs used only while in a storage box: a non-Ethiopian RP marker flipped down on a map hex, its "
             "side's RPs in that hex falling with it, was spent there (a marker removed on the map may "
             "be CB-25's elimination: not judged)",
    "SU-07": "(40) the guerrillas of each faction on the map at the start fit the scenario or one 1935-36 "
             "result's adjustment (a log does not say which result: any consistent one is accepted); the "
             "recruitment -1 and the replacement ban that follow a result are not judged",
    "SU-06": "(40) the fuel marker in GRT box 6 and the prestige marker in box 5 when play begins in a "
             "log begun at turn 1 (the turn is the turn track's; the event cup is judged under EV-01)",
    # other 1940-41 specifics (checks/allied_1940.py, checks/prestige.py; TS-06 in interpret.update_control)
    "TS-06": "(40) guerrillas control a hex only alone in it, in a shared hex the other units do; they "
             "block no enemy supply path through or next to their hex, but a source they hold alone "
             "supplies no enemy (no finding of its own)",
    "CB-39": "(40) the Gideon Force eliminated with the Negus: the next roll logged decides; the Negus "
             "off the map either way, never back after 1-3 or its own elimination, back no sooner than "
             "the next turn after 4-6",
    "MV-48": "(40) optional French call to war: no Free French unit leaves Djibouti before turn 3 once "
             "France has joined (possible: the log does not say the option is played)",
    "SC-07": "(40) the Negus enters on turn 6 (findings under RR-01) and enters Ethiopia only with the "
             "Gideon Force (findings under MV-44); its -5 VP is the victory tally's, the air support "
             "DRM against it needs the air support chart (AR-04)",
    "SC-03": "(40) the IPL marker moves in a player phase only when a hex changed control or the Negus "
             "moved in Ethiopia, and the Negus's first entry lowers it (possible: the amounts are on the "
             "player aid card's table); the start at 5 under SU-06",
    "SC-09": "(40) a brigade or division (not irregulars, not armour) at or next to each town, capital and "
             "amba of Ethiopia the map data lists, on a position begun at the scenario's start that shows "
             "an Italian setup (possible where Ethiopia's borders are not transcribed)",
}
"""Check id -> what the engine judges for it."""

NOT_JUDGEABLE: dict[str, str] = {
    "TS-12": "the MAP order 'when it matters' is a players' agreement, not shown by a log",
    "FW-07": "inspecting a hex is not logged",
    "SC-06": "inspecting a shared hex is not logged",
    "VC-09": "the campaign result combines two separate games (two logs)",
    "FW-01": "stack order hides units only across a real table: VASSAL shows every piece of a stack to "
             "both players, and the rulebook also puts trucks under the units they motorize (10.3.2) and RPs "
             "under their truck (10.3.1 example), so an order in the log is no breach of fog of war",
}
"""Items a VASSAL log cannot show."""

NEEDS_DATA: dict[str, str] = {
    "CB-17": "optional rule: the historical IDs (2.3.5) of Ethiopian units are on the counters only",
    "TS-10": "the map's half-hexes (no printed hex number, 2.2) are not listed in map.json",
    "AR-13": "each air marker's two rolls against the hex need the air support and air attack tables "
             "(player aid card), as AR-04/AR-07",
    "EV-15": "which Commonwealth brigades D7 may delay needs their entry turns, printed on the reinforcement "
             "cards (scenarios.json lists the other Allied reinforcements without turns)",
    "AR-04": "the air support chart is on the player aid card",
    "SU-04": "the 1940-41 Italian units are placed by setup codes printed on the counters only (PB 14.3.2); "
             "the data names no unit of a coded placement",
}
"""Items that need data the game data lacks (beyond the map terrain every [map] check needs)."""


def why_not(check_id: str) -> str | None:
    """None for an implemented item; else why it is not judged."""
    item(check_id)
    if check_id in IMPLEMENTED:
        return None
    if check_id in NOT_JUDGEABLE:
        return "cannot be judged from a log: " + NOT_JUDGEABLE[check_id]
    if check_id in NEEDS_DATA:
        return "needs data: " + NEEDS_DATA[check_id]
    return "not yet built"


def check_specs() -> tuple[CheckSpec, ...]:
    """One CheckSpec per inventory item, in inventory order, with ids as findings spell them."""
    out = []
    for entry in INVENTORY:
        reason = why_not(entry.id)
        scenario = f"({entry.scenario}) " if entry.scenario else ""
        description = IMPLEMENTED.get(entry.id) or entry.summary
        out.append(CheckSpec(f"lion-of-judah/{entry.id}", entry.rule, scenario + description
                             if not description.startswith(f"({entry.scenario})") else description,
                             implemented=reason is None, why_not=reason))
    return tuple(out)
