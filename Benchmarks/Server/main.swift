import FeedTestSupport
import Foundation

/// The synthetic API of the throughput benchmark, run as a process of its own on 127.0.0.1.
///
/// Serves workload W1: `GET /items?offset=O&limit=L` answers
/// `{"items":[...],"total":N}` with rows
/// `{"id":i,"name":"item-i","price":i*0.01,"updated_at":"2024-01-01T00:00:SSZ","meta":{"source":"bench","rank":i%7},"tags":["t"+(i%3),"t"+(i%5)]}`,
/// an ETag per page, and 304 for a matching `If-None-Match`. Pages are built once, up front.
///
/// Usage: `feedwork-bench-server --rows N [--page-size 1000] [--write-pages DIR]`
/// prints `listening on PORT` and serves until killed. With `--write-pages`, it also writes
/// each page as `DIR/page-OFFSET.json` for the reference loader, so both read the same bytes.
struct Arguments {
    var rows = 100_000
    var pageSize = 1000
    var pagesDirectory: String?

    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--rows": rows = Int(iterator.next() ?? "") ?? rows
            case "--page-size": pageSize = Int(iterator.next() ?? "") ?? pageSize
            case "--write-pages": pagesDirectory = iterator.next()
            default: throw UsageError(argument: argument)
            }
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        var argument: String
        var description: String {
            "unknown argument '\(argument)'; usage: feedwork-bench-server --rows N [--page-size 1000] [--write-pages DIR]"
        }
    }
}

/// The body of the page that starts at `offset`.
func page(offset: Int, limit: Int, total: Int) -> Data {
    var text = "{\"items\":["
    let end = min(total, offset + limit)
    if offset < end {
        for i in offset..<end {
            if i > offset { text += "," }
            let cents = i % 100
            let price = "\(i / 100).\(cents < 10 ? "0" : "")\(cents)"
            let second = i % 60
            text += "{\"id\":\(i),\"name\":\"item-\(i)\",\"price\":\(price),"
            text += "\"updated_at\":\"2024-01-01T00:00:\(second < 10 ? "0" : "")\(second)Z\","
            text += "\"meta\":{\"source\":\"bench\",\"rank\":\(i % 7)},\"tags\":[\"t\(i % 3)\",\"t\(i % 5)\"]}"
        }
    }
    text += "],\"total\":\(total)}"
    return Data(text.utf8)
}

do {
    let arguments = try Arguments(CommandLine.arguments)
    var pages: [Int: Data] = [:]
    for offset in stride(from: 0, through: arguments.rows, by: arguments.pageSize) {
        pages[offset] = page(offset: offset, limit: arguments.pageSize, total: arguments.rows)
    }
    if let directory = arguments.pagesDirectory {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (offset, body) in pages where offset < arguments.rows {
            try body.write(to: URL(fileURLWithPath: directory).appendingPathComponent("page-\(offset).json"))
        }
    }
    let frozen = pages
    let pageSize = arguments.pageSize
    let total = arguments.rows
    let server = try LoopbackServer { request in
        guard request.path == "/items", let offset = Int(request.query("offset") ?? "0"), offset >= 0,
            Int(request.query("limit") ?? "\(pageSize)") == pageSize
        else { return .status(400) }
        let body = frozen[offset] ?? page(offset: offset, limit: pageSize, total: total)
        let etag = "\"w1-\(total)-\(offset)-\(pageSize)\""
        if request.header("If-None-Match") == etag { return .status(304).header("ETag", etag) }
        return .data(body, headers: [("Content-Type", "application/json"), ("ETag", etag)])
    }
    FileHandle.standardOutput.write(Data("listening on \(server.port)\n".utf8))
    while true { sleep(3600) }
} catch {
    FileHandle.standardError.write(Data("feedwork-bench-server: \(error)\n".utf8))
    exit(2)
}
