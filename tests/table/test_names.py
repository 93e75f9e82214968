"""The server's names: claiming, tokens kept as hashes, case-insensitive uniqueness."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.table.names import (
    MAX_NAME,
    BadName,
    Names,
    NamesError,
    NameTaken,
    normalize_name,
)


@pytest.fixture
def names(tmp_path: Path) -> Names:
    return Names(tmp_path / "server" / "server.sqlite3")


def test_a_claim_issues_a_token_that_checks_and_others_do_not(names: Names) -> None:
    assert not names.exists("Ayşe")
    token = names.claim("Ayşe")
    assert names.exists("Ayşe")
    assert names.check("Ayşe", token)
    assert not names.check("Ayşe", token + "x")
    assert not names.check("Ayşe", token[:-1])
    assert not names.check("Ayşe", "")
    assert not names.check("Ayşe", None)
    assert not names.check("Ayşe", 12345)
    assert not names.check("Mehmet", token)
    assert not names.check("no such name!", token)


def test_tokens_are_random_and_only_their_hashes_are_stored(names: Names) -> None:
    tokens = [names.claim(f"p{i}") for i in range(20)]
    assert len(set(tokens)) == 20
    assert all(len(t) >= 40 for t in tokens)
    conn = sqlite3.connect(names.path)
    stored = [row[0] for row in conn.execute("SELECT token_sha256 FROM names")]
    conn.close()
    raw = names.path.read_bytes()
    for token in tokens:
        assert token.encode() not in raw
        assert hashlib.sha256(token.encode()).hexdigest() in stored


def test_names_are_unique_without_regard_to_case(names: Names) -> None:
    token = names.claim("Ayşe")
    for other in ("ayşe", "AYŞE", "aYşE"):
        assert names.exists(other)
        assert names.check(other, token)
        with pytest.raises(NameTaken, match="taken"):
            names.claim(other)
    assert names.spelling("AYŞE") == "Ayşe"
    assert names.spelling("Ali") is None


def test_a_composed_and_a_decomposed_spelling_are_one_name(names: Names) -> None:
    names.claim("Gül")  # composed ü
    with pytest.raises(NameTaken):
        names.claim("Gu\u0308l")  # u + combining diaeresis


def test_names_persist_across_instances(names: Names) -> None:
    token = names.claim("Deniz")
    again = Names(names.path)
    assert again.check("deniz", token)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "empty"),
        ("a" * (MAX_NAME + 1), "at most 32"),
        ("two words", "letters, digits"),
        ("semi;colon", "letters, digits"),
        ("tab\t", "letters, digits"),
        ("emoji\U0001f600", "letters, digits"),
        ("nul\x00", "letters, digits"),
        (42, "must be text"),
        (None, "must be text"),
    ],
)
def test_invalid_names_are_refused_with_the_rule(names: Names, name: object, why: str) -> None:
    with pytest.raises(BadName, match=why):
        names.claim(name)  # type: ignore[arg-type]
    with pytest.raises(BadName):
        names.exists(name)  # type: ignore[arg-type]
    assert not names.check(name, "x")  # type: ignore[arg-type]


def test_valid_names() -> None:
    for name in ("a", "a" * MAX_NAME, "İsmail", "ömer_2", "x.y-z", "Çağrı", "007"):
        assert normalize_name(name) == name


@given(st.text(min_size=1, max_size=MAX_NAME))
def test_validation_is_the_rule(text: str) -> None:
    try:
        got = normalize_name(text)
    except BadName:
        import unicodedata

        nfc = unicodedata.normalize("NFC", text)
        assert len(nfc) > MAX_NAME or any(
            not (c.isalpha() or c.isdecimal() or c in "_-.") for c in nfc
        )
    else:
        assert 1 <= len(got) <= MAX_NAME


def test_two_threads_claiming_one_name_get_one_token(names: Names) -> None:
    names.claim("warmup")
    won: list[str] = []
    lost: list[Exception] = []
    barrier = threading.Barrier(4)

    def claim() -> None:
        barrier.wait()
        try:
            won.append(names.claim("Same"))
        except NameTaken as exc:
            lost.append(exc)

    threads = [threading.Thread(target=claim) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and len(lost) == 3
    assert names.check("same", won[0])


def test_a_damaged_database_is_an_error_not_a_fresh_start(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    path.write_bytes(b"this is not an SQLite database, just text" * 100)
    names = Names(path)
    with pytest.raises(NamesError, match=r"server\.sqlite3"):
        names.exists("Ali")
    with pytest.raises(NamesError):
        names.claim("Ali")
    assert path.read_bytes().startswith(b"this is not")
