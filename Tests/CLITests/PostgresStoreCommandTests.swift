import FeedTestSupport
import Foundation
import Testing

/// Commands on a config whose store is PostgreSQL.
@Suite("feedwork with a PostgreSQL store")
struct PostgresStoreCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("postgres-store")
        let yaml = """
            store: postgres://reader:${PGPASS}@127.0.0.1:1/feeds
            feeds:
              - { name: fruit, adapter: fruit, url: data.json }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func commandsThatDoNotReadPostgreSQLYetSaySoWithoutThePassword() throws {
        for command in [["list"], ["runs"], ["rejects"], ["export", "fruit"], ["price", "milk", "--currency", "EUR"]] {
            let result = try FeedworkProcess.run(command, in: directory, environment: ["PGPASS": "s3cret"])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("does not read a PostgreSQL store yet"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("postgres://reader@127.0.0.1:1/feeds (schema feedwork)"), "\(result.stderr)")
            #expect(!result.stderr.contains("s3cret"))
        }
    }

    @Test func validateNamesTheServerWithoutThePassword() throws {
        let result = try FeedworkProcess.run(["validate"], in: directory, environment: ["PGPASS": "s3cret"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("store postgres://reader@127.0.0.1:1/feeds (schema feedwork)"), "\(result.stdout)")
    }
}
