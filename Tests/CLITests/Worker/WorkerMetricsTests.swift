import FeedEngine
import FeedTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `feedwork worker --metrics`: Prometheus's text format, read by Python's own Prometheus
/// client, with counters that match `_runs`; and `/healthz`.
@Suite("feedwork worker: metrics")
struct WorkerMetricsTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("worker-metrics")
    }

    /// Fetches `/metrics` and `/healthz`, parses the metrics with `prometheus_client`'s parser
    /// (which refuses text that breaks the format's rules) and prints the samples as JSON.
    static let reader = """
        import json, sys, urllib.request
        from prometheus_client.parser import text_string_to_metric_families
        base = sys.argv[1]
        text = urllib.request.urlopen(base + "/metrics").read().decode()
        samples = [[s.name, s.labels, s.value] for f in text_string_to_metric_families(text) for s in f.samples]
        health = urllib.request.urlopen(base + "/healthz")
        print(json.dumps({"samples": samples, "health": [health.status, health.read().decode().strip()]}))
        """

    /// The Python with `prometheus_client` (`FEEDWORK_PROMETHEUS_PYTHON`, set by `.ci/run`).
    static var python: String? {
        guard let python = ProcessInfo.processInfo.environment["FEEDWORK_PROMETHEUS_PYTHON"] else {
            let message =
                "FEEDWORK_PROMETHEUS_PYTHON is not set (a python3 with prometheus_client); metrics test skipped"
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record(Comment(rawValue: message)) }
            print(message)
            return nil
        }
        return python
    }

    struct Scrape {
        var samples: [(name: String, labels: [String: String], value: Double)]
        var health: (status: Int, text: String)

        func value(_ name: String, _ labels: [String: String]) -> Double? {
            samples.first { $0.name == name && $0.labels == labels }?.value
        }
    }

    func scrape(_ base: String, python: String) async throws -> Scrape? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", Self.reader, base]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.spawn()
        let data = await OwnThread.run { output.fileHandleForReading.readAllRetryingInterrupts() }
        await process.exited()
        guard process.terminationStatus == 0,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let samples = object["samples"] as? [[Any]], let health = object["health"] as? [Any]
        else { return nil }
        return Scrape(
            samples: samples.map { ($0[0] as? String ?? "", $0[1] as? [String: String] ?? [:], $0[2] as? Double ?? 0) },
            health: (health[0] as? Int ?? 0, health[1] as? String ?? ""))
    }

    /// A port no one listens on now.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try #require(bind(socket, $0, length) == 0)
                try #require(getsockname(socket, $0, &length) == 0)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func metricsParseAsPrometheusTextAndTheirCountersMatchTheRuns() async throws {
        guard let python = Self.python else { return }
        let good = try WorkerConfig.server()
        try WorkerConfig.write(feeds: [("f1", "1h"), ("f2", "1h")], server: good, directory: directory)
        let broken = try LoopbackServer { _ in LoopbackReply.json("this is not JSON") }
        var yaml = try String(contentsOf: directory.appendingPathComponent("feeds.yaml"), encoding: .utf8)
        yaml += "  - { name: f3, adapter: json, url: \"\(broken.url("/"))\", every: 1h, spread: false, "
        yaml += "entity: item, key: id, "
        yaml += "fields: { id: int, pass: int } }\n"
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let port = try Self.freePort()
        let worker = try FeedworkProcess.startCollecting(
            ["worker", "--metrics", "127.0.0.1:\(port)"], in: directory)
        defer { worker.stop(SIGKILL) }
        let base = "http://127.0.0.1:\(port)"
        var scraped: Scrape?
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let scrape = try await scrape(base, python: python),
                scrape.samples.filter({ $0.name == "feedwork_passes_total" }).map(\.value).reduce(0, +) == 3
            {
                scraped = scrape
                break
            }
            try await Task.sleep(for: .seconds(0.2))
        }
        let metrics = try #require(scraped, "the metrics never parsed with three passes")
        let runs = try await WorkerRun.all(in: directory)
        #expect(runs.count == 3)
        for run in runs {
            #expect(metrics.value("feedwork_passes_total", ["feed": run.feed, "status": run.status]) == 1, "\(run)")
            #expect(
                metrics.value("feedwork_rows_total", ["feed": run.feed, "outcome": "inserted"]) == Double(run.inserted),
                "\(run)")
            #expect(metrics.value("feedwork_pass_duration_seconds_count", ["feed": run.feed]) == 1)
        }
        #expect(runs.first { $0.feed == "f3" }?.status == "failed")
        #expect(metrics.value("feedwork_requests_total", ["feed": "f1"]) == 1)
        #expect(metrics.value("feedwork_last_success_timestamp_seconds", ["feed": "f1"]) != nil)
        #expect(metrics.value("feedwork_last_success_timestamp_seconds", ["feed": "f3"]) == nil)
        #expect(metrics.value("feedwork_schedule_lag_seconds_count", [:]) == 3)
        #expect(metrics.health.status == 200 && metrics.health.text == "ok", "\(metrics.health)")
    }

    /// The pass takes 10 s (10 pages of 1 s), long enough for Python to start and ask on a
    /// loaded machine while the worker waits for it.
    @Test func healthzSaysStoppingWhileTheLastPassesFinish() async throws {
        guard let python = Self.python else { return }
        let server = try PagedItemsFeed.slowServer(delay: .seconds(1))
        let yaml =
            "feeds:\n" + PagedItemsFeed.yaml(name: "slow", url: server.url("/items"))
            + "\n    every: 1h\n    spread: false\n"
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let port = try Self.freePort()
        let worker = try FeedworkProcess.startCollecting(
            ["worker", "--metrics", "127.0.0.1:\(port)", "--grace", "30s"], in: directory)
        try await server.waitForRequests(2)
        worker.send(SIGTERM)
        try await Task.sleep(for: .seconds(0.3))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            "-c",
            """
            import sys, urllib.request, urllib.error
            try:
                reply = urllib.request.urlopen(sys.argv[1])
                print(reply.status, reply.read().decode().strip())
            except urllib.error.HTTPError as error:
                print(error.code, error.read().decode().strip())
            """,
            "http://127.0.0.1:\(port)/healthz",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.spawn()
        let health = String(
            decoding: await OwnThread.run { output.fileHandleForReading.readAllRetryingInterrupts() }, as: UTF8.self)
        await process.exited()
        let result = await worker.finish()

        #expect(health.trimmingCharacters(in: .whitespacesAndNewlines) == "503 stopping", "\(health)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requestCount == 10, "the pass under way finished within the grace time")
    }
}
