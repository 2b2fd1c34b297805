"""The public API in swift-api-digester's dumps. The digester reads Feedwork's modules with
their `package` declarations, which it marks `isInternal`; other packages never see those.

    python3 scripts/api-public-only.py strip DUMP.json
        drops them from DUMP.json (in place), so the recorded baseline is the public API alone
        and changing a `package` declaration is not a break for other packages;
    python3 scripts/api-public-only.py compare BASELINE.json CURRENT.json
        fails, naming them, when public declarations of the baseline are not public in the
        current dump: removed, or made `package` or internal (which SwiftPM's comparison, seeing
        them still, does not report).
"""

import json
import sys


def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def internal_usrs(node, usrs):
    if node.get("isInternal"):
        usrs.add(node.get("usr"))
    for child in node.get("children", []):
        internal_usrs(child, usrs)
    return usrs


def strip(node, internal):
    node["children"] = [strip(child, internal) for child in node.get("children", []) if not child.get("isInternal")]
    if not node["children"]:
        del node["children"]
    if "conformances" in node:
        node["conformances"] = [c for c in node["conformances"] if c.get("usr") not in internal]
    return node


def public_declarations(node, found):
    """The usr -> printed name of every declaration that is not internal."""
    if node.get("isInternal"):
        return found
    if node.get("usr") and node.get("kind") not in ("Import", "TypeNominal", "TypeNameAlias", "TypeFunc"):
        found[node["usr"]] = node.get("printedName", node.get("name"))
    for child in node.get("children", []):
        public_declarations(child, found)
    return found


command = sys.argv[1] if len(sys.argv) > 1 else ""
if command == "strip" and len(sys.argv) == 3:
    dump = load(sys.argv[2])
    strip(dump["ABIRoot"], internal_usrs(dump["ABIRoot"], set()))
    with open(sys.argv[2], "w", encoding="utf-8") as file:
        json.dump(dump, file, indent=1, sort_keys=True)
        file.write("\n")
elif command == "compare" and len(sys.argv) == 4:
    baseline = public_declarations(load(sys.argv[2])["ABIRoot"], {})
    current = public_declarations(load(sys.argv[3])["ABIRoot"], {})
    gone = sorted(name for usr, name in baseline.items() if usr not in current)
    for name in gone:
        print(f"  API breakage: {name} is no longer public")
    sys.exit(1 if gone else 0)
else:
    sys.exit("usage: api-public-only.py strip DUMP.json | compare BASELINE.json CURRENT.json")
