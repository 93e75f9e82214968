"""The server's standings: per name, variant and opponents' level, the Portal's scoring."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from sixtysix.service.standings import Standings
from sixtysix.table.names import Names
from sixtysix.table.standings_db import (
    Club,
    MatchRow,
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


# ---------------------------------------------------------------------- a club's standings


def _club_results(db: ServerStandings) -> None:
    """Three matches of 66-4 (Ali, Ayşe, Can and a bot), one of 66 by Ali against @hard."""
    labels = ["human", "human", "human", "@hard"]
    for day, totals in enumerate(([7, 3, 0, 3], [2, 7, 1, 3], [7, 7, 1, 2]), 1):
        for seat, name in enumerate(["Ali", "Ayşe", "Can"]):
            db.add(
                name, "66-4", level_of(labels, seat), 4, seat, "finished",
                match_score(totals, seat), 5, totals, when=datetime(2025, 3, day, tzinfo=UTC),
            )  # fmt: skip
    when = datetime(2025, 3, 9, tzinfo=UTC)
    db.add("ALI", "66", "@hard", 2, 0, "left", None, 3, [5, 2], when=when)


def test_no_database_no_club(db: ServerStandings) -> None:
    assert db.club() == Club([], 0)
    assert db.club(name="Ali") == Club([], 0, [], 0)
    assert not db.path.exists()  # reading creates nothing


def test_the_clubs_rows_are_per_name_variant_and_level_best_first(db: ServerStandings) -> None:
    _club_results(db)
    club = db.club()
    assert [(r.name, r.variant, r.level, r.played, r.score) for r in club.rows] == [
        ("ALI", "66", "@hard", 1, 0),
        ("ALI", "66-4", "human,human,@hard", 3, 1),  # a name as most recently recorded
        ("Ayşe", "66-4", "human,human,@hard", 3, 1),
        ("Can", "66-4", "human,human,@hard", 3, -3),
    ]
    assert club.total == 4 and club.history is None and club.history_total is None
    assert db.club(variant="66-4").rows == club.rows[1:]
    assert db.club(level="@hard").rows == club.rows[:1]
    assert db.club(variant="66", level="human").rows == []


def test_a_club_is_read_to_its_limit_and_counts_the_rest(db: ServerStandings) -> None:
    _club_results(db)
    club = db.club(variant="66-4", limit=2)
    assert [r.name for r in club.rows] == ["ALI", "Ayşe"]
    assert club.total == 3


def test_a_persons_matches_newest_first_to_the_limit(db: ServerStandings) -> None:
    _club_results(db)
    club = db.club(name="ali", limit=3)
    assert club.history_total == 4
    level = "human,human,@hard"
    assert club.history == [
        MatchRow("2025-03-09T00:00:00+00:00", "66", "@hard", 2, 0, "left", None, 3, (5, 2)),
        MatchRow("2025-03-03T00:00:00+00:00", "66-4", level, 4, 0, "finished", 0, 5, (7, 7, 1, 2)),
        MatchRow("2025-03-02T00:00:00+00:00", "66-4", level, 4, 0, "finished", 0, 5, (2, 7, 1, 3)),
    ]
    assert club.history[0].as_json()["totals"] == [5, 2]
    assert len(club.rows) == 3  # the club's table is everyone's, the history the person's
    assert db.club(name="Ali", variant="66-4").history_total == 3
    nobody = db.club(name="Nobody")
    assert (nobody.history, nobody.history_total, nobody.total) == ([], 0, 4)


def test_a_club_read_of_a_damaged_file_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    path.write_bytes(b"garbage, not a database" * 200)
    with pytest.raises(StandingsError, match="cannot read"):
        ServerStandings(path).club()
