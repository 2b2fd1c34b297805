// swift-format-ignore-file
// Written by scripts/embed-docs.py from the pages it names; do not edit.

/// The docs pages on writing feeds, embedded so that `feedwork mcp` serves them as resources
/// (`feedwork://docs/<path>`) wherever its binary runs. `DocsResourceTests` fails while a
/// page here differs from its file: run `python3 scripts/embed-docs.py` after editing one.
enum DocsPages {
    /// Each page: its path in the repository, its title (its first heading) and its text.
    static let pages: [(path: String, title: String, text: String)] = [
        (
            "docs/tutorial.md", "Your first API with YAML alone: the `json` adapter",
            ####"""
# Your first API with YAML alone: the `json` adapter

Most feeds need no Swift code. The `json` adapter reads any JSON API described in
`feeds.yaml`, with the same guarantees as the built-in adapters: strict validation with
`line:column`, one transaction per pass, rejects instead of crashes, secrets redacted
everywhere, conditional requests and the response cache.

To start from a real response, `feedwork init --from sample.json` (or `--from URL`) writes
a first draft of such a feed: the largest list of objects becomes `records`, a field unique in
every record (`id` first) the `key`, and each member a field typed by its values (decimal text
such as `"2.49"` as `decimal`, ISO 8601 text as `timestamp`, lists of strings as child
tables), with a comment on each guess. Read it, adjust it, then run it.

This walkthrough adds a made-up shop API, step by step. The finished feed is the
`shop-products` feed of the default `feeds.yaml`, which reads the two fixture pages in
`Adapters/JSON/Fixtures/` so you can run it offline.

## 1. Look at one response

```json
{
  "data": { "items": [
    { "id": 101, "name": "  Gala Apples ", "price": { "amount": "2.49", "currency": "GBP" },
      "weight_g": 1000, "updated_at": "2024-03-01T09:15:00+0000",
      "tags": ["fruit", "apples"], "variants": [{ "sku": "APL-500G", "price": "1.39" }] }
  ] },
  "links": { "next": "https://api.example.com/v1/products?page=2" }
}
```

Note three things: where the list of records is (`$.data.items`), which field identifies a
record (`id`), and how the next page is found (`links.next`).

## 2. Describe the request

```yaml
feeds:
  - name: shop-products
    adapter: json
    url: https://api.example.com/v1/products     # or a fixture file: Adapters/JSON/Fixtures/products-page-1.json
    method: GET                                   # or POST, with a `body:` written in YAML
    params: { since: "{{today-7d|yyyy-MM-dd}}" }  # query parameters; date templates allowed
    headers: { Accept: application/json }
    auth: { type: bearer, token: "${SHOP_TOKEN}" }
```

`auth` is one of:

| auth | sends |
|---|---|
| `{ type: bearer, token: "${TOKEN}" }` | `Authorization: Bearer ...` |
| `{ type: api_key, header: X-Api-Key, value: "${KEY}" }` | the key in a header |
| `{ type: api_key, query: access_key, value: "${KEY}" }` | the key in the query of every page |
| `{ type: basic, username: me, password: "${PASSWORD}" }` | `Authorization: Basic base64(me:password)` |
| `{ type: oauth2_client_credentials, token_url, client_id, client_secret: "${SECRET}" }` | `Authorization: Bearer ...` with a token from the token endpoint (see [OAuth2](json/oauth2.md)) |
| `{ type: oauth2_refresh_token, token_url, refresh_token: "${REFRESH}", ... }` | the same, the token obtained with a refresh token the endpoint may rotate |

Put secrets in `${VAR}` (read from the environment). Credentials never appear in reports,
`_runs`, `_rejects`, `_http_cache.url` or error messages: they show as `***`, even when
written literally in the file.

A `POST` body is written in YAML and sent as JSON; `body_format:` says otherwise:

| body_format | body | sent as |
|---|---|---|
| `json` (default) | any YAML value | JSON, `Content-Type: application/json` |
| `form` | a mapping of scalars | `query=fish%20%26%20chips&size=25`, `Content-Type: application/x-www-form-urlencoded` (null values left out) |
| `raw` | a string | the text as written, `Content-Type: text/plain; charset=utf-8` |

A `Content-Type` in `headers` wins. Strings of every kind of body may hold date templates and
`{{cursor}}`. A string body that looks like JSON (`body: '{"query":"w"}'`) without
`body_format` is an error: as `json` it would be sent as a JSON string literal
(`"{\"query\"..."`); write it as YAML (`body: { query: w }`) or add `body_format: raw`.

When the API answers with an error status, the pass fails with the status, the URL (secrets
as `***`) and the first 300 bytes of the response body, which usually say what was wrong
(`https://api.example.com/search?key=***: HTTP 400; the response began: {"error":"unknown
field 'qury'"}`); the same text is the run's `error` in `_runs` and `feedwork runs`. With `-v`,
each request's body is logged (secrets as `***`) before it is sent, and each error status with
the start of its body.

## 3. Say how pages follow each other

```yaml
    pagination: { type: next_url, next_path: $.links.next, max_pages: 100 }
```

The kinds of pagination (`offset`, `page`, `cursor`, `next_url`, `link_header`), their keys,
where the page values go (the query, a header, a POST body) and what ends a walk:
[Pagination](json/pagination.md).

## 4. Point at the records and name the entity

```yaml
    records: $.data.items     # $ for a top-level list; a single object is one record
    entity: product           # the table
    key: id                   # or [shop, sku] for a composite key
    write: merge              # merge (default) | replace | append
    extra: keep               # ignore (default) | keep: undeclared members in an _extra JSON column
                              # | columns: undeclared members as columns typed from their values
```

`extra: columns` is for exploring an API: each top-level member of the records that no field
reads becomes a column of its own, typed from its values as `int`, `decimal`, `bool`, `date`,
`timestamp` (ISO 8601 with a time), `string` or `json` (objects and lists). Values that
disagree widen the type, never losing a digit: an integer and a decimal make `decimal`, two
other scalars `string` (a number kept as written: `7` and `"B7"` are `"7"` and `"B7"`), and
anything with an object or a list `json`. Declared fields always win: a member a field reads,
or one named like a field, gets no column of its own, and neither does one whose name is not
a column name (letters, digits and single underscores; the report says which). The columns
follow the declared fields, in the order their members first appeared; the found types are
recorded in `_entities`, where `export`, `feedwork serve` and the SQL view read them. The
entity is declared during the pass, like a Singer stream's: `feedwork schema` lists it with the
declared fields before the first pass, and with the store's columns after it, those found in
the records marked `(found)` (`"found": true` with `--json`). The found columns are kept in
`_state`, read by `--full-refresh` passes too, so a later
pass keeps a column whose member its records lack (NULL in their rows) and adds the members
it finds for the first time as new columns (`extra: columns: new column(s) rating (decimal)`
in the report), under the feed's schema contract (`schema: { new_columns: freeze }` fails such
a pass, `discard` leaves them out). The types are known once every record has been seen, so a
pass holds the entity's records until its last page before writing them; a stored column
whose type would widen (an `int` column meeting `2.5`) is a type change of the store's
table, which `type_changes` rules. Declare the fields you keep as the API settles.

Paths are written `$.a.b`, `$.rows[0].id` or `$['odd.name']`. Record field paths are
relative to the record (`price.amount` and `$.price.amount` mean the same).

Write modes: `merge` inserts new keys and updates changed ones; `replace` also deletes the
rows (and their child rows) that a complete pass did not deliver, which `export
--changed-since RUN --include-deleted` then reports; `append` keeps every new version of a
record as a new row.

## 5. Declare the fields

```yaml
    fields:
      id: int                                                     # short form: name: type
      name: { type: string, transform: [trim] }
      price: { path: price.amount, type: money, currency: GBP }   # 2.49 -> 249 (minor units)
      price_exact: { path: price.amount, type: decimal }          # "2.49", exact, as text
      weight_kg: { path: weight_g, type: decimal, divide: 1000 }  # 1250 -> "1.250"
      in_stock: { type: bool, default: false }
      updated_at: { type: timestamp, format: iso8601 }            # stored as 2024-03-01T09:15:00Z
      published_on: date                                          # stored as 2024-02-29, no time zone
      supplier_id: { path: supplier.id, type: int }               # nested objects via dotted paths
      dimensions: json                                            # any value, kept as JSON text
      tags: { type: list, of: string }                            # child table product__tags
      variants:                                                   # child table product__variants
        type: list
        fields: { sku: string, price: decimal }
```

The key of each field is the column name; `path` says where the value is (the column name by
default), so renaming is just choosing a key. Columns appear in the declared order.

| type | accepts | stored as | options |
|---|---|---|---|
| `int` | whole numbers; numeric strings with `from_string: true` | INTEGER | `multiply`, `divide` (exact; the result must be whole), `from_string` |
| `decimal` | numbers, numeric strings | exact decimal text with its written decimals (`"19.90"`) | `multiply`, `divide` |
| `double` | numbers; numeric strings with `from_string: true` | REAL | `multiply`, `divide`, `from_string` |
| `string` | strings, numbers (as written) | TEXT | `transform`: `trim`, `lowercase`, `uppercase` (in order) |
| `bool` | `true`, `false`, and the values listed in `true:` and `false:` | 0 / 1 | `true`, `false` (lists: `true: [Y, yes]`) |
| `timestamp` | per `format` | ISO 8601 UTC text, to the microsecond | `format`: `iso8601` (default; `2024-02-29 10:00:00` with a space and no zone is read as UTC), `unix`, `unix_ms`, or a pattern such as `yyyy-MM-dd HH:mm:ss` (read as UTC) |
| `date` | a calendar date, per `format` | `YYYY-MM-DD` text on SQLite, `date` on PostgreSQL; exported as `"2024-02-29"` from both | `format`: `iso8601` (default: `YYYY-MM-DD` exactly; a date-time is rejected, since it would need a time zone to be a date) or a pattern of `yyyy`, `MM` and `dd` such as `dd/MM/yyyy`. A day the calendar lacks (`2023-02-29`, `2024-04-31`) is rejected with its value (`expected a date (YYYY-MM-DD), found '2023-02-29', which is not a day of the calendar`) |
| `money` | numbers, numeric strings | integer minor units of `currency`; the currency is kept in the schema (`_entities`, `schema`, the export manifest's `currency`) and the SQL view adds `<field>_amount` and `<field>_currency` | `currency` (ISO 4217, required: JPY has 0 decimals, EUR 2, KWD 3) |
| `json` | anything | JSON text | |
| `list` | a list | a child table, or JSON with `as: json` | `of` (item type, default `string`; `media` for image URLs to mirror) or `fields` (for objects) |
| `media` | strings: image URLs | TEXT (the URL), the image mirrored into the store | as `string`; `media: true` on a `string` field is the same (see [Mirrored images](media.md#mirrored-images-media-columns)) |

Every scalar type also takes `default` (used when the value is missing or null) and
`required: true` (a missing value rejects the record). Key fields are always required.

`role:` tells `feedwork serve` what a column means to a person: `image` (a picture's URL),
`link` (the record's page) and `title` on a `string`, `money` on a `money` or `int` field
(minor units, in the field's currency or the row's `currency` column). An entity with an
`image` and a `title` is shown as cards. The built-in adapters mark theirs (the classified ads'
thumbnail, title and price; the flight offers' picture, city, price and booking link).

APIs write values their own way; four options convert them before they are stored:

```yaml
      active: { type: bool, true: [Y, yes], false: [N, no] }     # "Y" -> 1, "N" -> 0
      status: { type: string, map: { A: active, I: inactive } }  # codes -> names
      level: { type: int, map: { low: 1, mid: 2, high: 3 } }      # any scalar type
      price: { type: decimal, null_values: ["", "N/A", "-"] }     # these texts mean null
      id: { type: int, from_string: true }                        # JSON:API's "17" -> 17
```

- `true:` and `false:` (`bool`) list the texts (or numbers) read as true and as false, besides
  JSON's own `true` and `false`; a text in neither list is rejected with both lists in its
  reason (`expected true or false (or true: Y, yes; false: N, no), found a string 'maybe'`).
- `map:` (every scalar type but `json`) replaces each listed value (a string's text, a number
  as written, `true` or `false`) by the value given, written as the field's type (checked when
  the feed is loaded); a value the map does not list rejects the record (`a string 'X' is not
  listed in map (A, I)`). `default` is not mapped.
- `null_values:` (every scalar type) lists texts that stand for null: the field is then
  missing, so `default` and `required` apply as for a JSON `null`.
- `from_string: true` (`int`, `double`) reads numeric strings as numbers, so string ids
  become integer keys that sort 1, 2, ... 10 rather than 1, 10, 11; a string that is not a
  number is rejected (`expected a whole number (from_string), found a string '13x'`).
  `decimal` and `money` always read numeric strings.

Values the API does not send, a constant (`const`) or members joined (`concat`), and members left out of `_extra` (`extra: {keep: true, except: [password]}`): see [More API shapes](json/api-shapes.md#values-the-api-does-not-send-const-and-concat).

Timestamps are stored as `2024-03-01T09:15:00Z`; a fraction of a second is kept as written to
the microsecond, with at least three digits (`.5` as `.500`, `.123456789` as `.123456`: digits
past the sixth are cut, never rounded into the next second; `unix` and `unix_ms` numbers are
rounded to the microsecond).

A list becomes a child table `<entity>__<field>` with `_feed`, `_key` (the parent's key),
`_position` and either a `value` column (`of:`) or the declared `fields`. Child rows are
replaced when their parent changes and deleted with it.

A value of the wrong type is not a crash: the record goes to `_rejects` with its JSON path and
the reason (`$.data.items[3].price.amount: expected a decimal number, found a string 'abc'`),
and the other records land, as long as no more than the feed's `max_reject_ratio` (half, by
default) of them is rejected; a pass that rejects more fails and changes nothing, since a field
declared with the wrong type usually rejects every record.

## 6. Check and run

```sh
swift run feedwork validate        # every problem with file:line:column
swift run feedwork run             # fetch, map, commit
swift run feedwork run             # again: unchanged records are counted as unchanged
```

`validate` checks json feeds as strictly as the rest: unknown keys (`unknown key 'devide';
did you mean 'divide'?`), keys that do not belong to the chosen `type` (a `currency` on a
`string`, a `total_pages_path` on `cursor` pagination), bad paths, unknown types and
formats, and a `key` that names no declared field. It reports every problem of every feed in
one run: a value that cannot be read is left out and the rest of the feed is still checked
(only a required key such as `entity` that cannot be read stops the checks of its feed). Entity and field names are compared
ignoring case, as SQLite compares table and column names: `Thing` beside `thing`, or `Price`
beside `price`, is an error at the second one, and a run refuses a name that differs only in
case from the one the store already holds (the feed fails; nothing changes).

## 7. Look at it

```sh
swift run feedwork export product --limit 2 --format csv   # the first rows, as CSV
swift run feedwork serve           # every entity as web pages: open http://127.0.0.1:8080/ (Ctrl-C stops)
```

[`feedwork serve`](serve.md) shows the products as a typed table to filter, sort and page
through (their tags and variants are child tables), and answers read-only SQL and a JSON API; [`feedwork export`](export.md) streams them as NDJSON,
JSON, CSV or Singer messages. To keep the feed fresh, give it a schedule and start
[`feedwork worker`](worker.md); to give it a regression test, [record it](testing.md).

## Repeated passes and the cache

Responses are cached with their `ETag`/`Last-Modified`, and the next pass asks the server
whether they changed. In `merge` and `append` mode, a page the server answers with
304 Not Modified (or that is still fresh within `max_age`) is not mapped again: its records
are counted as unchanged (the report's `unchanged` column and a note say how many), and their
rows, `_last_seen` included, are left as they are. Such a page is not even read from the
cache: the pass that stored it kept its record count and what it says about the next pages
(in `_state`, tied to the page's `ETag`/`Last-Modified`; a secret from `${VAR}` in a next link
is kept as `${VAR}`, and a link holding a literal secret is never kept, so that page is read
again each pass). This only happens while the field and pagination
declarations are the ones that wrote those rows: change one and the next pass maps every page
again (so does the first pass after upgrading from a Feedwork of before December 2026, which
kept a digest of those declarations in another form; its rows come out unchanged). A `replace`
feed always maps every page, because the rows a pass does not deliver are deleted.

## Performance notes

Each page is parsed once; paths and conversions are compiled when the config is loaded; a
page's records are written as one batch while the next page is fetched. For large APIs with a
known total, `parallel: 4` overlaps the requests and the mapping of several pages.
"""####
        ),
        (
            "docs/json/pagination.md", "Pagination in the json adapter: the kinds, their keys, and how a walk ends",
            ####"""
# Pagination in the json adapter: the kinds, their keys, and how a walk ends

A `json` feed reads its pages one after another (a *walk*) until a page says it was the last.
A walk that stops where more records may follow is not `ok`: the pass **fails** and changes
nothing, unless the feed accepts an incomplete pass (`allow_incomplete: true` in
`pagination`, which turns the failure into a note and keeps the pages fetched). This page
says which kinds there are and where their values go; then, for each kind, what ends a walk, what is checked on the way, and what
fails; then what keeps a `replace` feed from being emptied by accident, and what the adapter
does not do.

On this page: [the kinds, their keys and the page values](#the-kinds-their-keys-and-the-page-values)
(in the query, a header or a POST body), [what the report says](#the-report-says-why-the-walk-ended),
[the rules every kind follows](#rules-every-kind-follows), then each kind: [`none`](#none),
[`offset`](#offset), [`page`](#page), [`cursor`](#cursor) (a cursor in the query or in a POST
body, GraphQL's `endCursor`), [`next_url`](#next_url), [`link_header`](#link_header); then
[`null` records and `replace`'s delete limit](#null-records-and-replaces-delete-limit) and
[what the adapter does not support](#what-the-json-adapter-does-not-support).

Every example is a complete feeds.yaml; `feedwork validate` accepts each (the test suite
checks them where they are written).

## The kinds, their keys and the page values

| type | keys | stops when |
|---|---|---|
| `none` (default) | | after one request |
| `offset` | `limit` (required), `limit_param` (`limit`), `offset_param` (`offset`), `start` (0), `total_path`, `stop_on_short_page`, `advance` (`records` or `limit`) | a page is empty, the next offset reaches the total, or (when asked) a page is short |
| `page` | `page_param` (`page`), `start` (1), `limit` + `limit_param` (page size, optional), `total_pages_path`, `total_path` (needs `limit`), `stop_on_short_page` | a page is empty, or the last page by the totals |
| `cursor` | `cursor_path` (required), `cursor_param` (`cursor`), `limit` + `limit_param` (page size, optional) | the cursor is missing, null or empty (an empty page that still gives one fails without `has_more_path`) |
| `next_url` | `next_path` (required) | the link is missing, null or empty |
| `link_header` | | the `Link` header has no `rel="next"` (RFC 8288) |

Every kind takes `max_pages` (default 10000). Reaching it with more pages left is a note in a
`merge` or `append` feed, and an error in a `replace` feed (an incomplete pass would delete
rows; nothing is changed). Every kind but `none` also takes `has_more_path`, the path of a
boolean (`true`/`false`, or those texts) that is false on the last page: the walk stops there,
and when it is missing or null; true goes on, even over an empty page. An `offset` walk steps
by the records each page held, so an API that sends fewer than `limit` loses none
(`advance: limit` steps by `limit`). Relative links are resolved against the page that gave them
(for fixture files, against the file's folder).

Incomplete data is not `ok`: the pass **fails**, and changes nothing, when

- a page would repeat an earlier one: the same next link or cursor, or the same records (by
  their keys) as an earlier page, as when an API ignores the page parameter or serves its last
  page for every page number past it (`page 5 repeats page 4 (the same 10 record(s)): the API
  ignores the page's parameters or repeats its last page; the pass would be incomplete, so
  nothing was changed`);
- the walk ends with fewer records than `total_path` gives (`the pages held 30 of the 50
  records that total_path gives`);
- a page does not say it is the last, yet the walk cannot go on: an empty `cursor` page that
  still gives a cursor (without `has_more_path`), `has_more` true without a next cursor or
  link, an empty page before the last of `total_pages_path`, a page with records after a
  short one with `advance: limit`.

`allow_incomplete: true` in `pagination` turns each into a note (the pages fetched are kept;
the repeated page is not written again). The report notes why every walk ended
(`pagination: 3 page(s); ended: no next page (no_next_page)`). Each kind's ends, checks and
failures, with a complete example each: below.

**Page values anywhere.** The pagination's values can go wherever the API wants them: in the
`url`, a `params` or `headers` value, or a string of the `body` (JSON and form bodies):

| value | is | given by |
|---|---|---|
| `{{page}}` | the page number (`page`), or the page's place in the walk (1, 2, ...) | every type |
| `{{offset}}` | the offset (`offset`), or `(page - start) * limit` (`page` with `limit`) | `offset`, `page` with `limit` |
| `{{limit}}` | the page size | `offset`, and `page` or `cursor` with `limit` |
| `{{cursor}}` | the page's cursor (none on the first page) | `cursor`, when the feed has no `incremental:` block (with one, `{{cursor}}` is its cursor; the page cursor is then `{{page_cursor}}`) |

When a feed places any of them itself, Feedwork adds none of the pagination's own query
parameters (`offset_param`, `page_param`, `cursor_param`, `limit_param`): put each value where
it belongs. A body string that is one value alone takes its type: `"{{page}}"`, `"{{offset}}"`
and `"{{limit}}"` are numbers, and a cursor with no value (the first page) is `null`; such a
`params` or `headers` value, or a form field, is left out. A value the pagination does not give
is an error at its line (`{{offset}} has no value with cursor pagination`). A POST search API
that takes its cursor in the body:

```yaml
feeds:
  - name: search-hits
    adapter: json
    url: https://api.example.com/search
    method: POST
    body: { query: w, cursor: "{{cursor}}", size: "{{limit}}" }   # {"query":"w","cursor":null,"size":25}, then "cursor":"c-25"...
    pagination: { type: cursor, cursor_path: $.next_cursor, limit: 25 }
    records: $.hits.items
    entity: hit
    key: id
    fields: { id: int, title: string }
```

When the first page tells the total (`offset` with `total_path`, `page` with
`total_pages_path` or `total_path`), `parallel: N` (up to 16) fetches N pages at once. Pages
are still committed in page order, so when a record appears on two pages the later page wins,
exactly as in a sequential pass.

Query parameters are added to the feed's URL on every page; next links (`next_url`,
`link_header`) are followed as given, since they carry their own query (an API key in the
query is still added).

A cursor or next link in a plain response header (`cursor_header`, `next_header`), a status that means "no records" (`empty_statuses`) and a 200 whose body says it failed (`error_path`, `error_when`): see [More API shapes](api-shapes.md).

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
the next page (or placed with `{{cursor}}`, see [the page values](#the-kinds-their-keys-and-the-page-values)); `limit` is sent as `limit_param`
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

## A complete feed

A `page` walk over two fixture files, the page number placed in the url with `{{page}}`: it
reads [products-page-1.json](fixtures/pagination/products-page-1.json) and page 2, and stops at
`total_pages` (`pagination: 2 page(s); ended: total reached`). It reads files instead of an
API, so it runs offline: save it as `feeds.yaml` in docs/json (its urls are paths relative to
that folder) and run `feedwork run` there.

```yaml
feeds:
  - name: products
    adapter: json
    url: fixtures/pagination/products-page-{{page}}.json
    pagination: { type: page, total_pages_path: $.total_pages }
    records: $.items
    entity: product
    key: id
    fields: { id: int, name: string, price: decimal }
```
"""####
        ),
        (
            "docs/json/api-shapes.md", "More API shapes for the `json` adapter",
            ####"""
# More API shapes for the `json` adapter

The [json adapter](../tutorial.md) covers the
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

With [date windows](date-windows.md#backfilling-in-date-windows-window), each window is
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

## A complete feed

`const` and `concat` on the people of [people.json](fixtures/api-shapes/people.json): a person
without a last name gets the first name alone, one without `birth` a null `born`. It reads a
file instead of an API, so it runs offline: save it as `feeds.yaml` in docs/json (its urls are
paths relative to that folder) and run `feedwork run` there.

```yaml
feeds:
  - name: people
    adapter: json
    url: fixtures/api-shapes/people.json
    records: $.people
    entity: person
    key: id
    fields:
      id: int
      region: { type: string, const: eu }
      full_name: { type: string, concat: [name.first, name.last], separator: " " }
      born: { type: date, concat: [birth.year, birth.month, birth.day], separator: "-" }
```
"""####
        ),
        (
            "docs/json/oauth2.md", "OAuth2: `oauth2_client_credentials` and `oauth2_refresh_token`",
            ####"""
# OAuth2: `oauth2_client_credentials` and `oauth2_refresh_token`

Keys of a [`json` feed](../tutorial.md); each example is a feed, or the lines that add the keys to one.

APIs that hand out short-lived access tokens take an `auth:` block that names their token
endpoint; Feedwork asks it for a token when a request first needs one and sends
`Authorization: Bearer <token>`:

```yaml
  - name: crm-contacts
    adapter: json
    url: https://api.crm.example/v2/contacts
    auth:
      type: oauth2_client_credentials        # or oauth2_refresh_token
      token_url: https://auth.crm.example/oauth/token
      client_id: feedwork
      client_secret: "${CRM_CLIENT_SECRET}"
      scope: contacts:read                   # optional
      audience: https://api.crm.example      # optional
      # client_auth: basic                   # id and secret as HTTP Basic (default body: in the form)
      # params: { resource: crm }            # further form parameters of the token request
    records: $.contacts
    entity: contact
    key: id
    fields: { id: int, email: string }
```

| key | |
|---|---|
| `type` | `oauth2_client_credentials` (`grant_type=client_credentials`, with `client_id` and `client_secret`, both required) or `oauth2_refresh_token` (`grant_type=refresh_token`, `refresh_token` required, `client_id` and `client_secret` sent when given) |
| `token_url` | the token endpoint, `http://` or `https://` |
| `client_id`, `client_secret` | the client's credentials |
| `refresh_token` | the refresh token that starts an `oauth2_refresh_token` chain |
| `scope`, `audience` | sent with each token request when given |
| `client_auth` | `body` (the default: `client_id` and `client_secret` in the form) or `basic` (`Authorization: Basic`) |
| `params` | further form parameters of the token request |

- **When a token is fetched**: once, when a request first needs it, then it is kept until
  shortly before it expires (`expires_in` less a tenth of its lifetime, at most a minute; a
  token without `expires_in` is kept until refused). It is kept in memory, so a worker's
  passes and the feeds of one run share it (one token request at a time per set of
  credentials), and in the feed's `_state`, so the next `feedwork run` or a restarted worker
  uses it instead of asking again.
- **A 401** from the API renews the token once and sends the request again; a second 401 fails
  the pass like any error status (`HTTP 401`, with the start of the body).
- **`--offline`** runs ask for no token: every response comes from the cache.
- **Rotating refresh tokens**: an endpoint that answers a refresh with a new `refresh_token`
  (and refuses the old one from then on) is followed: the new token is committed to `_state`
  in a write of its own as soon as it arrives, before any request is sent with it, and sent
  next time; the configured `refresh_token` only starts the chain. So a run killed mid-pass
  (even with SIGKILL or a power cut) keeps it, and the rest of the pass rolls back as usual.
  On SQLite a token renewed after the pass began writing (a long pass, a 401) cannot be
  committed before the pass ends, since the store has one writer: it goes with the pass, or
  with the failed run's record if the pass fails or is interrupted. On SQLite, the write of a
  token may wait for another feed's pass to commit. `--full-refresh` ignores cursors and
  bookmarks, never the kept token. Change the
  configured `refresh_token` (or any other value of the block) and the kept one is dropped:
  the chain starts again from the new value. `feedwork record`
  runs on a store of its own, so record a feed with a rotating refresh token with a
  refresh token of its own (or with `oauth2_client_credentials`). Give a rotating refresh
  token to one feed: each feed keeps its own chain in `_state`.
- **Secrets**: `client_secret` and `refresh_token` are secrets like any `${VAR}` value, and so is
  every token the endpoint hands out, from the moment it arrives: they are `***` in logs (`-v`
  included), errors, reports, `_runs`, `_rejects`, records an API echoes them into, the
  `_http_cache` and fixtures that `feedwork record` writes (its recorded token answers hold
  `***`, which `feedwork test` then sends as its token). Token requests are never cached.
  What `_state` keeps is sealed: encrypted and authenticated with a key derived from the
  block's values (client secret and configured refresh token included), which are never
  stored, so the store file, its WAL and any backup hold no token (`feedwork list` shows no
  token either).
- **A token endpoint that answers without `access_token`** fails the pass naming the members
  it did send (never their values): `the token endpoint https://auth.crm.example/oauth/token
  answered without an access_token (members: error, error_description)`; one that answers
  with an error status fails it with the status and the start of its body.

## A complete feed

A feed whose refresh token starts a chain of access tokens, paged and incremental like any
other. It needs the API and its token endpoint (a file cannot answer a token request), so this
one is checked with `feedwork validate` only: point `url` and `token_url` at your API, set
`CRM_REFRESH_TOKEN` and run it.

```yaml
feeds:
  - name: crm-contacts
    adapter: json
    url: https://api.crm.example/v2/contacts
    auth:
      type: oauth2_refresh_token
      token_url: https://auth.crm.example/oauth/token
      client_id: feedwork
      refresh_token: "${CRM_REFRESH_TOKEN}"
    pagination: { type: next_url, next_path: $.links.next }
    records: $.contacts
    entity: contact
    key: id
    fields: { id: int, email: string, updated_at: timestamp }
    incremental: { cursor_path: updated_at, param: updated_since }
```
"""####
        ),
        (
            "docs/json/for-each.md", "One request per parent: `for_each`",
            ####"""
# One request per parent: `for_each`

Keys of a [`json` feed](../tutorial.md); each example is a feed, or the lines that add the keys to one.

Many APIs list parents at one URL and their children at another: `/orders`, then
`/orders/{id}/lines` for each order. A feed with `for_each:` makes its requests once for each
row of a parent entity (the rows another feed stored, as the store holds them when the pass
starts), with the parent's fields as `{{parent.FIELD}}` in `url`, `params`, `headers` or
`body`:

```yaml
  - name: orders
    adapter: json
    url: https://api.example.com/orders
    records: $.orders
    entity: order
    key: id
    fields: { id: int, status: string, updated_at: timestamp }
  - name: order-lines
    adapter: json
    url: https://api.example.com/orders/{{parent.id}}/lines
    for_each:
      entity: order              # the parent entity
      carry: { order_id: id }    # members added to each child record from the parent's fields
      where: status!=cancelled   # optional conditions on the parents (export --where grammar)
      parallel: 4                # parents followed at once (1 to 16, default 1)
      incremental: true          # only parents written since this feed's last pass
      on_not_found: reject       # a parent whose request answers 404: reject (default) or note
    records: $.lines
    entity: order_line
    key: [order_id, line]
    fields: { order_id: int, line: int, sku: string, quantity: int }
```

- **Child rows carry their parent's key** through `carry:`: each member is set on every child
  record from the parent's field before the record is mapped (replacing a member of that name
  the response has), so it is typed, checked and keyed like any field: declare it in
  `fields:`, and put it in `key:` when child keys repeat from one parent to the next (lines
  numbered 1, 2, ... in every order).
- **Another feed's parents are its entity's rows**: `entity:` names the parent entity, and
  every row of it is a parent, whichever feed wrote it (an entity is one table that the feeds
  writing it share), so no feed need be named. To follow the rows of one feed only, say so in
  `where:` with the `_feed` column (`where: _feed=orders`), as `export --where` does.
- Each parent's requests page as the feed's `pagination:` says, and `{{parent.FIELD}}` takes
  the value the parent's row holds (any of its fields, percent-encoded in the URL). A
  `{{parent.FIELD}}` without `for_each:` is an error at its place.
- **Incremental**: with `incremental: true`, a pass follows only the parents written (new or
  changed) since this feed's last pass, by the parents' `_run`, and keeps the newest `_run` it
  saw in `_state`; `feedwork run --full-refresh` follows every parent again. It cannot be used
  with `write: replace` (the other parents' rows would be deleted), and `for_each` cannot be
  combined with the feed's own `incremental:` block.
- **A parent that is gone** (its request answers 404) does not fail the pass: it is a reject
  (`the request for order 2 (https://api.example.com/orders/2/lines) answered 404 Not Found`),
  counted against `max_reject_ratio`, or with `on_not_found: note` a line of the report.
- **A parent whose value would change the URL's path** (`..`, `.`, or empty as a whole path
  segment) is not requested but rejected: see [docs/hostile-input.md](../hostile-input.md#a-value-that-would-change-a-urls-path).
- **Parents of the same pass**: an entity of `entities:` with a `url` is a child endpoint of
  the feed's own records: its request is made once for each record of the feed's entity that
  a page writes (`{{parent.FIELD}}` a field of that entity), and takes `carry:`, `parallel:`
  and `on_not_found:` as above. Pages unchanged since the last pass (not mapped again) have
  no parents to follow, and with the feed's `incremental:` a pass gets only the records
  changed since the cursor, so only new or changed orders are followed; `--full-refresh`
  reads, and follows, all of them.

  ```yaml
    - name: orders
      adapter: json
      url: https://api.example.com/orders
      records: $.orders
      entity: order
      key: id
      fields: { id: int, status: string, updated_at: timestamp }
      incremental: { cursor_path: updated_at, param: updated_since }
      entities:
        - url: https://api.example.com/orders/{{parent.id}}/lines
          carry: { order_id: id }
          parallel: 4
          records: $.lines
          entity: order_line
          key: [order_id, line]
          fields: { order_id: int, line: int, sku: string, quantity: int }
  ```
- Another feed's parents are read when its pass starts, so a feed with `for_each:` depends on
  the feeds that write its parent entity: in one `feedwork run` (or a worker) it starts once
  their passes have ended, whatever `concurrency` and the order of the file, and is `skipped`
  when one of them failed (see "Feeds that depend on others" in the [feeds.yaml reference](../reference/feeds-yaml.md); a
  parent entity that a feed with `extra: columns` declares during its pass is not seen, so
  name that feed in `depends_on:`). Each pass says how many parents it followed
  (`for_each: followed 2 order written since run 41`), or that the store holds none yet.

## A complete feed

Orders, then the lines of each order not cancelled, from
[orders.json](fixtures/for-each/orders.json) and `fixtures/for-each/orders/ID/lines.json`
([order 1001's](fixtures/for-each/orders/1001/lines.json)): the child feed follows 2 of the 3
orders (`for_each: followed 2 order rows`) and stores 3 lines, each with its `order_id`. It
reads files instead of an API, so it runs offline: save it as `feeds.yaml` in docs/json (its
urls are paths relative to that folder) and run `feedwork run` there.

```yaml
feeds:
  - name: orders
    adapter: json
    url: fixtures/for-each/orders.json
    records: $.orders
    entity: order
    key: id
    fields: { id: int, status: string, updated_at: timestamp }
  - name: order-lines
    adapter: json
    url: fixtures/for-each/orders/{{parent.id}}/lines.json
    for_each:
      entity: order
      carry: { order_id: id }
      where: status!=cancelled
    records: $.lines
    entity: order_line
    key: [order_id, line]
    fields: { order_id: int, line: int, sku: string, quantity: int }
```
"""####
        ),
        (
            "docs/json/incremental.md", "Reading only what changed: `incremental`",
            ####"""
# Reading only what changed: `incremental`

Keys of a [`json` feed](../tutorial.md); each example is a feed, or the lines that add the keys to one.

APIs too large to read again on every pass take a `since` or `updated_after` parameter. With
`incremental:`, the first pass sends `start`, each pass keeps the greatest value of the cursor
field among the records it committed, and the next pass sends that value (less `lag`):

```yaml
  - name: orders
    adapter: json
    url: https://api.example.com/orders
    records: $.orders
    entity: order
    key: id
    fields: { id: int, updated_at: timestamp, total: decimal }
    incremental:
      cursor_path: updated_at        # a declared field (its name or its path): timestamp, int or string
      param: since                   # the query parameter the cursor goes in
      start: "{{today-30d|iso}}"     # what the first pass sends (nothing when absent)
      lag: 1h                        # timestamps: send the cursor minus 1h, to catch late writes
      # end: "{{now|iso}}"           # an optional window end, sent in end_param
      # end_param: until
      # order: desc                  # the API sorts newest first: stop paging past the cursor
      # format: unix                 # send a timestamp cursor as iso, unix, unix_ms or a pattern
```

- The cursor can also go anywhere a value is written (then `{{cursor}}` is the incremental
  cursor, and a `cursor` pagination's own cursor is `{{page_cursor}}`): `{{cursor}}` in `url`
  (`/orders/after/{{cursor}}`), in a `params` or `headers` value, or in a string of a POST
  `body` (`body: { filter: { updated_after: "{{cursor}}" } }`); then `param` is not needed.
- A timestamp cursor is sent exactly as it is stored, its fraction included
  (`2026-03-01T09:00:13.213Z`), so a pass does not re-read the records of the cursor's last
  second; with `lag`, the cursor less the lag, to the microsecond. `format: unix` and
  `unix_ms` send whole seconds and milliseconds, cut down.
- The cursor is sent in the API's own format: without `format:`, a cursor field declared with
  a `format` (`updated_at: { type: timestamp, format: "yyyy-MM-dd HH:mm:ss" }`, or `unix`) is
  sent in that format (`2026-03-01 09:00:13`, cut to what the pattern says), since an API
  usually reads timestamps the way it writes them; `format:` in the block overrides it (`iso`,
  `unix`, `unix_ms` or a pattern with `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`).
- The cursor is stored in `_state` in the pass's transaction, so a failed pass leaves it where
  it was, and it never moves back. Records older than the cursor that an API returns anyway
  are merged as usual; the overlap that `lag` re-reads counts as unchanged. Each pass says in
  its report what it sent (`incremental: sent since=2026-03-01T09:00:00Z; cursor now
  2026-03-02T17:40:00Z`), and `feedwork list` shows each feed's cursor.
- `feedwork run --full-refresh [--feed orders]` ignores the stored cursor (and every other
  bookmark of the feed) for one run: it sends `start` again and reads everything.
- `write: replace` with `incremental` is an error: `replace` deletes the rows a pass does not
  deliver, and an incremental pass delivers only what changed.
- `order: desc` stops after the first page holding a record older than the cursor sent, for
  APIs that sort newest first and ignore `since`; it cannot be combined with `parallel`.
- `feedwork record` runs the feed against an empty store, so a recording holds the requests
  made with `start` at the recording's moment, and `feedwork test` replays them offline on any
  day.

## A complete feed

The cursor placed in the url with `{{cursor}}` and sent as a date (`format: yyyy-MM-dd`): the
first pass reads
[orders-since-2026-03-01.json](fixtures/incremental/orders-since-2026-03-01.json) (`start`),
the next ones
[orders-since-2026-03-02.json](fixtures/incremental/orders-since-2026-03-02.json), the day of
the greatest `updated_at` stored
(`incremental: sent {{cursor}}=2026-03-02; cursor now 2026-03-02T11:02:00Z`). It reads files
instead of an API, so it runs offline: save it as `feeds.yaml` in docs/json (its urls are paths
relative to that folder) and run `feedwork run` there.

```yaml
feeds:
  - name: orders
    adapter: json
    url: fixtures/incremental/orders-since-{{cursor}}.json
    records: $.orders
    entity: order
    key: id
    fields: { id: int, updated_at: timestamp, total: decimal }
    incremental:
      cursor_path: updated_at
      start: "2026-03-01"
      format: yyyy-MM-dd
```
"""####
        ),
        (
            "docs/json/date-windows.md", "Backfilling in date windows: `window`",
            ####"""
# Backfilling in date windows: `window`

Keys of a [`json` feed](../tutorial.md); each example is a feed, or the lines that add the keys to one.

Some APIs refuse a query over a long range (at most 31 days, or 10,000 results). With
`window:` in the `incremental:` block, a feed reads its range in windows of that length, one
after another, each walked through all its pages and committed with its cursor before the next
one is asked for:

```yaml
  - name: events
    adapter: json
    url: https://api.example.com/events
    entity: event
    key: id
    fields: { id: int, at: timestamp }
    incremental:
      cursor_path: at
      param: from                    # each window's start (or {{window.start}} anywhere)
      end_param: to                  # each window's end (or {{window.end}} anywhere)
      start: "{{today-90d|iso}}"     # where the first pass's windows begin
      window: 7d                     # 90 days: 12 windows of 7 days and one of 6
      # end: "{{today|iso}}"         # the range's end; the pass's start by default
      # windows_per_pass: 4          # commit 4 windows at a time instead of 1
```

- The range runs from the stored cursor (less `lag`), or `start` on the first pass, to `end`
  or the pass's start. Windows are `[start, end)` and follow one another without a gap or an
  overlap; the last is shorter when the range does not divide evenly.
- `{{window.start}}` and `{{window.end}}` may go in `url`, `params`, `headers` or `body` (as
  `{{cursor}}` may, which is the window's start too), written in the cursor's format: the
  cursor field's own (`format: yyyy-MM-dd` sends `2025-12-01`) or `incremental.format`.
- **Each window commits on its own.** A pass reads one window (or `windows_per_pass` of them)
  and commits it, the cursor moved to its end in `_state`; while windows are left, the next
  pass starts at once, in the same `feedwork run` (or the same turn of the worker), until the
  range is caught up. Each pass has its own transaction and run in `_runs`, and
  `max_reject_ratio`, rejects and failures apply to each: a 90-day backfill of `window: 7d` is
  13 runs, and one killed, failed or interrupted at window 6 keeps windows 1 to 5, and the
  next `feedwork run` starts at window 6, neither asking for the committed windows again nor
  leaving one out. Once caught up, each pass reads only the time since the last one.
  `windows_per_pass: N` commits N windows a pass instead of 1 (fewer runs, and a first pass's
  rows held for one bulk write, at the cost of redoing up to N windows after a failure).
- While a backfill is under way, each pass goes on from the cursor the last one committed,
  without taking `lag` off it (which would read the end of the last window again); `lag`
  applies again once the range is caught up. A `--full-refresh` run starts the backfill again
  from `start`, its passes after the first going on from each other's cursor.
- The report sums the run's passes for the feed, with a line naming their runs and one per
  pass (`committed in 13 passes, one after another (runs 1 to 13), each with its own
  transaction`, `incremental: read window 6 of 13 (7d), 2025-11-16T00:00:00Z to
  2025-11-23T00:00:00Z; cursor now 2025-11-23T00:00:00Z; 7 window(s) left for the next
  passes`); its `run` is the last pass's, and `feedwork runs` lists each one. A pass that
  fails ends the run's passes: the report is `failed`, and says how many committed first;
  after Ctrl-C, the summary says so too (`interrupted: the pass under way rolled back, those
  before it committed (the next run goes on after them): events (5 pass(es))`).
  The progress display shows the window under way (`events: 40 response(s), 280 record(s)
  ...; window 6 of 13, 5 committed`), and the log has a line per window (`window 6 of 13:
  ...`).
- `window` needs a timestamp cursor, `start`, and the window's end sent somewhere (`end_param`
  or `{{window.end}}`), and cannot be combined with `order: desc` or `extra: columns`.
- An API that reads a window's end inclusively: `window_end: inclusive`, see [More API shapes](api-shapes.md#windows-whose-end-is-inclusive-window_end).

## A complete feed

A fixed range of two 7-day windows, each window's start and end placed in the url in the
`format` given: the first pass reads
[events-2025-12-01-to-2025-12-08.json](fixtures/date-windows/events-2025-12-01-to-2025-12-08.json)
and commits it, the second the next week's file; once the cursor is at `end`, a pass reads
nothing (`no window to read`). It reads files instead of an API, so it runs offline: save it as
`feeds.yaml` in docs/json (its urls are paths relative to that folder) and run `feedwork run`
there.

```yaml
feeds:
  - name: events
    adapter: json
    url: fixtures/date-windows/events-{{window.start}}-to-{{window.end}}.json
    records: $.events
    entity: event
    key: id
    fields: { id: int, kind: string, at: timestamp }
    incremental:
      cursor_path: at
      format: yyyy-MM-dd
      start: "2025-12-01T00:00:00Z"
      end: "2025-12-15T00:00:00Z"
      window: 7d
```
"""####
        ),
        (
            "docs/json/entities.md", "Several entities from one response: `entities`",
            ####"""
# Several entities from one response: `entities`

Keys of a [`json` feed](../tutorial.md); each example is a feed, or the lines that add the keys to one.

Some APIs send related records beside the ones asked for: JSON:API puts the people an article
names in `included`. `entities:` lists further entities read from the same responses, each with
its own `records`, `entity`, `key`, `fields` (and `extra`), and an optional `when` that keeps
only the records whose member equals a value (a string's text, a number as written, `true` or
`false`):

```yaml
    records: $.data
    entity: article
    key: id
    fields:
      id: { type: int, from_string: true }
      title: { path: attributes.title, type: string }
      author_id: { path: relationships.author.data.id, type: int, from_string: true }
    entities:
      - records: $.included
        when: { path: type, equals: people }
        entity: person
        key: id
        fields:
          id: { type: int, from_string: true }
          name: { path: attributes.name, type: string }
```

Every page is fetched once and all its entities are written in the same pass and transaction,
with the feed's `write` mode; a record repeated on several pages is merged like any other.
The feed's `filter`, `incremental` cursor, pagination and totals follow the first entity
(`records` at the top). Rejects name the record's place in its own list
(`$.included[1].id: ...`). Each entity needs its own name (an error at its line otherwise), and
`entities:` reads JSON responses only. A feed with `entities:` maps every page on every pass:
pages answered 304 Not Modified are read from the cache rather than only counted, since what a
page held is kept for the first entity only.

## A complete feed

Articles and the people they name from one JSON:API response,
[articles.json](fixtures/entities/articles.json): 2 articles and 2 people, the comment in
`included` left out by `when`. It reads a file instead of an API, so it runs offline: save it
as `feeds.yaml` in docs/json (its urls are paths relative to that folder) and run
`feedwork run` there.

```yaml
feeds:
  - name: articles
    adapter: json
    url: fixtures/entities/articles.json
    records: $.data
    entity: article
    key: id
    fields:
      id: { type: int, from_string: true }
      title: { path: attributes.title, type: string }
      author_id: { path: relationships.author.data.id, type: int, from_string: true }
    entities:
      - records: $.included
        when: { path: type, equals: people }
        entity: person
        key: id
        fields:
          id: { type: int, from_string: true }
          name: { path: attributes.name, type: string }
```
"""####
        ),
        (
            "docs/json/filter.md", "Keeping only some records: `filter`",
            ####"""
# Keeping only some records: `filter`

Keys of a [`json` feed](../tutorial.md); each example is a feed, or the lines that add the keys to one.

Some APIs ignore their date parameters and always send everything. `filter:` keeps only the
records that meet every condition, on the mapped fields, with the grammar of
`feedwork export --where` (`FIELD=VALUE`, `!=`, `<`, `<=`, `>`, `>=`, `~` for contains
ignoring ASCII case):

```yaml
    filter:                                          # one string, or a list: all must hold
      - "published_at>={{today-30d|yyyy-MM-dd}}"     # date templates, as in params
      - "status~open"
      - "price<100"                                  # numbers and decimals compare by value
```

Values compare as the field's type: `int`, `double` and `decimal` fields as numbers (a
`money` field in minor units), `bool` fields as `true`/`false`, the others as text, so an ISO
8601 timestamp compares with a date (`2024-03-01T09:15:00Z` is after `2024-03-01`). `!=`
keeps records whose field is null; the other operators never match null. Templates are
rendered with the pass's start (so fixture replays keep the same window), and when the
window moves, unchanged pages are mapped again rather than skipped. Records left out are
neither stored nor rejected: the report counts them in a note (`12 record(s) filtered out by
filter`). In `replace` mode they count as not delivered, so their rows are deleted. `validate`
checks each condition: an unknown field, a missing operator, or a value that does not read as
the field's type (`'price' is a decimal column; 'cheap' is not`) is an error at its line and
column.

## A complete feed

Listings kept only when published this year, open (`Open` matches too) and under 100: of the 5
in [listings.json](fixtures/filter/listings.json), 2 are stored and the report says
`3 record(s) filtered out by filter`. It reads a file instead of an API, so it runs offline:
save it as `feeds.yaml` in docs/json (its urls are paths relative to that folder) and run
`feedwork run` there.

```yaml
feeds:
  - name: listings
    adapter: json
    url: fixtures/filter/listings.json
    records: $.listings
    entity: listing
    key: id
    fields: { id: int, title: string, status: string, price: decimal, published_at: date }
    filter:
      - "published_at>=2026-01-01"
      - "status~open"
      - "price<100"
```
"""####
        ),
        (
            "docs/json/soft-deletes.md", "Soft deletes: `delete_when`",
            ####"""
# Soft deletes: `delete_when`

Keys of a [`json` feed](../tutorial.md); each example is a feed, or the lines that add the keys to one.

Changes feeds often mark a deleted record rather than leave it out (`{"id": 7, "deleted":
true}`). `delete_when:` says which records those are; each deletes the feed's row with its
key instead of being stored:

```yaml
  - name: contacts
    adapter: json
    url: https://api.example.com/contacts/changes
    records: $.changes
    entity: contact
    key: id
    fields: { id: int, name: string, updated_at: timestamp }
    incremental: { cursor_path: updated_at, param: since }
    delete_when: { path: deleted, equals: true }   # a member of the record as received
    # delete_when: "status=archived"               # or conditions on mapped fields, as in filter:
```

- `{path, equals}` reads the record as received (`equals` matches the member's text: a string,
  a number as written, `true` or `false`), so a deleted record needs only its key fields; the
  other form takes one condition or a list in `filter:`'s grammar, all of which must hold, on
  the mapped record, which must then map like any other.
- The row (and its child rows) is deleted in the pass's transaction and leaves a tombstone:
  the report counts it under `deleted`, and `feedwork export --changed-since RUN
  --include-deleted` lists it. A deletion of a key the store does not hold does nothing; the
  report's note says how many records were marked deleted (`2 record(s) marked deleted by
  delete_when`). A key delivered again later, in this pass or a later one, is a live row again.
- Within one page, the last word on a key wins: a record followed by its deletion is deleted,
  a deletion followed by the record keeps it. Deleted records move the `incremental` cursor like
  the others, so a changes feed that ends with deletions is not read again.
- `delete_when` applies to the feed's own entity, not to those of `entities:`. `write: append`
  cannot take it (its rows are versions), nor can `extra: columns` (which holds the records
  until the last page). Pages of a feed with `delete_when` are mapped on
  every pass, even when unchanged.
- Adapters written in Swift delete rows the same way, with `pass.delete(entity:keys:)`.

## A complete feed

A changes list, [contacts.json](fixtures/soft-deletes/contacts.json), whose contact 2 is
delivered then marked deleted, and whose contact 7 is marked deleted but was never stored: 2
contacts are stored, and the report says `2 record(s) marked deleted by delete_when`. It reads
a file instead of an API, so it runs offline: save it as `feeds.yaml` in docs/json (its urls
are paths relative to that folder) and run `feedwork run` there.

```yaml
feeds:
  - name: contacts
    adapter: json
    url: fixtures/soft-deletes/contacts.json
    records: $.changes
    entity: contact
    key: id
    fields: { id: int, name: string, updated_at: timestamp }
    delete_when: { path: deleted, equals: true }
```
"""####
        ),
        (
            "docs/json/search.md", "Full-text search: `search`",
            ####"""
# Full-text search: `search`

Keys of a [`json` feed](../tutorial.md); each example is a feed, or the lines that add the keys to one.

`search:` names text fields whose words the store indexes, for finding rows by their words:

```yaml
    entity: ad
    key: id
    search: [title, description]
    fields:
      id: int
      title: string
      description: string
```

The index is kept in each pass's own transaction, so it always holds exactly the committed rows:
a row the pass inserts or changes is found by its new words, a deleted row is found no more. On
SQLite it is an FTS5 table `_search_ENTITY` over the entity's table (external content: only the
index, the text stays in the table), kept by triggers on the table; on PostgreSQL a GIN index
`_search_ENTITY` on `to_tsvector('simple', ...)` of the fields. A row matches when its fields
hold every word searched for, whatever the case; words are runs of letters and digits, so
punctuation is only a separator (never query syntax). Rows holding the words more often (and in
shorter text) come first: BM25 on SQLite, `ts_rank` on PostgreSQL.

**Language.** Both stores use no language rules: accents count (`canape` does not find
`canapé`) and words are not stemmed (`canapés` does not find `canapé`). PostgreSQL's `french`
configuration would stem, but SQLite's FTS5 has no French stemmer, and a search finds the same
rows on either store this way.

Declaring `search:` on an entity that already has rows builds the index from them on the next
pass (`feedwork schema --plan` shows `ad: build the full-text index of 'title', 'description'
from its rows`); changing the fields builds it again; removing `search:` drops it. Each field
must be a `string` field of the entity. Search with `?q=` in `feedwork serve` (the entity page
shows a search box, and the API the words found highlighted; see [The API](../serve.md#the-api)) and
`feedwork export ENTITY --search "words"`. Searching an entity without `search:` is an error
that says how to declare it.

## A complete feed

Classified ads with their titles and descriptions indexed, from
[ads.json](fixtures/search/ads.json); after `feedwork run`,
`feedwork export ad --search "bois massif"` finds the oak table. It reads a file instead of an
API, so it runs offline: save it as `feeds.yaml` in docs/json (its urls are paths relative to
that folder) and run `feedwork run` there.

```yaml
feeds:
  - name: ads
    adapter: json
    url: fixtures/search/ads.json
    records: $.ads
    entity: ad
    key: id
    search: [title, description]
    fields:
      id: int
      title: string
      description: string
```
"""####
        ),
        (
            "docs/json/xml-csv.md", "XML and CSV responses: `format`",
            ####"""
# XML and CSV responses: `format`

Keys of a [`json` feed](../tutorial.md); each example is a feed, or the lines that add the keys to one.

Not every API answers in JSON. `format: xml` and `format: csv` read the response into the same
tree a JSON response gives, so fields, keys, filters, pagination and the cache work unchanged.
Every value arrives as text and keeps it exactly (`310.70` stays `310.70`); `int` and `double`
fields read numbers from it, `bool` fields `true`, `false`, `1` and `0`, and `decimal`, `money`
and `timestamp` fields as always.

**XML.** `records` names elements from the root down, separated by `/`; each step goes into
every child element of that name, so the records are all the elements at the end of the path,
in document order. In a record, an attribute is `@name`, a child element its name (a list when
it repeats), and text beside attributes or children `#text`; an element with only text is its
text. Namespace prefixes are dropped (`gesmes:Envelope` is `Envelope`). A field may read an
ancestor of its record: `../@time` is the parent's `time` attribute, `../../x` goes one level
further up. The European Central Bank's daily euro reference rates (no key) are such an API:

```xml
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube>
    <Cube time='2017-03-08'>
      <Cube currency='USD' rate='1.0556'/>
      <Cube currency='HUF' rate='310.70'/>
```

```yaml
  - name: euro-rates
    adapter: json
    url: https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml
    format: xml
    records: Envelope/Cube/Cube/Cube
    entity: euro_rate
    key: [day, currency]
    write: append
    fields:
      day: { path: ../@time, type: timestamp, format: yyyy-MM-dd }
      currency: { path: "@currency", type: string }
      rate: { path: "@rate", type: decimal }
```

(The currency adapter reads the same file with `provider: ecb`, for `feedwork price`; see
[currency](../adapters/built-in.md#currency).) The document's encoding comes from its byte order mark or its
`<?xml ... encoding="..."?>` declaration (UTF-8, UTF-16, US-ASCII, ISO-8859-1 and
windows-1252). A DOCTYPE is skipped, and the entities it declares are not expanded: a document
using one fails the pass, which keeps a hostile document from expanding entities without bound.
A malformed page fails the pass with the URL, the line and the column: `feed 'euro-rates':
https://... at $: XML at line 3, column 1: '</Cube>' closes '<Envelope>'`.
Elements nested more than 512 levels deep are such an error: see [docs/hostile-input.md](../hostile-input.md#a-document-nested-too-deeply).

**CSV.** Every row is a record (leave `records` out), its members named by the header row; an
empty field is `null`, a quoted empty field (`""`) the empty string, and a quoted field may
hold the delimiter, doubled quotes and line breaks. The dialect goes in a mapping:

```yaml
    format: { type: csv, delimiter: ";", quote: '"', header: true, encoding: latin1 }
```

`delimiter` is one character (`\t` for a tab; `,` by default), `header: false` names the
columns `"1"`, `"2"`... by position, and `encoding` is one of those above, for a file with no
byte order mark that is not UTF-8. A row with more fields than the header, or a quote left
open, fails the pass naming the line. Reading is linear however wide the header: see [docs/hostile-input.md](../hostile-input.md#a-csv-response-with-very-many-columns).

Why Feedwork reads both itself: every XML library in the package mirror (SWXMLHash 8.1.1,
XMLCoder 0.18.2) builds on Foundation's `XMLParser`, which on Linux links `libxml2.so.2` into
every binary that imports it, where Feedwork loads its other C libraries (libcurl, libpq) only
when a command needs them. Their build cost is small (a clean debug build of a package using
each: SWXMLHash 6.7 s of CPU, XMLCoder 10.2 s; the CSV packages SwiftCSV 0.10.0 7.2 s and
CSV.swift 2.5.2 7.8 s; `/usr/bin/time swift build` on the 2-core machine), but neither CSV
package tells an empty field from a quoted empty one nor names the line of a malformed row, and
neither reads ISO-8859-1. The readers are `XMLReader` and `CSVReader` in FeedKit, a few hundred
lines with their tests (`XMLReaderTests`, `CSVReaderTests`), so any adapter can use them
(`FeedPass.parseXML`).

## A complete feed

The European Central Bank's rates of one day from
[eurofxref-daily.xml](fixtures/xml-csv/eurofxref-daily.xml), and weather observations from a
semicolon-separated file, [stations.csv](fixtures/xml-csv/stations.csv), whose quoted name
holds the delimiter. It reads files instead of APIs, so it runs offline: save it as
`feeds.yaml` in docs/json (its urls are paths relative to that folder) and run `feedwork run`
there.

```yaml
feeds:
  - name: euro-rates
    adapter: json
    url: fixtures/xml-csv/eurofxref-daily.xml
    format: xml
    records: Envelope/Cube/Cube/Cube
    entity: euro_rate
    key: [day, currency]
    write: append
    fields:
      day: { path: ../@time, type: timestamp, format: yyyy-MM-dd }
      currency: { path: "@currency", type: string }
      rate: { path: "@rate", type: decimal }
  - name: weather-stations
    adapter: json
    url: fixtures/xml-csv/stations.csv
    format: { type: csv, delimiter: ";" }
    entity: observation
    key: station
    fields:
      station: string
      name: string
      temperature: double
      observed_at: { type: timestamp, format: "yyyy-MM-dd HH:mm" }
```
"""####
        ),
        (
            "docs/rate-limits.md", "Request budgets: an API's rate limit, shared by its feeds",
            ####"""
# Request budgets: an API's rate limit, shared by its feeds

APIs publish budgets (10 requests a second, 1,000 an hour) that every
feed using the same key shares. Name one under `defaults: { budgets: ... }` and give the
feeds that share it `budget: NAME`; `rate_limit:` gives one feed a budget of its own. A
budget never sends more than `requests` in any span of `per` (`requests` 1 to 1,000,000,
`per` 1ms to 1d), as the API counts them: a sliding window that every request, retries
included, waits for before it is sent, and whose slots come free `per` after each answer (not
after each send), so requests that reach the API late on a loaded machine or a slow link
still never arrive closer together than the budget allows. `burst: N` opts in to a token bucket instead, for APIs that allow bursts: up to `N`
at once after a quiet spell, refilled at `requests` per `per` (so up to `N + requests` in
the first `per`), across all the feeds of the process (`feedwork run` and
`feedwork worker` alike, and a worker keeps it from pass to pass). A 429 and its
`Retry-After` are still honoured on top. With `-v`, a request that waited says how long.
Several processes (workers on one PostgreSQL store) each keep their own count: give each
a share of the API's budget (two workers on a 10-a-second API: `requests: 5`). Measured with
`Benchmarks/budget.sh` (two feeds of 50 pages sharing `{ requests: 5, per: 1s, burst: 5 }`, against a
loopback API that answers 429 above 5 a second): 100 requests, none refused, 5.00 a second
after the first burst, 100.1% of the budget. `RequestBudgetTests` checks that feeds sharing a
budget are never refused and never faster than it, and that the same feed without one is.

```yaml
defaults:
  budgets:
    crm-api: { requests: 5, per: 1s }    # the CRM's published limit, for all its feeds
feeds:
  - name: crm-contacts
    adapter: json
    budget: crm-api
    url: https://crm.example.com/contacts
    # records, entity, key, fields...
  - name: crm-deals
    adapter: json
    budget: crm-api
    url: https://crm.example.com/deals
    # records, entity, key, fields...
```
"""####
        ),
        (
            "docs/reference/feeds-yaml.md", "feeds.yaml reference",
            ####"""
# feeds.yaml reference

```yaml
store: feeds.sqlite              # the SQLite file, relative to this file (default feeds.sqlite);
                                 # a folder, device, FIFO or symlink loop is an error at this line
defaults:                        # for every feed; each key may be repeated on a feed to override it
  timeout: 30s                   # one attempt, connect to last byte
  connect_timeout: 10s
  retries: 3                     # after the first attempt, on connection errors, timeouts, 5xx and 429
  backoff: 200ms                 # first retry delay, doubled each time, with jitter
  retry_after_cap: 60s           # the longest Retry-After honoured
  max_response_size: 50MB        # larger bodies abort the request
  max_redirects: 5
  follow_redirects: any          # any | same_host | never; see "Redirects" below
  concurrency: 4                 # feeds running at once (defaults only)
  max_reject_ratio: 0.5          # the share of a pass's records that may be rejected (0 to 1);
                                 # above it the pass fails and changes nothing
  max_delete_ratio: 0.5          # the share of a replace entity's rows a pass may delete (0 to 1;
                                 # a feed's allow_empty: true lets a pass delete them all)
  every: 1h                      # `feedwork worker` runs each feed this often (or `cron:`)
  jitter: 10%                    # each pass up to this share of `every` late, at random
  spread: true                   # `every` feeds each at their own offset in the interval (default);
                                 # false: a feed that never ran is due at once
  retry_failed_after: 5m         # after a failed pass, the next is due this soon
  lease: 60s                     # a worker's claim on a feed; another worker takes the feed
                                 # over once it runs out (defaults only)
  budgets:                       # request budgets feeds share with `budget:` (defaults only)
    crm-api: { requests: 10, per: 1s, burst: 10 }
  schema:                        # what a pass may change in the store's tables (see "Schema contracts")
    new_columns: evolve          # evolve (default) | freeze | discard
    type_changes: evolve         # evolve (default) | freeze
feeds:
  - name: bbc-fruit              # unique; 1 to 64 ASCII letters, digits, -, _ or .
    adapter: fruit               # see `feedwork adapters`
    enabled: true                # default true; `feedwork run --feed NAME` runs a disabled feed too
    budget: crm-api              # count requests against a shared budget, or give the feed its
                                 # own: rate_limit: { requests: 2, per: 1s }
    depends_on: [other-feed]     # feeds whose pass ends before this one's starts (see below)
    url: Adapters/Fruit/Fixtures/data.json   # the adapter's own keys follow
```

- **Durations**: `500ms`, `30s`, `10m`, `2h`, `1d`, `1h30m`; a bare number is seconds.
- **Limits**: `timeout` and `connect_timeout` 1ms to 1d, `backoff` 0s to 1h, `retry_after_cap`
  0s to 1d, `retries` 0 to 20, `max_redirects` 0 to 50, `max_response_size` 1 byte to 1024GB,
  `concurrency` 1 to 64, `max_reject_ratio` and `max_delete_ratio` a number from 0 to 1. A value outside its range (or too large to read, such as a 20-digit
  number) is an error giving the range, and every such value is reported at once.
- **Memory per response**: a json feed's page is held whole while it is read (the body is
  parsed in place), but its records are mapped one at a time as the parser reaches them, each
  parsed record let go once mapped: peak memory is about the body plus the rows made of it, so
  it grows with `max_response_size`. Above a fixed cost of about 44 MB, a pass of the release
  build took 3.5 MB per MB of response made of many small six-field records (399 MB for 102 MB;
  5.8 MB per MB when the whole page was parsed before mapping) and 1.9 MB per MB of a response
  made of long strings (234 MB for 100 MB), the same at 50 and 100 MB
  (`Benchmarks/json-memory.sh 50 100`, 26 November 2026; the debug build gives the same ratios
  above its own fixed cost). A feed whose page must be read whole (`entities:`,
  `delete_when:`, a `records` path with an index, pagination read from inside the records, XML
  and CSV) takes the larger figure. Raise `max_response_size` only as far as memory allows, or
  page the API.
- **Schedules**: `every` 1s to 366d, `retry_failed_after` 1s to 1d, `lease` 2s to 1d; `cron`
  is a five-field expression read in UTC; a feed has `every` or `cron`, not both, and
  `jitter` and `spread` (`true` or `false`) only with `every`. See [Keeping feeds
  fresh](../worker.md) and [How feeds are spread](../worker.md#how-feeds-are-spread).
- **Sizes**: `1048576`, `512KB`, `50MB`.
- **Request budgets**: `budgets:` under `defaults:`, `budget:` and `rate_limit:` on a feed:
  see [Request budgets](../rate-limits.md).
- **Feeds that depend on others**: `depends_on: orders` (or a list) makes a feed start only
  once the named feeds' passes have ended, when they run in the same `feedwork run` (or are
  handed to a worker by it), whatever `concurrency` and the order of the file; a feed with
  `for_each:` depends on the feeds writing its parent entity without saying so. When one of
  them failed, was interrupted or was skipped, the feed is not run: its status is `skipped`,
  with a note naming the feed it waited for (`skipped: feed 'orders', which it depends on,
  failed; ...`). A worker does not start a feed while one it depends on is running, and
  claims it again once that pass has ended; when that worker's last pass of one of them failed
  (or was interrupted or skipped), the feed's scheduled pass is skipped the same way (a
  `skipped` line in the worker's output, with the note, and no run) and due again as a failed
  pass is (after `retry_failed_after`, when set), by when its parent may have committed. A feed named alone (`feedwork run --feed
  order-lines`) runs alone. A name that is no feed, a feed naming itself, and feeds that
  depend on each other in a cycle are errors at the dependency that closes the cycle
  (`feeds.yaml:9:18: error: feeds depend on each other in a cycle (apples -> pears ->
  apples), ...`).
- **Schema contracts**: `schema: { new_columns, type_changes }`, in `defaults:` or on a feed
  (a feed's key wins over the same key of `defaults:`), says what a pass may change in the
  tables the store already holds for the feed's entities; the first pass of an entity creates
  its table whatever it says. `new_columns: evolve` (the default) adds a column the table
  lacks (a field added to the config, or a member found by the json adapter's
  `extra: columns`); `freeze` fails the pass instead, naming the entity and each new column,
  and changes nothing (`entity 'item': new column 'b' (text) that the store's table lacks,
  which the feed's schema contract forbids (new_columns: freeze); nothing was changed`);
  `discard` gives members that `extra: columns` finds after the first pass no column (a
  declared field still gets its column: declaring it is the decision). `type_changes: freeze`
  fails a pass whose column has another type than the stored one, naming both (`column 'a' is
  text in the store and integer now`); `evolve` (the default) lets the store follow where it
  can. Both stores check the same rules, before any table is touched. An unknown value is an
  error at its line.
- **Redirects**: `follow_redirects: any` (the default, since many APIs send downloads to a
  CDN) follows every redirect, up to `max_redirects`; `same_host` only those to the same host
  and port (or from `http` to `https` on the same host); `never` none. A redirect not followed
  fails the request (`redirect to https://cdn.example/f not followed: it leads to another
  host, and follow_redirects is same_host`). A hop to another host never carries the
  credentials: the `Authorization`, `Proxy-Authorization` and `Cookie` headers and every
  header holding a secret (a `${VAR}` or an `auth:` value, such as an `api_key` header) are
  left out, the feed's query parameters are not added (the next URL is the server's
  `Location` as sent), and a redirect whose URL holds a secret is not followed to another
  host at all. A redirect on the same host keeps every header.
- **Rejects**: a pass's reject ratio is its rejected records divided by its records (new,
  updated and unchanged, a key delivered twice counted once) plus the rejected ones. Above
  `max_reject_ratio` the pass fails like any failed pass: none of its rows is kept, and its
  error says how many, the ratio, the limit and the first reject's reason
  (`feed 'shop': 250 of 250 records rejected (100%), above max_reject_ratio 0.5 (first:
  $[0].id: expected a whole number, found a string '1'); nothing was changed`). At or below it
  the pass commits with the status `ok_with_rejects`. `0` fails a pass on its first reject, `1`
  never fails one for its rejects; a pass with no records and no rejects is `ok`. The rejects
  of a pass that failed, for them or for any other reason, are kept (its first 10,000), marked
  with its run, after its rows rolled back: `feedwork rejects --run N` says why it failed. An
  interrupted pass keeps none.
- **Environment**: `${VAR}` anywhere in a value reads the environment; an unset variable is an
  error naming it, `${VAR:-fallback}` gives a default (which may hold variables itself:
  `${A:-${B}}` needs `B` when `A` is unset, and `validate` names `B` if it is not), `$${` is a
  literal `${`. Only `run`, `record` and `validate` need the variables: `list`, `export`,
  `price` and `test` read the store or recordings, so an unset variable is `***` for them
  (except in `store:`, which they need). In a URL (`url`, `*_url`), a variable in the path or
  query is percent-encoded (`a+b/c&d` is sent as `a%2Bb%2Fc%26d`), and so is one in the user or
  password of a PostgreSQL `store:`; one that holds the scheme and host (`${BASE}/items`)
  is kept as written, and file paths are never encoded. Values read
  from the environment are **secrets**: they are replaced by `***` in messages, reports,
  `_runs`, `_http_cache` and recorded fixtures.
- **Date templates** in URLs and parameters: `{{today}}`, `{{today+1d|dd/MM/yyyy}}`,
  `{{now-1h|iso}}`, `{{today|%Y-%m-%d}}`, `{{now|unix}}` (UTC; tokens `yyyy yy MM dd HH mm ss`
  or strftime `%Y %m %d %H %M %S`).
- **Local sources**: a URL that is a path (relative to feeds.yaml) or a `file://` URL is read
  from disk through the same fetcher, so a fixture-backed feed and a live one differ only in
  YAML.
- **Merge keys**: `<<: *base` (or `<<: [*a, *b]`, the first one winning) copies the keys of an
  anchored mapping that the mapping does not set itself, so a feed can start from another:
  `- &shop {name: shop, adapter: json, ...}` then `- {<<: *shop, name: shop-eu, url: ...}`. A
  merge key naming anything but mappings is an error at its value.
- **Strictness**: unknown keys (with a "did you mean", also for a misspelt `name` or
  `adapter`), wrong types, duplicate feed names,
  unknown adapters (listing the registered ones), bad durations and templates are errors with
  `file:line:column`; every problem is reported at once and nothing is written. Files over
  8 MB and documents whose aliases expand past 1,000,000 nodes are refused (10,000 feeds
  written out in full take about 2 MB and 250,000 nodes).
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
