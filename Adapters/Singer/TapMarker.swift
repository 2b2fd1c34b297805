import Foundation

/// What finds every process a tap started, wherever it went: the tap's environment holds
/// `FEEDWORK_TAP=<an id of its own>`, which each process it starts inherits, even one that left
/// the tap's process group and session (as a daemon does) and let go of its pipes. Feedwork
/// looks for it in `/proc/<pid>/environ` of the processes it may signal (its user's).
///
/// A process that replaced its environment (`execve` with another one) is not found.
struct TapMarker: Sendable {
    /// The environment variable that carries the marker.
    static let variable = "FEEDWORK_TAP"

    let value: String

    init() {
        value = UUID().uuidString
    }

    /// The tap's environment: this process's, and the marker.
    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging([Self.variable: value]) { $1 }
    }

    /// The running processes whose environment holds the marker (a zombie's is empty).
    func processes() -> [Int32] {
        #if os(Linux)
            let entry = Array("\(Self.variable)=\(value)\0".utf8)
            let own = getpid()
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
            return names.compactMap { name -> Int32? in
                guard let pid = Int32(name), pid > 1, pid != own else { return nil }
                return Self.environment(of: pid).map { Self.holds(entry, in: $0) } == true ? pid : nil
            }
        #else
            return []
        #endif
    }

    /// The bytes of `/proc/<pid>/environ`, or `nil` when it cannot be read.
    private static func environment(of pid: Int32) -> [UInt8]? {
        let descriptor = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8 << 10)
        // Bounded: an environment is at most a few megabytes.
        for _ in 0..<1024 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// Whether `entry` is one of the NUL-terminated entries of `environment`.
    private static func holds(_ entry: [UInt8], in environment: [UInt8]) -> Bool {
        guard environment.count >= entry.count else { return false }
        var start = 0
        while start + entry.count <= environment.count {
            if environment[start..<(start + entry.count)].elementsEqual(entry) { return true }
            guard let end = environment[start...].firstIndex(of: 0) else { return false }
            start = end + 1
        }
        return false
    }
}
