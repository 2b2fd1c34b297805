/// The adapter SDK itself.
public enum FeedSDK {
    /// FeedKit's version, which `feedwork adapters --json` reports as `feedkit_version`: what an
    /// adapter built in a package of its own was written against.
    public static let version = "0.1.0"
}
