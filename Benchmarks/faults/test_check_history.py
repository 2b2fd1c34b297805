#!/usr/bin/env python3
"""The history checker on small hand-made histories: a clean one passes, and each kind of
wrong history fails the check written for it (and names the runs).

    python3 -m unittest discover -s Benchmarks/faults -p 'test_*.py'
"""

import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_history  # noqa: E402

T0 = 1_800_000_000.0
ADDRESSES = {"w1": "10.77.1.2", "w2": "10.77.2.2", "w3": "10.77.3.2"}


def iso(seconds):
    return datetime.fromtimestamp(T0 + seconds, timezone.utc).isoformat().replace("+00:00", "Z")


class Trial:
    """Builds a trial's files as run.sh writes them: passes become `_runs` inserts and updates
    in the log, with their state and rows changes in the pass's transaction, and events."""

    def __init__(self, **trial):
        self.trial = {
            "trial": "test",
            "workers": ADDRESSES,
            "feeds": {"events": {"every": 2}, "items": {"every": 3}},
            "monotonic": {"item": "version"},
            "keys": {"event": "seq", "item": "id"},
            "lease": 6,
            "resume_bound": 10,
        }
        self.trial.update(trial)
        self.log = []
        self.runs = {}
        self.events = []
        self.xid = 100
        self.truth = {"frozen_at": T0 + 1000, "entities": {"event": {}, "item": {}}}
        self.rows = {"event": [], "item": []}

    def change(self, table, op, row, at, worker, xid=None):
        self.xid += 1
        self.log.append(
            {
                "seq": len(self.log) + 1,
                "tbl": table,
                "op": op,
                "row": row,
                "at": T0 + at,
                "client": ADDRESSES.get(worker),
                "pid": 1,
                "xid": str(xid or self.xid),
                "committed_at": T0 + at,
            }
        )
        return xid or self.xid

    def pass_(self, run, feed, worker, start, end, status="ok", due=None, cursor=None, versions=None, report=None):
        """A pass from `start` to `end` (seconds after T0), committing when `status` says so."""
        self.change("_runs", "INSERT", {"id": run, "feed": feed, "status": "running"}, start, worker)
        self.runs[run] = {"id": run, "feed": feed, "status": status}
        if status is None:
            self.runs[run]["status"] = "running"
            return self
        xid = self.change("_runs", "UPDATE", {"id": run, "feed": feed, "status": status}, end, worker)
        if status in check_history.COMMITTED:
            if cursor is not None:
                self.change("_state", "UPDATE", {"feed": feed, "key": "cursor", "value": str(cursor)}, end, worker, xid)
            for key, version in (versions or {}).items():
                self.change("item", "UPDATE", {"_feed": feed, "id": key, "version": version}, end, worker, xid)
        event = {"event": "pass", "feed": feed, "run": run, "status": report or status, "_worker": worker}
        event["due_at"] = iso(start if due is None else due)
        self.events.append(event)
        return self

    def mark(self, run, status, at, by):
        """Another worker records the pass's end (as a claim marks an abandoned run interrupted)."""
        self.change("_runs", "UPDATE", {"id": run, "feed": self.runs[run]["feed"], "status": status}, at, by)
        return self

    def settle(self, events=3, items=None):
        """The ground truth and matching rows, and the `frozen_at` that the last passes follow."""
        items = items or {1: 5, 2: 5}
        self.truth["entities"]["event"] = {str(s): {"seq": s, "name": f"event {s}"} for s in range(1, events + 1)}
        self.truth["entities"]["item"] = {str(i): {"id": i, "version": v} for i, v in items.items()}
        self.rows["event"] = [dict(v) for v in self.truth["entities"]["event"].values()]
        self.rows["item"] = [dict(v) for v in self.truth["entities"]["item"].values()]
        self.truth["frozen_at"] = T0 + 50
        self.trial["frozen_at"] = T0 + 50
        return self

    def check(self):
        history = check_history.History(
            self.trial, self.log, list(self.runs.values()), self.events, self.rows, self.truth
        )
        with redirect_stdout(io.StringIO()) as printed:
            violations = check_history.Checker(history).run()
        self.printed = printed.getvalue()
        return violations


