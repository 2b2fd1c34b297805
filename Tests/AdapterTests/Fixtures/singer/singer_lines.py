"""Helpers for the fake Singer taps of the singer adapter's tests: messages as JSON lines."""
import json
import sys


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def schema(stream, properties, key=None, bookmarks=None):
    message = {"type": "SCHEMA", "stream": stream, "schema": {"type": "object", "properties": properties},
               "key_properties": key or []}
    if bookmarks:
        message["bookmark_properties"] = bookmarks
    emit(message)


def record(stream, values):
    emit({"type": "RECORD", "stream": stream, "record": values})


def state(value):
    emit({"type": "STATE", "value": value})


def option(name):
    """The value after `name` in the command line, or None."""
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return None


def read_json_option(name, default=None):
    path = option(name)
    if path is None:
        return default
    with open(path) as file:
        return json.load(file)


USERS = {
    "id": {"type": "integer"},
    "name": {"type": ["null", "string"]},
    "score": {"type": ["null", "number"]},
    "signedUp": {"type": ["null", "string"], "format": "date-time"},
    "active": {"type": "boolean"},
    "profile": {"type": ["null", "object"], "properties": {"city": {"type": "string"}}},
    "tags": {"type": ["null", "array"], "items": {"type": "string"}},
}
