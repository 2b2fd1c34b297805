import Yams

/// Whether a feed's entry in feeds.yaml names an `http://` or `https://` URL: a hint, read when
/// the config loads, that a pass of the feed will fetch over the network.
///
/// Only a hint: an adapter's built-in URL (the ECB rates when `url:` is left out) is not in the
/// file, and a feed that names one may be served from its cache. `feedwork run` uses it to start
/// loading libcurl early only for feeds that probably fetch; a feed the hint misses loads libcurl
/// at its first transfer, as every other command does.
enum RemoteURLHint {
    /// Whether a scalar anywhere under `node` starts with `http://` or `https://`, in any case.
    static func namesRemoteURL(_ node: Node) -> Bool {
        switch node {
        case .scalar(let scalar):
            let prefix = scalar.string.prefix(8).lowercased()
            return prefix.hasPrefix("http://") || prefix.hasPrefix("https://")
        case .mapping(let mapping):
            return mapping.contains { namesRemoteURL($0.key) || namesRemoteURL($0.value) }
        case .sequence(let sequence):
            return sequence.contains { namesRemoteURL($0) }
        case .alias:
            return false
        }
    }
}
