import FeedKit

/// One pass over an offset/limit list of deliveries: page after page until an empty one.
struct DeliveryFeed {
    let paging: DeliveryPaging

    func run(_ pass: FeedPass) async throws {
        let paginator = paging.paginator
        var next: PageRequest? = paginator.first
        var fetched = 0
        while let page = next {
            guard fetched < paginator.maxPages else {
                pass.note(
                    "stopped after max_pages (\(paging.maxPages)) pages of \(paging.limit) without reaching an empty page; "
                        + "later deliveries were not read")
                return
            }
            let url = paging.url(of: page)
            let response = try await pass.fetch(FetchRequest(url: url, acceptsNotFound: paging.isFileSource))
            fetched += 1
            // Only a file source accepts a 404: the missing file after the last page.
            if response.status == 404 { return }
            var batch = try DeliveryMapping.map(response: response, feed: pass.feed)
            // An empty page is the end of the list.
            let facts = PageFacts(recordCount: batch.records.count + batch.rejects.count)
            batch.source = RecordSource(response)
            if facts.recordCount > 0 { try await pass.write(batch) }
            next = paginator.next(after: page, facts: facts, url: url)
        }
    }
}
