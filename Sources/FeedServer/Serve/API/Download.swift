import FeedEngine
import Foundation
import Hummingbird

/// A view of an entity as a file: `feedwork export` of the same entity, feeds, conditions and
/// order, byte for byte.
///
/// The export is written to a temporary file first, in one snapshot read at the store's pace,
/// and the file is then sent at the client's pace: a slow client never holds a read of the store.
struct Download: Sendable {
    static let formats: [String: (ExportFormat, String)] = [
        "csv": (.csv, "text/csv; charset=utf-8"), "ndjson": (.ndjson, "application/x-ndjson"),
        "json": (.json, "application/json; charset=utf-8"),
    ]
    static let chunkSize = 64 * 1024

    let browser: StoreBrowser

    func response(entity: String, format name: String, query: ServeQuery) async throws
        -> Response
    {
        guard let (format, contentType) = Self.formats[name] else {
            throw ServeError.notFound("no download format '\(name)'; formats: csv, json, ndjson")
        }
        let view = try EntityPageQuery(entity: entity, query: query)
        let request = try view.exportRequest()
        let exporter = browser.exporter
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedwork-download-\(UUID().uuidString).\(name)").path
        let size: Int
        do {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let file = FileHandle(forWritingAtPath: path)
            else { throw ServeError(.internalServerError, "cannot create a temporary file for the download") }
            defer { try? file.close() }
            try await exporter.export(
                request, format: format, to: ExportOutput(descriptor: file.fileDescriptor, name: path))
            size = Int(try file.offset())
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw ServeError.from(error)
        }
        let filename = "\(entity).\(name)"
        return Response(
            status: .ok,
            headers: [
                .contentType: contentType,
                .contentDisposition: "attachment; filename=\"\(filename.filter { $0 != "\"" })\"",
            ],
            body: ResponseBody(contentLength: size) { writer in
                defer { try? FileManager.default.removeItem(atPath: path) }
                guard let file = FileHandle(forReadingAtPath: path) else { return }
                defer { try? file.close() }
                while let chunk = try file.read(upToCount: Self.chunkSize), !chunk.isEmpty {
                    try await writer.write(ByteBuffer(bytes: chunk))
                }
                try await writer.finish(nil)
            })
    }
}
