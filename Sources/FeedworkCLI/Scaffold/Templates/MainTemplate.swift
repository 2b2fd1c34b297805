/// The scaffold's `Sources/NAME-feedwork/main.swift`: Feedwork's command line with the built-in
/// adapters and the new one.
enum MainTemplate {
    static func text(_ name: AdapterName) -> String {
        ##"""
        // \##(name.name)-feedwork: Feedwork's whole command line (run, worker, serve, test...) with the built-in
        // adapters and \##(name.name).
        import \##(name.typePrefix)Feed
        import FeedworkAdapters
        import FeedworkCLI

        await Feedwork.main(adapters: builtinAdapters + [\##(name.typePrefix)Adapter.self])

        """##
    }
}
