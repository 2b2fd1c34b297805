import CCurl
import FeedKit
import Foundation
import Synchronization

/// What one transfer collects from libcurl's callbacks: the body (within its limit) and the
/// headers of the current hop.
///
/// Reached from the C callbacks through an `Unmanaged` pointer passed as `WRITEDATA` and
/// `HEADERDATA`; used only by the worker thread that runs the transfer.
final class CurlTransferState {
    let limit: Int
    private(set) var body = Data()
    private(set) var headers: [String: String] = [:]
    /// Set when the body passed the limit and the transfer was aborted for it.
    private(set) var exceededLimit = false

    /// Set from another thread when the transfer is to be abandoned.
    let cancellation: CurlCancellation

    init(limit: Int, cancellation: CurlCancellation = CurlCancellation()) {
        self.limit = limit
        self.cancellation = cancellation
    }

    /// Appends decoded body bytes. Returns `false` (abort) when they pass the limit.
    func appendBody(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard body.count + count <= limit else {
            exceededLimit = true
            return false
        }
        body.append(bytes, count: count)
        return true
    }

    /// Takes one raw header line, as bytes: `Name: value` with optional spaces or tabs around
    /// the value (RFC 9110), and the line's CR LF. The name is kept in ASCII lower case. A
    /// status line starts a new hop (redirect, `100 Continue`), so the headers gathered so far
    /// are dropped.
    ///
    /// Read byte by byte rather than through `String` and `CharacterSet`, which cost about a
    /// hundred thousand instructions a response: a pass revalidating a thousand pages spends
    /// its time here and in libcurl.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) {
        let bytes = line.bindMemory(to: UInt8.self)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        if end - start >= 5, bytes[start..<start + 5].elementsEqual("HTTP/".utf8) {
            headers.removeAll()
            return
        }
        guard let colon = bytes[start..<end].firstIndex(of: UInt8(ascii: ":")) else { return }
        var nameEnd = colon
        while nameEnd > start, isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
        guard nameEnd > start else { return }
        var valueStart = colon + 1
        while valueStart < end, isSpace(bytes[valueStart]) { valueStart += 1 }
        let name = String(
            decoding: bytes[start..<nameEnd].lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        headers[name] = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<end]), as: UTF8.self)
    }
}

/// libcurl's write callback: hands decoded body bytes to the transfer's ``CurlTransferState``.
/// Returning less than it was given makes libcurl abort with `CURLE_WRITE_ERROR`.
func curlWriteCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let state = Unmanaged<CurlTransferState>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let accepted = UnsafeRawPointer(data).withMemoryRebound(to: UInt8.self, capacity: length) {
        state.appendBody($0, count: length)
    }
    return accepted ? length : 0
}

/// libcurl's header callback: called once per header line of every hop.
func curlHeaderCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let state = Unmanaged<CurlTransferState>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    state.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
    return length
}

/// libcurl's progress callback, called at least once a second during a transfer: a non-zero
/// result aborts it (`CURLE_ABORTED_BY_CALLBACK`), which is how a cancelled task stops waiting.
let curlProgressCallback: fw_xferinfo_callback = { context, _, _, _, _ in
    guard let context else { return 0 }
    let state = Unmanaged<CurlTransferState>.fromOpaque(context).takeUnretainedValue()
    return state.cancellation.isCancelled ? 1 : 0
}

/// Whether a transfer's task was cancelled; set by the task's cancellation handler, read by
/// the worker thread's progress callback.
final class CurlCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    init() {}

    var isCancelled: Bool { flag.load(ordering: .relaxed) }

    func cancel() { flag.store(true, ordering: .relaxed) }
}
