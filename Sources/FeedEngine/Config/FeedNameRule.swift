import FeedKit

/// What a feed name may be. Names are printed in reports, stored in every row (`_feed`), typed
/// on command lines (`--feed NAME`) and compared byte for byte, so they are short plain ASCII:
/// 1 to 64 letters, digits, `-`, `_` or `.`. That rules out look-alikes (`fruit-a` and
/// `fruit-а` with a Cyrillic `а`) and names too long to show, instead of warning about them.
/// A name may not come from `${VAR}`: it would be printed and stored unredacted.
enum FeedNameRule {
    static let maximumLength = 64

    /// What is wrong with `name`, or nil.
    static func problem(_ name: String, redactor: Redactor) -> String? {
        let shown = name.count > 40 ? "\(name.prefix(40))…' (\(name.count) characters" : "\(name)'"
        if name.count > maximumLength || name.isEmpty
            || !name.unicodeScalars.allSatisfy({ $0.isASCII && Self.allowed($0) })
        {
            var message =
                "feed name '\(shown) must be non-empty, without spaces: 1 to \(maximumLength) ASCII letters, digits, '-', '_' or '.'"
            if let foreign = name.unicodeScalars.first(where: { !$0.isASCII }) {
                let code = String(foreign.value, radix: 16, uppercase: true)
                message +=
                    " ('\(foreign)' is U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code), not ASCII)"
            }
            return message
        }
        if redactor.leaks(name) {
            return
                "feed name '***' comes from an environment variable; names are printed and stored as they are, so write it in the file"
        }
        return nil
    }

    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }
}
