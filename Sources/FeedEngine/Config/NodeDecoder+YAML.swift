import FeedKit
import Yams

extension NodeDecoder {
    /// Decodes `type` from a whole YAML document, strictly, for files other than feeds.yaml
    /// (a catalog, a mapping of names) whose readers do not depend on Yams.
    ///
    /// - Throws: ``ConfigError`` with `file:line:column` for a YAML syntax error, an empty
    ///   document, or any problem ``decode(_:from:codingPath:)`` finds.
    public func decode<T: Decodable>(_ type: T.Type, yaml text: String) throws -> T {
        let node: Node?
        do {
            node = try ConfigLoader.compose(yaml: text, file: file)
        } catch let error as YamlError {
            throw ConfigError([ConfigLoader.problem(for: error, file: file)])
        }
        guard let node else {
            throw ConfigError("the file is empty", at: SourceLocation(file: file, line: 1, column: 1))
        }
        return try decode(type, from: node)
    }
}
