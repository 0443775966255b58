"""Player ids are passwords: no command prints one unless --show-player-ids is given."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import vlog
from tests.cli.conftest import SECRET_IDS
from tests.conftest import sample_files, sample_params
from vlog.cli import EXIT_OK, cli, main
from vlog.cli.dump import build_dump, render
from vlog.vassal.commands import PlayerAdd, encode, walk
from vlog.vassal.privacy import player_ids, redact_player_ids


def secret_ids(path: Path) -> set[str]:
    """Ids from PLAYER commands, plus ids that appear nowhere but in id fields.

    (An id such as "test" that is also a word of the chat cannot be told apart in the output.)
    """
    obj = vlog.read(path)
    ids = {c.user_id for c in walk(obj.commands) if isinstance(c, PlayerAdd) and c.user_id}
    redacted_text = encode(redact_player_ids(obj.commands)[0]) or ""
    ids |= {i for i in player_ids(obj.commands) if i not in redacted_text}
    return ids


def all_outputs(path: Path, tmp_path: Path, capsys) -> list[str]:
    """Everything info, dump (each format) and convert print or write for `path`, by default."""
    outputs = []
    for argv in (["info"], ["info", "--format", "json"], ["dump"]):
        assert main([*argv[:1], str(path), *argv[1:]]) == EXIT_OK
        captured = capsys.readouterr()
        outputs += [captured.out, captured.err]
    # the other dump formats render the same dump; build it once (large saves are slow to split)
    doc = build_dump(vlog.read(path), path)
    outputs += [render(doc, "json"), render(doc, "jsonl")]
    as_json = tmp_path / (path.name + ".json")
    assert main(["convert", str(path), str(as_json)]) == EXIT_OK
    outputs += [capsys.readouterr().err, as_json.read_text(encoding="utf-8")]
    return outputs


def test_built_files_never_show_ids(built_save, built_log, tmp_path, capsys):
    for path in (built_save, built_log):
        assert secret_ids(path) == set(SECRET_IDS)
        for text in all_outputs(path, tmp_path, capsys):
            for secret in SECRET_IDS:
                assert secret not in text


def test_ids_shown_only_when_asked(built_log, capsys):
    assert main(["dump", str(built_log), "--show-player-ids"]) == EXIT_OK
    out = capsys.readouterr().out
    assert all(secret in out for secret in SECRET_IDS)


def test_samples_with_player_ids_exist_when_samples_do():
    files = sample_files("*/*.vsav", "*/*.vlog")
    if not files:
        pytest.skip("../shared/samples is absent")
    assert any(secret_ids(f) for f in files), "the redaction tests would check nothing"


@pytest.mark.samples
@pytest.mark.parametrize("sample", sample_params("*/*.vsav", "*/*.vlog"))
def test_samples_never_show_ids(sample, tmp_path, capsys):
    ids = secret_ids(sample)
    if not ids:
        pytest.skip("this sample holds no player id that can be told apart from its text")
    for text in all_outputs(sample, tmp_path, capsys):
        for secret in ids:
            assert secret not in text


def test_no_progress_bar_when_piped(built_log):
    result = CliRunner().invoke(cli, ["dump", str(built_log)], env={"NO_COLOR": "1"})
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "\r" not in result.stdout and "\x1b" not in result.stdout
    assert "Steps (7):" in result.stdout
