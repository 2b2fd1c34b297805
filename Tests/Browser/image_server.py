"""A loopback image server for the browser tests' mirrored ads.

Writes WORK/mirrored-listing.json (the first 12 ads of the classified fixture, their ids moved
out of the fixture's range, their images on this server: PNGs made here, and one URL that
answers 404), then WORK/mirrored.yaml (the feed `mirrored-ads` reading it) once it listens,
and serves until killed.
"""
import http.server
import json
import os
import struct
import sys
import zlib

repo, work = sys.argv[1], sys.argv[2]


def png(width, height, rgb):
    raw = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


IMAGES = {f"/img/{n}.png": png(40 + n, 30 + n, (20 * n % 256, 100, 200 - 10 * n)) for n in range(12)}
MISSING = "/img/missing.png"


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = IMAGES.get(self.path)
        if body is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
base = f"http://127.0.0.1:{server.server_address[1]}"
with open(os.path.join(repo, "Adapters/Classified/Fixtures/listing.json")) as source:
    ads = json.load(source)[:12]
for n, ad in enumerate(ads):
    ad["id"] += 9_000_000_000
    path = MISSING if n == 5 else f"/img/{n}.png"
    ad["images_url"] = {"small": base + path, "thumb": base + path}
with open(os.path.join(work, "mirrored-listing.json"), "w") as out:
    json.dump(ads, out)
with open(os.path.join(work, "mirrored.yaml.tmp"), "w") as out:
    out.write(
        "  # Ads whose images a loopback server serves, mirrored into the store.\n"
        "  - name: mirrored-ads\n"
        "    adapter: classified\n"
        "    categories_url: Adapters/Classified/Fixtures/categories.json\n"
        "    listing_url: mirrored-listing.json\n"
        "    mirror_media: true  # the default feeds.yaml turns it off for its live image URLs\n")
os.rename(os.path.join(work, "mirrored.yaml.tmp"), os.path.join(work, "mirrored.yaml"))
server.serve_forever()
