import Foundation

/// One URL of `_media_urls`.
package struct MediaURLRecord: Sendable, Hashable {
    package var hash: String?
    package var etag: String?
    package var lastModified: String?
    package var checkedAt: Date?
    package var failures: Int
    package var retryAt: Date?

    package init(
        hash: String?, etag: String?, lastModified: String?, checkedAt: Date?, failures: Int, retryAt: Date?
    ) {
        self.hash = hash
        self.etag = etag
        self.lastModified = lastModified
        self.checkedAt = checkedAt
        self.failures = failures
        self.retryAt = retryAt
    }
}

/// An image fetched and checked, ready to store.
package struct FetchedMedia: Sendable {
    package var hash: String
    package var signature: MediaSignature
    package var bytes: Data

    package init(hash: String, signature: MediaSignature, bytes: Data) {
        self.hash = hash
        self.signature = signature
        self.bytes = bytes
    }
}

/// The validators of a fetched image, for the next conditional request.
package struct MediaValidators: Sendable, Hashable {
    package var etag: String?
    package var lastModified: String?

    package init(etag: String?, lastModified: String?) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// An image as `serve` and `export --media` read it.
public struct StoredMedia: Sendable {
    public var hash: String
    /// The media type its signature showed (`image/png`).
    public var type: String
    public var bytes: Data

    package init(hash: String, type: String, bytes: Data) {
        self.hash = hash
        self.type = type
        self.bytes = bytes
    }
}

/// Per feed, what `list` and the overview page show of its media.
public struct MediaSummary: Sendable, Hashable, Codable {
    /// The URLs its rows name in media columns.
    public var referenced: Int
    /// Those mirrored.
    public var mirrored: Int
    /// Those whose last fetch failed and that have no mirrored image.
    public var failed: Int
    /// The bytes of its mirrored images (an image two URLs share counted once).
    public var bytes: Int

    public init(referenced: Int = 0, mirrored: Int = 0, failed: Int = 0, bytes: Int = 0) {
        self.referenced = referenced
        self.mirrored = mirrored
        self.failed = failed
        self.bytes = bytes
    }
}
