#!/usr/bin/env python3
"""A tap that sends a RECORD of a stream before its SCHEMA."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from singer_lines import USERS, record, schema

schema("users", USERS, key=["id"])
record("users", {"id": 1, "active": True})
record("orders", {"id": 1})
schema("orders", {"id": {"type": "integer"}}, key=["id"])
