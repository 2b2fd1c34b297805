/// An event in `_outbox` waiting for delivery, on every store: its id and its URL (secrets
/// sealed).
package struct OutboxEvent: Sendable {
    package var id: Int64
    package var url: String

    package init(id: Int64, url: String) {
        self.id = id
        self.url = url
    }
}
