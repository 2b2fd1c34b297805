"""Writes a JSON document of N items for the browser test's 100,000-row entity.

One item's name is a script tag, which every page must show as text.
"""
import json
import sys

count = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
kinds = ["tool", "toy", "food", "book"]
items = [
    {"id": i, "name": f"item {i:06d}", "kind": kinds[i % 4], "amount": f"{i % 1000}.{i % 100:02d}"}
    for i in range(1, count + 1)
]
items[41]["name"] = "<script>alert(1)</script>"
with open(sys.argv[1], "w") as out:
    json.dump({"items": items}, out)
