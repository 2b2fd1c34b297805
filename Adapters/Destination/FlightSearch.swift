import FeedCore
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
        let result = try FlightMapping.parse(body: response.body, url: response.url, feed: pass.feed)
        let today = FlightMapping.day(of: pass.startedAt)
        let earlier = noRepeats ? try destinationsOffered(before: today, in: pass) : nil
        let selection = FlightMapping.select(
            result, top: top, offerDate: today, imageTemplate: imageTemplate, excluding: earlier)
        try await pass.write(selection.records)
        try await pass.reject(selection.rejects)
        if !selection.repeated.isEmpty {
            pass.note(
                "no_repeats: passed over \(selection.repeated.count) offer(s) to destinations offered before: "
                    + selection.repeated.joined(separator: ", "))
        }
        if selection.records.count < top {
            pass.note("\(selection.records.count) of \(top) offers kept; the response had no more")
        }
    }

    /// The URL with `params` appended (http and https only: a file has no query).
    func requestURL(at date: Date) -> String {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return url }
        return URLQuery.appending(params.map { ($0.key, $0.value.render(now: date)) }, to: url)
    }

    /// The destinations this feed offered on days before `day`.
    private func destinationsOffered(before day: String, in pass: FeedPass) throws -> Set<String> {
        let rows = try pass.query(
            """
            SELECT DISTINCT coalesce(destination_city_code, destination_airport) AS destination
            FROM destination WHERE _feed = ? AND kind = ? AND offer_date < ?
            """,
            arguments: [.text(pass.feed), .text(DestinationSchema.flightKind), .text(day)])
        return Set(rows.compactMap { if case .text(let code)? = $0["destination"] { code } else { nil } })
    }
}
