#!/usr/bin/env python3
"""A tap whose third line is not JSON."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from singer_lines import USERS, record, schema

schema("users", USERS, key=["id"])
record("users", {"id": 1, "active": True})
print("Traceback (most recent call last): oops", flush=True)
record("users", {"id": 2, "active": True})
