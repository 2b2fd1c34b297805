"""`feedwork mcp` through the official Python MCP SDK, over stdio.

Usage: mcp_client_test.py FEEDWORK CONFIG [URL]

With URL (`http://127.0.0.1:PORT/mcp` of `feedwork serve -c CONFIG`), the same checks over
MCP's streamable HTTP transport instead of a `feedwork mcp` process on stdio.

CONFIG's store holds the default feeds and Tests/MCP/feeds.yaml's `mcp-pantry` (run once).
Every tool is called and its answer checked against the store as `feedwork export` reads it;
a write through query_sql is refused and changes nothing; the credential written in the
config (`sekret-123`) is in no answer. Exits non-zero on the first failed check.
"""

import asyncio
import json
import os
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

FEEDWORK, CONFIG = sys.argv[1], sys.argv[2]
URL = sys.argv[3] if len(sys.argv) > 3 else None
SECRET = "sekret-123"
TOOLS = {
    "list_feeds", "list_entities", "describe_entity", "query_sql", "search", "get_record",
    "feed_runs", "feed_rejects", "validate_config",
}
answers = []  # every text the server answered, to look for the secret in


def check(condition, message):
    if not condition:
        print(f"FAIL: {message}", file=sys.stderr)
        sys.exit(1)


def exported_rows(entity):
    """The rows of `entity` as `feedwork export` writes them (NDJSON, one row a line)."""
    out = subprocess.run(
        [FEEDWORK, "export", entity, "-c", CONFIG, "--format", "ndjson"],
        check=True, capture_output=True, text=True, cwd=os.path.dirname(CONFIG),
    ).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


async def call(session, name, arguments=None, error=False):
    """The text of tool `name`'s answer, parsed as JSON unless it is an error."""
    result = await session.call_tool(name, arguments or {})
    text = "".join(part.text for part in result.content if part.type == "text")
    answers.append(text)
    check(bool(result.is_error) == error, f"{name} {arguments}: isError {result.is_error}: {text[:400]}")
    return text if error else json.loads(text)


async def main():
    if URL:
        async with streamable_http_client(URL) as (read, write), ClientSession(read, write) as session:
            await exercise(session)
    else:
        server = StdioServerParameters(command=FEEDWORK, args=["mcp", "-c", CONFIG], cwd=os.path.dirname(CONFIG))
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await exercise(session)
    leaked = [text[:200] for text in answers if SECRET in text]
    check(not leaked, f"the config's credential is in {len(leaked)} answer(s): {leaked}")
    print(f"ok: {len(answers)} answers of feedwork mcp checked ({os.path.basename(CONFIG)}, {URL or 'stdio'})")


