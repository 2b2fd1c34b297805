import FeedEngine
import Foundation

/// The package that `feedwork new adapter NAME` writes: an adapter of its own, Feedwork's
/// command line with it registered beside the built-in adapters, a feed that runs offline, a
/// recorded fixture suite and tests. It builds, runs and passes its tests as written.
struct AdapterScaffold {
    let name: AdapterName
    let dependency: FeedworkDependency

    /// Every file, by its path inside the package folder, with its text.
    var files: [(path: String, text: String)] {
        [
            ("Package.swift", PackageTemplate.text(name, dependency: dependency)),
            ("Sources/\(name.module)/\(name.adapterType).swift", AdapterTemplate.text(name)),
            ("Sources/\(name.packageName)/main.swift", MainTemplate.text(name)),
            ("Tests/\(name.testModule)/\(name.adapterType)Tests.swift", AdapterTestsTemplate.text(name)),
            ("feeds.yaml", FeedsTemplate.text(name)),
            ("Fixtures/\(name.name).json", FixtureTemplate.sample),
        ]
            + RecordedSuiteTemplate.files(name).map { ("Fixtures/recorded/\($0.path)", $0.text) }
            + [("README.md", ReadmeTemplate.text(name)), (".gitignore", ReadmeTemplate.gitignore)]
    }

    /// Writes the files into `folder`, each atomically, creating the folder when it does not
    /// exist.
    ///
    /// - Throws: ``CommandFailure`` (status 2) when `folder` is a file or a folder that holds
    ///   anything: nothing is written then.
    func write(into folder: URL) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CommandFailure.usage("\(folder.path) is a file; name a new or empty folder with --path")
            }
            let entries = try manager.contentsOfDirectory(atPath: folder.path)
            guard entries.isEmpty else {
                throw CommandFailure.usage(
                    "\(folder.path) is not empty (\(entries.count) item(s)); nothing was written: "
                        + "name a new or empty folder with --path")
            }
        }
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(Data(file.text.utf8), to: url.path)
        }
    }
}
