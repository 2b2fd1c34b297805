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

    /// Starts a preload of `library`, then loads it from eight threads at once; returns how many
    /// of them found it loaded.
    static func preloadThenLoadFromEightThreads(_ library: UnsafeMutablePointer<fw_library>) -> Int {
        nonisolated(unsafe) let shared = library
        fw_library_preload(shared)
        let loaded = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let result = fw_library_load(shared)
            loaded.withLock { $0 += Int(result) }
        }
        return loaded.withLock { $0 }
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

    @Test func theSetupRunsOnceAfterTheFunctionsAreFoundWhicheverThreadLoads() {
        Self.withLibrary(file: "libz.so.1", functions: ["zlibVersion"]) { library, addresses in
            SetupProbe.functionSlot.withLock { $0 = Int(bitPattern: addresses) }
            library.pointee.setup = {
                let slot = UnsafeMutablePointer<UnsafeMutableRawPointer?>(
                    bitPattern: SetupProbe.functionSlot.withLock { $0 })
                let found = slot?.pointee != nil
                SetupProbe.runs.withLock { $0.append(found) }
                return nil
            }
            #expect(Self.preloadThenLoadFromEightThreads(library) == 8)
            #expect(SetupProbe.runs.withLock { $0 } == [true], "one run, with the functions already found")
        }
    }

    @Test func aLibraryWhoseSetupFailsIsRefusedWithTheReasonItGave() {
        Self.withLibrary(file: "libz.so.1", functions: ["zlibVersion"]) { library, _ in
            library.pointee.setup = { UnsafePointer(SetupProbe.refusal) }
            #expect(fw_library_load(library) == 0)
            #expect(fw_library_load(library) == 0, "asked again, it stays refused")
            #expect(String(cString: fw_library_error(library)) == "libz.so.1 could not be initialized: no entropy")
        }
    }

    @Test func threadsAskingAtOnceAllFindTheLibraryLoaded() {
        Self.withLibrary(file: "libz.so.1", functions: ["zlibVersion"]) { library, addresses in
            #expect(Self.preloadThenLoadFromEightThreads(library) == 8)
            #expect(addresses[0] != nil)
        }
    }
}

/// What the setups of the tests above see. A setup is a C function pointer: it captures
/// nothing, so it reports here.
private enum SetupProbe {
    /// Whether the function's address was there, once per run of the setup.
    static let runs = Mutex<[Bool]>([])
    /// Where the loader writes the function's address, as a bit pattern.
    static let functionSlot = Mutex<Int>(0)
    /// The reason the refusing setup gives; never freed, as the library keeps pointing at it.
    nonisolated(unsafe) static let refusal = strdup("no entropy")!
}
