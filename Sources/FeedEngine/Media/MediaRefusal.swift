/// Why a fetched body was not mirrored although the server answered it: its bytes are not an
/// image Feedwork keeps.
struct MediaRefusal: Error, Sendable, CustomStringConvertible {
    /// The URL, redacted.
    var url: String
    /// The `Content-Type` the server declared, if any.
    var declaredType: String?
    /// Whether the body looks like SVG, which is refused because it can carry script.
    var isSVG: Bool

    var description: String {
        let declared = declaredType.map { " (served as \($0))" } ?? ""
        let what =
            isSVG
            ? "is SVG, which is not mirrored since it can carry script"
            : "is not a JPEG, PNG, GIF or WebP image by its own bytes"
        return "\(url): the body\(declared) \(what)"
    }
}
