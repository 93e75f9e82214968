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
