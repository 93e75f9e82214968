"""``sixtysix serve``'s bad input: one line on stderr and exit status 2, before listening."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli


@pytest.mark.parametrize(
    ("args", "part"),
    [
        (["--keyfile", "key.pem"], "--keyfile needs --certfile"),
        (["--certfile", "missing.pem"], "cannot use the certificate missing.pem"),
        (["--certfile", "junk.pem"], "cannot use the certificate junk.pem"),
        (["--reconnect-time", "0"], "--reconnect-time"),
        (["--port", "70000"], "--port"),
        (["--data", "a-file"], "a-file"),
        (["--host", ""], "--host is empty"),
        (["--host", "  "], "--host is empty"),
        (["--host", "no..such"], "--host 'no..such' is not a host name or address"),
        (["--host", "a" * 300 + ".example"], "is not a host name or address"),
        (["--player", "mybot"], "--player takes NAME=COMMAND"),
        (["--player", "mybot="], "--player takes NAME=COMMAND"),
        (["--player", "My Bot=true"], "--player 'my bot': a name is"),
        (["--player", "hard=true"], "--player 'hard': that name is taken"),
        (["--player", "random=true"], "--player 'random': that name is taken"),
        (["--player", "exec=true"], "--player 'exec': that name is taken"),
        (["--player", "a=true", "--player", "a=true"], "--player 'a': that name is taken"),
        (["--player", "b=./no-such-bot"], "--player b: no such program: ./no-such-bot"),
        (["--player", "b=no-such-program-xyz"], "--player b: program not found on PATH"),
        (["--player", "b='unclosed"], "--player b: cannot read"),
        (["--allow-origin", "evil.example"], "'evil.example' is not an origin"),
        (["--allow-origin", "https://club.example/path"], "is not an origin"),
        (["--tables-per-address", "0"], "--tables-per-address"),
        (["--open-table-expiry", "0"], "--open-table-expiry"),
        (["--bot-threads", "５"], "--bot-threads"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    args: list[str], part: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(tmp_path / "user"))
    (tmp_path / "junk.pem").write_text("not a certificate\n")
    (tmp_path / "a-file").write_text("")
    result = CliRunner().invoke(cli, ["serve", "--lang", "en", "--port", "1", *args])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and part in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_the_help_in_turkish() -> None:
    result = CliRunner().invoke(cli, ["serve", "--lang", "tr", "--help"])
    assert result.exit_code == 0
    assert "Bir masa sunucusu çalıştırır" in result.output
    assert "Dinlenecek adres" in result.output
