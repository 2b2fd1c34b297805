#!/usr/bin/env python3
"""The API host of the fault trials: two JSON feeds whose content changes with time in a known
way, so the rows a store should hold at the end can be computed.

    api_host.py ADDRESS PORT DIR

Serves, on ADDRESS:PORT (the API host's own address, inside its network namespace):

- `GET /events?since=S&page=C&limit=L`: an append-only log. Event `seq` (1, 2, ...) is
  published `EVENT_EVERY` seconds after the one before (the first at the start); a request
  gets the published events with `seq > S`, `limit` (default 20) a page, in `seq` order, and
  `next`, the cursor of the next page (the last `seq` of this one), or null on the last page.
  A feed reads it incrementally (`incremental: { cursor_path: seq, param: since }`), so its
  stored cursor is the greatest `seq` it committed: it must never go backwards.
- `GET /items?page=C`: a catalogue of `ITEMS` items that changes every `EPOCH` seconds. In
  epoch `e` (0 at the start) item `id` exists unless `(3 * id + e) % 5 == 0` (a fifth of them
  go and come back in turn), with `version = e` and `price = (id * 37 + e * 11) % 1000`. Pages
  of `ITEMS_PAGE`; the cursor names the epoch of the first page (`e.offset`), so one walk is one
  epoch's snapshot even when the epoch changes during it. A feed reads it with
  `write: replace`: `version` of an item must never go backwards in the store.

Each page is answered after `EVENTS_DELAY` / `ITEMS_DELAY` seconds, so passes take long enough
for a fault to land in the middle of one.

SIGUSR1 freezes time: nothing more is published and the epoch stays, and `DIR/truth.json` is
written (atomically) with every row the feeds should hold from then on:
`{"frozen_at": t, "entities": {"event": {seq: {...}}, "item": {id: {...}}}}`. Every request is
logged to `DIR/requests.jsonl` (`t`, `client`, `path`, `status`, `records`). SIGTERM ends it.
Python's standard library only.
"""

import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

EVENT_EVERY = float(os.environ.get("EVENT_EVERY", "0.2"))
EPOCH = float(os.environ.get("EPOCH", "4"))
ITEMS = int(os.environ.get("ITEMS", "30"))
ITEMS_PAGE = int(os.environ.get("ITEMS_PAGE", "6"))
EVENTS_DELAY = float(os.environ.get("EVENTS_DELAY", "0.1"))
ITEMS_DELAY = float(os.environ.get("ITEMS_DELAY", "0.4"))


class World:
    """The feeds' content as a function of time, until frozen."""

    def __init__(self, directory):
        self.directory = directory
        self.started = time.time()
        self.frozen_at = None
        self.lock = threading.Lock()
        self.log = open(os.path.join(directory, "requests.jsonl"), "a", buffering=1)

    def now(self):
        return self.frozen_at if self.frozen_at is not None else time.time()

    def published(self):
        """How many events are published: the first at the start, then one every EVENT_EVERY."""
        return 1 + int((self.now() - self.started) / EVENT_EVERY)

    def epoch(self):
        return int((self.now() - self.started) / EPOCH)

    @staticmethod
    def event(seq):
        return {"seq": seq, "name": f"event {seq}", "value": (seq * 7919) % 1000}

    @staticmethod
    def items(epoch):
        return [
            {"id": i, "version": epoch, "price": (i * 37 + epoch * 11) % 1000}
            for i in range(1, ITEMS + 1)
            if (3 * i + epoch) % 5 != 0
        ]

    def freeze(self):
        with self.lock:
            if self.frozen_at is None:
                self.frozen_at = time.time()
        truth = {
            "frozen_at": self.frozen_at,
            "entities": {
                "event": {str(seq): self.event(seq) for seq in range(1, self.published() + 1)},
                "item": {str(item["id"]): item for item in self.items(self.epoch())},
            },
        }
        path = os.path.join(self.directory, "truth.json")
        with open(path + ".tmp", "w") as out:
            json.dump(truth, out)
        os.replace(path + ".tmp", path)

    def record(self, client, path, status, records):
        self.log.write(
            json.dumps({"t": time.time(), "client": client, "path": path, "status": status, "records": records})
            + "\n"
        )


def handler(world):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, body, records=0):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)
            world.record(self.client_address[0], self.path, status, records)

        def do_GET(self):
            url = urlsplit(self.path)
            query = {key: values[-1] for key, values in parse_qs(url.query).items()}
            try:
                if url.path == "/events":
                    self.events(query)
                elif url.path == "/items":
                    self.items(query)
                else:
                    self.reply(404, {"error": "no such path"})
            except (ValueError, KeyError) as error:
                self.reply(400, {"error": str(error)})

        def events(self, query):
            time.sleep(EVENTS_DELAY)
            after = int(query.get("page") or query.get("since") or 0)
            limit = int(query.get("limit", "20"))
            last = world.published()
            seqs = list(range(after + 1, min(last, after + limit) + 1))
            more = seqs and seqs[-1] < last
            body = {"events": [world.event(s) for s in seqs], "next": str(seqs[-1]) if more else None}
            self.reply(200, body, len(seqs))

        def items(self, query):
            time.sleep(ITEMS_DELAY)
            token = query.get("page")
            epoch, offset = (int(part) for part in token.split(".")) if token else (world.epoch(), 0)
            items = world.items(epoch)
            page = items[offset : offset + ITEMS_PAGE]
            end = offset + len(page)
            body = {"items": page, "next": f"{epoch}.{end}" if end < len(items) else None}
            self.reply(200, body, len(page))

    return Handler


def main():
    address, port, directory = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    world = World(directory)
    server = ThreadingHTTPServer((address, port), handler(world))
    server.daemon_threads = True
    signal.signal(signal.SIGUSR1, lambda *_: threading.Thread(target=world.freeze).start())
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    with open(os.path.join(directory, "api.ready"), "w") as ready:
        ready.write(f"{world.started}\n")
    server.serve_forever()


if __name__ == "__main__":
    main()
