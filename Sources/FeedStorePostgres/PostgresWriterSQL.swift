import FeedKit
import FeedStore

/// The statements of a ``PostgresEntityWriter``, built once from the entity's schema and mode.
///
/// A batch of records is COPYed into a temporary staging table (`_stage_<entity>`), each row
/// with its ordinal in the pass (`_ord`). One statement (``mergeBatch``) then classifies each
/// key of the batch against the entity's table, writes the rows, deletes the child rows about
/// to be rewritten, and returns the batch's counts with the ordinals of the records it wrote.
/// Those records' child rows are COPYed into `_stage_<entity>__<list>` and inserted by one
/// more statement per list. The staging tables are dropped when the transaction commits.
///
/// Stored rows are looked up with `LATERAL (... LIMIT 1)`: a table filled in the same
/// transaction has no statistics yet, and the planner, taking the feed's rows for a few, would
/// otherwise scan them all for every batch instead of probing the key's index. The row found
/// (its `ctid`) is the one the same statement rewrites or touches, without a second lookup; the
/// feed's lease keeps other writers away from its rows.
struct PostgresWriterSQL {
    /// The quoted names of a child list's tables and columns.
    struct Child {
        /// The list's name in the schema (not quoted).
        var name: String
        var table: String
        var stage: String
        var columns: [String]
        /// The types of ``columns``, in order.
        var types: [ColumnType]
        /// COPY of its rows into `stage`: `_ord` (the parent's), `_key`, `_position`, columns.
        var copy: String
        /// Inserts the staged rows (`$1` feed).
        var insert: String
        /// COPY straight into `table`: `_feed`, `_key`, `_position`, columns (in text; see
        /// ``PostgresWriterSQL/binary(_:)``).
        var copyDirect: String
    }

    let table: String
    let stage: String
    /// The types of the schema's columns, in order.
    let types: [ColumnType]
    /// Per child list, in schema order.
    let children: [Child]

    /// Creates the staging tables, once per transaction.
    let createTemporary: String
    /// Empties the staging tables between batches.
    let truncate: String
    /// COPY of the batch's rows: `_ord`, `_key`, `_hash`, then the schema's columns.
    let copyRows: String
    /// COPY straight into the entity's table, for records known to be new: the common columns
    /// (`_feed`, `_key`, `_hash`, `_run`, `_first_seen`, `_last_seen`), then the schema's (in
    /// text; see ``binary(_:)``).
    let copyDirect: String
    /// Whether the entity's table holds rows of the feed `$1`.
    let feedHasRows: String
    /// Which of the keys `$2` (a text array) the table holds for the feed `$1`.
    let storedKeys: String
    /// Moves `_last_seen` to the stamp `$2` on the feed `$1`'s rows whose key and hash are a pair
    /// of the arrays `$3` (text) and `$4` (bigint) and that this pass has not delivered yet, and
    /// returns their keys: the records delivered unchanged, touched without staging them.
    ///
    /// Rows are found through the key's index (`LATERAL ... LIMIT 1`, for the reason above) and
    /// rewritten by `ctid`.
    let touchUnchanged: String
    /// Merges the staged batch. `$1` feed, `$2` stamp, `$3` run. Returns one row: inserted,
    /// updated, unchanged, duplicates, the ordinals of the records whose rows it inserted or
    /// rewrote (comma-separated, ascending, or NULL), and a JSON array of the first three keys
    /// delivered more than once in the pass, by when their second delivery came (or NULL).
    let mergeBatch: String

