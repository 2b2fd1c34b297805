"""A small load script for `feedwork serve`: GETs each URL REQUESTS times from THREADS threads
(one keep-alive connection each) and prints p50, p99 and max latency per URL, in ms.

Usage: serve_load.py HOST PORT REQUESTS THREADS PATH...
Only addresses on this machine are sent requests; the loop is bounded by REQUESTS.
"""
import http.client
import statistics
import sys
import threading
import time

host, port, requests, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
paths = sys.argv[5:]
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"


def worker(path, count, latencies, failures):
    connection = http.client.HTTPConnection(host, port, timeout=30)
    for _ in range(count):
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        latencies.append((time.perf_counter() - started) * 1000)
        if response.status != 200:
            failures.append(response.status)
    connection.close()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


ok = True
for path in paths:
    latencies, failures = [], []
    workers = [threading.Thread(target=worker, args=(path, requests // threads, latencies, failures))
               for _ in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
    label = path if len(path) < 60 else path[:57] + "..."
    print(f"{label:<60} requests {len(latencies):>5}  p50 {p50:6.1f} ms  p99 {p99:6.1f} ms"
          f"  max {max(latencies):6.1f} ms  errors {len(failures)}")
    ok = ok and not failures
sys.exit(0 if ok else 1)
