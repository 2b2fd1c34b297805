import Foundation
import Synchronization

/// The access token of one set of OAuth2 credentials, shared by every pass of the process
/// (the worker's passes, feeds run at once): obtained when first needed, kept in memory, and
/// renewed shortly before it expires or when an API refuses it. One renewal at a time, so a
/// rotating refresh token is never sent twice.
///
/// A process that has no token yet starts from the one a pass kept in `_state`
/// (``OAuth2Session`` seals it there), so the next `run` or a restarted worker asks the token
/// endpoint only when that one is spent.
public actor OAuth2Client {
    /// The credentials whose token this client keeps; one client per distinct set in a process.
    public nonisolated let credentials: OAuth2Credentials
    private var current: OAuth2Token?
    /// The look at a pass's `_state` for a token (once per process), which callers arriving
    /// while it reads wait for.
    private var storedRead: Task<OAuth2Token?, any Error>?
    private var renewal: Task<OAuth2Token, any Error>?

    private init(credentials: OAuth2Credentials) {
        self.credentials = credentials
    }

    private static let clients = Mutex<[[String]: OAuth2Client]>([:])

    /// The process's client for `credentials`.
    public static func shared(for credentials: OAuth2Credentials) -> OAuth2Client {
        clients.withLock { clients in
            if let client = clients[credentials.identity] { return client }
            let client = OAuth2Client(credentials: credentials)
            clients[credentials.identity] = client
            return client
        }
    }

    /// A usable token for a request `pass` sends: the current one, or a new one when there is
    /// none, it is about to expire, or it is `rejected` (an API answered 401 to it).
    ///
    /// - Parameter stored: the token the pass's `_state` holds, consulted when the process has none.
    func token(
        for pass: any OAuth2Carrier, stored: @escaping @Sendable () async throws -> OAuth2Token?,
        rejecting rejected: String? = nil
    ) async throws -> OAuth2Token {
        if current == nil {
            let read = storedRead ?? Task { try await stored() }
            let first = storedRead == nil
            storedRead = read
            let token: OAuth2Token?
            do {
                token = try await read.value
            } catch {
                // Looked at once: a store that could not be read is not asked again.
                if first { storedRead = Task { nil } }
                throw error
            }
            if first, current == nil {
                current = token
                current.map(Self.learn)
            }
        }
        if let current, current.accessToken != rejected, current.isUsable(at: Date()) { return current }
        if let renewal { return try await renewal.value }
        let task = Task { try await self.obtain(for: pass) }
        renewal = task
        defer { renewal = nil }
        let token = try await task.value
        current = token
        return token
    }

    /// Asks the token endpoint for a new token.
    private func obtain(for pass: any OAuth2Carrier) async throws -> OAuth2Token {
        // The rotated refresh token, when there is one, replaces the configured seed.
        let refresh = current?.refreshToken ?? credentials.refreshToken
        if credentials.grant == .refreshToken, refresh == nil {
            throw OAuth2Error("oauth2_refresh_token auth needs a refresh_token")
        }
        let response = try await pass.fetch(credentials.tokenRequest(refreshToken: refresh))
        let token = try OAuth2Token(
            response: response.body, url: response.url, now: Date(),
            keeping: credentials.grant == .refreshToken ? refresh : nil)
        Self.learn(token)
        pass.log("obtained an OAuth2 access token from \(response.url)", level: .debug)
        return token
    }

    /// Makes every redactor hide the token's values.
    private static func learn(_ token: OAuth2Token) {
        Redactor.learn(token.accessToken)
        if let refresh = token.refreshToken { Redactor.learn(refresh) }
    }
}
