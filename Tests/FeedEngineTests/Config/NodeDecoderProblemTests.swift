import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import Testing

/// The problems NodeDecoder reports for values it cannot decode.
@Suite("NodeDecoder problems")
struct NodeDecoderProblemTests {
    enum Shape: String, Decodable, CaseIterable { case round, square }

    struct Options: Decodable {
        var shape: Shape
        var size: Int
    }

    struct Named: Decodable {
        var name: String
        var colour: String
    }

    @Test func anUnknownEnumValueListsTheAcceptedOnes() throws {
        let error = try #require(throws: ConfigError.self) {
            try NodeDecoder(file: "f.yaml").decode(Options.self, yaml: "shape: oval\nsize: 3\n")
        }
        #expect(
            error.description == "f.yaml:1:8: error: 'oval' is not an accepted value; expected one of: round, square")
    }

    @Test func keysNotYetReadWhenDecodingStoppedAreNotCalledUnknown() throws {
        let error = try #require(throws: ConfigError.self) {
            try NodeDecoder(file: "f.yaml").decode(Named.self, yaml: "colour: red\n")
        }
        #expect(error.problems.map(\.message) == ["missing key 'name'"])
    }

    @Test func aMisspeltKeyIsStillReportedWhenDecodingStopped() throws {
        let error = try #require(throws: ConfigError.self) {
            try NodeDecoder(file: "f.yaml").decode(Named.self, yaml: "nam: x\ncolour: red\n")
        }
        #expect(error.problems.map(\.message) == ["missing key 'name'", "unknown key 'nam'; did you mean 'name'?"])
    }

    @Test func anUnknownKeyIsReportedWhenEverythingElseDecoded() throws {
        let error = try #require(throws: ConfigError.self) {
            try NodeDecoder(file: "f.yaml").decode(Named.self, yaml: "name: x\ncolour: red\nflavour: 3\n")
        }
        #expect(error.problems.map(\.message) == ["unknown key 'flavour'; expected one of: colour, name"])
    }

    struct Outer: Decodable {
        var options: Options?
        var label: String?
        var count: Int?
    }

    @Test func everyValueAtFaultIsReportedWithTheKeysNobodyAskedFor() throws {
        let error = try #require(throws: ConfigError.self) {
            try NodeDecoder(file: "f.yaml").decode(
                Outer.self, yaml: "options: { shape: oval, size: big }\nlabel: [a]\ncount: x\nextra: 1\n")
        }
        #expect(
            error.problems.map(\.description) == [
                "f.yaml:1:19: error: 'oval' is not an accepted value; expected one of: round, square",
                "f.yaml:2:8: error: expected a string, found a list",
                "f.yaml:3:8: error: expected an integer, found 'x'",
                "f.yaml:4:1: error: unknown key 'extra'; expected one of: count, label, options",
            ])
    }
}
