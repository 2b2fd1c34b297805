import Foundation

/// Finding a tap's executable as a shell would.
enum TapCommand {
    /// `name` resolved: a name with a `/` relative to `directory`, any other looked up on `PATH`.
    ///
    /// - Throws: ``SingerError/Reason/launchFailed(_:)`` when there is no such executable file.
    static func executable(
        _ name: String, directory: URL, path: String? = ProcessInfo.processInfo.environment["PATH"]
    ) throws(SingerError.Reason) -> URL {
        let files = FileManager.default
        if name.contains("/") {
            let url = URL(fileURLWithPath: name, relativeTo: directory).standardizedFileURL
            guard files.isExecutableFile(atPath: url.path) else {
                throw .launchFailed("\(url.path) is not an executable file")
            }
            return url
        }
        let folders = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        for folder in folders {
            let candidate = URL(fileURLWithPath: folder.isEmpty ? "." : String(folder), relativeTo: directory)
                .appendingPathComponent(name)
            if files.isExecutableFile(atPath: candidate.path) { return candidate.standardizedFileURL }
        }
        throw .launchFailed("'\(name)' was not found on PATH (\(path ?? "unset"))")
    }
}
