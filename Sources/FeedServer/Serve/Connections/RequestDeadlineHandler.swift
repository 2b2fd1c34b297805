import NIOCore
import NIOHTTPTypes

/// Bounds how long a connection of `feedwork serve` may take to send a request's head: from
/// the moment it opens, and from the end of each answer on a kept-alive connection, the whole
/// head must arrive within ``timeout``, or the connection is closed. A client that connects and
/// says nothing, or sends its headers a byte at a time, holds a connection that long at most.
///
/// It also keeps the connection's entry in ``ClientConnections``, which caps the connections of
/// one client. One handler per connection, on its event loop.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connections: ClientConnections
    private let timeout: TimeAmount
    private var client: String?
    /// Requests whose head arrived and whose answer has not ended.
    private var requestsInProgress = 0
    private var deadline: Scheduled<Void>?

    init(connections: ClientConnections, timeout: TimeAmount) {
        self.connections = connections
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { open(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        open(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        close()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { close() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            requestsInProgress += 1
            if requestsInProgress == 1 {
                deadline?.cancel()
                deadline = nil
                if let client { connections.setWaiting(ObjectIdentifier(self), client: client, false) }
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), requestsInProgress > 0 {
            requestsInProgress -= 1
            if requestsInProgress == 0 {
                awaitRequest(context)
                if let client { connections.setWaiting(ObjectIdentifier(self), client: client, true) }
            }
        }
        context.write(data, promise: promise)
    }

    /// Registers the new connection with its client and starts waiting for its first request.
    private func open(_ context: ChannelHandlerContext) {
        guard client == nil else { return }
        let client = context.channel.remoteAddress?.ipAddress ?? "unknown"
        self.client = client
        awaitRequest(context)
        connections.opened(ObjectIdentifier(self), client: client, channel: context.channel)
    }

    /// Closes the connection unless a request's head arrives within ``timeout``.
    private func awaitRequest(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func close() {
        deadline?.cancel()
        deadline = nil
        if let client {
            connections.closed(ObjectIdentifier(self), client: client)
            self.client = nil
        }
    }
}

@available(*, unavailable)
extension RequestDeadlineHandler: Sendable {}
