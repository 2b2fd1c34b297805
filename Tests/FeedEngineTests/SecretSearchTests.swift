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

    @Test func aSecretAmongAThousandSharingItsFirstBytesIsFoundAtTheEndOfTheText() {
        let tokens = (0..<1000).map { "tok-\($0)-abc" }
        let many = SecretSearch(tokens)
        #expect(many.found(in: "the echo: tok-999-abc"))
        #expect(many.found(in: "tok-0-abc"))
        #expect(!many.found(in: "tok-1000-abc tok-99-ab"))
        #expect(!many.found(in: "to"))
        #expect(SecretSearch(["k3y"]).found(in: "the last bytes: k3y"))
    }

    @Test func aSecretThatIsNotASCIIGetsFoundationsAnswerInASCIIText() {
        // U+212A KELVIN SIGN decomposes canonically to `K`.
        let kelvin = "\u{212A}elvin-42"
        #expect(SecretSearch([kelvin]).found(in: "Kelvin-42 says") == "Kelvin-42 says".contains(kelvin))
    }

    @Test func noSecretsFindNothing() {
        #expect(SecretSearch([]).isEmpty)
        #expect(!SecretSearch([]).found(in: "anything"))
    }
}
