import FeedKit
import FeedStore
import GRDBSQLite

/// Scratch memory that holds the text values bound to a statement until it has been stepped.
///
/// Bound with `SQLITE_TRANSIENT`, every text value makes SQLite allocate, copy and later free a
/// buffer of its own, on the single writer thread. The write path instead copies a record's
/// texts into this buffer, binds them `SQLITE_STATIC`, and calls ``reset()`` once the statement
/// has run; a text too large for what is left is bound transient.
///
/// Statements keep pointing into the buffer after a step, which is safe because the write path
/// binds every parameter again before the next step (the constants bound once are transient);
/// the owner clears the bindings before the buffer goes away.
final class SQLiteTextBindings {
    private let storage: UnsafeMutablePointer<CChar>
    private let capacity: Int
    // The hot loop's state: without `unchecked`, each access pays for a dynamic exclusivity check.
    @exclusivity(unchecked) private var used = 0

    init(capacity: Int = 64 * 1024) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Binds `text` to parameter `index` of `statement`.
    func bind(_ text: String, at index: Int32, of statement: OpaquePointer) {
        var text = text
        text.withUTF8 { bytes in
            let count = bytes.count
            if count <= capacity - used {
                let destination = storage + used
                if let source = bytes.baseAddress {
                    UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: count)
                }
                used += count
                sqlite3_bind_text(statement, index, destination, Int32(count), nil)
            } else {
                SQLiteRawStatement.bindCopying(bytes, at: index, of: statement)
            }
        }
    }

    /// Makes the whole buffer available again; call once the statements bound to it have run.
    func reset() { used = 0 }
}
