import FeedKit

/// The usage statistics protocol of the fruit app: `GET {stats_url}?event=NAME&data=VALUE`.
enum FruitStats {
    enum Event: String {
        /// Milliseconds the data request took.
        case load
        /// Milliseconds from the start of the pass to the data being committed and queryable.
        case display
        /// Why the pass failed (URL-encoded by the query string).
        case error
    }

    static func url(_ statsURL: String, event: Event, data: String) -> String {
        URLQuery.appending([("event", event.rawValue), ("data", data)], to: statsURL)
    }
}
