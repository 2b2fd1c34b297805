import Dispatch
import FeedEngine
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The signals a worker answers, turned into ``WorkerControl`` commands while this object lives:
/// SIGTERM and SIGINT stop it gracefully (a second SIGINT exits at once with 130), SIGHUP
/// reloads the config, whose problems are printed while the old config stays.
final class WorkerSignals {
    private let sources: [any DispatchSourceSignal]

    init(control: AsyncStream<WorkerControl>.Continuation, reload: @escaping @Sendable () throws -> FeedsConfig) {
        let interrupts = Atomic<Int>(0)
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                switch number {
                case SIGHUP:
                    do {
                        control.yield(.reload(try reload()))
                    } catch {
                        Console.error("feedwork worker: SIGHUP: the config has problems; the old one stays in use")
                        Console.error(ExitStatus.of(error)?.lines.joined(separator: "\n") ?? "\(error)")
                    }
                case SIGINT where interrupts.add(1, ordering: .relaxed).newValue > 1:
                    exit(Interrupts.exitStatus)
                default:
                    control.yield(.stop)
                }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
