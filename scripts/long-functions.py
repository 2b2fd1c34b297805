"""Lists the functions longer than a limit (80 lines by default) in Sources/ and Adapters/, so
the long-functions count can be measured again after a change:

    python3 scripts/long-functions.py [LIMIT]

Each line is a function's length in lines (from its keyword's line to its closing brace, both
counted), its file and line, and its name; longest first, then the count.

What counts as a function: a `func`, `init`, `deinit` or `subscript` with a body, and a computed
`var` (a `var` whose type is followed by `{` on the same line, with no `=` before it, so a
stored property with observers and a value is left out). Comments and string literals
(interpolations, multi-line and raw strings included) are blanked before the braces are
matched, so a brace in them does not count.

Its limits: it reads the text, it does not parse Swift. A regex literal (`/.../`) is read as
code, so an unbalanced brace in one would throw the count off (Feedwork has none); a `var`
whose type spans lines before its `{` is not seen; a nested function is listed on its own and
inside its outer function's length. Counts only, nothing is judged: it always exits 0 and is
not part of CI. Python's standard library alone.
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FOLDERS = ["Sources", "Adapters"]
DEFAULT_LIMIT = 80

DECLARATION_START = re.compile(
    r"\n[ \t]*(?:@\w+(?:\([^)\n]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|static|class"
    r"|final|override|mutating|nonmutating|nonisolated|convenience|required|lazy|weak|unowned|indirect|dynamic"
    r"|isolated|consuming|borrowing)(?:\([^)\n]*\))?\s+)*"
    r"(?:func|var|let|init|deinit|subscript|case|typealias|associatedtype|struct|class|enum|protocol|extension"
    r"|actor)\b"
)
KEYWORD = re.compile(
    r"(?<![\w.`$])(?:func\s+(?P<func>[^\s(<]+)|(?P<init>init)[?!]?\s*(?=[(<])|(?P<deinit>deinit)\s*(?=\{)"
    r"|(?P<subscript>subscript)\s*(?=[(<])|var\s+(?P<var>\w+)\s*:)"
)


def swift_files():
    for folder in FOLDERS:
        for base, dirs, names in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(base, name)


def blank(text):
    """`text` with every comment and string literal replaced by spaces (newlines kept), so
    that the braces and keywords left are code's."""
    out = list(text)
    length = len(text)

    def wipe(start, end):
        for index in range(start, min(end, length)):
            if out[index] != "\n":
                out[index] = " "

    def skip_code(index, closing):
        """Reads code from `index` until the `closing` character at depth 0 (None: the end),
        blanking comments and strings; returns the index after the closing character."""
        depth = 0
        while index < length:
            char = text[index]
            if text.startswith("//", index):
                end = text.find("\n", index)
                end = length if end < 0 else end
                wipe(index, end)
                index = end
            elif text.startswith("/*", index):
                end, nesting = index + 2, 1
                while end < length and nesting:
                    if text.startswith("/*", end):
                        nesting, end = nesting + 1, end + 2
                    elif text.startswith("*/", end):
                        nesting, end = nesting - 1, end + 2
                    else:
                        end += 1
                wipe(index, end)
                index = end
            elif char == '"' or (char == "#" and re.match(r"#+\"", text[index:index + 64])):
                end = skip_string(index)
                wipe(index, end)
                index = end
            elif char == "(":
                depth += 1
                index += 1
            elif char == ")":
                if depth == 0 and closing == ")":
                    return index + 1
                depth -= 1
                index += 1
            else:
                index += 1
        return length

    def skip_string(index):
        """The index after the string literal starting at `index` (its `#`s, if raw)."""
        hashes = 0
        while text[index] == "#":
            hashes, index = hashes + 1, index + 1
        multiline = text.startswith('"""', index)
        quote = '"""' if multiline else '"'
        index += len(quote)
        closing = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        while index < length:
            if text.startswith(escape, index):
                after = index + len(escape)
                if text.startswith("(", after):
                    index = skip_code(after + 1, ")")
                else:
                    index = after + 1
            elif text.startswith(closing, index):
                return index + len(closing)
            elif text[index] == "\n" and not multiline:
                return index
            else:
                index += 1
        return length

    skip_code(0, None)
    return "".join(out)


def body_start(code, index, is_var):
    """The index of the `{` opening the body of the declaration whose keyword ends at
    `index`, or None when it has none (a requirement, a stored property)."""
    depth = 0
    while index < len(code):
        char = code[index]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif depth == 0:
            if char == "{":
                return index
            if char == "}":
                return None
            if is_var and char in "=\n":
                return None
            if char == "\n" and DECLARATION_START.match(code, index):
                return None
        index += 1
    return None


def body_end(code, index):
    """The index of the `}` matching the `{` at `index`."""
    depth = 0
    while index < len(code):
        if code[index] == "{":
            depth += 1
        elif code[index] == "}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return len(code) - 1


def functions(path):
    with open(path, encoding="utf-8") as file:
        code = blank(file.read())
    for match in KEYWORD.finditer(code):
        name = next(value for value in match.groupdict().values() if value)
        is_var = match.group("var") is not None
        start = body_start(code, match.end(), is_var)
        if start is None:
            continue
        first = code.count("\n", 0, match.start()) + 1
        last = code.count("\n", 0, body_end(code, start)) + 1
        yield last - first + 1, first, name


def main():
    limit = DEFAULT_LIMIT
    if len(sys.argv) > 1:
        try:
            limit = int(sys.argv[1])
        except ValueError:
            print(f"usage: {sys.argv[0]} [LIMIT]  (LIMIT: a number of lines, {DEFAULT_LIMIT} by default)")
            return
    found = []
    for path in swift_files():
        for length, line, name in functions(path):
            if length > limit:
                found.append((length, os.path.relpath(path, ROOT), line, name))
    found.sort(key=lambda item: (-item[0], item[1], item[2]))
    for length, path, line, name in found:
        print(f"{length:5}  {path}:{line}  {name}")
    print(f"{len(found)} functions longer than {limit} lines in {' and '.join(f + '/' for f in FOLDERS)}")


if __name__ == "__main__":
    main()
    sys.exit(0)
