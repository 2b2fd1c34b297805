import FeedStore

extension ConfigLoader {
    /// `error` with each unknown adapter's problem saying which module the feed last ran it
    /// from, as the config's store recorded it (`_runs.adapter_module`): what a `feedwork`
    /// built without that package needs to be told. Unchanged when the config has other
    /// problems, there is no store yet, or the feed never ran with that adapter.
    public func namingLastModules(in error: ConfigError, path: String) async -> ConfigError {
        guard !error.unknownAdapters.isEmpty else { return error }
        var lenient = self
        lenient.unknownAdapters = .skipFeed
        lenient.unsetVariables = .placeholder
        guard let config = try? lenient.load(path: path), (try? config.storeExists()) == true,
            let store = try? config.readingStore()
        else { return error }
        var error = error
        for use in error.unknownAdapters {
            guard let module = try? await store.lastModule(of: use.adapter, feed: use.feed) else { continue }
            for index in error.problems.indices
            where error.problems[index].location == use.location
                && error.problems[index].message.hasPrefix("unknown adapter")
            {
                error.problems[index].message +=
                    "; feed '\(use.feed)' last ran with it from module \(module): run a feedwork built with"
                    + " the package that provides \(module)"
            }
        }
        return error
    }
}
