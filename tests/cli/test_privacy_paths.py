"""Every output path (each command x each format x with and without the opt-in flags) is
grepped for the secrets of a log holding real-looking ids in PLAYER, M/, D/ and a raw move vlog
cannot parse, and an invisible piece alone in a stack: ids appear only with --show-player-ids,
the invisible piece's place only with --referee; VASSAL files written say on stderr that they
hold everything."""
from __future__ import annotations

import itertools
import re

import pytest

from tests.cli.conftest import HIDDEN_IDS, INVISIBLE_PLACE, SECRET_IDS
from vlog.cli import EXIT_FINDINGS, EXIT_OK, main

IDS = (*SECRET_IDS, *HIDDEN_IDS)
FORMATS = {"info": ("text", "json"), "dump": ("text", "json", "jsonl"),
           "check": ("text", "json", "junit", "sarif", "github"), "dice": ("text", "json")}
FLAGS = {"info": ("--show-player-ids",), "dump": ("--show-player-ids", "--referee"),
         "check": ("--show-player-ids", "--referee"), "dice": ()}


def _cases():
    for command, formats in FORMATS.items():
        flags = FLAGS[command]
        for fmt in formats:
            for n in range(len(flags) + 1):
                for chosen in itertools.combinations(flags, n):
                    yield pytest.param(command, fmt, chosen, id=f"{command}-{fmt}-{'-'.join(chosen) or 'default'}")


DIGEST = re.compile(r"\b[0-9a-f]{64}\b")
"""A SHA-256 hex digest (SARIF's partialFingerprints, over the log's path among others): it
reveals nothing, but its digits may spell a secret place by chance."""


def _assert_kept(text: str, flags: tuple[str, ...], where: str) -> None:
    text = DIGEST.sub("<digest>", text)
    if "--show-player-ids" not in flags:
        leaked = [i for i in IDS if i in text]
        assert not leaked, f"{where}: player ids {leaked} shown"
    if "--referee" not in flags:
        leaked = [p for p in INVISIBLE_PLACE if p in text]
        assert not leaked, f"{where}: the invisible piece's place {leaked} shown"


@pytest.mark.parametrize("command,fmt,flags", list(_cases()))
def test_every_output_keeps_the_secrets(hostile_log, tmp_path, capsys, command, fmt, flags):
    argv = [command, str(hostile_log), "--format", fmt, *flags]
    assert main(argv) in (EXIT_OK, EXIT_FINDINGS)
    out, err = capsys.readouterr()
    _assert_kept(out + err, flags, " ".join(argv))
    written = tmp_path / f"out.{fmt}"
    assert main([*argv, "-o", str(written)]) in (EXIT_OK, EXIT_FINDINGS)
    _assert_kept(written.read_text(encoding="utf-8") + capsys.readouterr().err, flags, "-o of " + " ".join(argv))


def test_the_opt_in_flags_do_show_what_they_promise(hostile_log, capsys):
    """The grep above could pass on an output that drops everything: the flags bring it back."""
    assert main(["dump", str(hostile_log), "--show-player-ids", "--referee"]) == EXIT_OK
    out = capsys.readouterr().out
    assert all(i in out for i in IDS)
    assert "7771" in out and "7a71" in out
    # a referee's check shows the concealed scout's move that could not be read, raw
    assert main(["check", str(hostile_log), "--referee", "--format", "json"]) in (EXIT_OK, EXIT_FINDINGS)
    assert "M/1003/Main Map/7a71" in capsys.readouterr().out


@pytest.mark.parametrize("flags", [(), ("--show-player-ids",), ("--referee",),
                                   ("--show-player-ids", "--referee")], ids=str)
def test_convert_to_json_keeps_the_secrets(hostile_log, tmp_path, capsys, flags):
    out = tmp_path / "log.json"
    assert main(["convert", str(hostile_log), str(out), *flags]) == EXIT_OK
    _assert_kept(out.read_text(encoding="utf-8") + capsys.readouterr().err, flags, f"convert {flags}")


