#!/usr/bin/env python3
"""The reference loader of the throughput benchmark: a straight-line loader written by hand.

Reads workload W1's pages from local files (no HTTP at all), parses them with the standard
library's json, and inserts the same tables Feedwork's json adapter writes (item with the
common columns, item__tags as a child table) with sqlite3.executemany in one transaction.

Usage: reference_loader.py PAGES_DIR STORE.sqlite
"""
import glob
import json
import os
import sqlite3
import sys


def main(pages_dir, store):
    if os.path.exists(store):
        os.remove(store)
    db = sqlite3.connect(store)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(
        "CREATE TABLE item (_feed TEXT NOT NULL, _key TEXT NOT NULL, _hash INTEGER NOT NULL, _run INTEGER NOT NULL,"
        " _first_seen TEXT NOT NULL, _last_seen TEXT NOT NULL, id INTEGER, name TEXT, price TEXT, updated_at TEXT,"
        " meta_source TEXT, meta_rank INTEGER)")
    db.execute("CREATE INDEX item_feed_key ON item(_feed, _key)")
    db.execute("CREATE TABLE item__tags (_feed TEXT NOT NULL, _key TEXT NOT NULL, _position INTEGER NOT NULL, value TEXT)")
    db.execute("CREATE INDEX item__tags_parent ON item__tags(_feed, _key)")
    stamp = "2024-01-01T00:00:00.000Z"
    pages = sorted(glob.glob(os.path.join(pages_dir, "page-*.json")), key=lambda p: int(p.rsplit("-", 1)[1][:-5]))
    rows = 0
    with db:
        for path in pages:
            with open(path, "rb") as f:
                items = json.load(f)["items"]
            records = []
            tags = []
            for item in items:
                key = str(item["id"])
                values = (item["id"], item["name"], str(item["price"]), item["updated_at"],
                          item["meta"]["source"], item["meta"]["rank"])
                records.append(("w1", key, hash(values), 1, stamp, stamp) + values)
                for position, tag in enumerate(item["tags"]):
                    tags.append(("w1", key, position, tag))
            db.executemany("INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", records)
            db.executemany("INSERT INTO item__tags VALUES (?,?,?,?)", tags)
            rows += len(records)
    db.close()
    print(f"reference: {rows} rows")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
