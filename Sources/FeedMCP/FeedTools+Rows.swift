import FeedEngine
import FeedKit

extension FeedTools {
    /// `query_sql`: the statement on the path of serve's `/api/sql` (``StoreBrowser/runReadOnly(_:)``:
    /// its own read-only connection, the hidden tables, the same row and time limits), its rows
    /// as `/api/sql` writes them.
    func querySQL(_ statement: String, parameters: [String: String]) async throws -> String {
        guard !statement.allSatisfy(\.isWhitespace) else { throw ToolFailure("give one SELECT or WITH statement") }
        let request = ReadOnlySQLRequest(
            statement: statement, parameters: parameters, timeLimit: ReadOnlySQLRequest.defaultTimeLimit,
            rowLimit: ReadOnlySQLRequest.defaultRowLimit)
        let browser = try await browser()
        do {
            return SQLResultText.json(try await browser.runReadOnly(request), rowLimit: request.rowLimit)
        } catch {
            throw ToolFailure(error.message)
        }
    }

    /// `search`: a page of `entity`'s rows that match `words` in its full-text index, best first.
    func search(entity: String, words: String, feed: String?, limit: Int) async throws -> String {
        var request = ExportRequest(entity: entity)
        request.search = try SearchQuery(words)
        if let feed { request.feeds = [feed] }
        let page = try await browser().page(request, limit: limit).tableColumns
        return pageJSON(page, more: page.next != nil)
    }

    /// `get_record`: the record's versions and child rows.
    func record(entity: String, feed: String, key: String) async throws -> String {
        guard let record = try await browser().record(entity: entity, feed: feed, key: key) else {
            throw ToolFailure("no record of \(entity) with feed '\(feed)' and key '\(key)'")
        }
        let versions = record.versions.tableColumns
        var children = "{"
        for (index, child) in record.children.enumerated() {
            children +=
                (index > 0 ? "," : "") + JSONValue.string(child.table.name).jsonText + ":"
                + child.tableColumns.rowsJSON
        }
        let truncated = ([versions] + record.children).contains { $0.next != nil }
        return "{\"entity\":\(JSONValue.string(entity).jsonText),\"feed\":\(JSONValue.string(feed).jsonText),"
            + "\"key\":\(JSONValue.string(key).jsonText),\"versions\":\(versions.rowsJSON),\"children\":\(children)},"
            + "\"truncated\":\(truncated)}"
    }

    /// `feed_runs`: the feed's newest runs.
    func runs(feed: String, limit: Int) async throws -> String {
        let browser = try await requireFeed(feed)
        return JSONText.line(["runs": try await browser.store.runs(feed: feed, before: nil, limit: limit)])
    }

    /// `feed_rejects`: the feed's newest rejects, each record as received cut at ``maximumRawBytes``.
    func rejects(feed: String, limit: Int) async throws -> String {
        let browser = try await requireFeed(feed)
        let rejects = try await browser.store.rejects(feed: feed, run: nil, limit: limit).map { reject in
            var reject = reject
            if reject.raw.utf8.count > Self.maximumRawBytes {
                reject.raw =
                    String(decoding: reject.raw.utf8.prefix(Self.maximumRawBytes), as: UTF8.self)
                    + " [truncated]"
            }
            return reject
        }
        return JSONText.line(["rejects": rejects])
    }

    /// The longest record a reject shows as received.
    static let maximumRawBytes = 4096

    private func requireFeed(_ feed: String) async throws -> StoreBrowser {
        let browser = try await browser()
        guard try await browser.hasFeed(feed) else { throw ToolFailure("no feed '\(feed)' has run on the store") }
        return browser
    }

    /// A page as `search` answers it: the entity, its field names, the rows as `feedwork export
    /// --format json` writes them, and whether there are more.
    private func pageJSON(_ page: EntityPage, more: Bool) -> String {
        let fields = "[" + page.fields.map { JSONValue.string($0.name).jsonText }.joined(separator: ",") + "]"
        return "{\"entity\":\(JSONValue.string(page.table.name).jsonText),\"fields\":\(fields),"
            + "\"rows\":\(page.rowsJSON),\"more\":\(more)}"
    }
}
