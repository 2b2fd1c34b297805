#!/usr/bin/env python3
"""Writes Sources/FeedMCP/DocsPages.swift from the docs pages on writing feeds, which
`feedwork mcp` offers as resources. Run it after changing one of those pages; the test
DocsResourceTests fails while the embedded text differs from the files.

    python3 scripts/embed-docs.py
"""
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
# The pages on writing feeds, in the order a reader takes them.
pages = [
    "docs/tutorial.md",
    "docs/json/pagination.md",
    "docs/json/api-shapes.md",
    "docs/json/oauth2.md",
    "docs/json/for-each.md",
    "docs/json/incremental.md",
    "docs/json/date-windows.md",
    "docs/json/entities.md",
    "docs/json/filter.md",
    "docs/json/soft-deletes.md",
    "docs/json/search.md",
    "docs/json/xml-csv.md",
    "docs/rate-limits.md",
    "docs/reference/feeds-yaml.md",
    "docs/hostile-input.md",
]

lines = [
    "// swift-format-ignore-file",
    "// Written by scripts/embed-docs.py from the pages it names; do not edit.",
    "",
    "/// The docs pages on writing feeds, embedded so that `feedwork mcp` serves them as resources",
    "/// (`feedwork://docs/<path>`) wherever its binary runs. `DocsResourceTests` fails while a",
    "/// page here differs from its file: run `python3 scripts/embed-docs.py` after editing one.",
    "enum DocsPages {",
    "    /// Each page: its path in the repository, its title (its first heading) and its text.",
    "    static let pages: [(path: String, title: String, text: String)] = [",
]
for page in pages:
    text = (root / page).read_text(encoding="utf-8")
    if '"""####' in text:
        sys.exit(f"{page} holds the delimiter \"\"\"####")
    title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("#")), page)
    lines.append("        (")
    escaped = title.replace("\\", "\\\\").replace('"', '\\"')
    lines.append(f'            "{page}", "{escaped}",')
    lines.append('            ####"""')
    lines.extend(text.rstrip("\n").split("\n"))
    # At the first column, so the page's lines keep their own indentation.
    lines.append('"""####')
    lines.append("        ),")
lines += ["    ]", "}", ""]
out = root / "Sources/FeedMCP/DocsPages.swift"
out.write_text("\n".join(lines), encoding="utf-8")
print(f"wrote {out.relative_to(root)}: {len(pages)} page(s)")
