"""Full-text ranking whose work per query is capped: common words cannot make a query scan the store."""
from __future__ import annotations

from datetime import datetime

import pytest

from memory.recall import fulltext
from memory.storage.database import Database
from memory.storage.sqlcipher import DbKey
from memory.text import index_text

COMMON = fulltext.RARE_ROWS + 200


@pytest.fixture
def conn(tmp_path):
    db = Database(tmp_path / "f.db", DbKey("f" * 64, "raw"), datetime.now)
    with db.transaction() as c:
        for rid in range(1, COMMON + 1):
            c.execute("INSERT INTO memories_fts(rowid, text) VALUES (?, ?)",
                      (rid, index_text(f"Likes hiking on weekends 喜欢爬山 {rid}")))
        c.execute("INSERT INTO memories_fts(rowid, text) VALUES (?, ?)",
                  (COMMON + 1, index_text("Likes zebra spotting on safari")))
    yield db.conn
    db.close()


def test_a_rare_word_is_ranked_over_all_its_rows_and_common_words_do_not_crowd_it_out(conn):
    hits = fulltext.bm25_hits(conn, "do I like zebra spotting? likes weekends", 10)
    assert max(hits, key=hits.get) == COMMON + 1 and hits[COMMON + 1] == 1.0


def test_a_query_of_common_words_ranks_only_the_newest_matches(conn):
    hits = fulltext.bm25_hits(conn, "likes weekends", 20)
    assert len(hits) == 20 and min(hits) > COMMON - fulltext.CAPPED_ROWS
    assert all(0 < score <= 1.0 for score in hits.values())
    uncapped = fulltext.bm25_hits(conn, "likes weekends", -1, capped=False)
    assert len(uncapped) == COMMON + 1


def test_a_query_of_common_words_scores_the_candidates_it_is_given_however_old(conn):
    # hybrid search passes the memories nearest in meaning: the oldest of them must not lose its word match
    hits = fulltext.bm25_hits(conn, "likes weekends", 20, candidates=[1, 2, COMMON + 1, COMMON + 50])
    assert set(hits) == {1, 2, COMMON + 1}  # no row COMMON + 50; every candidate that holds a term
    assert hits[1] == hits[2] == 1.0 and 0 < hits[COMMON + 1] < 1.0  # the zebra row holds one of the two
    assert fulltext.bm25_hits(conn, "likes weekends", 1, candidates=[1, 2]) == {2: 1.0}  # a tie: the newer


def test_words_found_nowhere_neither_match_nor_hide_the_words_that_are_found(conn):
    assert fulltext.bm25_hits(conn, "music", 10) == {}
    chinese = fulltext.bm25_hits(conn, "我喜欢什么", 10)  # "什么" is in no memory, "喜欢" in many
    assert len(chinese) == 10
    assert fulltext.bm25_hits(conn, '"; DROP TABLE memories_fts; -- NEAR(* AND', 10) == {}
