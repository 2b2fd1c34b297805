// swift-format-ignore-file
// Written by scripts/embed-docs.py from the pages it names; do not edit.

/// The docs pages on writing feeds, embedded so that `feedwork mcp` serves them as resources
/// (`feedwork://docs/<path>`) wherever its binary runs. `DocsResourceTests` fails while a
/// page here differs from its file: run `python3 scripts/embed-docs.py` after editing one.
enum DocsPages {
    /// Each page: its path in the repository, its title (its first heading) and its text.
    static let pages: [(path: String, title: String, text: String)] = [
        (
            "docs/json/api-shapes.md", "More API shapes for the `json` adapter",
            ####"""
# More API shapes for the `json` adapter

The [json adapter](../../README.md#adding-an-api-with-yaml-alone-the-json-adapter) covers the
common shapes of a JSON API. This page covers the less common ones: a cursor or next link in a
response header, a status that means "no records", a response that says it failed although
its status is 200, date windows whose end the API reads inclusively, values the API does not
send, and members never kept in `_extra`.

Each example is a complete `feeds.yaml`; `feedwork validate` checks it without a request.

- [A cursor or next link in a response header](#a-cursor-or-next-link-in-a-response-header)
- [A status that means "no records": `empty_statuses`](#a-status-that-means-no-records-empty_statuses)
- [A response that says it failed: `error_path` and `error_when`](#a-response-that-says-it-failed-error_path-and-error_when)
- [Windows whose end is inclusive: `window_end`](#windows-whose-end-is-inclusive-window_end)
- [Values the API does not send: `const` and `concat`](#values-the-api-does-not-send-const-and-concat)
- [Leaving members out of `_extra`: `except`](#leaving-members-out-of-_extra-except)

## A cursor or next link in a response header

Some APIs put the next page's cursor, or its URL, in a response header rather than in the
body. `cursor_header` (with `type: cursor`) reads the cursor from that header instead of
`cursor_path`; `next_header` (with `type: next_url`) reads the next page's URL from it instead
of `next_path`. Give one of the two, not both. Header names are matched ignoring case. The walk
stops when the header is missing or empty; a relative URL is resolved against the page that
gave it. (For a `Link` header with `rel="next"`, use `type: link_header`.)

```yaml
feeds:
  - name: orders
    adapter: json
    url: https://api.example.com/orders
    pagination: { type: cursor, cursor_header: X-Next-Cursor, cursor_param: cursor, limit: 100 }
    records: $.orders
    entity: order
    key: id
    fields: { id: int, total: decimal }

  - name: invoices
    adapter: json
    url: https://api.example.com/invoices
    pagination: { type: next_url, next_header: X-Next-Page }
    records: $
    entity: invoice
    key: id
    fields: { id: int, amount: decimal }
```

## A status that means "no records": `empty_statuses`

Some APIs answer a list that has no entries with a 404 (or another failure status) rather
than an empty list. `empty_statuses` lists the statuses of the feed's own requests that mean
"no records here": such a page gives no records, its walk ends there, the pass is `ok`, and
the report says so (`page 1 answered 404, which empty_statuses reads as no records`). A listed
status is not retried. Every other failure status still fails the pass.

In `replace` mode a pass with no records deletes the feed's rows, as any pass that delivers
none would; keep `merge` (the default) when a 404 may be a passing fault of the API.

```yaml
feeds:
  - name: open_tickets
    adapter: json
    url: https://api.example.com/tickets?state=open
    empty_statuses: [404]        # 400 to 599, but 401
    records: $.tickets
    entity: ticket
    key: id
    fields: { id: int, subject: string }
```

`for_each` children have their own rule for a parent's 404, `on_not_found`.

## A response that says it failed: `error_path` and `error_when`

Some APIs answer every request with 200 and say in the body that it failed. `error_path` names
a member whose presence (any value but null) means failure: its value is the message (a text
as it is, anything else as JSON). `error_when` is a condition, `{path, equals}` as in
`entities`' `when`: the member's text (a string, a number as written, `true` or `false`) equal
to `equals` means failure. With both, `error_when` decides and `error_path` gives the message.

Such a response fails the pass, and nothing it would have changed is changed:

```
feed 'reports': https://api.example.com/reports at $.error.message: the response says the request failed: quota exceeded; nothing was changed
```

```yaml
feeds:
  - name: reports
    adapter: json
    url: https://api.example.com/reports
    error_path: $.error.message          # {"error": {"message": "quota exceeded"}}
    records: $.data
    entity: report
    key: id
    fields: { id: int, title: string }

  - name: legacy
    adapter: json
    url: https://api.example.com/legacy
    error_when: { path: status, equals: error }   # {"status": "error", "message": "..."}
    error_path: message
    records: $.items
    entity: legacy_item
    key: id
    fields: { id: int }
```

## Windows whose end is inclusive: `window_end`

With [date windows](../../README.md#backfilling-in-date-windows-window), each window is
`[start, end)`: the next window starts at the previous end. That fits an API that reads the end
exclusively (`from <= t < to`). An API that reads it inclusively (`from <= t <= to`) would
serve a record exactly on a boundary twice. `window_end: inclusive` sends each window's end one
unit of the cursor's format before the next window's start: 1 s for ISO 8601 and `unix`, 1 ms
for `unix_ms`, and a pattern's finest field (1 day for `yyyy-MM-dd`). `exclusive` is the
default.

```yaml
feeds:
  - name: events
    adapter: json
    url: https://api.example.com/events
    entity: event
    key: id
    fields: { id: int, at: timestamp }
    incremental:
      cursor_path: at
      param: from
      end_param: to
      start: "{{today-90d|iso}}"
      window: 7d
      window_end: inclusive   # from=2025-10-01T00:00:00Z&to=2025-10-07T23:59:59Z, then from=2025-10-08T00:00:00Z
```

## Values the API does not send: `const` and `concat`

A field may hold a value the records do not have, as dlt's `map` and Airbyte's `AddFields`
add one. Either is typed like any field (its `type`, and conversions such as `transform`,
`map` or `from_string`):

- `const`: the same value in every record, written as YAML text and read as the field's type
  when the feed is loaded (`const: heavy` on an `int` is an error at its line). It takes no
  `path`, `concat`, `default` or `required`.
- `concat`: the texts of several members (paths relative to the record, as `path` is), joined
  by `separator` (nothing by default). Missing or null members are left out; when all of them
  are, the value is null, and `default` and `required` apply. A list or an object among them
  rejects the record.

```yaml
feeds:
  - name: people
    adapter: json
    url: https://api.example.com/people
    records: $.people
    entity: person
    key: id
    fields:
      id: int
      region: { type: string, const: eu }
      full_name: { type: string, concat: [name.first, name.last], separator: " " }
      born: { type: date, concat: [birth.year, birth.month, birth.day], separator: "-" }
```

## Leaving members out of `_extra`: `except`

`extra: keep` stores the members `fields` does not declare in an `_extra` JSON column. The
mapping form keeps them too and leaves out the members at the paths of `except`: top-level
members (`password`) or members inside an object (`internal.notes`). `columns: true` instead of
`keep: true` does the same for `extra: columns`.

```yaml
feeds:
  - name: accounts
    adapter: json
    url: https://api.example.com/accounts
    records: $.accounts
    entity: account
    key: id
    extra: { keep: true, except: [password, internal.notes] }
    fields: { id: int, email: string }
```
"""####
        ),
        (
            "docs/json/pagination.md", "Pagination in the json adapter: how a walk ends",
            ####"""
# Pagination in the json adapter: how a walk ends

A `json` feed reads its pages one after another (a *walk*) until a page says it was the last.
A walk that stops where more records may follow is not `ok`: the pass **fails** and changes
nothing, unless the feed accepts an incomplete pass (`allow_incomplete: true` in
`pagination`, which turns the failure into a note and keeps the pages fetched). This page
says, for each kind of pagination, what ends a walk, what is checked on the way, and what
fails; then what keeps a `replace` feed from being emptied by accident, and what the adapter
does not do.

Every example is a complete feeds.yaml; `feedwork validate` accepts each (the test suite
checks them where they are written).

## The report says why the walk ended

Each pass of a paged feed (any `type` but `none`) adds a note to its report, which `feedwork
run` prints, `feedwork run --json` lists in the feed's `notes` and `_runs` keeps:

```text
pagination: 3 page(s); ended: no next page (no_next_page)
pagination: 12 walk(s), 40 page(s); ended: no next page (no_next_page) 11, empty page (empty_page) 1
```

The second form is a pass of several walks: one per date window (`incremental:` with
`window`) or one per parent row (`for_each:`). The code in parentheses is stable:

| code | the walk ended because |
|---|---|
| `no_next_page` | the page gave no next cursor or link |
| `has_more_false` | the page's `has_more_path` said no more pages follow (false, missing or null) |
| `total_reached` | the records (`total_path`) or pages (`total_pages_path`) the responses give were all asked for |
| `short_page` | the page held fewer records than `limit` (`stop_on_short_page: true`) |
| `empty_page` | the page held no records (`offset` and `page`) |
| `max_pages` | the walk reached `max_pages` with more pages to fetch (a `merge` or `append` feed; a `replace` feed fails) |
| `older_than_cursor` | a page reached records older than the incremental cursor (`order: desc`) |
| `incomplete` | the walk stopped short of its end, which `allow_incomplete: true` accepts (another note says why) |

A walk that fails says why in the pass's error instead, and the pass changes nothing:

```text
feed 'items': page 2 does not say it is the last: it is empty but gives a next cursor, so more
may follow (has_more_path tells; allow_incomplete ends such a walk there); the pass would be
incomplete, so nothing was changed (allow_incomplete: true in pagination accepts such a pass)
```

## Rules every kind follows

- **`has_more_path` decides.** When the feed gives it, a page whose value there is false (or
  missing, or null) is the last, and a page whose value is true is not, even when it is empty
  or short: the walk goes on, bounded by `max_pages` and the repeat checks below.
- **The same page twice fails.** A next link or cursor the walk already asked for, or a page
  whose records (by their keys) are those of an earlier page (an API that ignores the page
  parameter, or serves its last page for every page number past it).
- **A total is a promise.** A walk that ends with fewer records than `total_path` gives fails
  (`the pages held 30 of the 50 records that total_path gives`).
- **`max_pages`** (default 10000) with more pages left is a note in a `merge` or `append`
  feed and a failure in a `replace` feed, whose incomplete pass would delete rows.

## `none`

One request; the walk is that page. No note is added.

```yaml
feeds:
  - name: countries
    adapter: json
    url: https://api.example.com/countries
    records: $.countries
    entity: country
    key: code
    fields: { code: string, name: string }
```

## `offset`

`offset_param` and `limit_param` are sent on each page, from `start` (0), `limit` records a
page.

- **Ends** at `has_more` false; at an empty page; when the next offset reaches the total
  (`total_path`); at a short page when `stop_on_short_page: true`.
- **Steps** by the records the page held (`advance: records`, the default). An API that sends
  fewer records than `limit` asks for (a cap of its own, say 50 when 100 are asked) loses
  none: the next offset starts after the last record received. `advance: limit` steps by
  `limit`, for an API whose offset counts more than the records it sends (one that leaves
  records out of a page after paging it).
- **Fails** when, with `advance: limit`, a page holds records after a short page: the API
  sent fewer records than `limit` and the offset stepped past the rest (`page 2 holds records
  after page 1, which held 50 of the 100 records limit asks for`); when `has_more` is true on
  an empty page and the offset cannot advance (`advance: records`); and when the walk ends
  short of `total_path`.
- With `parallel: N` and a total on the first page, the pages are listed up front, each the
  size of the first page (an API that capped it is taken to cap every page alike); the total
  check catches one that does not.

```yaml
feeds:
  - name: products
    adapter: json
    url: https://api.example.com/products
    pagination: { type: offset, limit: 100, total_path: $.total, parallel: 4 }
    records: $.items
    entity: product
    key: id
    fields: { id: int, name: string, price: decimal }
```

An API whose offset counts rows before it filters them, so each page's offset steps by
`limit` whatever the page held:

```yaml
feeds:
  - name: audit-events
    adapter: json
    url: https://api.example.com/audit
    pagination: { type: offset, limit: 200, advance: limit, has_more_path: $.more }
    records: $.events
    entity: audit_event
    key: id
    fields: { id: string, action: string, at: timestamp }
```

## `page`

`page_param` (from `start`, 1) is sent on each page, and `limit_param` when `limit` (the page
size) is given.

- **Ends** at `has_more` false; at the last page the totals give (`total_pages_path`, or
  `total_path` with `limit`); at an empty page; at a short page when `stop_on_short_page:
  true` (which needs `limit`).
- **Fails** when an empty (or, with `stop_on_short_page`, short) page comes before the last
  page that `total_pages_path` gives (`page 2 does not say it is the last: it holds 0
  record(s), yet the total pages say page 5 is the last`), and when the walk ends short of
  `total_path`.
- A short page in the middle is not checked: a page-number API decides each page's records
  itself, so a page with fewer records than asked loses none.

```yaml
feeds:
  - name: articles
    adapter: json
    url: https://api.example.com/articles
    pagination: { type: page, page_param: p, limit: 50, limit_param: per_page, total_pages_path: $.meta.pages }
    records: $.data
    entity: article
    key: id
    fields: { id: int, title: string, published: timestamp }
```

## `cursor`

The cursor a page gives at `cursor_path` (a string or a number) is sent as `cursor_param` for
the next page (or placed with `{{cursor}}`, see the README); `limit` is sent as `limit_param`
when given.

- **Ends** at `has_more` false, and at a page that gives no cursor (missing, null or empty).
- **Fails** at an empty page that still gives a cursor, when the feed has no `has_more_path`:
  an API that echoes its position at the end cannot be told from one with more pages to come,
  so only the feed can say. With `has_more_path`, `has_more` true goes on over the empty
  page; `allow_incomplete: true` ends such a walk at the empty page with a note (for an API
  known to end that way). Also fails when `has_more` is true but the page gives no cursor.

```yaml
feeds:
  - name: tickets
    adapter: json
    url: https://api.example.com/tickets
    pagination: { type: cursor, cursor_path: $.meta.next_cursor, cursor_param: after, limit: 100, has_more_path: $.meta.has_more }
    records: $.tickets
    entity: ticket
    key: id
    fields: { id: int, subject: string, status: string }
```

A cursor sent in a POST body (a search API, or a GraphQL connection's `endCursor` with
`hasNextPage`):

```yaml
feeds:
  - name: repositories
    adapter: json
    url: https://api.example.com/graphql
    method: POST
    body:
      query: "query($after: String) { repos(first: 50, after: $after) { pageInfo { endCursor hasNextPage } nodes { id name } } }"
      variables: { after: "{{cursor}}" }
    pagination: { type: cursor, cursor_path: $.data.repos.pageInfo.endCursor, has_more_path: $.data.repos.pageInfo.hasNextPage }
    records: $.data.repos.nodes
    entity: repository
    key: id
    fields: { id: string, name: string }
```

## `next_url`

The next page's URL is read at `next_path` and fetched as given (relative links resolved
against the page that gave them; an API key in the query is still added).

- **Ends** at `has_more` false, and at a page that gives no link (missing, null or empty).
- **Follows** a link from an empty page: the link is the API's own word that a page follows,
  and the repeat checks and `max_pages` bound the walk.
- **Fails** when `has_more` is true but the page gives no link, and at a link the walk
  already followed.

```yaml
feeds:
  - name: orders
    adapter: json
    url: https://api.example.com/v1/orders
    pagination: { type: next_url, next_path: $.links.next, max_pages: 500 }
    records: $.data
    entity: order
    key: id
    fields: { id: int, total: decimal, placed_at: timestamp }
```

## `link_header`

The next page's URL is the `Link` header's `rel="next"` (RFC 8288), as GitHub and many REST
APIs send it. It ends, follows and fails as `next_url` does.

```yaml
feeds:
  - name: issues
    adapter: json
    url: https://api.example.com/repos/acme/widgets/issues
    params: { per_page: "100", state: all }
    pagination: { type: link_header }
    records: $
    entity: issue
    key: id
    fields: { id: int, title: string, state: string }
```

## `null` records and `replace`'s delete limit

An API that fails often still answers 200 with a body such as `{"error": "timeout", "data":
null}`. A `records` path whose value is `null` therefore **fails** the pass, in every write
mode, with an error naming the feed, the URL and the path (`the records are null, as an API's
error answer often has them, so nothing was changed`). `null_records: empty` (a feed key of
the json adapter) reads `null` as no records, for an API that means it so. A page without the
`records` member at all fails either way (`no records here (check 'records')`).

A `replace` pass deletes the rows it did not deliver. So that an API answering with nothing,
or with a fraction of its records, does not empty a feed by accident, two feed keys (any
adapter's, like `max_reject_ratio`) limit what one pass may delete, per `replace` entity:

- `max_delete_ratio` (0 to 1, default 0.5; also in `defaults:`): the rows a pass deletes as
  undelivered may be at most this share of the rows the feed held. Above it the pass fails
  (`feed 'items': the pass would delete 6 of the 10 item rows (60%, replace), above
  max_delete_ratio 0.5; nothing was changed (a higher max_delete_ratio allows it)`).
- `allow_empty: true`: a pass that delivers no record of an entity whose rows it would all
  delete commits; without it, such a pass fails whatever the ratio (`feed 'items': the pass
  delivered no item and would delete all 3 of its rows (replace); nothing was changed
  (allow_empty: true allows a pass that empties the feed)`).

Rows a pass deletes on purpose (`delete_when:`) are not counted, and a feed's first pass (no
rows held) is never limited. A `merge` or `append` pass deletes nothing as undelivered, so an
empty list there is simply no records.

```yaml
feeds:
  - name: open-positions
    adapter: json
    url: https://api.example.com/positions
    pagination: { type: page, limit: 100, has_more_path: $.has_more }
    records: $.positions
    entity: position
    key: id
    write: replace
    max_delete_ratio: 0.9   # a position board may lose most of its rows between passes
    allow_empty: true       # and may have none at all
    null_records: empty     # {"positions": null} means no positions here
    fields: { id: int, title: string }
```

## What the json adapter does not support

| not supported | what to do instead |
|---|---|
| A total or `has_more` read from a response header (`X-Total-Count`) | `total_path` and `has_more_path` read the body; without them, the walk ends at an empty page or at the last link |
| A next cursor taken from the last record of a page (Stripe's `starting_after=<last id>`): paths have no negative index | an API that also gives the cursor in the body: `cursor_path` |
| Paging a child endpoint (`entities:` with a `url`) | one request per parent record; for a paged child list, a feed of its own with `for_each:` |
| A `Link` relation other than `rel="next"` (walking `prev` backwards) | — |
| Pages fetched at once without a total on the first page (`parallel` with `cursor`, `next_url`, `link_header`) | `parallel` needs `total_path` (or `total_pages_path` with `page`) |
| Resuming a walk where a failed pass stopped | the next pass starts from the first page; long histories split into committed date windows (`incremental:` with `window`) |
| `Content-Range` / `Range` header pagination | — |
| Requests other than GET and POST | — |
"""####
        ),
        (
            "docs/hostile-input.md", "What Feedwork refuses from an API or a config",
            ####"""
# What Feedwork refuses from an API or a config

An API or a config file can be written to make a pass or the worker do more than it should. Each case below is refused with a clear error
(or the record kept in the rejects table with its reason); the store is left as it was.

## A value that would change a URL's path

A template value placed in the path of a URL (`{{parent.FIELD}}` of `for_each:` and of child
endpoints, `{{cursor}}`, `{{page_cursor}}`, `{{page}}`, `{{window.start}}`, ...) is
percent-encoded, so a `/` in it stays inside its segment. A value that would make a whole
segment `.` or `..` is not sent at all: `/orders/{{parent.id}}/lines` with the id `..` would
otherwise ask for `/lines`, another endpoint, with the feed's credentials. A parent's value
that makes a segment empty (`/orders//lines`) is refused too.

- For a parent (`for_each:`, or an entity of `entities:` with a `url`), the parent is not
  requested and is a reject of the child entity, counted against `max_reject_ratio`:
  `order .. was not requested: {{parent.id}} is '..', which would change the path of
  https://api.example.com/orders/{{parent.id}}/lines: a value in a URL path must not make a
  segment '.', '..' or empty`.
- For any other value (a cursor or a page value the API gave), the pass fails with the same
  message.

A dot inside a segment (`{{parent.id}}.json`, `v1..2`) and values in the query are sent as
they are.

## A document nested too deeply

Every parser that reads nested input bounds its depth, so a response or a config nested a
million levels deep is a clear error, not a crash of the process that walks (or frees) the tree
it would build:

| input | bound | error |
|---|---|---|
| a JSON response (the json adapter, `FeedPass.parseJSON`) | 512 levels of arrays and objects | `invalid JSON at line 1, column N: nested more than 512 levels deep` |
| an XML response (`format: xml`, `FeedPass.parseXML`) | 512 levels of elements (the root is level 1) | `XML at line 1, column 1558: elements nested more than 512 levels deep` |
| a YAML file (feeds.yaml, a catalog, a fixture suite's `feed.yaml`) | 512 levels of flow collections (`[`, `{`), indentation and `- ` entries, counted on the text before it is parsed | `feeds.yaml:5:13: error: the YAML is nested more than 512 levels deep` |
| a CSV response (`format: csv`) | nothing nests: quotes and rows are read in one loop | |

A response nested too deeply fails the pass with the feed, its URL and the place (like any
malformed page): the store keeps the rows it held and the run is recorded as `failed`. A config
nested too deeply makes every command exit with status 2 before it opens the store. The YAML
count errs on the side of more levels (a line's indentation and its `- ` both count); quoted
scalars, comments, block scalars (`|`, `>`) and a bracket inside a plain scalar
(`$.items[0]`) are not levels.

## A CSV response with very many columns

A CSV response is read in time linear in its size, however wide: a header of 300,000 columns
(2.4 MB) is read in well under a second. (Its names are checked for repeats in a set; checking
each against every earlier one took about a minute.)
"""####
        ),
    ]
}
