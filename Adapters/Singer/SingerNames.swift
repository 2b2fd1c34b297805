/// Entity and column names from Singer stream and property names.
///
/// Feedwork's names are letters, digits and single underscores, starting with a letter (names
/// starting with `_` belong to its own columns); SQLite ignores their case. Stream and property
/// names are free text (`public-users`, `createdAt`, `_sdc_extracted_at`), so they are turned
/// into such names: `public_users`, `created_at`, `sdc_extracted_at`.
enum SingerNames {
    /// `name` as a Feedwork name: unchanged when it already is one, else camel case split with
    /// `_`, other characters as `_`, lowercased, and `field_` in front when it would not start
    /// with a letter.
    static func sanitized(_ name: String) -> String {
        if isPlain(name) { return name }
        var result = ""
        for character in name {
            if character.isASCII, character.isLetter || character.isNumber {
                if character.isUppercase, let last = result.last, last.isLowercase || last.isNumber { result += "_" }
                result.append(character)
            } else if !result.hasSuffix("_") {
                result += "_"
            }
        }
        result = result.trimmingCharacters(in: ["_"]).lowercased()
        while result.contains("__") { result = result.replacingOccurrences(of: "__", with: "_") }
        if result.first?.isLetter != true { result = "field" + (result.isEmpty ? "" : "_" + result) }
        return result
    }

    /// Sanitized names for `names`, in order, made distinct regardless of case by `_2`, `_3`...
    /// suffixes (`id` and `ID` become `id` and `id_2`).
    static func distinct(_ names: [String]) -> [String] {
        var taken: Set<String> = []
        return names.map { name in
            let base = sanitized(name)
            var candidate = base
            var suffix = 2
            while taken.contains(candidate.lowercased()) {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            taken.insert(candidate.lowercased())
            return candidate
        }
    }

    private static func isPlain(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !name.contains("__")
    }
}
