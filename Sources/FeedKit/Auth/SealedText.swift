import Foundation

/// Text encrypted with a key derived from secrets that are never stored, so that what a feed
/// must keep between passes (OAuth2 tokens in `_state`) is no secret in the store file, its
/// write-ahead log or a backup: without the config's secrets it reads as noise.
///
/// A stream cipher from SHA-256 in counter mode, then an HMAC-SHA-256 over the nonce and the
/// ciphertext (encrypt-then-MAC), each with its own key derived from the secrets. The text is
/// `v1:` and the base64 of nonce (16 bytes), ciphertext and tag (32 bytes).
struct SealedText {
    private let encryptionKey: [UInt8]
    private let macKey: [UInt8]

    /// A sealer whose key derives from `secrets` (in order) and `context` (what the text is for).
    init(secrets: [String], context: String) {
        var material = Array("feedwork sealed text\u{0}\(context)".utf8)
        for secret in secrets {
            material.append(0)
            material += Array(secret.utf8)
        }
        let root = SHA256.digest(material)
        encryptionKey = SHA256.digest(root + Array("encryption".utf8))
        macKey = SHA256.digest(root + Array("authentication".utf8))
    }

    /// `text` encrypted under a fresh random nonce.
    func seal(_ text: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let cipher = crypt(Array(text.utf8), nonce: nonce)
        let tag = Self.hmac(key: macKey, nonce + cipher)
        return "v1:" + Data(nonce + cipher + tag).base64EncodedString()
    }

    /// The text `sealed` holds, or `nil` when it was sealed with other secrets (the config
    /// changed), was altered, or is not sealed text at all.
    func open(_ sealed: String) -> String? {
        guard sealed.hasPrefix("v1:"), let data = Data(base64Encoded: String(sealed.dropFirst(3))),
            data.count >= 48
        else { return nil }
        let bytes = Array(data)
        let nonce = Array(bytes[0..<16])
        let cipher = Array(bytes[16..<(bytes.count - 32)])
        let tag = Array(bytes[(bytes.count - 32)...])
        let expected = Self.hmac(key: macKey, nonce + cipher)
        // Compared in constant time.
        guard zip(tag, expected).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        return String(bytes: crypt(cipher, nonce: nonce), encoding: .utf8)
    }

    /// `bytes` XORed with the key stream SHA-256(key, nonce, counter).
    private func crypt(_ bytes: [UInt8], nonce: [UInt8]) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        var counter: UInt64 = 0
        var offset = 0
        while offset < bytes.count {
            let block = SHA256.digest(encryptionKey + nonce + withUnsafeBytes(of: counter.bigEndian, Array.init))
            for byte in block where offset < bytes.count {
                output.append(bytes[offset] ^ byte)
                offset += 1
            }
            counter += 1
        }
        return output
    }

    /// HMAC-SHA-256 (RFC 2104) of `message` under a 32-byte `key`.
    private static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let block = key + [UInt8](repeating: 0, count: 64 - key.count)
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + message)
        return SHA256.digest(block.map { $0 ^ 0x5c } + inner)
    }
}
