"""The server's standings: per name, variant and opponents' level, the Portal's scoring."""

from __future__ import annotations

from pathlib import Path

import pytest

from sixtysix.service.standings import Standings
from sixtysix.table.names import Names
from sixtysix.table.standings_db import (
    ServerStandings,
    StandingRow,
    StandingsError,
    leaving_score,
    level_of,
    match_score,
)


@pytest.fixture
def db(tmp_path: Path) -> ServerStandings:
    return ServerStandings(tmp_path / "server" / "server.sqlite3")


def finish(db: ServerStandings, names: list[str], labels: list[str], totals: list[int]) -> None:
    """Score a finished four- or two-seat match for every person seat, as the server does."""
    for seat, name in enumerate(names):
        if name:
            db.add(
                name, "66-4", level_of(labels, seat), len(totals), seat, "finished",
                match_score(totals, seat), 3, totals,
            )  # fmt: skip


def test_no_database_no_rows(db: ServerStandings) -> None:
    assert db.rows() == []
    assert not db.path.exists()


def test_level_of() -> None:
    assert level_of(["human", "human", "@hard", "@random"], 1) == "human,@hard,@random"
    assert level_of(["human", "@hard"], 0) == "@hard"


def test_a_four_player_match_scores_by_the_portals_rules(db: ServerStandings) -> None:
    labels = ["human", "human", "human", "@hard"]
    finish(db, ["Ali", "Ayşe", "Can", ""], labels, [7, 3, 0, 3])
    finish(db, ["Ali", "Ayşe", "Can", ""], labels, [7, 7, 1, 2])
    rows = {r.name: r for r in db.rows("66-4")}
    assert set(rows) == {"Ali", "Ayşe", "Can"}
    # Ali: sole first, then shared first.
    assert rows["Ali"] == StandingRow("Ali", "66-4", "human,human,@hard", 2, 1, 1, 0, 0, 1)
    # Ayşe: in the middle (0), then shared first (0).
    assert rows["Ayşe"].score == 0 and rows["Ayşe"].drawn == 2
    # Can: sole last twice.
    assert rows["Can"].lost == 2 and rows["Can"].score == -2
    assert [r.name for r in db.rows("66-4")] == ["Ali", "Ayşe", "Can"]


def test_levels_and_variants_are_kept_apart_and_names_without_case(db: ServerStandings) -> None:
    db.add("Ali", "66", "@hard", 2, 0, "finished", 1, 4, [7, 2])
    db.add("ALI", "66", "@hard", 2, 1, "finished", -1, 4, [7, 2])
    db.add("ali", "66", "human", 2, 0, "finished", 1, 4, [7, 0])
    db.add("ali", "66-3", "human,@easy", 3, 0, "finished", 0, 4, [1, 5, 5])
    rows = db.rows()
    assert [(r.variant, r.level, r.played, r.score) for r in rows] == [
        ("66", "human", 1, 1),
        ("66", "@hard", 2, 0),
        ("66-3", "human,@easy", 1, 0),
    ]
    assert {r.name for r in rows} == {"ali"}  # shown as most recently recorded
    assert db.rows("66-3") == [rows[2]]
    assert db.rows(name="ALİ") == []
    assert len(db.rows(name="Ali")) == 3


def test_leaving_is_counted_and_scored_by_the_leaving_rules(db: ServerStandings) -> None:
    db.add("Ali", "66", "@hard", 2, 0, "left", leaving_score([0, 0], 0, 0), 1, [0, 0])
    db.add("Ali", "66", "@hard", 2, 0, "left", leaving_score([5, 2], 3, 0), 4, [5, 2])
    db.add("Ali", "66", "@hard", 2, 0, "left", leaving_score([2, 5], 3, 0), 4, [2, 5])
    (row,) = db.rows()
    assert (row.played, row.won, row.drawn, row.lost, row.left, row.score) == (3, 0, 0, 2, 3, -2)
    assert row.as_json()["left"] == 3


@pytest.mark.parametrize(
    "bad",
    [
        {"ending": "won"},
        {"score": 2},
        {"seat": 2},
        {"totals": [1, 2, 3]},
        {"name": "two words"},
    ],
)
def test_impossible_results_are_refused(db: ServerStandings, bad: dict[str, object]) -> None:
    args: dict[str, object] = {
        "name": "Ali", "variant": "66", "level": "@hard", "seats": 2, "seat": 0,
        "ending": "finished", "score": 1, "deals": 3, "totals": [7, 0],
    }  # fmt: skip
    args.update(bad)
    with pytest.raises(ValueError):
        db.add(**args)  # type: ignore[arg-type]
    assert db.rows() == []


def test_names_and_standings_share_the_server_database(db: ServerStandings) -> None:
    names = Names(db.path)
    token = names.claim("Ali")
    db.add("Ali", "66", "@hard", 2, 0, "finished", 1, 4, [7, 2])
    assert names.check("Ali", token)
    assert db.damage() is None
    assert len(db.rows()) == 1


def test_a_damaged_database_is_reported_not_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    path.write_bytes(b"garbage, not a database" * 200)
    db = ServerStandings(path)
    with pytest.raises(StandingsError, match="damaged"):
        db.rows()
    with pytest.raises(StandingsError, match="move it aside"):
        db.add("Ali", "66", "@hard", 2, 0, "finished", 1, 4, [7, 2])
    assert path.read_bytes().startswith(b"garbage")
    assert list(tmp_path.glob("*.damaged-*")) == []


def test_plays_standings_are_unchanged_beside_the_servers(tmp_path: Path) -> None:
    """One file may hold both tables; play's own damage handling still moves aside."""
    path = tmp_path / "standings.sqlite3"
    play = Standings(path)
    play.add(variant="66", level="hard", seats=2, seat=0, ending="finished", score=1,
             deals=3, totals=[7, 0])  # fmt: skip
    assert [s.score for s in play.table()] == [1]
    path.write_bytes(b"junk" * 500)
    lines: list[str] = []
    Standings(path, warn=lines.append).add(
        variant="66",
        level="hard",
        seats=2,
        seat=0,
        ending="finished",
        score=-1,
        deals=3,
        totals=[0, 7],
    )
    assert len(lines) == 1 and "damaged" in lines[0]
    assert [s.score for s in Standings(path).table()] == [-1]
