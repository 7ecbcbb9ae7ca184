"""The in-memory copy of the vector tables: what nearest-neighbour search and similarity read."""
from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from memory.storage import vector_index, vectors
from memory.storage.database import Database
from memory.storage.sqlcipher import DbKey

DIM = 384
KEY = DbKey("c" * 64, "raw")


class FixedEmbedder:
    model_id, dim = "test/fixed-384", DIM

    def embed(self, texts):
        return [_unit(np.random.default_rng(len(t)).standard_normal(DIM)) for t in texts]


def _unit(v):
    v = np.asarray(v, dtype=np.float32)
    return (v / np.linalg.norm(v)).tolist()


def _clustered(rng, n, centers):
    """Unit vectors near a few hundred centres, all leaning one way (as real sentence embeddings do)."""
    lean = centers[0] * 0.6
    v = lean + centers[rng.integers(1, len(centers), n)] + 0.35 * rng.standard_normal((n, DIM)) / np.sqrt(DIM) * 4
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture
def db(tmp_path):
    database = Database(tmp_path / "v.db", KEY, datetime.now)
    vectors.ensure_model(database.conn, FixedEmbedder())
    yield database
    database.close()


def _fill(db, rows):
    with db.transaction() as conn:
        for rid, vec in rows:
            vectors.put(conn, rid, vec)


def test_nearest_neighbours_match_sqlite_vec_exact_search_on_a_large_table(db, tmp_path):
    rng = np.random.default_rng(3)
    centers = rng.standard_normal((300, DIM))
    centers /= np.linalg.norm(centers, axis=1, keepdims=True)
    assert vectors.knn(db.conn, centers[0], 10) == []  # loaded while empty, then grown in place
    _fill(db, enumerate(_clustered(rng, 8000, centers), start=1))  # large enough for the sign-bit pass
    other = Database(tmp_path / "v.db", KEY, datetime.now)  # loads the whole table at once
    try:
        for conn in (db.conn, other.conn):
            found = []
            for q in _clustered(rng, 25, centers):
                exact = vectors.exact_knn(conn, q, 10)
                fast = vectors.knn(conn, q, 10)
                found.append(len({r for r, _ in fast} & {r for r, _ in exact}) / 10)
                assert fast[0][1] == pytest.approx(exact[0][1], abs=1e-5)  # the same cosines (float32 copies)
                assert [c for _, c in fast] == sorted((c for _, c in fast), reverse=True)
            assert np.mean(found) >= 0.97
            for q in _clustered(rng, 5, centers):  # every row compared: the same ten as sqlite-vec's brute force
                assert ([r for r, _ in vectors.knn(conn, q, 10, exact=True)]
                        == [r for r, _ in vectors.exact_knn(conn, q, 10)])
    finally:
        other.close()


def test_small_tables_are_searched_exactly(db):
    rng = np.random.default_rng(5)
    _fill(db, ((rid, _unit(rng.standard_normal(DIM))) for rid in range(1, 301)))
    q = _unit(rng.standard_normal(DIM))
    assert [r for r, _ in vectors.knn(db.conn, q, 20)] == [r for r, _ in vectors.exact_knn(db.conn, q, 20)]
    sims = vectors.similarity(db.conn, q, [5, 7, 999])
    assert set(sims) == {5, 7}  # 999 has no vector
    exact = dict(vectors.exact_knn(db.conn, q, 300))
    assert sims[5] == pytest.approx(exact[5], abs=2e-3)


def test_own_writes_update_the_copy_in_place_and_other_connections_reload(db, tmp_path):
    rng = np.random.default_rng(9)
    _fill(db, ((rid, _unit(rng.standard_normal(DIM))) for rid in range(1, 51)))
    q = _unit(rng.standard_normal(DIM))
    vectors.knn(db.conn, q, 5)
    copy = vector_index.loaded(db.conn, "memory_vectors", DIM)
    _fill(db, [(1000, q)])
    assert vectors.knn(db.conn, q, 1)[0][0] == 1000
    with db.transaction() as conn:
        vectors.delete(conn, 1000)
    assert 1000 not in {r for r, _ in vectors.knn(db.conn, q, 60)}
    assert vector_index.loaded(db.conn, "memory_vectors", DIM) is copy  # updated in place, never read again

    other = Database(tmp_path / "v.db", KEY, datetime.now)  # another process's connection, say
    try:
        assert vectors.knn(other.conn, q, 1)[0][0] != 2000
        _fill(db, [(2000, q)])
        assert vectors.knn(other.conn, q, 1)[0][0] == 2000
        with other.transaction() as conn:
            vectors.delete(conn, 2000)
        assert vectors.knn(db.conn, q, 1)[0][0] != 2000
    finally:
        other.close()