async def exercise(session):
    """Every tool and the resource, checked against the store."""
    init = await session.initialize()
    check(init.server_info.name == "feedwork", f"server name {init.server_info.name}")
    await session.send_ping()

    tools = {tool.name for tool in (await session.list_tools()).tools}
    check(tools == TOOLS, f"tools {sorted(tools)}")

    # list_feeds: every feed ran; the pantry's reject is counted.
    feeds = {feed["feed"]: feed for feed in await call(session, "list_feeds")}
    check("mcp-pantry" in feeds and "bbc-fruit" in feeds, f"feeds {sorted(feeds)}")
    check(feeds["mcp-pantry"]["status"] == "ok_with_rejects", f"pantry {feeds['mcp-pantry']}")
    check(feeds["mcp-pantry"]["rejects"] == 1, f"pantry rejects {feeds['mcp-pantry']}")
    check(feeds["bbc-fruit"]["status"] == "ok", f"fruit {feeds['bbc-fruit']}")

    # list_entities and describe_entity: each entity's rows are the rows export writes.
    entities = await call(session, "list_entities")
    names = [entity["name"] for entity in entities]
    for name in ["fruit", "classified", "pantry", "exchange_rate"]:
        check(name in names, f"entity {name} in {names}")
    for entity in entities:
        if entity.get("parent"):
            continue
        exported = len(exported_rows(entity["name"]))
        check(entity["rows"] == exported, f"{entity['name']}: {entity['rows']} rows, export has {exported}")
        described = await call(session, "describe_entity", {"entity": entity["name"]})
        check(described["rows"] == exported, f"describe {entity['name']}: {described['rows']} != {exported}")
        counted = await call(session, "query_sql", {"sql": f'SELECT count(*) AS n FROM "{entity["name"]}"'})
        check(counted["rows"] == [[exported]], f"count {entity['name']}: {counted} != {exported}")
    pantry = await call(session, "describe_entity", {"entity": "pantry"})
    check(pantry["search"] == ["name"], f"pantry search {pantry['search']}")
    check({"id", "name", "price", "_key"} <= {field["name"] for field in pantry["fields"]}, f"{pantry['fields']}")
    await call(session, "describe_entity", {"entity": "no_such"}, error=True)

    # query_sql: parameters, the row limit, and refusals that leave the store as it was.
    fruit = await call(session, "query_sql", {"sql": "SELECT count(*) FROM fruit WHERE _feed = :feed",
                                              "parameters": {"feed": "bbc-fruit"}})
    check(fruit["rows"] == [[len(exported_rows("fruit"))]], f"fruit by feed {fruit}")
    many = await call(session, "query_sql", {"sql": "SELECT a._key FROM classified a, classified b"})
    check(many["truncated"] is True and len(many["rows"]) == many["row_limit"] == 1000, "row limit")
    before = len(exported_rows("pantry"))
    for statement in ["DELETE FROM pantry", "DROP TABLE pantry", "UPDATE pantry SET name = 'x'",
                      "SELECT 1; DELETE FROM pantry", "SELECT * FROM _state", "SELECT * FROM _http_cache"]:
        await call(session, "query_sql", {"sql": statement}, error=True)
    check(len(exported_rows("pantry")) == before == 2, "the pantry lost rows")

    # search: a word of a row's search field finds that row.
    found = await call(session, "search", {"entity": "pantry", "query": "crumble"})
    check([row["_key"] for row in found["rows"]] == ["1"], f"search crumble {found}")
    none = await call(session, "search", {"entity": "pantry", "query": "zzzunknownzzz"})
    check(none["rows"] == [], f"search nothing {none}")
    await call(session, "search", {"entity": "fruit", "query": "apple"}, error=True)

    # get_record: one record by feed and key, as export has it.
    record = await call(session, "get_record", {"entity": "pantry", "feed": "mcp-pantry", "key": "3"})
    exported = next(row for row in exported_rows("pantry") if row["id"] == 3)
    check(record["versions"][-1]["name"] == exported["name"] == "plum jam", f"record {record}")
    await call(session, "get_record", {"entity": "pantry", "feed": "mcp-pantry", "key": "2"}, error=True)

    # feed_runs and feed_rejects.
    runs = (await call(session, "feed_runs", {"feed": "mcp-pantry"}))["runs"]
    check(len(runs) == 1 and runs[0]["rejected"] == 1 and runs[0]["inserted"] == 2, f"runs {runs}")
    rejects = (await call(session, "feed_rejects", {"feed": "mcp-pantry"}))["rejects"]
    check(len(rejects) == 1, f"rejects {rejects}")
    check(rejects[0]["path"] == "$.items[1].price", f"reject path {rejects[0]}")
    check(rejects[0]["url"] == "Tests/MCP/items.json" and rejects[0]["page"] == 1, f"reject url {rejects[0]}")
    check("two pounds" in rejects[0]["reason"], f"reject reason {rejects[0]}")
    await call(session, "feed_runs", {"feed": "no-such-feed"}, error=True)

    # validate_config: the served config is valid; a broken one has its problem's line.
    with open(CONFIG) as file:
        served = file.read()
    valid = await call(session, "validate_config", {"yaml": served})
    check(valid["valid"] is True and valid["feeds"] == len(feeds), f"validate served {valid}")
    broken = "feeds:\n  - name: x\n    adapter: json\n    url: Tests/MCP/items.json\n    recrods: $.items\n"
    invalid = await call(session, "validate_config", {"yaml": broken})
    check(invalid["valid"] is False, f"validate broken {invalid}")
    check(any(p["line"] == 5 for p in invalid["problems"]), f"validate broken line {invalid['problems']}")
    # A problem quoting the served config's credential (as a type name) quotes `***` instead.
    quoting = broken.replace("recrods", "records") + f"    entity: thing\n    key: id\n    fields:\n      id: {SECRET}\n"
    quoted = await call(session, "validate_config", {"yaml": quoting})
    check(quoted["valid"] is False and [p["line"] for p in quoted["problems"]] == [9], f"quoting {quoted}")
    check("***" in quoted["problems"][0]["message"], f"quoting {quoted}")

    # The schema resource, and the docs pages on writing feeds.
    resources = (await session.list_resources()).resources
    uris = [str(r.uri) for r in resources]
    check(uris[0] == "feedwork://schema" and "feedwork://docs/json/pagination.md" in uris, f"resources {resources}")
    schema = (await session.read_resource("feedwork://schema")).contents[0].text
    answers.append(schema)
    check("pantry" in [entity["name"] for entity in json.loads(schema)], "schema resource")
    page = (await session.read_resource("feedwork://docs/json/pagination.md")).contents[0].text
    check(page.startswith("# ") and "cursor" in page, "docs resource")

    # Protocol errors: an unknown tool and a missing argument.
    for name, arguments in [("drop_everything", {}), ("query_sql", {})]:
        try:
            result = await session.call_tool(name, arguments)
            check(False, f"{name}: answered {result}")
        except Exception as error:  # the SDK raises the JSON-RPC error
            answers.append(str(error))


asyncio.run(main())
