"""Counts what a store driver has to write, so the store layer's shape can be measured again
after a change:

- the protocols of FeedStore that a driver's types conform to, directly or through the
  protocols they refine, with how many requirements each declares; those FeedStore conforms
  to itself have a default written once there (the entity writer), which a driver may use
  instead of writing its own, so a third driver must write only the others;
- the jobs done once per driver: files of the two drivers whose names differ only by their
  driver prefix (`SQLiteStore+Runs.swift` and `PostgresStore+Runs.swift`);
- the driver types named in code outside the driver targets and the factory (`FeedStoreDrivers`).

    python3 scripts/store-layout-count.py

Counts only, nothing is judged: it prints the figures and the names behind them. Python's
standard library alone; reads Sources/.
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SOURCES = os.path.join(ROOT, "Sources")
DRIVERS = {"FeedStoreSQLite": "SQLite", "FeedStorePostgres": "Postgres"}
REFINES = {}
ALLOWED_OUTSIDE = {"FeedStoreSQLite", "FeedStorePostgres", "FeedStoreDrivers"}


def swift_files(folder):
    for base, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(base, name)


def read(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


def store_protocols():
    """The protocols FeedStore declares, with the number of requirements of each, and the
    protocols each one refines (which a type conforming to it conforms to as well)."""
    found = {}
    for path in swift_files(os.path.join(SOURCES, "FeedStore")):
        text = read(path)
        for match in re.finditer(r"^(?:package |public )?protocol (\w+)([^{]*)\{", text, re.M):
            REFINES[match.group(1)] = set(re.split(r"[,\s&:]+", match.group(2).split("where")[0])) - {""}
            depth, index = 1, match.end()
            while depth and index < len(text):
                depth += {"{": 1, "}": -1}.get(text[index], 0)
                index += 1
            body = text[match.end() : index - 1]
            requirements = re.findall(r"^\s{4}(?:@\w+ )*(?:func|var|static func|associatedtype|init)\b", body, re.M)
            found[match.group(1)] = len(requirements)
    return found


def conformed(protocols, target):
    """The protocols of `protocols` that a type of `target` declares a conformance to."""
    used = set()
    for path in swift_files(os.path.join(SOURCES, target)):
        for declaration in re.findall(r"^(?:\w+ )*(?:extension|struct|final class|class|enum|actor) [\w.]+\s*:\s*([^{]+)\{",
                                      read(path), re.M):
            for name in re.split(r"[,\s&]+", declaration):
                if name in protocols:
                    used.add(name)
    # A protocol's refinements are conformed to with it.
    pending = list(used)
    while pending:
        for name in REFINES.get(pending.pop(), ()):
            if name in protocols and name not in used:
                used.add(name)
                pending.append(name)
    return used


def shared_defaults(protocols):
    """`protocol: type` for each protocol a type of FeedStore conforms to: a driver that
    writes none of its own gets that one."""
    found = {}
    for path in swift_files(os.path.join(SOURCES, "FeedStore")):
        for name, declaration in re.findall(
                r"^(?:\w+ )*(?:extension|struct|final class|class|enum|actor) ([\w.]+)\s*:\s*([^{]+)\{",
                read(path), re.M):
            for protocol in re.split(r"[,\s&]+", declaration):
                if protocol in protocols:
                    found.setdefault(protocol, name)
    return found


def paired_files():
    """File names that both drivers have, once their prefixes are taken away."""
    jobs = {}
    for target, prefix in DRIVERS.items():
        for path in swift_files(os.path.join(SOURCES, target)):
            name = os.path.basename(path)
            if name.startswith(prefix):
                jobs.setdefault(name[len(prefix):], set()).add(target)
    return sorted(job for job, targets in jobs.items() if len(targets) == len(DRIVERS))


def driver_names_outside():
    """`file: Name` for each driver type named outside the driver targets and the factory."""
    found = []
    for target in sorted(os.listdir(SOURCES)):
        folder = os.path.join(SOURCES, target)
        if target in ALLOWED_OUTSIDE or not os.path.isdir(folder):
            continue
        for path in swift_files(folder):
            code = "\n".join(line.split("//")[0] for line in read(path).splitlines())
            for name in sorted(set(re.findall(r"\b(?:SQLite|Postgres)[A-Z]\w*", code))):
                found.append(f"{os.path.relpath(path, ROOT)}: {name}")
    return found


def main():
    protocols = store_protocols()
    drivers_use = set().union(*(conformed(protocols, target) for target in DRIVERS))
    defaults = {name: default for name, default in shared_defaults(protocols).items() if name in drivers_use}
    print("protocols a driver conforms to:")
    for target in DRIVERS:
        used = sorted(conformed(protocols, target))
        total = sum(protocols[name] for name in used)
        print(f"  {target}: {len(used)} protocols, {total} requirements: "
              + ", ".join(f"{name} ({protocols[name]})" for name in used))
    required = sorted(name for name in protocols if name not in defaults
                      and all(name in conformed(protocols, target) for target in DRIVERS))
    print(f"protocols a driver must conform to: {len(required)}, "
          f"{sum(protocols[name] for name in required)} requirements: " + ", ".join(required))
    for name, default in sorted(defaults.items()):
        print(f"  {name}: optional, FeedStore's {default} is the default")
    pairs = paired_files()
    print(f"files once per driver for the same job: {len(pairs)} pairs")
    for job in pairs:
        print(f"  {DRIVERS['FeedStoreSQLite']}{job} / {DRIVERS['FeedStorePostgres']}{job}")
    outside = driver_names_outside()
    print(f"driver types named outside the drivers and the factory: {len(outside)}")
    for line in outside:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
