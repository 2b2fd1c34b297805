import Yams

extension NodeDecoder {
    /// Values read in place of missing required keys, so that a decoding that would stop at
    /// the first missing key goes on and asks for every key it knows: an unknown key beside a
    /// missing one is then reported too. Each missing key tries the candidates in turn (a
    /// number, `false`, an empty mapping, an empty list) until one decodes as its type; a value
    /// decoded with stand-ins is never used.
    struct StandIns {
        /// The most missing keys stood in for.
        static let maximumKeys = 16

        static var candidates: [Node] {
            [
                .scalar(Node.Scalar("0", Tag(.str))), .scalar(Node.Scalar("false", Tag(.str))),
                .mapping(Node.Mapping([], Tag(.map))), .sequence(Node.Sequence([], Tag(.seq))),
            ]
        }

        /// The candidate tried for each key's path.
        private var tried: [String: Int] = [:]
        /// Whether a key ran out of candidates.
        private(set) var isExhausted = false

        var isEmpty: Bool { tried.isEmpty }

        var nodes: [String: Node] {
            let candidates = Self.candidates
            return tried.mapValues { candidates[$0] }
        }

        /// Stands in for the missing key at `path`; `false` when it already has a stand-in or
        /// there are too many.
        mutating func add(_ path: String) -> Bool {
            guard tried[path] == nil, tried.count < Self.maximumKeys else { return false }
            tried[path] = 0
            return true
        }

        /// When the value at fault (at `path`) is a stand-in or inside one, moves on to its next
        /// candidate and says so; marks the stand-ins exhausted when none is left.
        mutating func replace(failingAt path: String) -> Bool {
            guard
                let key = tried.keys.first(where: {
                    path == $0 || path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[")
                })
            else { return false }
            let next = (tried[key] ?? 0) + 1
            guard next < Self.candidates.count else {
                isExhausted = true
                return false
            }
            tried[key] = next
            return true
        }
    }
}
