#!/usr/bin/env python3
"""Writes the reference pages that come from the code, so they never drift from it:

- docs/reference/adapter-options.md, every adapter's options and entities, from
  `feedwork adapters --json` (each adapter's AdapterDescription and schemas);
- docs/reference/command-help.md, every command's `--help`, as argument-parser prints it.

    python3 scripts/generate-reference.py .build/debug/feedwork          # rewrite the pages
    python3 scripts/generate-reference.py --check .build/debug/feedwork  # fail if they differ

With --check (as .ci/run runs it) nothing is written: it names each page that differs from
what the binary says and exits 1. Help is read at 80 columns, whatever the terminal.
"""
import json
import os
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
note = "Written by `scripts/generate-reference.py` from {source}; do not edit it:\nrun the script after a change."


def feedwork(binary, *arguments):
    """The standard output of `binary arguments`, run in the checkout at 80 columns."""
    environment = dict(os.environ, COLUMNS="80", NO_COLOR="1")
    result = subprocess.run(
        [binary, *arguments], cwd=root, env=environment, capture_output=True, text=True, timeout=120
    )
    if result.returncode != 0:
        sys.exit(f"{binary} {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result.stdout


def cell(text):
    """`text` for a Markdown table cell."""
    return "" if text is None else str(text).replace("|", "\\|").replace("\n", " ")


def columns_table(columns):
    lines = ["| column | type | null | about |", "|---|---|---|---|"]
    for column in columns:
        kind = column["type"] + (f" ({column['currency']})" if column.get("currency") else "")
        nullable = "yes" if column.get("nullable") else "no"
        lines.append(f"| `{column['name']}` | {cell(kind)} | {nullable} | {cell(column.get('summary'))} |")
    return lines


def adapter_options(binary):
    adapters = json.loads(feedwork(binary, "adapters", "--json"))["adapters"]
    lines = [
        "# Adapter options and entities",
        "",
        note.format(source="`feedwork adapters --json`") + " The adapters are described in",
        "[Built-in adapters](../adapters/built-in.md), the json adapter in [the tutorial](../tutorial.md).",
        "",
    ]
    for adapter in adapters:
        lines += [f"## {adapter['name']}", "", f"{adapter['summary']} Module `{adapter['module']}`.", ""]
        lines += ["| option | type | default | about |", "|---|---|---|---|"]
        for option in adapter["options"]:
            default = "required" if option.get("required") else (option.get("default") or "none")
            name = f"`{option['name']}`"
            lines.append(f"| {name} | {cell(option['type'])} | {cell(default)} | {cell(option.get('summary'))} |")
        lines.append("")
        for entity in adapter["entities"]:
            key = ", ".join(entity["key"])
            lines += [f"### Entity `{entity['entity']}` (key: {key})", ""]
            if entity.get("summary"):
                lines += [entity["summary"], ""]
            for relation in entity.get("relations", []):
                enforced = ", enforced" if relation.get("enforced") else ""
                lines += [f"`{relation['column']}` -> `{relation['entity']}`{enforced}.", ""]
            lines += columns_table(entity["columns"]) + [""]
            for child in entity.get("children", []):
                name = child.get("name") or child.get("table") or child.get("entity")
                lines += [f"Child table `{name}`:", ""] + columns_table(child.get("columns", [])) + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def subcommands(help_text):
    """The subcommand names listed under SUBCOMMANDS: in `help_text`."""
    names = []
    section = help_text.split("SUBCOMMANDS:", 1)
    if len(section) < 2:
        return names
    for line in section[1].split("\n"):
        match = re.match(r"^  (\S+)(\s|$)", line)
        if match and match.group(1) != "See":
            names.append(match.group(1))
    return [name for name in names if name != "help"]


def command_help(binary):
    lines = [
        "# Command help",
        "",
        note.format(source="each command's `--help`") + " The commands, exit statuses and",
        "reports are explained in the [command reference](commands.md).",
        "",
    ]
    queue = [[]]
    while queue:
        path = queue.pop(0)
        text = feedwork(binary, *path, "--help")
        title = " ".join(["feedwork", *path])
        lines += [f"## `{title}`", "", "```text", text.rstrip("\n"), "```", ""]
        queue += [path + [name] for name in subcommands(text)]
    return "\n".join(lines).rstrip("\n") + "\n"


def main():
    arguments = sys.argv[1:]
    check = "--check" in arguments
    arguments = [argument for argument in arguments if argument != "--check"]
    if len(arguments) != 1:
        sys.exit(__doc__)
    binary = str(pathlib.Path(arguments[0]).resolve())
    pages = {
        "docs/reference/adapter-options.md": adapter_options(binary),
        "docs/reference/command-help.md": command_help(binary),
    }
    stale = []
    for path, text in pages.items():
        file = root / path
        if check:
            if not file.exists() or file.read_text(encoding="utf-8") != text:
                stale.append(path)
        else:
            file.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print(
            f"{', '.join(stale)} differ from what the binary says: run "
            "python3 scripts/generate-reference.py .build/debug/feedwork and commit the pages",
            file=sys.stderr,
        )
        sys.exit(1)


main()
