import Dispatch
import Foundation

/// MCP's stdio transport: one JSON-RPC message per line on standard input, each answer on
/// one line of standard output, nothing else there (logs go to standard error). Messages are
/// answered in order, one at a time; the server ends when standard input does.
public enum MCPStdio {
    /// Answers the messages of standard input with `server` until it ends.
    public static func serve(_ server: MCPServer) async {
        while let line = await nextLine() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            if let answer = await server.answer(line) {
                FileHandle.standardOutput.write(Data((answer + "\n").utf8))
            }
        }
    }

    /// The next line of standard input, read on a thread of Dispatch's (the read blocks), or
    /// `nil` at its end.
    private static func nextLine() async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: readLine(strippingNewline: true)) }
        }
    }
}
