import FeedKit
import FeedPricing
import Foundation

/// Parse and map of the currency list and the live quotes, free of I/O so each can be tested alone.
enum CurrencyMapping {
    /// Rates outside these bounds are not exchange rates (and would overflow `Decimal` in pricing).
    static let maximumRateExponent = 30
    /// `Decimal` holds 38 significant digits exactly.
    static let maximumRateDigits = 38
    /// Unix seconds of 9999-12-31T23:59:59Z.
    static let latestTimestamp: Int64 = 253_402_300_799

    /// `{"success":true,"currencies":{"AED":"United Arab Emirates Dirham",...}}` to `currency` records.
    ///
    /// - Throws: ``CurrencyAPIError`` for an error body, ``PayloadError`` for a body of another shape.
    static func currencies(from response: FetchResponse, feed: String) throws -> RecordBatch {
        let document = try successfulDocument(response, feed: feed)
        guard let currencies = document["currencies"]?.objectValue else {
            throw PayloadError(
                feed: feed, url: response.url, path: "$.currencies",
                message: "expected an object of code to name, found \(document["currencies"]?.kindName ?? "nothing")")
        }
        var result = RecordBatch()
        for (code, value) in currencies.members {
            let path = "$.currencies.\(code)"
            let raw = JSONValue.object(JSONObject([(code, value)])).jsonText
            guard let normalized = CurrencyCode.normalized(code), normalized == code else {
                result.rejects.append(
                    Reject(
                        entity: "currency", reason: "'\(code)' is not a three-letter upper-case code", path: path,
                        raw: raw))
                continue
            }
            guard let name = value.stringValue, !name.isEmpty else {
                result.rejects.append(
                    Reject(
                        entity: "currency", reason: "the name must be a non-empty string, found \(value.kindName)",
                        path: path, raw: raw))
                continue
            }
            result.records.append(
                try EntityRecord(
                    schema: CurrencyAdapter.currencySchema, fields: ["code": .text(code), "name": .text(name)]))
        }
        return result
    }

    /// `{"success":true,"timestamp":…,"source":"USD","quotes":{"USDEUR":0.9,…}}` to `exchange_rate`
    /// records, keeping only `targets` when given.
    ///
    /// Quotes are parsed from their literal text, so `1`, `0.917215` and `9.17215e-1` are exact.
    /// - Throws: ``CurrencyAPIError`` for an error body, ``PayloadError`` for a body of another shape.
    static func rates(from response: FetchResponse, feed: String, targets: [String]? = nil) throws -> RecordBatch {
        let document = try successfulDocument(response, feed: feed)
        func shapeError(_ path: String, _ message: String) -> PayloadError {
            PayloadError(feed: feed, url: response.url, path: path, message: message)
        }
        guard let timestamp = document["timestamp"] else {
            throw shapeError("$.timestamp", "missing; the quotes need a time")
        }
        guard let seconds = timestamp.int64Value, (0...latestTimestamp).contains(seconds) else {
            throw shapeError(
                "$.timestamp",
                "expected Unix seconds, found \(timestamp.numberText ?? timestamp.kindName)")
        }
        guard let sourceValue = document["source"] else {
            throw shapeError("$.source", "missing; the quotes need a source currency")
        }
        guard let text = sourceValue.stringValue, let source = CurrencyCode.normalized(text), source == text else {
            throw shapeError(
                "$.source",
                "expected a three-letter upper-case code, found \(sourceValue.stringValue.map { "'\($0)'" } ?? sourceValue.kindName)"
            )
        }
        guard let quotes = document["quotes"]?.objectValue else {
            throw shapeError(
                "$.quotes",
                "expected an object of SOURCE+TARGET to rate, found \(document["quotes"]?.kindName ?? "nothing")")
        }
        let asOf = CivilTime(unixSeconds: seconds).iso8601
        let wanted = targets.map(Set.init)
        var result = RecordBatch()
        for (pair, value) in quotes.members {
            let path = "$.quotes.\(pair)"
            let raw = JSONValue.object(JSONObject([(pair, value)])).jsonText
            func reject(_ reason: String) {
                result.rejects.append(Reject(entity: "exchange_rate", reason: reason, path: path, raw: raw))
            }
            guard pair.count == 6, pair.hasPrefix(source),
                let target = CurrencyCode.normalized(String(pair.dropFirst(3))),
                pair.hasSuffix(target)
            else {
                reject("'\(pair)' is not \(source) followed by a three-letter currency code")
                continue
            }
            if let wanted, !wanted.contains(target) { continue }
            let rate: String
            switch exactRate(value) {
            case .success(let text): rate = text
            case .failure(let reason):
                reject(reason.reason)
                continue
            }
            result.records.append(
                try EntityRecord(
                    schema: CurrencyAdapter.rateSchema,
                    fields: [
                        "source": .text(source), "target": .text(target), "rate": .text(rate), "as_of": .text(asOf),
                    ]))
        }
        if let targets {
            let missing = targets.filter { code in
                !result.records.contains { $0.value("target", in: CurrencyAdapter.rateSchema) == .text(code) }
            }
            if !missing.isEmpty { result.notes.append("no quote for \(missing.joined(separator: ", "))") }
        }
        return result
    }

    /// A quote's exact decimal text, or why it is not a rate.
    static func exactRate(_ value: JSONValue) -> Swift.Result<String, RecordError> {
        guard let literal = value.numberText else {
            return .failure(RecordError(reason: "the rate must be a number, found \(value.kindName)"))
        }
        guard let decimal = ExactDecimal(literal) else {
            return .failure(RecordError(reason: "the rate \(literal) is out of range"))
        }
        guard !decimal.isNegative, decimal.digits != "0" else {
            return .failure(RecordError(reason: "the rate must be more than 0, found \(literal)"))
        }
        let magnitude = decimal.digits.count + decimal.exponent
        guard decimal.digits.count <= maximumRateDigits, abs(magnitude) <= maximumRateExponent else {
            return .failure(
                RecordError(reason: "the rate \(literal) is out of range (more than 38 digits or beyond 1e±30)"))
        }
        return .success(decimal.normalized)
    }

    /// The body as a JSON object whose `success` is true.
    ///
    /// - Throws: ``CurrencyAPIError`` when the API reported an error (with HTTP 200),
    ///   ``PayloadError`` when the body is not such an object.
    static func successfulDocument(_ response: FetchResponse, feed: String) throws -> JSONValue {
        let document = try response.json(feed: feed)
        guard case .object = document else {
            throw PayloadError(
                feed: feed, url: response.url, path: "$", message: "expected an object, found \(document.kindName)")
        }
        let success = document["success"]
        if success == .bool(false) || document["error"] != nil && success != .bool(true) {
            let error = document["error"]
            throw CurrencyAPIError(
                feed: feed, url: response.url, code: error?["code"]?.int64Value, type: error?["type"]?.stringValue,
                info: error?["info"]?.stringValue)
        }
        guard success == .bool(true) else {
            throw PayloadError(
                feed: feed, url: response.url, path: "$.success",
                message: "expected true or false, found \(success?.kindName ?? "nothing")")
        }
        return document
    }
}