class Fixed512:
    model_id, dim = "test/fixed-512", 512

    def embed(self, texts):
        return [_unit(np.random.default_rng(len(t)).standard_normal(512)) for t in texts]


def test_a_write_to_one_space_leaves_the_other_spaces_copy_in_place(db):
    rng = np.random.default_rng(4)
    vectors.ensure_model(db.conn, Fixed512(), space=vectors.MULTILINGUAL)
    with db.transaction() as conn:
        for rid in range(1, 41):
            vectors.put(conn, rid, _unit(rng.standard_normal(DIM)))
            vectors.put(conn, rid, _unit(rng.standard_normal(512)), vectors.MULTILINGUAL)
    q, mq = _unit(rng.standard_normal(DIM)), _unit(rng.standard_normal(512))
    vectors.knn(db.conn, q, 3)
    vectors.knn(db.conn, mq, 3, vectors.MULTILINGUAL)
    main = vector_index.loaded(db.conn, vectors.MAIN.table, DIM)
    multi = vector_index.loaded(db.conn, vectors.MULTILINGUAL.table, 512)
    with db.transaction() as conn:  # a new memory: both spaces are written, one after the other
        vectors.put(conn, 500, q)
        vectors.put(conn, 500, mq, vectors.MULTILINGUAL)
    with db.transaction() as conn:  # an edit that only the main space follows
        vectors.put(conn, 7, q)
    assert vector_index.loaded(db.conn, vectors.MAIN.table, DIM) is main
    assert vector_index.loaded(db.conn, vectors.MULTILINGUAL.table, 512) is multi  # not read again whole
    assert {r for r, _ in vectors.knn(db.conn, q, 2)} == {500, 7}
    assert vectors.knn(db.conn, mq, 1, vectors.MULTILINGUAL)[0][0] == 500
    fast, exact = vectors.knn(db.conn, mq, 1, vectors.MULTILINGUAL), vectors.exact_knn(db.conn, mq, 1, vectors.MULTILINGUAL)
    # the same rows; the scores to float32 rounding (the two paths sum in another order: 1.0000002 vs 1.0 seen in CI)
    assert [r for r, _ in fast] == [r for r, _ in exact]
    assert [s for _, s in fast] == pytest.approx([s for _, s in exact], abs=1e-5)


def test_a_rolled_back_write_does_not_linger_in_the_copy(db):
    rng = np.random.default_rng(11)
    _fill(db, ((rid, _unit(rng.standard_normal(DIM))) for rid in range(1, 21)))
    q = _unit(rng.standard_normal(DIM))
    vectors.knn(db.conn, q, 5)
    with pytest.raises(RuntimeError):
        with db.transaction() as conn:
            vectors.put(conn, 500, q)
            raise RuntimeError("crash mid-transaction")
    assert 500 not in {r for r, _ in vectors.knn(db.conn, q, 21)}


def test_stored_vectors_are_the_exact_float32_values_written(db):
    rng = np.random.default_rng(5)
    rows = [(rid, _unit(rng.standard_normal(DIM))) for rid in range(1, 41)]
    _fill(db, rows)
    with db.transaction() as conn:
        vectors.delete(conn, 7)
    got = vectors.stored(db.conn, [3, 7, 40, 999])
    assert sorted(got) == [3, 40]  # a deleted or unknown memory has none
    for rid in (3, 40):
        assert got[rid].dtype == np.float32 and np.array_equal(got[rid], np.asarray(rows[rid - 1][1], dtype=np.float32))


def test_the_coarse_pass_keeps_the_rows_of_the_k_smallest_distances():
    rng = np.random.default_rng(11)
    for n, k in ((5000, 500), (3000, 1), (2000, 2000), (4000, 700)):
        distances = rng.binomial(384, 0.3, size=n).astype(np.uint16)
        rows = vector_index._smallest(distances, k)
        assert len(rows) == len(set(rows.tolist())) == k
        assert np.array_equal(np.sort(distances[rows]), np.sort(distances)[:k])


def test_one_blas_thread_is_set_once_for_nested_uses_and_lifted_by_the_last():
    def blas_threads():  # the BLAS libraries the index limits (those loaded when it first limited them)
        return [i["num_threads"] for i in vector_index._blas.info() if i["user_api"] == "blas"]

    with vector_index.one_blas_thread():  # builds the controller
        pass

    before = blas_threads()
    with vector_index.one_blas_thread():
        with vector_index.one_blas_thread():
            assert set(blas_threads()) <= {1}
        assert set(blas_threads()) <= {1}  # the inner exit leaves the outer limit in place
    assert blas_threads() == before
