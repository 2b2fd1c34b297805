import FeedKit

/// One pass over an offset/limit list of deliveries: page after page until an empty one.
struct DeliveryFeed {
    let paging: DeliveryPaging

    func run(_ pass: FeedPass) async throws {
        for page in 0..<paging.maxPages {
            let url = paging.url(offset: paging.offset(ofPage: page))
            let response = try await pass.fetch(FetchRequest(url: url, acceptsNotFound: paging.isFileSource))
            // Only a file source accepts a 404: the missing file after the last page.
            if response.status == 404 { return }
            var batch = try DeliveryMapping.map(response: response, feed: pass.feed)
            // An empty page is the end of the list.
            if batch.records.isEmpty && batch.rejects.isEmpty { return }
            batch.source = RecordSource(response)
            try await pass.write(batch)
        }
        pass.note(
            "stopped after max_pages (\(paging.maxPages)) pages of \(paging.limit) without reaching an empty page; "
                + "later deliveries were not read")
    }
}
