#!/usr/bin/env python3
"""A tap that sends one record and then hangs. `--pid-file PATH` writes its process id there
(after the record); `--ignore-term` makes it ignore SIGTERM, so only SIGKILL ends it."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import os
import signal
import time
from singer_lines import option, record, schema

if "--ignore-term" in os.sys.argv:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
schema("users", {"id": {"type": "integer"}}, key=["id"])
record("users", {"id": 1})
path = option("--pid-file")
if path:
    with open(path + ".tmp", "w") as file:
        file.write(str(os.getpid()))
    os.rename(path + ".tmp", path)
time.sleep(600)