def test_a_stack_holding_only_an_invisible_piece_is_not_shown(hostile_log, tmp_path, capsys):
    import json
    out = tmp_path / "log.json"
    assert main(["convert", str(hostile_log), str(out)]) == EXIT_OK
    doc = json.loads(out.read_text(encoding="utf-8"))

    def nodes(node):
        if isinstance(node, dict):
            yield node
            node = list(node.values())
        if isinstance(node, list):
            for item in node:
                yield from nodes(item)

    stacks = [n for n in nodes(doc) if n.get("concealed") == "holds-invisible"]
    assert [n["id"] for n in stacks] == ["2003"]
    assert stacks[0]["piece"] == {"kind": "stack", "name": "", "traits": [], "piece_ids": []}
    assert main(["info", str(hostile_log), "--format", "json"]) == EXIT_OK
    info = json.loads(capsys.readouterr().out)
    assert info["pieces"] == 2 and info["pieces_by_kind"] == {"piece": 2, "stack": 2}


@pytest.mark.parametrize("extra", [["--step", "9"], ["--dialect", "plain"], ["--dialect", "vobs"]], ids=str)
def test_vassal_files_written_say_they_hold_everything(hostile_log, tmp_path, capsys, extra):
    out = tmp_path / ("at.vsav" if extra[0] == "--step" else "again.vlog")
    assert main(["convert", str(hostile_log), str(out), *extra]) == EXIT_OK
    err = capsys.readouterr().err
    assert "holds the players' real ids (passwords) and the masked and invisible pieces" in err
    assert ("readable text" in err) == (extra == ["--dialect", "plain"])
    _assert_kept(err, (), "the warning")


@pytest.mark.parametrize("fmt", FORMATS["dump"])
def test_a_position_dumped_at_a_step_keeps_the_secrets(hostile_log, capsys, fmt):
    for step in ("1", "3"):
        assert main(["dump", str(hostile_log), "--at", step, "--format", fmt]) == EXIT_OK
        out, err = capsys.readouterr()
        _assert_kept(out + err, (), f"dump --at {step} --format {fmt}")


def test_a_move_onto_an_invisible_piece_does_not_name_it(tmp_path, capsys):
    """The (masked) infantry is seen moving to the scout's hex; that the scout is there is not seen."""
    import json
    from tests.cli.conftest import _write, hostile_log_text
    from vlog.vassal.commands import decode
    from vlog.vassal.obfuscation import Dialect
    from vlog.vassal.savefile import Log
    from vlog.vassal.sequence import encode_token
    move = "LOG\tM/1001/Main Map/7771/8882/1003/Main Map/100/200/null/" + SECRET_IDS[1]
    text = hostile_log_text() + "\x1b" + encode_token(move, "\x1b")
    path = _write(Log(decode(text), dialect=Dialect.VCSK, key=0x21), tmp_path / "onto.vlog")
    out = tmp_path / "onto.json"
    assert main(["convert", str(path), str(out)]) == EXIT_OK
    doc = json.loads(out.read_text(encoding="utf-8"))
    moves = [n for n in json.dumps(doc).split('"command": ')
             if n.startswith('"move_piece"') and '"1001"' in n and "7771" in n]
    assert len(moves) == 1 and '"1003"' not in moves[0] and '"onto-invisible"' in moves[0]
    assert main(["dump", str(path), "--format", "json"]) == EXIT_OK
    step = json.loads(capsys.readouterr().out)["steps"][-1]
    assert step["actions"][0]["to"]["x"] == 7771 and "onto" not in step["actions"][0]


@pytest.mark.parametrize("fmt", (*FORMATS["check"], "html"))
@pytest.mark.parametrize("flags", [(), ("--referee",)])
def test_a_log_judged_after_itself_keeps_the_invisible_place(hostile_log, capsys, fmt, flags):
    """The log after itself does not continue it: the invisible scout vanished between the two
    files, and the continuity finding says so without saying where it stood (with --referee, where)."""
    assert main(["check", str(hostile_log), str(hostile_log), "--format", fmt, *flags]) == EXIT_FINDINGS
    out, err = capsys.readouterr()
    assert "vlog/continuity" in out and "id 1003" in out
    _assert_kept(out + err, flags, f"check twice --format {fmt}")
    if flags:
        assert "7771" in out
    else:
        assert "at a place hidden from the other side" in out