    init(schema: EntitySchema, mode: WriteMode) {
        let q = PostgresSQL.identifier
        let (table, stage) = (q(schema.name), q("_stage_" + schema.name))
        (self.table, self.stage) = (table, stage)
        types = schema.columns.map(\.type)
        func definitions(_ columns: [FeedKit.Column]) -> String {
            columns.map { ", \(q($0.name)) \(PostgresDialect.sqlType($0.type))" }.joined()
        }
        let children = schema.children.map { child in
            let (childTable, childStage) = (
                q(schema.childTableName(child)), q("_stage_" + schema.childTableName(child))
            )
            let columns = child.columns.map { q($0.name) }
            let names = (["_feed", "_key", "_position"].map(q) + columns).joined(separator: ", ")
            return Child(
                name: child.name, table: childTable, stage: childStage, columns: columns,
                types: child.columns.map(\.type),
                copy: "COPY \(childStage) (" + (["_ord", "_key", "_position"] + columns).joined(separator: ", ")
                    + ") FROM STDIN",
                insert: "INSERT INTO \(childTable) (\(names)) SELECT $1, _key, _position"
                    + columns.map { ", \($0)" }.joined() + " FROM \(childStage)",
                copyDirect: "COPY \(childTable) (\(names)) FROM STDIN")
        }
        self.children = children
        let childStages: [String] = zip(schema.children, children).map { child, names in
            """

            CREATE TEMPORARY TABLE \(names.stage) (
                _ord bigint NOT NULL, _key text NOT NULL, _position bigint NOT NULL\(definitions(child.columns))
            ) ON COMMIT DROP;
            """
        }
        let parentStage = """
            CREATE TEMPORARY TABLE \(stage) (
                _ord bigint NOT NULL, _key text NOT NULL, _hash bigint NOT NULL\(definitions(schema.columns))
            ) ON COMMIT DROP;
            """
        createTemporary = parentStage + childStages.joined()
        truncate = "TRUNCATE " + ([stage] + children.map(\.stage)).joined(separator: ", ")
        let columns = schema.columns.map { q($0.name) }
        copyRows = "COPY \(stage) (" + (["_ord", "_key", "_hash"] + columns).joined(separator: ", ") + ") FROM STDIN"
        let common = ["_feed", "_key", "_hash", "_run", "_first_seen", "_last_seen"].map(q)
        copyDirect = "COPY \(table) (\((common + columns).joined(separator: ", "))) FROM STDIN"
        feedHasRows = "SELECT EXISTS (SELECT 1 FROM \(table) WHERE _feed = $1)"
        storedKeys = "SELECT DISTINCT _key FROM \(table) WHERE _feed = $1 AND _key = ANY ($2::text[])"
        touchUnchanged = """
            UPDATE \(table) SET _last_seen = $2::timestamptz WHERE ctid = ANY (ARRAY (
                SELECT t.ctid FROM unnest($3::text[], $4::bigint[]) AS d(_key, _hash) CROSS JOIN LATERAL (
                    SELECT ctid FROM \(table)
                    WHERE _feed = $1 AND _key = d._key AND _hash = d._hash AND _last_seen <> $2::timestamptz LIMIT 1
                ) t
            ))
            RETURNING _key
            """
        let writes = """
            inserted AS (
                INSERT INTO \(table) (\((common + columns).joined(separator: ", ")))
                SELECT $1, s._key, s._hash, $3::bigint, $2::timestamptz, $2::timestamptz\(columns.map { ", s.\($0)" }.joined())
                FROM classified c JOIN \(stage) s ON s._ord = c.last_ord WHERE c.action IN ('i', 'w')
            ), updated AS (
                UPDATE \(table) AS t SET _hash = s._hash, _run = $3::bigint, _last_seen = $2::timestamptz\(columns.map { ", \($0) = s.\($0)" }.joined())
                FROM classified c JOIN \(stage) s ON s._ord = c.last_ord WHERE c.action = 'u' AND t.ctid = c.row_id
            ), touched AS (
                UPDATE \(table) AS t SET _last_seen = $2::timestamptz FROM classified c
                WHERE c.action = 't' AND t.ctid = c.row_id
            )
            """
            + children.enumerated().map { index, child in
                """
                , orphaned\(index) AS (
                    DELETE FROM \(child.table) AS x USING classified c
                    WHERE c.action IN ('u', 'w') AND x._feed = $1 AND x._key = c._key
                )
                """
            }.joined()
        let results = """
            string_agg(last_ord::text, ',' ORDER BY last_ord) FILTER (WHERE action IN ('i', 'u', 'w')),
            (SELECT json_agg(_key ORDER BY dup_ord) FROM (
                SELECT _key, dup_ord FROM classified WHERE dup_ord IS NOT NULL ORDER BY dup_ord LIMIT 3
            ) AS duplicated)
            FROM classified
            """
        mergeBatch =
            (mode == .append
                ? Self.appendClassified(table: table, stage: stage) : Self.mergeClassified(table: table, stage: stage))
            + ", " + writes + "\nSELECT "
            + (mode == .append ? Self.appendCounts : Self.mergeCounts) + ",\n" + results
    }

    /// `statement`, a `COPY ... FROM STDIN`, reading COPY's binary format.
    static func binary(_ statement: String) -> String { statement + " (FORMAT binary)" }

