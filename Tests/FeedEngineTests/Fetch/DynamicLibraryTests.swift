import CDynamicLibrary
import Foundation
import Synchronization
import Testing

/// Loading a C library when first needed instead of at start-up (libcurl, libpq).
@Suite("dynamic library loading")
struct DynamicLibraryTests {
    /// A library description that `body` may load, with one slot per function name. It is never
    /// freed: a preloading thread may still be on its way to it when `body` returns.
    static func withLibrary<T>(
        file: String, package: String = "somepackage", functions: [String],
        _ body: (UnsafeMutablePointer<fw_library>, UnsafeMutablePointer<UnsafeMutableRawPointer?>) throws -> T
    ) rethrows -> T {
        let addresses = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(1, functions.count))
        addresses.initialize(repeating: nil, count: max(1, functions.count))
        let names = functions.map { strdup($0) }
        let symbols = UnsafeMutablePointer<fw_symbol>.allocate(capacity: max(1, functions.count))
        for index in functions.indices {
            symbols[index] = fw_symbol(name: names[index], address: addresses + index)
        }
        let library = UnsafeMutablePointer<fw_library>.allocate(capacity: 1)
        library.initialize(to: fw_library())
        let fileName = strdup(file)
        let packageName = strdup(package)
        library.pointee.file = UnsafePointer(fileName)
        library.pointee.package = UnsafePointer(packageName)
        library.pointee.symbols = UnsafePointer(symbols)
        library.pointee.symbolCount = functions.count
        return try body(library, addresses)
    }

    @Test func aLibraryIsLoadedAndItsFunctionsFound() {
        Self.withLibrary(file: "libz.so.1", functions: ["zlibVersion", "crc32"]) { library, addresses in
            #expect(fw_library_load(library) == 1)
            #expect(addresses[0] != nil && addresses[1] != nil)
            #expect(String(cString: fw_library_error(library)).isEmpty)
        }
    }

    @Test func aMissingLibraryIsNamedWithThePackageThatHoldsIt() {
        Self.withLibrary(file: "libfeedwork-absent.so.1", package: "libfeedwork-absent1", functions: ["f"]) {
            library, _ in
            #expect(fw_library_load(library) == 0)
            let message = String(cString: fw_library_error(library))
            #expect(
                message.hasPrefix(
                    "libfeedwork-absent.so.1 could not be loaded (install Debian's libfeedwork-absent1): "),
                "\(message)")
        }
    }

    @Test func aLibraryWithoutAFunctionIsRefusedNamingTheFunction() {
        Self.withLibrary(file: "libz.so.1", functions: ["zlibVersion", "feedwork_no_such_function"]) {
            library, addresses in
            #expect(fw_library_load(library) == 0)
            #expect(addresses[0] == nil, "no address of the refused library is kept")
            #expect(
                String(cString: fw_library_error(library))
                    == "libz.so.1 has no function feedwork_no_such_function: an unsupported version")
        }
    }

    @Test func threadsAskingAtOnceAllFindTheLibraryLoaded() {
        Self.withLibrary(file: "libz.so.1", functions: ["zlibVersion"]) { library, addresses in
            nonisolated(unsafe) let shared = library
            fw_library_preload(shared)
            let loaded = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let result = fw_library_load(shared)
                loaded.withLock { $0 += Int(result) }
            }
            #expect(loaded.withLock { $0 } == 8)
            #expect(addresses[0] != nil)
        }
    }
}
