import FeedKit
import Testing

/// A secret is found in a text as Foundation's `contains` finds it, the ASCII ones byte by byte.
@Suite struct SecretSearchTests {
    let search = SecretSearch(["s3cr3t-token", "café"])

    @Test func anASCIISecretIsFoundInsideASCIIText() {
        #expect(search.found(in: "{\"echo\":\"Bearer s3cr3t-token\"}"))
        #expect(search.found(in: "s3cr3t-token"))
    }

    @Test func aTextWithoutTheSecretOrWithPartOfItIsClean() {
        #expect(!search.found(in: "s3cr3t-toke"))
        #expect(!search.found(in: "S3CR3T-TOKEN"))
        #expect(!search.found(in: ""))
    }

    @Test func anASCIISecretIsFoundInATextThatIsNot() {
        #expect(search.found(in: "jeton échoué: s3cr3t-token ✓"))
    }

    @Test func aSecretIsFoundInAnotherNormalizationOfItsText() {
        // `é` written as `e` and a combining accent: canonically the same text.
        #expect("un cafe\u{301} noir".contains("café"))
        #expect(search.found(in: "un cafe\u{301} noir"))
    }

    @Test func noSecretsFindNothing() {
        #expect(SecretSearch([]).isEmpty)
        #expect(!SecretSearch([]).found(in: "anything"))
    }
}
