import Foundation
import Testing

/// Commands that only read the store (`list`, `export`, `price`) work without the secrets the
/// feeds' APIs need; commands that fetch or check (`run`, `validate`) still name an unset one.
@Suite("Commands without the API's secrets")
struct UnsetSecretCommandTests {
    let directory: URL
    /// The secrets a run is given; the other commands run without them.
    let secrets = ["FX_KEY": "fx-key-1234", "SHOP_TOKEN": "shop-token-5678"]

    init() async throws {
        directory = try FeedworkProcess.makeFolder("unset")
        try CurrencyFixtureFiles.copy(into: directory)
        try Data(#"[{"id": 1, "name": "tea"}]"#.utf8).write(to: directory.appendingPathComponent("shop.json"))
        try Data(
            """
            feeds:
              - name: fx
                adapter: currency
                access_key: ${FX_KEY}
                currencies: { url: list.json }
                rates: { url: live.json }
              - name: shop
                adapter: json
                url: shop.json
                auth: { type: bearer, token: "${SHOP_TOKEN}" }
                entity: product
                key: id
                fields: { id: int, name: string }
            """.utf8
        ).write(to: directory.appendingPathComponent("feeds.yaml"))
        let run = try await FeedworkProcess.run(["run"], in: directory, environment: secrets)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func exportNeedsNoSecret() async throws {
        let result = try await FeedworkProcess.run(["export", "product"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"id":1,"name":"tea"}"# + "\n")
    }

    @Test func listNeedsNoSecret() async throws {
        let result = try await FeedworkProcess.run(["list"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("product 1"))
        #expect(result.stdout.contains("fx"))
    }

    @Test func priceNeedsNoSecret() async throws {
        let result = try await FeedworkProcess.run(["price", "milk", "--currency", "EUR"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1.18"))
    }

    @Test func runStillNamesTheUnsetVariable() async throws {
        let result = try await FeedworkProcess.run(["run"], in: directory, environment: ["FX_KEY": "fx-key-1234"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "feeds.yaml:10:34: error: environment variable SHOP_TOKEN is not set (write ${SHOP_TOKEN:-default} for a default)"
            ), "\(result.stderr)")
    }

    @Test func validateStillNamesEveryUnsetVariable() async throws {
        let result = try await FeedworkProcess.run(["validate"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("environment variable FX_KEY is not set"), "\(result.stderr)")
        #expect(result.stderr.contains("environment variable SHOP_TOKEN is not set"), "\(result.stderr)")
    }

    @Test func aStorePathFromAnUnsetVariableIsStillAnErrorForExport() async throws {
        try Data("store: ${DATA}/feeds.sqlite\nfeeds: []\n".utf8).write(
            to: directory.appendingPathComponent("other.yaml"))
        let result = try await FeedworkProcess.run(["export", "product", "-c", "other.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("other.yaml:1:8: error: environment variable DATA is not set"), "\(result.stderr)")
    }
}