    /// How a `merge` or `replace` batch classifies its keys, as the SQLite writer would write
    /// its records one by one. Per key of the batch, against the stored row:
    ///
    /// - none: the key is counted inserted (its later deliveries duplicates) and the last
    ///   delivery inserted (`i`);
    /// - delivered earlier in this pass (`_last_seen` is the stamp): every delivery counts as a
    ///   duplicate;
    /// - otherwise the first delivery is counted updated or unchanged by its hash, later ones
    ///   duplicates;
    ///
    /// and a stored row is rewritten with the last delivery (`u`) unless every delivery has its
    /// hash, when only `_last_seen` moves (`t`, or nothing when it is already the stamp): one
    /// record delivered unchanged and then changed is counted unchanged, and its row changed.
    private static func mergeClassified(table: String, stage: String) -> String {
        """
        WITH ranked AS (
            SELECT _key, _ord, _hash, row_number() OVER (PARTITION BY _key ORDER BY _ord) AS rn FROM \(stage)
        ), keys AS (
            SELECT _key, count(*) AS n, min(_ord) AS first_ord, max(_ord) AS last_ord,
                min(_hash) AS min_hash, max(_hash) AS max_hash,
                min(_hash) FILTER (WHERE rn = 1) AS first_hash, min(_ord) FILTER (WHERE rn = 2) AS second_ord
            FROM ranked GROUP BY _key
        ), classified AS (
            SELECT t.ctid AS row_id, k._key, k.n, k.last_ord, k.first_hash, t._hash AS stored_hash, t._key IS NULL AS is_new,
                coalesce(t._last_seen = $2::timestamptz, false) AS seen,
                CASE WHEN t._last_seen = $2::timestamptz THEN k.first_ord ELSE k.second_ord END AS dup_ord,
                CASE WHEN t._key IS NULL THEN 'i'
                    WHEN k.min_hash = t._hash AND k.max_hash = t._hash THEN
                        CASE WHEN t._last_seen = $2::timestamptz THEN 'n' ELSE 't' END
                    ELSE 'u' END::"char" AS action
            FROM keys k LEFT JOIN LATERAL (
                SELECT ctid, _key, _hash, _last_seen FROM \(table) WHERE _feed = $1 AND _key = k._key LIMIT 1
            ) t ON true
        )
        """
    }

    /// Inserted, updated, unchanged and duplicates of a `merge` or `replace` batch.
    private static let mergeCounts = """
        count(*) FILTER (WHERE is_new),
        count(*) FILTER (WHERE NOT is_new AND NOT seen AND first_hash <> stored_hash),
        count(*) FILTER (WHERE NOT is_new AND NOT seen AND first_hash = stored_hash),
        coalesce(sum(CASE WHEN seen THEN n ELSE n - 1 END), 0)
        """

    /// How an `append` batch classifies its keys, as the SQLite writer would write its records
    /// one by one. Per key of the batch:
    ///
    /// - when this pass already appended a version (a row whose `_run` is this run): every
    ///   delivery is a duplicate, and that version is rewritten with the last one (`u`) unless
    ///   every delivery has its hash;
    /// - otherwise each delivery before the first whose hash no stored version has counts as
    ///   unchanged; that one is counted inserted, later ones duplicates, and the last delivery
    ///   is appended as the pass's version (`i`). When the deliveries from that one on differ,
    ///   the SQLite writer rewrote the new version's child rows after appending it, deleting
    ///   those of every version of the key (child rows do not say which version they belong to):
    ///   `w` appends the version after the same deletion, so both stores hold the same rows.
    private static func appendClassified(table: String, stage: String) -> String {
        """
        WITH marked AS (
            SELECT s._key, s._ord, s._hash,
                EXISTS (SELECT 1 FROM \(table) t WHERE t._feed = $1 AND t._key = s._key AND t._hash = s._hash) AS known
            FROM \(stage) s
        ), windowed AS (
            SELECT *, min(_ord) FILTER (WHERE NOT known) OVER (PARTITION BY _key) AS new_ord FROM marked
        ), keys AS (
            SELECT _key, count(*) AS n, min(_ord) AS first_ord, max(_ord) AS last_ord, min(new_ord) AS new_ord,
                count(*) FILTER (WHERE _ord < new_ord) AS before_new,
                min(_ord) FILTER (WHERE _ord > new_ord) AS after_new_ord,
                min(_hash) AS min_hash, max(_hash) AS max_hash,
                min(_hash) FILTER (WHERE _ord >= new_ord) AS min_new_hash,
                max(_hash) FILTER (WHERE _ord >= new_ord) AS max_new_hash
            FROM windowed GROUP BY _key
        ), classified AS (
            SELECT r.ctid AS row_id, k._key, k.n, k.last_ord, k.new_ord, k.before_new, r._key IS NOT NULL AS has_version,
                CASE WHEN r._key IS NOT NULL THEN k.first_ord ELSE k.after_new_ord END AS dup_ord,
                CASE WHEN r._key IS NOT NULL THEN
                        CASE WHEN k.min_hash = r._hash AND k.max_hash = r._hash THEN 'n' ELSE 'u' END
                    WHEN k.new_ord IS NULL THEN 'n'
                    WHEN k.min_new_hash = k.max_new_hash THEN 'i' ELSE 'w' END::"char" AS action
            FROM keys k LEFT JOIN LATERAL (
                SELECT ctid, _key, _hash FROM \(table) WHERE _feed = $1 AND _key = k._key AND _run = $3::bigint LIMIT 1
            ) r ON true
        )
        """
    }

    /// Inserted, updated (never, in `append`), unchanged and duplicates of an `append` batch.
    private static let appendCounts = """
        count(*) FILTER (WHERE NOT has_version AND new_ord IS NOT NULL), 0,
        coalesce(sum(CASE WHEN has_version THEN 0 WHEN new_ord IS NULL THEN n ELSE before_new END), 0),
        coalesce(sum(CASE WHEN has_version THEN n WHEN new_ord IS NULL THEN 0 ELSE n - before_new - 1 END), 0)
        """
}
