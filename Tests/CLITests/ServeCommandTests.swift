import FeedTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("feedwork serve")
struct ServeCommandTests {
    let directory: URL

    init() async throws {
        directory = try FeedworkProcess.makeFolder("serve")
        try CurrencyFixtureFiles.copy(into: directory)
        try Data(
            """
            feeds:
              - name: fx
                adapter: currency
                currencies: { url: list.json }
                rates: { url: live.json, max_age: 60m }
            """.utf8
        ).write(to: directory.appendingPathComponent("feeds.yaml"))
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// `feedwork serve --port 0` in the folder, and the URL it says it serves on.
    func startServer(_ arguments: [String] = []) throws -> (Process, URL) {
        let process = Process()
        process.executableURL = FeedworkProcess.executable
        process.arguments = ["serve", "--port", "0"] + arguments
        process.currentDirectoryURL = directory
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.spawn()
        let said = String(
            decoding: errors.fileHandleForReading.readRetryingInterrupts { $0.contains(Data("/\n".utf8)) },
            as: UTF8.self)
        guard let range = said.range(of: #"http://[^ \n]+/"#, options: .regularExpression),
            let url = URL(string: String(said[range]))
        else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: ["said": said])
        }
        return (process, url)
    }

    func get(_ url: URL) async throws -> (Int, String) {
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func thePriceAPIAnswersWhatPriceJSONPrints() async throws {
        let (server, url) = try startServer()
        defer { server.terminate() }
        let (status, body) = try await get(
            URL(string: "api/price?item=milk&item=eggs=2&currency=EUR", relativeTo: url)!)
        let printed = try await FeedworkProcess.run(
            ["price", "milk", "eggs=2", "--currency", "EUR", "--json"], in: directory)
        #expect(status == 200)
        #expect(body.trimmingCharacters(in: .newlines) == printed.stdout.trimmingCharacters(in: .newlines))
    }

    @Test func thePriceAPIRefusesUnknownGoods() async throws {
        let (server, url) = try startServer()
        defer { server.terminate() }
        let (status, body) = try await get(URL(string: "api/price?item=caviar&currency=EUR", relativeTo: url)!)
        #expect(status == 400)
        #expect(body.contains("caviar"))
    }

    @Test func thePriceAPISaysACurrencyIsUnknownAsPriceDoes() async throws {
        let (server, url) = try startServer()
        defer { server.terminate() }
        let (status, body) = try await get(URL(string: "api/price?item=milk&currency=XYZ", relativeTo: url)!)
        let printed = try await FeedworkProcess.run(["price", "milk", "--currency", "XYZ"], in: directory)
        // Not found, as an unknown feed is: which currencies exist is the store's to say.
        #expect(status == 404)
        #expect(body.contains("unknown currency 'XYZ'"))
        #expect(printed.stderr.contains("unknown currency 'XYZ'"))
    }

    @Test func theBasketPageSaysWhatIsWrongWithAQuantity() async throws {
        let (server, url) = try startServer()
        defer { server.terminate() }
        let (status, page) = try await get(URL(string: "basket?Milk=1&Eggs=2.5&currency=EUR", relativeTo: url)!)
        #expect(status == 200)
        #expect(page.contains("the quantity must be a whole number from 1 to"))
        #expect(page.contains("found &#39;2.5&#39;"))
        #expect(!page.contains("id=\"total\""))
    }

    @Test func aStoreGivenByPathNeedsNoConfig() async throws {
        try FileManager.default.removeItem(at: directory.appendingPathComponent("feeds.yaml"))
        let (server, url) = try startServer(["--store", "feeds.sqlite"])
        defer { server.terminate() }
        let (status, body) = try await get(URL(string: "api/feeds", relativeTo: url)!)
        #expect(status == 200)
        #expect(body.contains("\"fx\""))
    }

    /// `serve` listens while it reads the config: a broken one still ends it with the file's
    /// line and column and status 2, rather than leaving a server that answers nothing.
    @Test func aBrokenConfigEndsServeWithItsPlace() async throws {
        let broken = try FeedworkProcess.makeFolder("serve-broken-config")
        try Data("feeds: [ {\n".utf8).write(to: broken.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["serve", "--port", "0"], in: broken)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("feeds.yaml:2:1: error: YAML syntax"), "\(result.stderr)")
    }

    @Test func anAddressOffLoopbackWithoutATokenIsRefused() async throws {
        let result = try await FeedworkProcess.run(["serve", "--host", "0.0.0.0", "--port", "0"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("FEEDWORK_SERVE_TOKEN"))
    }
}
