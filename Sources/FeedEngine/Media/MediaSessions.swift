import FeedKit
import Synchronization

/// The OAuth2 sessions of one pass's mirroring, one per set of credentials, so that its images
/// share one token and one renewal.
final class MediaSessions: Sendable {
    private let carrier: MediaTokenCarrier
    private let sessions = Mutex<[OAuth2Credentials: OAuth2Session]>([:])

    init(carrier: MediaTokenCarrier) {
        self.carrier = carrier
    }

    /// The session for `credentials`, made on first use.
    func session(for credentials: OAuth2Credentials) -> OAuth2Session {
        sessions.withLock { sessions in
            if let session = sessions[credentials] { return session }
            let session = OAuth2Session(credentials, carrier: carrier)
            sessions[credentials] = session
            return session
        }
    }
}
