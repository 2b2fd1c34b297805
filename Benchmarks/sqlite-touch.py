"""How SQLite takes a later pass's unchanged records, four ways, on a copy of a W1 store: what
the one-writer plan (ARCHITECTURE.md, "What is left of the store layer's plan") needs to know
before SQLite's later passes move from row-by-row look-ups to set-based statements.

    python3 Benchmarks/sqlite-touch.py STORE [BATCH] [TRIALS]

STORE is a store feedwork wrote for W1 (`feedwork-bench-server --rows N`, `Benchmarks/w1-feeds.sh
PORT` and `feedwork run`); it is copied, never changed. Each trial moves `_last_seen` of every row
of feed `w1` to a new stamp, in one transaction per way, and prints the seconds each took:

- floor: one `UPDATE` of every row, SQLite's own cost of rewriting them;
- rowwise: a look-up and an `UPDATE` by rowid per record, as `SQLiteEntityWriter` does (from
  Python, whose calls cost more than Swift's prepared statements: an upper bound);
- json: per BATCH records, one `UPDATE ... WHERE rowid IN (SELECT ... FROM json_each(?) CROSS
  JOIN item ...) RETURNING _key`, keys and hashes sent as one JSON array, as PostgreSQL's
  `touchUnchanged` sends two arrays;
- staged: per BATCH, the keys and hashes inserted into a temporary table, then the same `UPDATE`
  joined to it.

`CROSS JOIN` keeps the batch the outer loop: with a plain `JOIN`, SQLite 3.40 scans every row of
the feed and, for each, the batch.
"""

import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    store, batch = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    trials = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    folder = tempfile.mkdtemp(prefix="sqlite-touch-")
    try:
        copy = os.path.join(folder, "store.sqlite")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(store + suffix):
                shutil.copy(store + suffix, copy + suffix)
        run(sqlite3.connect(copy, isolation_level=None), batch, trials)
    finally:
        shutil.rmtree(folder)


def run(db, batch, trials):
    rows = db.execute("SELECT _key, _hash FROM item WHERE _feed = 'w1' ORDER BY rowid").fetchall()
    db.execute("CREATE TEMP TABLE stage (_key TEXT NOT NULL, _hash INTEGER NOT NULL)")
    touch = """UPDATE item SET _last_seen = ?2 WHERE rowid IN (
        SELECT t.rowid FROM {source} AS d CROSS JOIN item AS t
        ON t._feed = ?1 AND t._key = d.{key} AND t._hash = d.{hash} AND t._last_seen <> ?2)
        RETURNING _key"""
    json_touch = touch.format(source="json_each(?3)", key="value ->> 0", hash="value ->> 1")
    staged_touch = touch.format(source="temp.stage", key="_key", hash="_hash")

    def floor(stamp):
        db.execute("UPDATE item SET _last_seen = ?2 WHERE _feed = ?1", ("w1", stamp))
        return len(rows)

    def rowwise(stamp):
        touched = 0
        for key, hash_ in rows:
            found = db.execute(
                "SELECT rowid, _hash FROM item WHERE _feed = ?1 AND _key = ?2 LIMIT 1", ("w1", key)).fetchone()
            if found and found[1] == hash_:
                db.execute("UPDATE item SET _last_seen = ?2 WHERE rowid = ?1", (found[0], stamp))
                touched += 1
        return touched

    def json_batches(stamp):
        touched = 0
        for start in range(0, len(rows), batch):
            pairs = json.dumps(rows[start : start + batch])
            touched += len(db.execute(json_touch, ("w1", stamp, pairs)).fetchall())
        return touched

    def staged(stamp):
        touched = 0
        for start in range(0, len(rows), batch):
            db.execute("DELETE FROM temp.stage")
            db.executemany("INSERT INTO temp.stage VALUES (?, ?)", rows[start : start + batch])
            touched += len(db.execute(staged_touch, ("w1", stamp)).fetchall())
        return touched

    ways = [("floor", floor), ("rowwise", rowwise), ("json", json_batches), ("staged", staged)]
    print(f"sqlite {sqlite3.sqlite_version}, {len(rows)} rows, batches of {batch}")
    stamp = 0
    for _ in range(trials):
        figures = []
        for name, way in ways:
            stamp += 1
            db.execute("BEGIN")
            began = time.perf_counter()
            touched = way(f"2030-01-01T00:{stamp // 60:02d}:{stamp % 60:02d}.000Z")
            db.execute("COMMIT")
            figures.append(f"{name} {time.perf_counter() - began:.3f} s")
            if touched != len(rows):
                sys.exit(f"{name} touched {touched} rows of {len(rows)}")
        print("  ".join(figures), flush=True)


if __name__ == "__main__":
    main()
