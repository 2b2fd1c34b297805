extension FetchRequest {
    /// The key the response to this request is cached under: the SHA-256 of its method, real
    /// URL and body, in hex.
    ///
    /// The real URL (secrets included) goes into the hash so that requests differing only in a
    /// secret do not share an entry, while the key itself reveals no secret.
    public var cacheKey: String {
        var bytes = Array(method.uppercased().utf8)
        bytes.append(0)
        bytes.append(contentsOf: url.utf8)
        bytes.append(0)
        if let body { bytes.append(contentsOf: body) }
        return SHA256.hexDigest(bytes)
    }
}
