#!/usr/bin/env python3
"""A tap whose streams and property are named on its command line: one SCHEMA per `--stream
NAME` (several allowed), each with the properties `id` and `--property NAME` (default `value`),
then, after `--sleep SECONDS` (default 0), one RECORD per stream with `id` `--id N` (default 1)."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import time
from singer_lines import option, record, schema

streams = [sys.argv[i + 1] for i, arg in enumerate(sys.argv) if arg == "--stream"]
prop = option("--property") or "value"
for stream in streams:
    schema(stream, {"id": {"type": "integer"}, prop: {"type": ["null", "string"]}}, key=["id"])
time.sleep(float(option("--sleep") or 0))
for stream in streams:
    record(stream, {"id": int(option("--id") or 1), prop: "x"})
