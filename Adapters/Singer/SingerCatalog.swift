import FeedKit
import Foundation

/// A Singer catalog (`--catalog FILE`): the streams a tap can emit with their schemas, read
/// when the feed is made so its entities are known before any pass.
///
/// Each entry of `streams` gives `tap_stream_id` (or `stream`), `schema`, and its key in
/// `key_properties` or in the stream's metadata (`table-key-properties`); a stream whose
/// metadata says `selected: false` is left out.
enum SingerCatalog {
    /// The selected streams of `catalog`, made into entities with the feed's stream options.
    ///
    /// - Throws: a message saying what is wrong with the catalog.
    static func streams(_ catalog: JSONValue, options: [String: SingerAdapter.StreamOptions] = [:]) throws(SingerError
        .Reason) -> [SingerStream]
    {
        guard let entries = catalog["streams"]?.arrayValue else {
            throw .file("the catalog has no \"streams\" list")
        }
        var result: [SingerStream] = []
        for (index, entry) in entries.enumerated() {
            guard let name = (entry["tap_stream_id"] ?? entry["stream"])?.stringValue, !name.isEmpty else {
                throw .file("catalog stream \(index + 1) has no \"tap_stream_id\" or \"stream\"")
            }
            let metadata = streamMetadata(entry)
            if metadata?["selected"]?.boolValue == false { continue }
            guard let schema = entry["schema"], case .object = schema else {
                throw .file("catalog stream '\(name)' has no \"schema\" object")
            }
            let key = names(entry["key_properties"]) ?? names(metadata?["table-key-properties"]) ?? []
            let bookmarks =
                names(entry["bookmark_properties"]) ?? names(metadata?["replication-key"].map { .array([$0]) }) ?? []
            result.append(
                try SingerSchemaMapping.stream(
                    name, schema: schema, keyProperties: key, bookmarkProperties: bookmarks, options: options[name]))
        }
        return result
    }

    /// The metadata of the stream itself: the entry whose breadcrumb is empty.
    private static func streamMetadata(_ entry: JSONValue) -> JSONValue? {
        entry["metadata"]?.arrayValue?.first { $0["breadcrumb"]?.arrayValue?.isEmpty == true }?["metadata"]
    }

    private static func names(_ value: JSONValue?) -> [String]? {
        value?.arrayValue.map { $0.compactMap(\.stringValue) }
    }
}
