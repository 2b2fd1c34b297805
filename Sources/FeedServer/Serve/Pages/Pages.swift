import Foundation
import Mustache

/// Renders the pages: a template's context inside the layout.
enum Pages {
    static let library: MustacheLibrary? = {
        var library = MustacheLibrary()
        let templates = [
            ("layout", Templates.layout), ("overview", Templates.overview), ("feed", Templates.feed),
            ("entities", Templates.entities), ("entity", Templates.entity), ("record", Templates.record),
            ("basket", Templates.basket), ("error", Templates.error), ("sql", Templates.sql),
        ]
        do {
            for (name, text) in templates { try library.register(text, named: name) }
        } catch {
            return nil
        }
        return library
    }()

    /// The page `template` renders from `context`, titled `title`.
    static func render(_ template: String, title: String, store: String, refresh: Int? = nil, _ context: [String: Any])
        throws(ServeError) -> String
    {
        // Only a real number of seconds: an optional written into the page would read `nil`.
        var layout: [String: Any] = ["title": title, "store": store]
        if let refresh { layout["refresh"] = refresh }
        guard let library, let content = library.render(pruned(context), withTemplate: template),
            let page = library.render(layout.merging(["content": content]) { $1 }, withTemplate: "layout")
        else { throw ServeError(.internalServerError, "the page template '\(template)' does not parse") }
        return page
    }

    /// `value` without its empty texts: Mustache renders a section for any text, even an empty
    /// one, so a page leaves out what it has not got (`{{#error}}` shows only a real error).
    static func pruned(_ value: Any) -> Any {
        switch value {
        case let dictionary as [String: Any]:
            return dictionary.compactMapValues { item -> Any? in
                if let text = item as? String, text.isEmpty { return nil }
                return pruned(item)
            }
        case let array as [[String: Any]]: return array.map { pruned($0) }
        case let array as [Any]: return array.map { pruned($0) }
        default: return value
        }
    }

    /// The HTML page of an error, or `nil` when the templates do not parse.
    static func errorPage(_ error: ServeError) -> String? {
        try? render(
            "error", title: "\(error.status.code) \(error.status.reasonPhrase)", store: "", ["message": error.message])
    }

    /// `text` as one path segment of a URL.
    static func segment(_ text: String) -> String { URLText.encode(text) }
}