def clean():
    """Two feeds, three workers, passes one after another, each feed settling after the freeze."""
    trial = Trial()
    trial.pass_(1, "events", "w1", 1, 2, cursor=10, due=1)
    trial.pass_(2, "items", "w2", 1, 3, versions={1: 0, 2: 0}, due=1)
    trial.pass_(3, "events", "w3", 3, 4, cursor=20, due=3)
    trial.pass_(4, "items", "w1", 4, 6, versions={1: 1, 2: 1}, due=4)
    trial.pass_(5, "events", "w2", 5, 5.5, status="failed", due=5)
    trial.pass_(6, "events", "w1", 51, 52, cursor=30, due=51)
    trial.pass_(7, "items", "w3", 51, 53, versions={1: 5, 2: 5}, due=51)
    return trial.settle()


def checks(violations):
    return sorted({check for check, _, _ in violations})


class CheckHistoryTests(unittest.TestCase):
    def test_a_clean_history_passes(self):
        self.assertEqual(clean().check(), [])

    def test_two_passes_of_a_feed_that_overlap_fail(self):
        trial = clean()
        trial.pass_(8, "items", "w2", 52, 54, status="failed", due=52)
        self.assertEqual(checks(trial.check()), ["overlap"])

    def test_a_pass_still_running_when_another_starts_fails(self):
        trial = clean()
        trial.pass_(8, "events", "w2", 7, None, status=None)
        trial.pass_(9, "events", "w3", 9, 10, cursor=25, due=9)
        self.assertIn("overlap", checks(trial.check()))

    def test_a_stale_commit_after_another_worker_committed_a_later_pass_fails(self):
        trial = clean()
        # w2 starts a pass, goes silent, w3 runs and commits a later one, then w2 commits.
        trial.pass_(8, "items", "w2", 10, 20, versions={1: 2, 2: 2}, due=10)
        trial.pass_(9, "items", "w3", 14, 15, versions={1: 3, 2: 3}, due=13)
        found = trial.check()
        self.assertIn("fencing", checks(found))
        self.assertIn("run 8 (w2", next(m for c, _, m in found if c == "fencing"))

    def test_a_commit_after_the_store_marked_the_pass_interrupted_fails(self):
        trial = clean()
        trial.pass_(8, "events", "w2", 10, 20, cursor=26, due=10)
        trial.mark(8, "interrupted", 15, "w3")
        trial.log.sort(key=lambda r: r["committed_at"])
        self.assertEqual(checks(trial.check()), ["fencing"])

    def test_the_same_worker_committing_out_of_order_fails_order(self):
        trial = clean()
        trial.pass_(8, "events", "w1", 10, 20, cursor=26, due=10)
        trial.pass_(9, "events", "w1", 12, 13, cursor=25, due=12)
        self.assertIn("order", checks(trial.check()))

    def test_a_cursor_going_backwards_fails(self):
        trial = clean()
        trial.pass_(8, "events", "w2", 10, 11, cursor=15, due=10)
        found = trial.check()
        self.assertEqual(checks(found), ["monotonic"])
        self.assertIn("the cursor of events went back from 20.0", found[0][2])

    def test_an_item_version_going_backwards_fails(self):
        trial = clean()
        trial.pass_(8, "items", "w2", 10, 12, versions={1: 0}, due=10)
        self.assertEqual(checks(trial.check()), ["monotonic"])

    def test_a_due_time_committed_twice_fails(self):
        trial = clean()
        trial.pass_(8, "events", "w2", 10, 11, cursor=25, due=9)
        trial.pass_(9, "events", "w3", 12, 13, cursor=26, due=9)
        self.assertEqual(checks(trial.check()), ["due-once"])

    def test_a_due_time_interrupted_then_committed_passes(self):
        trial = clean()
        trial.pass_(8, "events", "w2", 10, 11, status="interrupted", due=9)
        trial.pass_(9, "events", "w3", 12, 13, cursor=26, due=9)
        self.assertEqual(trial.check(), [])

    def test_a_pass_started_before_it_was_due_fails(self):
        trial = clean()
        trial.pass_(8, "events", "w1", 10, 11, cursor=25, due=40)
        self.assertEqual(checks(trial.check()), ["due-early"])

    def test_a_worker_reporting_ok_for_a_pass_the_store_does_not_hold_fails(self):
        trial = clean()
        trial.pass_(8, "events", "w2", 10, 11, status="failed", report="ok", due=10)
        self.assertEqual(checks(trial.check()), ["reported"])

    def test_rows_that_differ_from_the_ground_truth_fail(self):
        trial = clean()
        trial.rows["item"][0]["version"] = 4
        trial.rows["event"].pop()
        trial.rows["event"].append({"seq": 99, "name": "event 99"})
        found = trial.check()
        self.assertEqual(checks(found), ["truth"])
        self.assertEqual(len(found), 3)

    def test_a_feed_without_a_pass_after_the_freeze_fails_settled(self):
        trial = clean()
        trial.trial["frozen_at"] = T0 + 60
        self.assertEqual(checks(trial.check()), ["settled"])

    def test_a_feed_resumed_elsewhere_within_the_bound_passes(self):
        trial = Trial(fault={"kind": "pause", "victim": "w2", "start": T0 + 11, "end": T0 + 26, "measure_resume": True})
        trial.pass_(1, "items", "w1", 1, 3, versions={1: 0, 2: 0}, due=1)
        trial.pass_(2, "items", "w2", 10, 27, status="failed", due=10)
        trial.mark(2, "interrupted", 17, "w3")
        trial.pass_(3, "items", "w3", 18, 20, versions={1: 5, 2: 5}, due=10)
        trial.pass_(4, "events", "w1", 51, 52, cursor=3, due=51)
        trial.pass_(5, "items", "w1", 51, 53, versions={1: 5, 2: 5}, due=51)
        trial.log.sort(key=lambda r: r["committed_at"])
        trial.settle()
        self.assertEqual(trial.check(), [])
        self.assertIn("items, held by w2: resumed on w3 7.0 s after the fault", trial.printed)

    def test_a_feed_resumed_only_after_the_fault_healed_fails_resume(self):
        trial = Trial(fault={"kind": "pause", "victim": "w2", "start": T0 + 11, "end": T0 + 26, "measure_resume": True})
        trial.pass_(1, "items", "w2", 10, 27, versions={1: 0, 2: 0}, due=10)
        trial.pass_(2, "items", "w3", 28, 30, versions={1: 5, 2: 5}, due=28)
        trial.pass_(4, "events", "w1", 51, 52, cursor=3, due=51)
        trial.pass_(5, "items", "w1", 51, 53, versions={1: 5, 2: 5}, due=51)
        trial.settle()
        found = trial.check()
        self.assertEqual(checks(found), ["resume"])
        self.assertIn("17.0 s after the fault", found[0][2])

    def test_a_feed_waiting_longer_than_the_stall_bound_fails(self):
        trial = Trial(stall_bound=12, feeds={"events": {"every": 2}})
        for run, start in enumerate([1, 3, 5, 16], start=1):
            trial.pass_(run, "events", "w1", start, start + 0.5, cursor=run, due=start)
        trial.truth = None
        self.assertEqual(checks(trial.check()), ["truth"])
        trial.trial["stall_bound"] = 10
        found = trial.check()
        self.assertEqual(checks(found), ["stall", "truth"])
        self.assertIn("11.0 s between the commits of run 3", next(m for c, _, m in found if c == "stall"))

    def test_a_change_without_a_commit_timestamp_is_measured_by_its_own_time(self):
        trial = clean()
        trial.pass_(8, "events", "w2", 10, 11, cursor=15, due=10)
        trial.log[-1]["committed_at"] = None
        self.assertEqual(checks(trial.check()), ["monotonic"])

    def test_a_trial_directory_is_read_as_run_sh_writes_it(self):
        trial = clean()
        with tempfile.TemporaryDirectory() as directory:
            def write(name, rows):
                with open(os.path.join(directory, name), "w") as out:
                    out.writelines(json.dumps(row) + "\n" for row in rows)

            write("trial.json", [trial.trial])
            write("truth.json", [trial.truth])
            write("log.jsonl", trial.log)
            write("runs.jsonl", trial.runs.values())
            for entity, rows in trial.rows.items():
                write(f"rows-{entity}.jsonl", rows)
            for worker in ADDRESSES:
                write(f"events-{worker}.jsonl", [e for e in trial.events if e["_worker"] == worker])
            history = check_history.load(directory)
            self.assertEqual(len(history.passes), 7)
            self.assertEqual(check_history.Checker(history).run(), [])


if __name__ == "__main__":
    unittest.main()
