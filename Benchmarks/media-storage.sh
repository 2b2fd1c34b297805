#!/usr/bin/env bash
# Where mirrored media should live: writes N images of 20-200 KB (random bytes behind a real PNG
# or JPEG header, so neither SQLite nor PostgreSQL can compress them, as with real images) three
# ways, then reads READS of them at random, and prints store size, write speed and read latency
# (p50, p99) for each:
#
# - `sqlite-blob`: a BLOB column of a table in a SQLite file (WAL, synchronous=NORMAL, as the
#   store runs), committed every 100 images;
# - `postgres-bytea`: a `bytea` column (storage EXTERNAL: no compression attempt) in the server
#   of URL, written by `\copy ... (FORMAT binary)` in transactions of 100 images; the reads are
#   1 query each from one psql session, timed by the server round trip (`\timing`);
# - `folder`: one file per image in a folder (named by hash, two-level fan-out), each written
#   atomically: temp file, fsync, rename, then the folder fsynced once per 100 images.
#
# Usage: Benchmarks/media-storage.sh URL [N] [READS]   (defaults: 10000 images, 1000 reads)
# URL is a PostgreSQL server (e.g. $FEEDWORK_TEST_POSTGRES_URL of scripts/postgres-throwaway.sh);
# the script works in a schema of its own, dropped at the end. Needs python3 and psql.
set -euo pipefail
url=${1:?"usage: media-storage.sh POSTGRES_URL [N] [READS]"}
count=${2:-10000}
reads=${3:-1000}
work=$(mktemp -d "${TMPDIR:-/tmp}/feedwork-media.XXXXXX")
schema="media_bench_$$"
cleanup() {
    psql "$url" -XAtq -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

python3 - "$work" "$count" "$reads" "$url" "$schema" <<'PY'
import hashlib, os, random, sqlite3, statistics, struct, subprocess, sys, time

work, count, reads, url, schema = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
rng = random.Random(42)
PNG = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">IIBBBBB", 640, 480, 8, 2, 0, 0, 0) + b"\0\0\0\0"
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"

def images():
    """The same N images for every layout: (hash, bytes), regenerated from the seed."""
    r = random.Random(7)
    for i in range(count):
        size = r.randint(20_000, 200_000)
        head = PNG if i % 2 else JPEG
        data = head + r.randbytes(size - len(head))
        yield hashlib.sha256(data).hexdigest(), data

def du(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            total += os.stat(os.path.join(root, f)).st_blocks * 512
    return total

def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

start = time.perf_counter()
hashes = [h for h, _ in images()]
making = time.perf_counter() - start  # making the images, taken off every write time below
payload = sum(len(d) for _, d in images())
picks = [rng.choice(hashes) for _ in range(reads)]
rows = []

def report(name, size, seconds, latencies):
    rows.append((name, size, max(seconds - making, 1e-6), pct(latencies, 50), pct(latencies, 99)))

# SQLite BLOBs.
db = os.path.join(work, "store.sqlite")
con = sqlite3.connect(db, isolation_level=None)
con.execute("PRAGMA journal_mode=WAL")
con.execute("PRAGMA synchronous=NORMAL")
con.execute("CREATE TABLE media (hash TEXT PRIMARY KEY, bytes BLOB NOT NULL) WITHOUT ROWID")
start = time.perf_counter()
con.execute("BEGIN")
for i, (h, data) in enumerate(images()):
    con.execute("INSERT INTO media VALUES (?, ?)", (h, data))
    if i % 100 == 99:
        con.execute("COMMIT"); con.execute("BEGIN")
con.execute("COMMIT")
con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
seconds = time.perf_counter() - start
con.close()
con = sqlite3.connect(db)
latencies = []
for h in picks:
    t = time.perf_counter()
    (blob,) = con.execute("SELECT bytes FROM media WHERE hash = ?", (h,)).fetchone()
    latencies.append((time.perf_counter() - t) * 1000)
con.close()
report("sqlite-blob", du(work) - 0, seconds, latencies)

# A folder of files, each written atomically.
folder = os.path.join(work, "media")
os.makedirs(folder)
start = time.perf_counter()
dirty = set()
for i, (h, data) in enumerate(images()):
    sub = os.path.join(folder, h[:2])
    os.makedirs(sub, exist_ok=True)
    tmp = os.path.join(sub, f".{h}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, data); os.fsync(fd); os.close(fd)
    os.rename(tmp, os.path.join(sub, h))
    dirty.add(sub)
    if i % 100 == 99 or i == count - 1:
        for d in dirty:
            dfd = os.open(d, os.O_RDONLY); os.fsync(dfd); os.close(dfd)
        dirty.clear()
seconds = time.perf_counter() - start
latencies = []
for h in picks:
    t = time.perf_counter()
    with open(os.path.join(folder, h[:2], h), "rb") as f:
        f.read()
    latencies.append((time.perf_counter() - t) * 1000)
report("folder", du(folder), seconds, latencies)

# PostgreSQL bytea, by binary COPY.
def psql(*args, **kw):
    return subprocess.run(["psql", url, "-XAtq", "-v", "ON_ERROR_STOP=1", *args], check=True, **kw)
psql("-c", f"CREATE SCHEMA {schema}; CREATE TABLE {schema}.media (hash text PRIMARY KEY, bytes bytea NOT NULL);"
     f" ALTER TABLE {schema}.media ALTER COLUMN bytes SET STORAGE EXTERNAL;")
start = time.perf_counter()
batch = []
def flush():
    path = os.path.join(work, "batch.copy")
    with open(path, "wb") as out:
        out.write(b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0))
        for h, data in batch:
            hb = h.encode()
            out.write(struct.pack(">hi", 2, len(hb)) + hb + struct.pack(">i", len(data)) + data)
        out.write(struct.pack(">h", -1))
    psql("-1", "-c", f"\\copy {schema}.media FROM '{path}' WITH (FORMAT binary)")
    batch.clear()
for h, data in images():
    batch.append((h, data))
    if len(batch) == 100:
        flush()
if batch:
    flush()
seconds = time.perf_counter() - start
(size,) = psql("-c", f"SELECT pg_total_relation_size('{schema}.media')", capture_output=True, text=True).stdout.split()
script = "\\timing on\n" + "".join(f"SELECT bytes FROM {schema}.media WHERE hash = '{h}' \\g /dev/null\n" for h in picks)
out = psql(input=script, capture_output=True, text=True).stdout
latencies = [float(line.split()[1]) for line in out.splitlines() if line.startswith("Time: ")]
report("postgres-bytea", int(size), seconds, latencies)

mb = 1024 * 1024
print(f"{count} images, {payload / mb:.0f} MiB of image bytes; {reads} random reads")
print(f"{'layout':<16}{'size MiB':>10}{'overhead':>10}{'write s':>9}{'MiB/s':>8}{'img/s':>8}{'p50 ms':>8}{'p99 ms':>8}")
for name, size, seconds, p50, p99 in rows:
    print(f"{name:<16}{size / mb:>10.0f}{(size / payload - 1) * 100:>9.1f}%{seconds:>9.1f}"
          f"{payload / mb / seconds:>8.0f}{count / seconds:>8.0f}{p50:>8.2f}{p99:>8.2f}")
PY
