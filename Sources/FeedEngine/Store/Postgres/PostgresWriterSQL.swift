import FeedKit

/// The statements of a ``PostgresEntityWriter``, built once from the entity's schema and mode.
///
/// A batch of records is COPYed into a staging table (`_stage_<entity>`, its child rows into
/// `_stage_<entity>__<list>`), each row with its ordinal in the pass (`_ord`). One statement
/// then plans the batch against the entity's table, a row per key into `_plan_<entity>` with
/// what to do with it, and returns the batch's counts; a few more carry the plan out. The
/// staging and plan tables are temporary, dropped when the transaction commits.
///
/// Parameters are numbered per statement; their meaning is given with each.
struct PostgresWriterSQL {
    let table: String
    let stage: String
    let plan: String
    /// The quoted names of a child list's tables and columns.
    struct Child {
        /// The list's name in the schema (not quoted).
        var name: String
        var table: String
        var stage: String
        var columns: [String]
    }

    /// Per child list, in schema order.
    let children: [Child]

    /// Creates the staging and plan tables, once per transaction.
    let createTemporary: String
    /// Empties the staging and plan tables between batches.
    let truncate: String
    /// COPY of the batch's rows: `_ord`, `_key`, `_hash`, then the schema's columns.
    let copyRows: String
    /// Per child list, COPY of its rows: `_ord` (the parent's), `_key`, `_position`, columns.
    let copyChildren: [String]
    /// Plans the batch; returns one row: inserted, updated, unchanged, duplicates, then the
    /// number of rows to insert, update and touch. `$1` feed, `$2` stamp (merge and replace)
    /// or run (append).
    let planBatch: String
    /// Inserts the rows planned `i` (or `w`: appended after deleting the key's child rows). `$1` feed, `$2` run, `$3` stamp.
    let insert: String
    /// Rewrites the rows planned `u` (in append mode, this pass's version). `$1` feed, `$2`
    /// run, `$3` stamp.
    let update: String
    /// Moves `_last_seen` of the rows planned `t`. `$1` feed, `$2` stamp.
    let touch: String
    /// Per child list: deletes the rows of parents planned `u` or `w`, then inserts those of
    /// parents planned `i`, `u` or `w`. `$1` feed.
    let childWrites: [(delete: String, insert: String)]
    /// The first keys of the batch delivered more than once in the pass, by when the second
    /// delivery came.
    let duplicateKeys: String

