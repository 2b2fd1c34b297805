import Foundation

/// Percent-encoding of the links serve writes (query values and path segments), and quoting of
/// shell words. Every byte outside the unreserved characters is encoded (a space as `%20`, a plus
/// as `%2B`, `&`, `#`, `%` and UTF-8 bytes as `%XX`), so ``ServeQuery`` and a path parameter read
/// each value back whole.
enum URLText {
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                result.append(Character(UnicodeScalar(byte)))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    static func shellQuoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=,:@".contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
