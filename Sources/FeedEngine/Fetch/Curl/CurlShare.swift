import CCurl

/// What the worker threads of one ``CurlHTTPClient`` share: the pool of open connections, the
/// DNS cache and TLS sessions (libcurl's share interface, guarded by a mutex per kind of data).
///
/// With a pool each, a feed fetching two pages at a time opened a connection (and a TLS session)
/// on every one of the eight workers its requests landed on; shared, it keeps two.
///
/// `@unchecked Sendable`: libcurl takes the share's locks around every use of it.
final class CurlShare: @unchecked Sendable {
    private let share: fw_share

    /// `nil` when libcurl refuses a share; handles then keep their own connections.
    init?() {
        guard CurlGlobal.isInitialized else { return nil }
        let share = fw_share_new()
        guard share.share != nil else { return nil }
        self.share = share
    }

    deinit { fw_share_free(share) }

    /// Makes `handle` use the share (which `curl_easy_reset` keeps).
    func attach(_ handle: UnsafeMutableRawPointer) -> CURLcode {
        fw_easy_setopt_share(handle, share.share)
    }
}
