#!/usr/bin/env python3
"""Checks the relative links of the documentation: every link in README.md, ARCHITECTURE.md and
docs/**/*.md that points into the repository names a file that exists and, with a `#anchor`,
a heading of that file (GitHub's anchors: lowercase, spaces to '-', punctuation dropped, a
repeated heading numbered -1, -2, ...). Prints each broken link as file:line and fails when
there is one. Links to other sites (`https:`, `mailto:`) are not followed.

    python3 scripts/check-links.py
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
pages = [root / "README.md", root / "ARCHITECTURE.md"] + sorted((root / "docs").rglob("*.md"))

# [text](target) and [text]: target, outside code blocks and code spans.
inline_link = re.compile(r"\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
reference_link = re.compile(r"^\s*\[[^\]]+\]:\s+(\S+)")
code_span = re.compile(r"(`+).*?\1")


def prose_lines(path):
    """Yields (line number, line) for each line of `path` outside fenced code blocks."""
    fence = None
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        stripped = line.strip()
        marker = re.match(r"^(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)
            elif stripped.startswith(fence) and stripped.strip("`~") == "":
                fence = None
            continue
        if fence is None:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


anchors_of = {}


def anchors(path):
    """The anchors of the headings of `path`."""
    if path not in anchors_of:
        found = set()
        seen = {}
        for _, line in prose_lines(path):
            match = re.match(r"^#{1,6}\s+(.*?)\s*$", line)
            if not match:
                continue
            base = slug(match.group(1).replace("`", ""))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        anchors_of[path] = found
    return anchors_of[path]


broken = []
for page in pages:
    for number, line in prose_lines(page):
        prose = code_span.sub("", line)
        targets = [m.group(1) for m in inline_link.finditer(prose)]
        reference = reference_link.match(prose)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue
            path_part, _, anchor = target.partition("#")
            file = (page.parent / path_part).resolve() if path_part else page
            where = f"{page.relative_to(root)}:{number}"
            if not file.exists():
                broken.append(f"{where}: {target}: no such file")
            elif anchor and file.is_file() and file.suffix == ".md" and anchor not in anchors(file):
                broken.append(f"{where}: {target}: no heading '#{anchor}' in {file.relative_to(root)}")

for line in broken:
    print(line)
print(f"checked {len(pages)} page(s): {len(broken)} broken link(s)", file=sys.stderr)
sys.exit(1 if broken else 0)
