import FeedKit
import Foundation

/// One pass over a flight search: the day's top offers, ranked.
struct FlightSearch: Sendable {
    let url: String
    let params: [(key: String, value: TemplatedString)]
    let top: Int
    let imageTemplate: ImageTemplate
    let noRepeats: Bool

    func run(_ pass: FeedPass) async throws {
        let request = FetchRequest(url: requestURL(at: pass.startedAt))
        let response = try await pass.fetch(request)
        let result = try FlightMapping.parse(response: response, feed: pass.feed)
        let today = FlightMapping.day(of: pass.startedAt)
        let earlier = noRepeats ? try await destinationsOffered(before: today, in: pass) : nil
        let selection = FlightMapping.select(
            result, top: top, offerDate: today, imageTemplate: imageTemplate, excluding: earlier)
        var batch = RecordBatch(
            records: selection.records, rejects: selection.rejects, source: RecordSource(response))
        if !selection.repeated.isEmpty {
            batch.notes.append(
                "no_repeats: passed over \(selection.repeated.count) offer(s) to destinations offered before: "
                    + selection.repeated.joined(separator: ", "))
        }
        if let note = Self.shortfallNote(selection, top: top, offered: result.offers.count) {
            batch.notes.append(note)
        }
        try await pass.write(batch)
    }

    /// What a pass that kept fewer offers than `top` asked for and what the response held
    /// (`offered` offers, some rejected or passed over); nil when it kept `top`.
    static func shortfallNote(_ selection: FlightMapping.Selection, top: Int, offered: Int) -> String? {
        guard selection.records.count < top else { return nil }
        var leftOut: [String] = []
        if !selection.rejects.isEmpty { leftOut.append("\(selection.rejects.count) rejected") }
        if !selection.repeated.isEmpty {
            leftOut.append("\(selection.repeated.count) to destinations offered before")
        }
        return "top asks for \(top) offers; the response held \(offered)"
            + (leftOut.isEmpty ? "" : " (\(leftOut.joined(separator: ", ")))")
            + ", so \(selection.records.count) kept"
    }

    /// The URL with `params` appended (http and https only: a file has no query).
    func requestURL(at date: Date) -> String {
        guard FetchRequest.isRemote(url) else { return url }
        return URLQuery.appending(params.map { ($0.key, $0.value.render(now: date)) }, to: url)
    }

    /// The destinations this feed offered on days before `day`, in `flight_offer` and in the
    /// `destination` table of a store written before the split.
    private func destinationsOffered(before day: String, in pass: FeedPass) async throws -> Set<String> {
        let earlier = ["_feed=\(pass.feed)", "offer_date<\(day)"]
        let rows =
            try await pass.storedRows(of: DestinationSchema.flightOffer.name, where: earlier)
            + pass.storedRows(of: DestinationSchema.legacyEntity, where: earlier + ["kind=flight"])
        return Set(
            rows.compactMap { row in
                for column in ["destination_city_code", "destination_airport"] {
                    if case .text(let code)? = row[column] { return code }
                }
                return nil
            })
    }
}
