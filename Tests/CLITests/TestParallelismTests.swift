import Foundation
import Testing

/// The test process caps how many tests run at once, so that a plain `swift test` holds few
/// enough file descriptors for Foundation's `Process.run()` (Tests/Parallelism/Parallelism.c).
@Suite struct TestParallelismTests {
    @Test func theTestProcessRunsAtMostSixteenTestsAtOnce() throws {
        let width = try #require(
            ProcessInfo.processInfo.environment["SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"],
            "the width is set before Swift Testing reads it")
        #expect(Int(width).map { $0 > 0 && $0 <= 16 } == true, "width \(width)")
    }
}
