import Foundation

/// A private temporary folder (mode 0700) for the files a tap reads: its config and its state,
/// each written with mode 0600 and removed with the folder after the pass.
final class TapFiles {
    let folder: URL

    /// Makes the folder.
    ///
    /// - Throws: ``SingerError/Reason/file(_:)`` when it cannot be made.
    init() throws(SingerError.Reason) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedwork-singer-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .file("could not make a temporary folder for the tap's files: \(error.localizedDescription)")
        }
    }

    /// Writes `text` to `name` in the folder, readable by this user only; its path.
    func write(_ text: String, as name: String) throws(SingerError.Reason) -> String {
        let path = folder.appendingPathComponent(name).path
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { throw .file("could not write the tap's \(name) in \(folder.path)") }
        return path
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
