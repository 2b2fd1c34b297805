/// An event in `_outbox` waiting for delivery, on every store: its id and its URL (secrets
/// sealed).
package struct OutboxEvent: Sendable {
    var id: Int64
    var url: String
}
