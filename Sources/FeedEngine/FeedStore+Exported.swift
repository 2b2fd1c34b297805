/// The store layer's public types (`StoreLocation`, `RunReport`, `ExportRequest`,
/// `ExportOutput`...) are part of FeedEngine's API, as they were before the store layer became
/// a target of its own: whoever imports FeedEngine (the CLI, the server, adapter tests) sees
/// them without importing FeedStore too. The drivers are not re-exported.
@_exported import FeedStore
