#!/usr/bin/env python3
"""A tap that describes the --config file it was given: its path, its mode, the length of its
`token` and its `region`, as one record of stream `config`."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import os
import stat
from singer_lines import option, read_json_option, record, schema

path = option("--config")
config = read_json_option("--config", {})
schema("config", {"path": {"type": "string"}, "mode": {"type": "string"}, "token_length": {"type": "integer"},
                  "region": {"type": "string"}, "port": {"type": "integer"}}, key=["path"])
record("config", {"path": path, "mode": oct(stat.S_IMODE(os.stat(path).st_mode)), "token_length": len(config["token"]),
                  "region": config["region"], "port": config["port"]})
