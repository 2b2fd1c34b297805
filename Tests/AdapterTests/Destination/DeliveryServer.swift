import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation

/// A loopback stand-in for the deliveries API: the items of a fixture served by `offset` and
/// `limit`, with the live API's failures scripted in.
///
/// A missing, negative or non-numeric `offset` or `limit` is answered with 400, as the live API
/// did. `failing` picks requests (by their number, 1 for the first) answered with 500.
enum DeliveryServer {
    static func start(
        items: [JSONValue], failing: @escaping @Sendable (LoopbackRequest) -> Bool = { _ in false }
    ) throws -> LoopbackServer {
        try LoopbackServer { request in
            guard request.path == "/deliveries" else { return .status(404) }
            guard let offset = request.query("offset").flatMap(Int.init), offset >= 0,
                let limit = request.query("limit").flatMap(Int.init), limit >= 0
            else { return .status(400) }
            if failing(request) { return .status(500) }
            let page = items.dropFirst(offset).prefix(limit)
            return .json(JSONValue.array(Array(page)).jsonText)
        }
    }

    /// The 70 deliveries of the test fixture.
    static func seventyDeliveries() throws -> [JSONValue] {
        try JSONParser.parse(try TestFixtures.data("destination/deliveries-70.json")).arrayValue ?? []
    }
}
