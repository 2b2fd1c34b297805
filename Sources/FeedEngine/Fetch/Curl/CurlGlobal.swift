import CCurl
import FeedKit

/// libcurl's process-wide setup, done once, before the first handle is made.
///
/// libcurl is loaded then, not when the process starts (see `CDynamicLibrary`): commands that
/// fetch nothing never load it, and ``CurlHTTPClient/preload()`` lets one that will fetch load
/// it on another thread while it reads its config and opens its store.
enum CurlGlobal {
    /// Whether libcurl is loaded and `curl_global_init` succeeded. A global `let` is initialized
    /// once, thread-safely.
    static let isInitialized: Bool =
        fw_curl_load() == 1 && fw_curl_global_init(Int(CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32)) == CURLE_OK

    /// Why no transfer can be made when ``isInitialized`` is false: the library's absence, or
    /// its refusal to initialize.
    static var failure: String {
        fw_curl_load() == 1 ? "libcurl could not be initialized" : String(cString: fw_curl_load_error())
    }
}
