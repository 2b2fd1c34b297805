/// The media statements both drivers run as they are (parameters `?` on SQLite, `$1` on
/// PostgreSQL: each is used once, so both bind them in order).
package enum MediaSQL {
    package static let summaries = """
        SELECT u.feed AS feed, count(*) AS referenced, count(m.hash) AS mirrored,
            sum(CASE WHEN m.hash IS NULL AND u.failures > 0 THEN 1 ELSE 0 END) AS failed,
            (SELECT sum(size) FROM _media WHERE hash IN (SELECT hash FROM _media_urls WHERE feed = u.feed)) AS bytes
        FROM _media_urls u LEFT JOIN _media m ON m.hash = u.hash
        GROUP BY u.feed
        """
    package static let garbageTotals = """
        SELECT count(*) AS count, coalesce(sum(size), 0) AS bytes FROM _media
        WHERE fetched_at < $1 AND NOT EXISTS (SELECT 1 FROM _media_urls u WHERE u.hash = _media.hash)
        """
    package static let collectGarbage = """
        DELETE FROM _media
        WHERE fetched_at < $1 AND NOT EXISTS (SELECT 1 FROM _media_urls u WHERE u.hash = _media.hash)
        """
}
