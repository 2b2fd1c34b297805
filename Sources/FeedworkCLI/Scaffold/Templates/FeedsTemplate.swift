/// The scaffold's feeds.yaml: one feed of the new adapter reading the sample file, so
/// `swift run feedwork run` works offline, and its recorded suite for `swift run feedwork test`.
enum FeedsTemplate {
    static func text(_ name: AdapterName) -> String {
        ##"""
        # The config of \##(name.name)-feedwork: `swift run \##(name.name)-feedwork run` runs the feed below offline, from
        # Fixtures/\##(name.name).json. Point `url` at the live API to load real data.
        store: feeds.sqlite
        feeds:
          - name: \##(name.name)
            adapter: \##(name.name)
            url: Fixtures/\##(name.name).json
            # The recorded suite that `swift run \##(name.name)-feedwork test` replays; `swift run \##(name.name)-feedwork
            # record \##(name.name)` records it again from `url`.
            fixtures: Fixtures/recorded

        """##
    }
}
