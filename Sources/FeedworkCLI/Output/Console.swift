import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writing to the terminal: results to stdout, messages and progress to stderr.
enum Console {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether stderr is a terminal (live progress is shown only then).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}
