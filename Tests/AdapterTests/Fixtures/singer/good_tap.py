#!/usr/bin/env python3
"""A tap with two streams, users and orders, covering the JSON Schema types; it logs to stderr,
sends an ACTIVATE_VERSION (to be ignored) and a final STATE. With --config, the config's
`region` is written into each order."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from singer_lines import USERS, emit, read_json_option, record, schema, state

config = read_json_option("--config", {})
print("good tap starting", file=sys.stderr, flush=True)
schema("users", USERS, key=["id"], bookmarks=["signedUp"])
record("users", {"id": 1, "name": "Ada", "score": 12.50, "signedUp": "2024-03-01T10:00:00+01:00", "active": True,
                 "profile": {"city": "London"}, "tags": ["a", "b"]})
record("users", {"id": 2, "name": None, "score": 7, "signedUp": "2024-03-02T00:00:00Z", "active": False,
                 "profile": None, "tags": []})
emit({"type": "ACTIVATE_VERSION", "stream": "users", "version": 1})
schema("order-lines", {"orderId": {"type": "integer"}, "amount": {"type": "number"},
                       "region": {"type": ["null", "string"]}}, key=["orderId"])
for order in range(1, 4):
    record("order-lines", {"orderId": order, "amount": order + 0.25, "region": config.get("region")})
state({"bookmarks": {"users": {"signedUp": "2024-03-02T00:00:00Z"}}})
print("good tap done", file=sys.stderr, flush=True)
