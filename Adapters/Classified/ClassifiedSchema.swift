import FeedKit

/// The two entities of the classified adapter.
public enum ClassifiedSchema {
    /// A category of ads, keyed by its id.
    public static let category = EntitySchema(
        name: "category",
        columns: [
            Column("id", .integer, nullable: false, summary: "the category's id (the key)"),
            Column("name", .text, nullable: false, summary: "the category's name, e.g. Véhicule"),
        ],
        key: ["id"],
        order: [.ascending("id")],
        summary: "A category of classified ads.")

    /// An ad, keyed by its id; its category is mandatory. Urgent ads come first, then the newest.
    /// Its title and text are searchable (`?q=` in `feedwork serve`, `export --search`).
    public static let classified = EntitySchema(
        name: "classified",
        columns: [
            Column("id", .integer, nullable: false, summary: "the ad's id (the key)"),
            Column("category_id", .integer, nullable: false, summary: "the ad's category (category.id)"),
            Column("title", .text, nullable: false, summary: "the ad's title", role: .title),
            Column("description", .text, summary: "the ad's text"),
            Column(
                "price", .integer, nullable: false, summary: "price in minor units of the currency (cents)",
                role: .money),
            Column("currency", .text, nullable: false, summary: "ISO 4217 code of the price"),
            Column("image_small", .text, summary: "URL of the small image, if any", media: true),
            Column("image_thumb", .text, summary: "URL of the thumbnail, if any", role: .image, media: true),
            Column("created_at", .timestamp, nullable: false, summary: "when the ad was created (UTC)"),
            Column("is_urgent", .boolean, nullable: false, summary: "whether the ad is marked urgent"),
            Column("siret", .text, summary: "the professional seller's SIRET number, if any"),
        ],
        key: ["id"],
        // Mandatory, so a foreign key: no ad of the store points at a category its feed lacks.
        relations: [Relation(column: "category_id", entity: "category", labelColumn: "name", enforced: true)],
        order: [.descending("is_urgent"), .descending("created_at")],
        summary: "A classified ad with its price, images and category.",
        search: ["title", "description"])
}
