import FeedEngine
import FeedFixtures
import FeedKit
import Testing

/// Sealing keeps text for later without its secrets, and a run with the same variables restores it.
@Suite("Redactor seal and unseal")
struct RedactorSealTests {
    let redactor = Redactor(variables: ["API_TOKEN": "t0ken/+1", "USER": "alice"])

    @Test func sealReplacesEachSecretByItsVariable() {
        let sealed = redactor.seal("https://h/stats?token=t0ken%2F%2B1&user=alice&raw=t0ken/+1")
        #expect(sealed == "https://h/stats?token=${API_TOKEN@url}&user=${USER}&raw=${API_TOKEN}")
        #expect(!redactor.leaks(sealed))
    }

    @Test func unsealRestoresTheOriginalText() {
        let original = "https://h/stats?token=t0ken%2F%2B1&user=alice&raw=t0ken/+1"
        #expect(redactor.unseal(redactor.seal(original)) == original)
    }

    @Test func aSecretWithoutAKnownVariableIsSealedAsStars() {
        #expect(Redactor(secrets: ["hidden"]).seal("a=hidden") == "a=***")
    }

    @Test func unsealLeavesUnknownPlaceholdersAlone() {
        #expect(redactor.unseal("a=${OTHER}") == "a=${OTHER}")
    }
}
