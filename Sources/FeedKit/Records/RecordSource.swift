/// The response records came from, kept with each of their rejects in `_rejects`: its URL and
/// its page, so a user can find the payload a reject was read from.
///
/// Give a batch the source of the response it was mapped from:
/// `RecordBatch(records: ..., rejects: ..., source: RecordSource(response))`.
public struct RecordSource: Sendable, Hashable {
    /// The request's URL, secrets replaced by `***` (the pass redacts it again when it stores it).
    public var url: String
    /// The 1-based page: the response's position among those of the pass; `nil` when unknown.
    public var page: Int?

    /// A source at `url` (secrets as `***`), the `page`th response of its pass when known.
    public init(url: String, page: Int? = nil) {
        self.url = url
        self.page = page
    }

    /// The source of `response`: its URL and its position in the pass (``FetchResponse/page``).
    public init(_ response: FetchResponse) {
        self.init(url: response.url, page: response.page)
    }
}
