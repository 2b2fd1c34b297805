/// How many rows and deleted rows (tombstones) an export wrote.
public struct ExportCount: Sendable, Hashable {
    public var rows = 0
    public var deleted = 0

    package init() {}
}
