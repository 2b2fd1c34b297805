import FeedKit
import FeedPricing

/// The European Central Bank's euro reference rates (`eurofxref-daily.xml`, and the 90-day and
/// historical files of the same shape) to `exchange_rate` records, free of I/O.
///
/// ```xml
/// <gesmes:Envelope ...>
///   <Cube>
///     <Cube time='2017-03-08'>
///       <Cube currency='USD' rate='1.0556'/>
/// ```
///
/// Each rate is EUR -> `currency`, kept as the exact text the bank published (`310.70`), as of
/// its reference day at 00:00 UTC (the bank fixes them at 14:10 CET and publishes them around
/// 16:00 CET; the day is what identifies them).
enum ECBRates {
    /// The currency the bank quotes every rate from.
    static let base = "EUR"

    /// The rates of `response`, keeping only `targets` when given.
    ///
    /// - Throws: ``PayloadError`` naming the element path when the body is not XML or not the
    ///   bank's shape; a single rate that is not one is a reject.
    static func rates(from response: FetchResponse, feed: String, targets: [String]? = nil) throws -> RecordBatch {
        let document = try response.xml(feed: feed)
        func shapeError(_ path: String, _ message: String) -> PayloadError {
            PayloadError(feed: feed, url: response.url, path: path, message: message)
        }
        guard let envelope = document["Envelope"] else {
            let root = document.objectValue?.members.first?.key ?? "none"
            throw shapeError("Envelope", "not the ECB's reference rates: the root element is '\(root)', not 'Envelope'")
        }
        guard let days = envelope["Cube"]?["Cube"] else {
            throw shapeError("Envelope/Cube/Cube", "missing; the rates come in one Cube element per day")
        }
        let wanted = targets.map(Set.init)
        var result = RecordBatch()
        for (dayIndex, day) in elements(days).enumerated() {
            let dayPath = "Envelope/Cube/Cube[\(dayIndex)]"
            guard let time = day["@time"]?.stringValue, let asOf = timestamp(ofDay: time) else {
                throw shapeError(
                    dayPath + "/@time",
                    "expected the rates' day as yyyy-MM-dd, found \(day["@time"]?.stringValue.map { "'\($0)'" } ?? "nothing")"
                )
            }
            for (index, cube) in elements(day["Cube"] ?? .null).enumerated() {
                let path = "\(dayPath)/Cube[\(index)]"
                func reject(_ reason: String) {
                    result.rejects.append(
                        Reject(entity: "exchange_rate", reason: reason, path: path, raw: cube.jsonText))
                }
                guard let text = cube["@currency"]?.stringValue, let target = CurrencyCode.normalized(text),
                    target == text
                else {
                    reject(
                        "the currency must be a three-letter upper-case code, found \(cube["@currency"]?.jsonText ?? "nothing")"
                    )
                    continue
                }
                if let wanted, !wanted.contains(target) { continue }
                guard let literal = cube["@rate"]?.stringValue, ExactDecimal(literal) != nil else {
                    reject("the rate must be a decimal number, found \(cube["@rate"]?.jsonText ?? "nothing")")
                    continue
                }
                switch CurrencyMapping.exactRate(.number(literal)) {
                case .success(let rate):
                    result.records.append(
                        try EntityRecord(
                            schema: CurrencyAdapter.rateSchema,
                            fields: [
                                "source": .text(base), "target": .text(target), "rate": .text(rate),
                                "as_of": .text(asOf),
                            ]))
                case .failure(let error):
                    reject(error.reason)
                }
            }
        }
        if let targets {
            let missing = targets.filter { code in
                !result.records.contains { $0.value("target", in: CurrencyAdapter.rateSchema) == .text(code) }
            }
            if !missing.isEmpty { result.notes.append("no rate for \(missing.joined(separator: ", "))") }
        }
        return result
    }

    /// `2017-03-08` as `2017-03-08T00:00:00Z`, or `nil` when it is not a day of the calendar.
    static func timestamp(ofDay text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            CivilTime.unixSeconds(year: year, month: month, day: day) != nil
        else { return nil }
        return "\(text)T00:00:00Z"
    }

    /// A repeated element's occurrences, or the one element; none for `null`.
    private static func elements(_ value: JSONValue) -> [JSONValue] {
        switch value {
        case .array(let items): items
        case .null: []
        default: [value]
        }
    }
}
