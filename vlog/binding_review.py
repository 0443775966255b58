"""Reviewing a drafted binding: what `vlog bind` could not settle, as questions with the ids to answer.

A draft leaves five kinds of doubt: pieces no counter fits clearly (each with its ranked
candidates), locations no hex or box is named like (a renamed box, with the boxes ranked by its
name), layer mappings taken from the order of levels, turn tracker items taken as phases from
their order, and calibrations fitted to a save for boards without a grid. `questions` lists them,
each with an id (`piece:GPID` or `piece:NAME`, `location:MAP:NAME`, `layer:RECORD`, `turn:RECORD`,
`calibration:RECORD`); `apply_answers` writes answers into the document: a counter id for a
piece (null: the piece is no counter of the game), a box id for a location (null: no place of
the game), "confirm" or a level/item mapping for a layer or a phase list, "confirm" or the grid
attributes to change for a calibration. Answers are recorded as the data's source ("review answer"), so the
bindings say who decided what.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from vlog.binding import BindingDraft, Unmatched
from vlog.calibration import PROPOSED_NOTE, Calibration
from vlog.coverage import UNCONFIRMED_NOTE
from vlog.errors import GameDataError

__all__ = ["Question", "questions", "apply_answers", "REVIEW_SOURCE", "CONFIRM"]

REVIEW_SOURCE = "vlog bind --review: review answer"
CONFIRM = "confirm"


@dataclass(frozen=True, slots=True)
class Question:
    """One uncertain item: its id, what it is, and the answers offered (id, why), best first."""

    id: str
    kind: str
    text: str
    choices: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "question": self.text,
                "choices": [{"answer": a, "evidence": why} for a, why in self.choices]}


def _piece_id(gpid: str | None, name: str) -> str:
    return f"piece:{gpid}" if gpid else f"piece:{name}"


def _location_id(item: Unmatched) -> str:
    return f"location:{item.vassal_map}:{item.name}"


def _choices(item: Unmatched) -> tuple[tuple[str, str], ...]:
    """The candidates offered for an unmatched item, each with its evidence ('' where none)."""
    why = list(item.evidence) + [""] * (len(item.candidates) - len(item.evidence))
    return tuple(zip(item.candidates, why))


def questions(draft: BindingDraft) -> list[Question]:
    """Every uncertain item of the draft, pieces first, then locations, layers and phases."""
    out: list[Question] = []
    seen: set[str] = set()
    for item in draft.unmatched:
        if item.kind != "piece" or item.where == "piece names":
            continue
        qid = _piece_id(item.gpid, item.name)
        if qid in seen:
            continue
        seen.add(qid)
        out.append(Question(qid, "piece", f"piece {item.name!r} ({item.where}): {item.reason}", _choices(item)))
    for item in draft.unmatched:
        if item.kind == "location" and item.vassal_map is not None and _location_id(item) not in seen:
            seen.add(_location_id(item))
            out.append(Question(_location_id(item), "location", f"location {item.name!r} ({item.where}): {item.reason}",
                                _choices(item)))
    for record in draft.document["layers"]:
        note = str(record["levels"].get("note") or "")
        if note.startswith(UNCONFIRMED_NOTE):
            shown = ", ".join(f"level {k} = {v}" for k, v in sorted(record["levels"]["value"].items(),
                                                                      key=lambda kv: int(kv[0])))
            counters = record.get("applies_to", {}).get("value") or []
            out.append(Question(f"layer:{record['id']}", "layer",
                                f"layer {record['layer_name']['value']!r} on {len(counters)} counters "
                                f"(e.g. {counters[0] if counters else '?'}): {shown}, taken from their order",
                                ((CONFIRM, "the order is right"),)))
    for record in draft.document["turn_track"]:
        phases = record.get("phases") or {}
        if str(phases.get("note") or "").startswith(UNCONFIRMED_NOTE):
            shown = ", ".join(f"{k!r} = {v}" for k, v in phases["value"].items())
            out.append(Question(f"turn:{record['id']}", "turn", f"turn tracker property {record['name']['value']!r}: "
                                f"{shown}, taken from their order", ((CONFIRM, "the order is right"),)))
    for record in draft.document.get("calibrations", ()):
        note = str(record["grid"].get("note") or "")
        if note.startswith(PROPOSED_NOTE):
            out.append(Question(f"calibration:{record['id']}", "calibration",
                                f"map {record['vassal_map']['value']!r} "
                                f"board {record.get('board', {}).get('value')!r}: "
                                f"{note}", ((CONFIRM, "it names the hexes printed on the board"),)))
    return out


def _new_id(document: Mapping[str, Any], base: str) -> str:
    used = {r["id"] for kind in ("pieces", "layers", "locations", "turn_track") for r in document[kind]}
    rid = re.sub(r"[^A-Za-z0-9_.:+ -]", "_", base)[:72] or "x"
    n, out = 2, rid
    while out in used:
        out, n = f"{rid}-{n}", n + 1
    return out


def apply_answers(draft: BindingDraft, answers: Mapping[str, Any], counter_ids: set[str],
                  box_ids: Iterable[str] = ()) -> int:
    """Writes the answers into the draft's document; returns how many were applied.

    Raises GameDataError for an answer to no question, or naming no counter (no box) of the game."""
    asked = {q.id: q for q in questions(draft)}
    boxes = set(box_ids)
    doc = draft.document
    applied = 0
    for qid, answer in answers.items():
        question = asked.get(qid)
        if question is None:
            raise GameDataError(f"answer {qid!r} is to no question of this draft (vlog bind --review lists them)")
        if question.kind == "location":
            item = next(u for u in draft.unmatched if u.kind == "location" and _location_id(u) == qid)
            hexes = set(item.candidates) - boxes         # a name several hexes have: one of them
            if answer is not None and answer not in boxes and answer not in hexes:
                raise GameDataError(f"answer to {qid!r}: {answer!r} is no box id (vlog data ids {doc['game']} boxes)"
                                    + (f" nor one of the hexes {', '.join(sorted(hexes))}" if hexes else ""))
            place = "hex" if answer in hexes else "box"
            doc["locations"].append({
                "id": _new_id(doc, f"loc-{item.name}"),
                "vassal_map": {"value": item.vassal_map, "source": REVIEW_SOURCE},
                "pattern": {"value": re.escape(item.name), "source": REVIEW_SOURCE},
                place: ({"value": answer, "source": REVIEW_SOURCE} if answer is not None else
                        {"value": None, "note": "no place of the game (review answer)"})})
        elif question.kind == "piece":
            if answer is not None and answer not in counter_ids:
                raise GameDataError(f"answer to {qid!r}: {answer!r} is no counter id (vlog data ids {doc['game']})")
            key, _, value = qid.partition(":")
            item = next(u for u in draft.unmatched if u.kind == "piece" and _piece_id(u.gpid, u.name) == qid)
            record: dict[str, Any] = {"id": _new_id(doc, f"piece-{value}")}
            if item.gpid:
                record["gpid"] = {"value": item.gpid, "source": REVIEW_SOURCE}
            if item.name:
                record["piece_name"] = {"value": item.name, "source": REVIEW_SOURCE}
            record["counter"] = ({"value": answer, "source": REVIEW_SOURCE} if answer is not None else
                                 {"value": None, "note": "no counter of the game (review answer)"})
            doc["pieces"].append(record)
        elif question.kind == "calibration":
            datum = next(r for r in doc["calibrations"] if f"calibration:{r['id']}" == qid)["grid"]
            if answer != CONFIRM:
                if not isinstance(answer, dict) or not set(answer) <= set(Calibration.FIELDS):
                    raise GameDataError(f"answer to {qid!r}: 'confirm' or an object of grid attributes to change "
                                        f"({', '.join(Calibration.FIELDS)})")
                datum["value"] = {**datum["value"], **answer}
            datum.pop("note", None)
            datum["source"] = f"{datum.get('source', '')}; {REVIEW_SOURCE}".lstrip("; ")
        else:
            records = doc["layers"] if question.kind == "layer" else doc["turn_track"]
            field_name = "levels" if question.kind == "layer" else "phases"
            record = next(r for r in records if f"{question.kind}:{r['id']}" == qid)
            datum = record[field_name]
            if answer != CONFIRM:
                if not isinstance(answer, dict) or not all(isinstance(v, str) for v in answer.values()):
                    raise GameDataError(f"answer to {qid!r}: 'confirm' or a mapping of level or item to key")
                datum["value"] = dict(answer)
            datum.pop("note", None)
            datum["source"] = f"{datum.get('source', '')}; {REVIEW_SOURCE}".lstrip("; ")
        applied += 1
    draft.unmatched = [u for u in draft.unmatched
                       if not (u.kind == "piece" and _piece_id(u.gpid, u.name) in answers)
                       and not (u.kind == "location" and _location_id(u) in answers)]
    return applied
