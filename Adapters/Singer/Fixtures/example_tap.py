#!/usr/bin/env python3
"""A small Singer tap for trying the singer adapter offline: stream `planets` (keyed by name,
with a bookmark on `updated_at`), resuming after the bookmark of --state, and a final STATE.

    feeds:
      - name: planets
        adapter: singer
        command: [python3, Adapters/Singer/Fixtures/example_tap.py]
"""
import json
import sys

PLANETS = [
    {"name": "Mercury", "moons": 0, "radius_km": 2439.7, "rocky": True, "updated_at": "2024-01-01T00:00:00Z"},
    {"name": "Venus", "moons": 0, "radius_km": 6051.8, "rocky": True, "updated_at": "2024-01-02T00:00:00Z"},
    {"name": "Earth", "moons": 1, "radius_km": 6371.0, "rocky": True, "updated_at": "2024-01-03T00:00:00Z"},
    {"name": "Mars", "moons": 2, "radius_km": 3389.5, "rocky": True, "updated_at": "2024-01-04T00:00:00Z"},
    {"name": "Jupiter", "moons": 95, "radius_km": 69911, "rocky": False, "updated_at": "2024-01-05T00:00:00Z"},
]


def emit(message):
    print(json.dumps(message), flush=True)


state = {}
if "--state" in sys.argv:
    with open(sys.argv[sys.argv.index("--state") + 1]) as file:
        state = json.load(file)
since = state.get("bookmarks", {}).get("planets", {}).get("updated_at", "")
print(f"example tap: planets updated after '{since}'", file=sys.stderr)
emit({"type": "SCHEMA", "stream": "planets", "key_properties": ["name"], "bookmark_properties": ["updated_at"],
      "schema": {"type": "object", "properties": {
          "name": {"type": "string"}, "moons": {"type": "integer"}, "radius_km": {"type": "number"},
          "rocky": {"type": "boolean"}, "updated_at": {"type": "string", "format": "date-time"}}}})
for planet in PLANETS:
    if planet["updated_at"] > since:
        emit({"type": "RECORD", "stream": "planets", "record": planet})
        since = planet["updated_at"]
emit({"type": "STATE", "value": {"bookmarks": {"planets": {"updated_at": since}}}})
