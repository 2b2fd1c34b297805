#!/usr/bin/env python3
"""A tap that sends one record, then starts a grandchild that leaves the tap's session
(`setsid`), lets go of the tap's standard output and error, writes its pid to `--pid-file PATH`
and sleeps for 600 s, as a program starting a daemon does. The tap then exits with status 0, or
with `--hang` sleeps for 600 s itself."""
import sys
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import os
import time
from singer_lines import option, record, schema

schema("users", {"id": {"type": "integer"}}, key=["id"])
record("users", {"id": 1})
sys.stdout.flush()
path = option("--pid-file")
child = os.fork()
if child == 0:
    os.setsid()
    if os.fork() != 0:
        # The tap goes on once the grandchild said who it is.
        for _ in range(1000):
            if os.path.exists(path):
                break
            time.sleep(0.01)
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(null, descriptor)
    with open(path + ".tmp", "w") as file:
        file.write(str(os.getpid()))
    os.rename(path + ".tmp", path)
    time.sleep(600)
    os._exit(0)
os.waitpid(child, 0)
if "--hang" in sys.argv:
    time.sleep(600)
