import CCurl
import FeedKit

/// libcurl's process-wide setup, done once, before the first handle is made.
enum CurlGlobal {
    /// Whether `curl_global_init` succeeded. A global `let` is initialized once, thread-safely.
    static let isInitialized: Bool = curl_global_init(Int(CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32)) == CURLE_OK
}
