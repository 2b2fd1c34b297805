import Foundation

/// The targets of an HTTP `Link` header (RFC 8288): `<https://api/items?page=2>; rel="next", <...>; rel="last"`.
///
/// The next page of `link_header` pagination is the target of `rel="next"`.
public enum LinkHeader {
    /// The URI of the first link whose `rel` includes `relation` (case-insensitive), or `nil`.
    public static func target(of header: String, relation: String) -> String? {
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return nil }
            let target = String(rest[rest.index(after: open)..<close])
            // The parameters run to the next link, which starts after a comma outside quotes.
            var index = rest.index(after: close)
            var inQuotes = false
            while index < rest.endIndex {
                let character = rest[index]
                if character == "\"" { inQuotes.toggle() }
                if character == ",", !inQuotes { break }
                index = rest.index(after: index)
            }
            let parameters = rest[rest.index(after: close)..<index]
            if relations(in: parameters).contains(relation.lowercased()) { return target }
            rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
        }
        return nil
    }

    /// The lowercased relation types of `; rel="next prev"` or `; rel=next`.
    private static func relations(in parameters: Substring) -> [String] {
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else {
                continue
            }
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.lowercased().split(separator: " ").map(String.init)
        }
        return []
    }
}
