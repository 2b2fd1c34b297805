/// The scaffold's `Fixtures/NAME.json`: a sample response of the API, which the feed of
/// feeds.yaml reads and the recorded suite holds.
enum FixtureTemplate {
    static let sample = ##"""
        {
          "items": [
            { "id": 1, "name": "Anvil", "stock": 12 },
            { "id": 2, "name": "Rocket skates", "stock": 3 },
            { "id": 3, "name": "Giant magnet" }
          ]
        }

        """##
}
