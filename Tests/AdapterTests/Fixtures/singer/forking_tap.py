#!/usr/bin/env python3
"""A tap that sends one record, then starts a child process that inherits its standard output
and sleeps, holding it open. `--pid-file PATH` writes "TAP_PID CHILD_PID" there; `--escape` puts
the child in a session of its own (out of the tap's process group), and `--clean-env` then
runs `sleep` in it with an empty environment (the tap's marker gone); `--linger` keeps the tap
itself running too; `--status N` is the tap's exit status (0 by default)."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import os
import time
from singer_lines import option, record, schema

schema("users", {"id": {"type": "integer"}}, key=["id"])
record("users", {"id": 1})
child = os.fork()
if child == 0:
    if "--escape" in sys.argv:
        os.setsid()
    if "--clean-env" in sys.argv:
        os.execve("/bin/sleep", ["sleep", "600"], {})
    time.sleep(600)
    os._exit(0)
path = option("--pid-file")
if path:
    with open(path + ".tmp", "w") as file:
        file.write(f"{os.getpid()} {child}")
    os.rename(path + ".tmp", path)
if "--linger" in sys.argv:
    time.sleep(600)
sys.exit(int(option("--status") or 0))
