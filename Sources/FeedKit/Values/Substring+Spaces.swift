/// Trimming spaces without Foundation.
extension Substring {
    /// The text without the spaces and tabs at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` gives (tabs and Unicode's space separators), in
    /// Swift alone. Foundation's goes through `NSString`, and its first use in a process costs
    /// a check of a conformance that scans all of the program's conformance records, on the
    /// way of every config load. Public for adapters, which trim option and payload text alike.
    public var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isSpace($0) }),
            let last = scalars.lastIndex(where: { !Self.isSpace($0) })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " || scalar == "\t" : scalar.properties.generalCategory == .spaceSeparator
    }
}

/// Trimming spaces without Foundation.
extension String {
    /// The text without the spaces and tabs at either end (``Substring/trimmingSpaces``).
    public var trimmingSpaces: String { self[...].trimmingSpaces }
}
