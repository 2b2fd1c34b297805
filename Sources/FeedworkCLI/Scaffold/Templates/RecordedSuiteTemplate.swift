/// The scaffold's recorded fixture suite, `Fixtures/recorded/`, as `feedwork record NAME` writes
/// one: the feed's block (`feed.yaml`), its response (`responses.json`, `responses/001.json`) and
/// the records it must give (`expected/`). `feedwork test` replays it offline through the
/// feed of feeds.yaml that names it with `fixtures:`.
enum RecordedSuiteTemplate {
    /// The suite's files, by their paths inside the suite's folder.
    static func files(_ name: AdapterName) -> [(path: String, text: String)] {
        [
            ("feed.yaml", feedBlock(name)),
            ("responses.json", responses(name)),
            ("responses/001.json", FixtureTemplate.sample),
            ("expected/\(name.entity).ndjson", expectedRecords(name)),
            ("expected/_rejects.ndjson", ""),
        ]
    }

    static func feedBlock(_ name: AdapterName) -> String {
        ##"""
        # Written by `feedwork new adapter \##(name.name)`, as `\##(name.name)-feedwork record \##(name.name)` records a suite.
        # Secrets are ${VAR} here and *** in the responses; `feedwork test` needs none of them.
        feeds:
        - name: \##(name.name)
          adapter: \##(name.name)
          url: Fixtures/\##(name.name).json

        """##
    }

    static func responses(_ name: AdapterName) -> String {
        ##"""
        {
          "responses" : [
            {
              "body" : "responses/001.json",
              "headers" : {

              },
              "method" : "GET",
              "status" : 200,
              "url" : "Fixtures/\##(name.name).json"
            }
          ],
          "started_at" : "2026-01-10T00:00:00.000Z"
        }

        """##
    }

    /// The rows the sample gives, in the key's order, as `feedwork record` writes them.
    static func expectedRecords(_ name: AdapterName) -> String {
        ##"""
        {"_feed":"\##(name.name)","_key":"1","id":1,"name":"Anvil","stock":12}
        {"_feed":"\##(name.name)","_key":"2","id":2,"name":"Rocket skates","stock":3}
        {"_feed":"\##(name.name)","_key":"3","id":3,"name":"Giant magnet","stock":null}

        """##
    }
}
