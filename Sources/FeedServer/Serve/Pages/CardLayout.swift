import FeedEngine
import FeedKit

/// The cards of an entity whose schema marks an `image` and a `title` column: the picture,
/// the title, the price (`money`, with the row's `currency` column), a badge for each true
/// boolean (`is_urgent` reads URGENT) and a BUY link (`link`).
struct CardLayout {
    var image: String
    /// Whether the image column is mirrored (``Column/media``): its cards show the mirrored
    /// image from `/media/<hash>`, or a placeholder with the URL, never the remote URL.
    var mirrors: Bool
    var title: String
    var money: String?
    var link: String?
    var details: [String]
    /// The first boolean column: its true rows come first and wear a badge.
    var badge: String?

    init?(schema: EntitySchema?) {
        guard let schema else { return nil }
        func column(_ role: ColumnRole) -> String? { schema.columns.first { $0.role == role }?.name }
        guard let image = column(.image), let title = column(.title) else { return nil }
        self.image = image
        mirrors = schema.columns.first { $0.name == image }?.media ?? false
        self.title = title
        money = column(.money)
        link = column(.link)
        badge = schema.columns.first { $0.type == .boolean }?.name
        details = schema.columns.filter { [.timestamp, .date].contains($0.type) }.map(\.name)
    }

    /// The image URLs of `rows`, for ``StoreBrowser/mediaHashes(urls:)``.
    func imageURLs(page: EntityPage) -> [String] {
        page.rows.compactMap { ValueText.plain(page.value(image, in: $0)) }
    }

    /// The card of `row`; `mirrored` holds the hashes of the mirrored images by URL. With a
    /// `search`, its title and its other `searched` columns (as a line of text, cut at
    /// ``PageRoutes/cellLength``) show the words found marked.
    func card(
        page: EntityPage, row: [FieldValue], record: String, mirrored: [String: String] = [:],
        search: SearchQuery? = nil, searched: [String] = []
    ) -> [String: Any] {
        func text(_ name: String?) -> String {
            guard let name, let field = page.fields.first(where: { $0.name == name }) else { return "" }
            return ValueText.display(page.value(name, in: row), field: field)
        }
        let price =
            money.flatMap { name in page.fields.first { $0.name == name } }.map { field in
                ValueText.display(page.value(field.name, in: row), field: page.moneyField(field, in: row))
            } ?? ""
        let badges: [String] =
            badge.flatMap { name in
                page.value(name, in: row) == .integer(1) || page.value(name, in: row) == .bool(true)
                    ? [name.hasPrefix("is_") ? String(name.dropFirst(3)).uppercased() : name.uppercased()] : nil
            } ?? []
        let url = text(image)
        let link = text(link)
        let (image, placeholder) = Self.picture(url, mirrors: mirrors, mirrored: mirrored)
        return [
            "key": ValueText.plain(page.value("_key", in: row)) ?? "", "image": image, "placeholder": placeholder,
            "titleHTML": search.map { $0.highlighted(text(title)) } ?? TableBody.escape(text(title)),
            "snippets": searched.filter { $0 != title }.compactMap { name -> String? in
                let value = text(name)
                guard let search, !value.isEmpty else { return nil }
                let short = value.count > PageRoutes.cellLength ? value.prefix(PageRoutes.cellLength) + "…" : value
                return search.highlighted(short)
            },
            "money": price, "badges": badges, "record": record,
            "link": Self.isWebURL(link) ? link : "", "details": details.map { "\($0): \(text($0))" },
        ]
    }

    /// What shows a picture at `url`: the `src` of an image, or the URL for a placeholder.
    /// A mirrored column shows its image from the store or the placeholder; another shows the
    /// remote image. Either way only http(s) URLs are shown as images.
    static func picture(_ url: String, mirrors: Bool, mirrored: [String: String]) -> (src: String, placeholder: String)
    {
        guard mirrors else { return (isWebURL(url) ? url : "", "") }
        if let hash = mirrored[url] { return ("/media/\(hash)", "") }
        return ("", url.isEmpty ? "no image" : url)
    }

    /// What a record page's cell shows below its text: for a `media` column's URL, its mirrored
    /// image or the placeholder; nothing for another column or an empty value.
    static func picture(of value: FieldValue, media: Bool, mirrored: [String: String]) -> (
        src: String, placeholder: String
    ) {
        guard media, let url = ValueText.plain(value) else { return ("", "") }
        return picture(url, mirrors: true, mirrored: mirrored)
    }

    /// Only http(s) URLs become links or images: never `javascript:` or `data:`.
    static func isWebURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }
}
