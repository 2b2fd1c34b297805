/// The columns every entity table has before its schema's own, on every store:
///
/// | column | holds |
/// |---|---|
/// | `_feed` | the feed that wrote the row |
/// | `_key` | the record's key within the feed (key columns joined with `\|`) |
/// | `_hash` | a hash of the row's content, to tell changed records from unchanged ones |
/// | `_run` | the run (`_runs.id`) that last inserted or changed the row |
/// | `_first_seen` | when the row was first written (ISO 8601 UTC) |
/// | `_last_seen` | when a pass last delivered the row |
///
/// Child tables (`<entity>__<list>`) have `_feed`, `_key` (the parent's key) and `_position`.
package enum EntityColumns {
    package static let common = ["_feed", "_key", "_hash", "_run", "_first_seen", "_last_seen"]
    package static let childCommon = ["_feed", "_key", "_position"]
}
