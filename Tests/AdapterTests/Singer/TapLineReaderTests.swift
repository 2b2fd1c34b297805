import Foundation
import Testing

@testable import SingerFeed

/// The thread that reads a tap's output, and what is left when its consumer stops early.
@Suite("Singer: the tap's line reader")
struct TapLineReaderTests {
    /// A consumer that takes one of many lines and goes away leaves the reader's room partly
    /// used; freeing the reader then must not trap (a semaphore freed below its initial value
    /// crashed the whole process).
    @Test func aReaderWhoseConsumerStopsEarlyIsFreedWithoutATrap() async throws {
        let pipe = Pipe()
        let lines = (1...20).map { #"{"type":"RECORD","n":\#($0)}"# }.joined(separator: "\n") + "\n"
        try pipe.fileHandleForWriting.write(contentsOf: Data(lines.utf8))
        try pipe.fileHandleForWriting.close()
        var reader: TapLineReader? = TapLineReader(pipe.fileHandleForReading, capacity: 4, label: "test")
        var taken = 0
        if let stream = reader?.lines {
            for try await _ in stream {
                taken += 1
                break
            }
        }
        reader?.abandon()
        // The reading thread, which holds the reader, ends once it sees the consumer gone; the
        // reader (and its semaphore) is freed with it.
        weak let freed = reader
        reader = nil
        let deadline = ContinuousClock.now + .seconds(60)
        while freed != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(freed == nil, "the reading thread did not end")
        #expect(taken == 1)
    }
}
