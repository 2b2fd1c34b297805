#!/usr/bin/env python3
"""A tap whose second user has a score that is a string: that record is rejected."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from singer_lines import USERS, record, schema

schema("users", USERS, key=["id"])
record("users", {"id": 1, "score": 1.5, "active": True})
record("users", {"id": 2, "score": "high", "active": True})
record("users", {"id": 3, "score": 3, "active": False})
