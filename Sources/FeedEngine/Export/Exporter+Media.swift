import FeedKit
import Foundation

/// `export --all --media`: the mirrored images of the exported feeds, copied into the export's
/// folder as `media/<hash>.<ext>`, the paths the rows' `<column>_path` name.
extension Exporter {
    /// Copies the images that `feeds`' URLs (every feed's when empty) point at into `folder`,
    /// each file atomically; a file already there with the image's size is kept.
    ///
    /// - Returns: the number of images in the folder for the export.
    func copyMedia(feeds: [String], into folder: URL) async throws -> Int {
        let feedFilter =
            feeds.isEmpty ? "" : " WHERE u.feed IN (\(feeds.indices.map { "$\($0 + 1)" }.joined(separator: ", ")))"
        let rows = try await store.query(
            "SELECT DISTINCT m.hash AS hash, m.type AS type, m.size AS size FROM _media m"
                + " JOIN _media_urls u ON u.hash = m.hash" + feedFilter,
            arguments: feeds.map { .text($0) })
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ExportError.runtime("cannot create the folder \(folder.path): \(error.localizedDescription)")
        }
        var copied = 0
        for row in rows {
            guard case .text(let hash)? = row["hash"], case .text(let type)? = row["type"],
                case .integer(let size)? = row["size"]
            else { continue }
            let format = MediaSignature.Format(mediaType: type)
            let path = folder.appendingPathComponent("\(hash).\(format?.fileExtension ?? "bin")").path
            copied += 1
            if let existing = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int,
                existing == Int(size)
            {
                continue
            }
            // Removed by `gc` since the rows were read: the row's path names a file not there.
            guard let media = try await store.media(hash: hash) else {
                copied -= 1
                continue
            }
            try AtomicFile.write(media.bytes, to: path)
        }
        return copied
    }
}
