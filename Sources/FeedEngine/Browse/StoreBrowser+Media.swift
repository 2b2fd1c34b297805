import FeedKit

/// Mirrored media for `feedwork serve`: an image by its hash, and the hashes of the URLs a
/// page shows.
extension StoreBrowser {
    /// The mirrored image of `hash` (64 lowercase hex digits), or `nil`: a text that is not a
    /// hash reads nothing.
    public func media(hash: String) async throws -> StoredMedia? {
        guard Self.isMediaHash(hash) else { return nil }
        return try await store.media(hash: hash)
    }

    /// The hashes of those of `urls` whose images are mirrored, by URL.
    public func mediaHashes(urls: [String]) async throws -> [String: String] {
        try await store.mediaHashes(urls: urls)
    }

    /// Per feed: media referenced, mirrored, failed and their bytes.
    public func mediaSummaries() async throws -> [String: MediaSummary] { try await store.mediaSummaries() }

    /// Whether `text` is a SHA-256 as the store names media: 64 lowercase hex digits.
    public static func isMediaHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
