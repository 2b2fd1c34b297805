#!/usr/bin/env python3
"""A tap that sends a new stream and some records, a STATE, then fails: stderr names a token
given with --token, and it exits with status 3."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from singer_lines import USERS, option, record, schema, state

schema("users", USERS, key=["id"])
record("users", {"id": 1, "name": "Changed", "active": True})
record("users", {"id": 9, "name": "New", "active": True})
schema("audit", {"id": {"type": "integer"}}, key=["id"])
record("audit", {"id": 1})
state({"bookmarks": {"users": {"id": 9}}})
token = option("--token") or "none"
print("fetching page 2", file=sys.stderr)
print(f"HTTP 401 with token {token}: unauthorized", file=sys.stderr, flush=True)
sys.exit(3)
