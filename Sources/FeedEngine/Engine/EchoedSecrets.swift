import FeedKit

/// Secrets an API echoes back inside records (a token repeated in a field, an `_extra` member
/// or a key): the rule is that no secret from `${VAR}` is ever stored, so before a pass writes
/// records, every text value holding one has it replaced by `***`, and a record whose key holds
/// one is rejected instead (a redacted key could merge two records into one row).
enum EchoedSecrets {
    /// `records` with secrets redacted from their values, and the records whose key holds a
    /// secret as rejects (with the key redacted and `source`, the response they came from).
    static func screen(_ records: [EntityRecord], redactor: Redactor, source: RecordSource?)
        -> (records: [EntityRecord], rejects: [Reject])
    {
        let search = redactor.search
        guard !search.isEmpty else { return (records, []) }
        var kept: [EntityRecord] = []
        var rejects: [Reject] = []
        kept.reserveCapacity(records.count)
        for var record in records {
            if search.found(in: record.key) {
                rejects.append(
                    Reject(
                        entity: record.entity,
                        reason:
                            "the record's key holds a secret from the environment; keys are never redacted, so the record is not stored",
                        path: "$", raw: redactor.redact(record.key), source: source))
                continue
            }
            record.values = record.values.map { redacted($0, search, redactor) }
            for (name, rows) in record.children {
                record.children[name] = rows.map { $0.map { redacted($0, search, redactor) } }
            }
            kept.append(record)
        }
        return (kept, rejects)
    }

    private static func redacted(_ value: FieldValue, _ search: SecretSearch, _ redactor: Redactor) -> FieldValue {
        guard case .text(let text) = value, search.found(in: text) else { return value }
        return .text(redactor.redact(text))
    }
}
