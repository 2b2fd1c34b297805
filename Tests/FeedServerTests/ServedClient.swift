import Foundation
import Hummingbird
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An answer of the server under test.
struct ServedResponse: Sendable {
    var status: HTTPResponse.Status
    /// By lowercased name.
    var headers: [String: String]
    var body: ByteBuffer
}

/// A real HTTP client (Foundation's, on libcurl) of a server on 127.0.0.1: no cookies kept, so
/// each request carries only what the test gives it.
struct ServedClient: Sendable {
    struct BadURI: Error, CustomStringConvertible {
        var uri: String
        var description: String { "not a request target: \(uri)" }
    }

    let port: Int?
    private let session: URLSession

    init(port: Int) {
        self.port = port
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: configuration)
    }

    func execute(uri: String, method: HTTPRequest.Method, headers: [String: String] = [:], body: String? = nil)
        async throws -> ServedResponse
    {
        guard let port, let url = URL(string: "http://127.0.0.1:\(port)\(uri)") else { throw BadURI(uri: uri) }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await session.data(for: request)
        let answer = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for case let (name as String, value as String) in answer.allHeaderFields { fields[name.lowercased()] = value }
        return ServedResponse(
            status: HTTPResponse.Status(code: answer.statusCode), headers: fields, body: ByteBuffer(bytes: data))
    }
}