    init(schema: EntitySchema, mode: WriteMode) {
        let q = PostgresSQL.identifier
        let (table, stage, plan) = (q(schema.name), q("_stage_" + schema.name), q("_plan_" + schema.name))
        (self.table, self.stage, self.plan) = (table, stage, plan)
        let children = schema.children.map { child in
            Child(
                name: child.name, table: q(schema.childTableName(child)),
                stage: q("_stage_" + schema.childTableName(child)), columns: child.columns.map { q($0.name) })
        }
        self.children = children
        let columns = schema.columns.map { q($0.name) }
        func definitions(_ columns: [FeedKit.Column]) -> String {
            columns.map { ", \(q($0.name)) \(PostgresEntityTable.sqlType($0.type))" }.joined()
        }
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
            CREATE TEMPORARY TABLE \(plan) (
                _key text PRIMARY KEY, last_ord bigint NOT NULL, action "char" NOT NULL, dup_ord bigint
            ) ON COMMIT DROP;
            """
        createTemporary = parentStage + childStages.joined()
        truncate = "TRUNCATE " + ([stage, plan] + children.map(\.stage)).joined(separator: ", ")
        copyRows = "COPY \(stage) (" + (["_ord", "_key", "_hash"] + columns).joined(separator: ", ") + ") FROM STDIN"
        copyChildren = children.map { child in
            "COPY \(child.stage) (" + (["_ord", "_key", "_position"] + child.columns).joined(separator: ", ")
                + ") FROM STDIN"
        }
        planBatch =
            mode == .append
            ? Self.appendPlan(table: table, stage: stage, plan: plan)
            : Self.mergePlan(table: table, stage: stage, plan: plan)
        let common = ["_feed", "_key", "_hash", "_run", "_first_seen", "_last_seen"].map(q)
        insert = """
            INSERT INTO \(table) (\((common + columns).joined(separator: ", ")))
            SELECT $1, s._key, s._hash, $2::bigint, $3::timestamptz, $3::timestamptz\(columns.map { ", s.\($0)" }.joined())
            FROM \(plan) p JOIN \(stage) s ON s._ord = p.last_ord WHERE p.action IN ('i', 'w')
            """
        update = """
            UPDATE \(table) AS t SET _hash = s._hash, _run = $2::bigint, _last_seen = $3::timestamptz\(columns.map { ", \($0) = s.\($0)" }.joined())
            FROM \(plan) p JOIN \(stage) s ON s._ord = p.last_ord
            WHERE p.action = 'u' AND t._feed = $1 AND t._key = p._key\(mode == .append ? " AND t._run = $2::bigint" : "")
            """
        touch = """
            UPDATE \(table) AS t SET _last_seen = $2::timestamptz FROM \(plan) p
            WHERE p.action = 't' AND t._feed = $1 AND t._key = p._key
            """
        childWrites = children.map { child in
            let names = (["_feed", "_key", "_position"].map(q) + child.columns).joined(separator: ", ")
            return (
                "DELETE FROM \(child.table) AS c USING \(plan) p WHERE p.action IN ('u', 'w') AND c._feed = $1 AND c._key = p._key",
                """
                INSERT INTO \(child.table) (\(names))
                SELECT $1, c._key, c._position\(child.columns.map { ", c.\($0)" }.joined())
                FROM \(plan) p JOIN \(child.stage) c ON c._ord = p.last_ord WHERE p.action IN ('i', 'u', 'w')
                """
            )
        }
        duplicateKeys = "SELECT _key FROM \(plan) WHERE dup_ord IS NOT NULL ORDER BY dup_ord LIMIT 3"
    }

    /// The plan of a `merge` or `replace` batch, as the SQLite writer would write its records one
    /// by one. Per key of the batch, against the stored row:
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
    private static func mergePlan(table: String, stage: String, plan: String) -> String {
        """
        WITH ranked AS (
            SELECT _key, _ord, _hash, row_number() OVER (PARTITION BY _key ORDER BY _ord) AS rn FROM \(stage)
        ), keys AS (
            SELECT _key, count(*) AS n, min(_ord) AS first_ord, max(_ord) AS last_ord,
                min(_hash) AS min_hash, max(_hash) AS max_hash,
                min(_hash) FILTER (WHERE rn = 1) AS first_hash, min(_ord) FILTER (WHERE rn = 2) AS second_ord
            FROM ranked GROUP BY _key
        ), classified AS (
            SELECT k.*, t._hash AS stored_hash, t._key IS NULL AS is_new,
                coalesce(t._last_seen = $2::timestamptz, false) AS seen,
                CASE WHEN t._key IS NULL THEN 'i'
                    WHEN k.min_hash = t._hash AND k.max_hash = t._hash THEN
                        CASE WHEN t._last_seen = $2::timestamptz THEN 'n' ELSE 't' END
                    ELSE 'u' END::"char" AS action
            FROM keys k LEFT JOIN \(table) t ON t._feed = $1 AND t._key = k._key
        ), planned AS (
            INSERT INTO \(plan) (_key, last_ord, action, dup_ord)
            SELECT _key, last_ord, action, CASE WHEN seen THEN first_ord ELSE second_ord END FROM classified
        )
        SELECT count(*) FILTER (WHERE is_new),
            count(*) FILTER (WHERE NOT is_new AND NOT seen AND first_hash <> stored_hash),
            count(*) FILTER (WHERE NOT is_new AND NOT seen AND first_hash = stored_hash),
            coalesce(sum(CASE WHEN seen THEN n ELSE n - 1 END), 0),
            count(*) FILTER (WHERE action = 'i'), count(*) FILTER (WHERE action = 'u'),
            count(*) FILTER (WHERE action = 't')
        FROM classified
        """
    }

    /// The plan of an `append` batch, as the SQLite writer would write its records one by one.
    /// Per key of the batch:
    ///
    /// - when this pass already appended a version (a row whose `_run` is this run): every
    ///   delivery is a duplicate, and that version is rewritten with the last one (`u`) unless
    ///   it has its hash;
    /// - otherwise each delivery before the first whose hash no stored version has counts as
    ///   unchanged; that one is counted inserted, later ones duplicates, and the last delivery
    ///   is appended as the pass's version (`i`). When the deliveries from that one on differ,
    ///   the SQLite writer rewrote the new version's child rows after appending it, deleting
    ///   those of every version of the key (child rows do not say which version they belong to):
    ///   `w` appends the version after the same deletion, so both stores hold the same rows.
    ///
    /// The counts' fifth and sixth figures count `w` both as an insert and as a child rewrite.
    private static func appendPlan(table: String, stage: String, plan: String) -> String {
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
            SELECT k.*, r._key IS NOT NULL AS has_version,
                CASE WHEN r._key IS NOT NULL THEN
                        CASE WHEN k.min_hash = r._hash AND k.max_hash = r._hash THEN 'n' ELSE 'u' END
                    WHEN k.new_ord IS NULL THEN 'n'
                    WHEN k.min_new_hash = k.max_new_hash THEN 'i' ELSE 'w' END::"char" AS action
            FROM keys k
            LEFT JOIN \(table) r ON r._feed = $1 AND r._key = k._key AND r._run = $2::bigint
        ), planned AS (
            INSERT INTO \(plan) (_key, last_ord, action, dup_ord)
            SELECT _key, last_ord, action, CASE WHEN has_version THEN first_ord ELSE after_new_ord END FROM classified
        )
        SELECT count(*) FILTER (WHERE NOT has_version AND new_ord IS NOT NULL), 0,
            coalesce(sum(CASE WHEN has_version THEN 0 WHEN new_ord IS NULL THEN n ELSE before_new END), 0),
            coalesce(sum(CASE WHEN has_version THEN n WHEN new_ord IS NULL THEN 0 ELSE n - before_new - 1 END), 0),
            count(*) FILTER (WHERE action IN ('i', 'w')), count(*) FILTER (WHERE action IN ('u', 'w')), 0
        FROM classified
        """
    }
}
