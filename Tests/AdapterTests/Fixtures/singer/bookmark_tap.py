#!/usr/bin/env python3
"""A tap that honours --state: events 1 to `count` (from --config), starting after the
bookmark's `last_id`; it ends with a STATE holding the last id it sent."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from singer_lines import read_json_option, record, schema, state

config = read_json_option("--config", {})
bookmark = read_json_option("--state", {}).get("bookmarks", {}).get("events", {}).get("last_id", 0)
print(f"resuming after {bookmark}", file=sys.stderr, flush=True)
schema("events", {"id": {"type": "integer"}, "kind": {"type": "string"}}, key=["id"], bookmarks=["id"])
last = bookmark
for event in range(bookmark + 1, int(config["count"]) + 1):
    record("events", {"id": event, "kind": "click"})
    last = event
state({"bookmarks": {"events": {"last_id": last}}})
