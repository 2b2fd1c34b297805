import FeedKit
import Foundation

/// The single write transaction of one feed's pass, run on the store's writer thread.
///
/// The pass sends jobs (records to write, rejects, cache entries, state) as it fetches; the
/// store's writer thread (``StoreThread``) applies them inside one transaction (``PassWriter``,
/// opened by the store: `BEGIN IMMEDIATE` on SQLite), so fetching the next page overlaps with
/// writing the previous one and memory stays bounded (at most `capacity` jobs wait). SQLite
/// allows one writer at a time: a second feed's transaction waits in the writer's queue for the
/// first to commit, without blocking Swift's cooperative threads. The transaction is queued
/// with the first job, so a feed that fails before writing anything never takes the write lock.
package final class FeedTransaction: @unchecked Sendable {
    // All mutable state below is guarded by `lock`.
    package typealias Job = @Sendable (PassWriter) throws -> Void
    /// Opens the store's transaction, runs `body` in it with the pass's writer, and commits
    /// when `body` returns true, else rolls back.
    package typealias Opener = @Sendable (_ body: (PassWriter) throws -> Bool) throws -> Void

    private let lock = NSCondition()
    private var jobs: [Job] = []
    /// Jobs the thread has run, released by the next sender: freeing a batch of records costs
    /// about a fifth of the writer's time, which the busy writer thread should not spend.
    private var retired: [Job] = []
    private var closed = false
    private var shouldCommit = false
    private var started = false
    /// Whether the thread waits to start until the writes beside the transaction end (``writeBeside(_:)``).
    private var startDeferred = false
    /// Writes beside the transaction under way, before it took the store's writer.
    private var writesBeside = 0
    private var outcome: Result<Void, any Error>?
    private var spaceWaiters: [CheckedContinuation<Void, Never>] = []
    private var outcomeWaiters: [CheckedContinuation<Void, Never>] = []
    /// Jobs (about a page of records each) that may wait for the writer. Measured on W1 at
    /// 100,000 rows (`Benchmarks/run.sh`, medians of 3): with 4, the first pass took 1.05 s on
    /// SQLite and 1.86 s on PostgreSQL; with 12, 0.78 s and 1.66 s (fetching and parsing go on
    /// while the writer is busy), for 3 MB more peak memory; 24 gained little more for 5 MB.
    private let capacity = 12
    private let writer: StoreThread
    /// The store, for messages.
    private let location: String
    private let open: Opener
    /// Whether the transaction runs on the writer the store's own writes go through (SQLite's
    /// one writer), so that such a write waits for the pass to end once the transaction opened.
    private let holdsStoreWriter: Bool
    /// How often the open transaction, when no job came meanwhile, runs
    /// ``PassWriter/keepAlive()``: a server that ends sessions idle in a transaction for too
    /// long (PostgreSQL's `idle_in_transaction_session_timeout`) must not end a pass that waits
    /// for a slow page. `nil`: never.
    private let keepAliveInterval: Duration?

    /// - Parameters:
    ///   - holdsStoreWriter: whether `writer` is the one the store's other writes go through (so
    ///     a write beside the transaction can only come before it opens).
    ///   - keepAlive: how often an idle open transaction shows it is alive
    ///     (``PassWriter/keepAlive()``); `nil` when the store never ends idle sessions.
    package init(
        writer: StoreThread, location: String, holdsStoreWriter: Bool, keepAlive: Duration? = nil,
        open: @escaping Opener
    ) {
        self.writer = writer
        self.location = location
        self.holdsStoreWriter = holdsStoreWriter
        keepAliveInterval = keepAlive
        self.open = open
    }

    /// Runs `write`, a committed write of the store's own (outside this transaction), unless it
    /// would have to wait for this transaction to end: when the transaction holds the store's
    /// one writer already. While `write` runs, the transaction does not take the writer.
    ///
    /// - Returns: whether `write` ran.
    package func writeBeside(_ write: @Sendable () async throws -> Void) async throws -> Bool {
        guard beginWriteBeside() else { return false }
        defer { endWriteBeside() }
        try await write()
        return true
    }

    private func beginWriteBeside() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if holdsStoreWriter && started { return false }
        writesBeside += 1
        return true
    }

    private func endWriteBeside() {
        lock.lock()
        defer { lock.unlock() }
        writesBeside -= 1
        if writesBeside == 0 && startDeferred {
            startDeferred = false
            startThread()
        }
    }

    /// Queues `job`; waits while the queue is full.
    ///
    /// - Throws: the error that ended the transaction, if it already failed.
    package func send(_ job: @escaping Job) async throws {
        while true {
            let (result, retiredJobs) = enqueue(job)
            withExtendedLifetime(retiredJobs) {}  // released here, outside the lock
            switch result {
            case .queued: return
            case .failed(let error): throw error
            case .full:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    waitForSpace(continuation)
                }
            }
        }
    }

    /// Ends the transaction, committing or rolling back, and waits for the thread to finish.
    ///
    /// - Throws: the error that made the commit fail.
    package func finish(commit: Bool) async throws {
        guard close(commit: commit) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waitForOutcome(continuation)
        }
        let (outcome, leftovers) = takeOutcome()
        // The jobs hold the pass, which holds this transaction: kept, they would keep the pass,
        // its store and the writer thread alive after the pass.
        withExtendedLifetime(leftovers) {}  // released here, on the pass's task
        if commit, case .failure(let error)? = outcome { throw error }
    }

    private enum EnqueueResult {
        case queued, full
        case failed(any Error)
    }

    private func enqueue(_ job: @escaping Job) -> (EnqueueResult, retired: [Job]) {
        lock.lock()
        defer { lock.unlock() }
        let retiredJobs = retired
        retired = []
        if case .failure(let error)? = outcome { return (.failed(error), retiredJobs) }
        if !started {
            started = true
            // Behind a write beside it on the same writer, the transaction would wait for the
            // pass that waits for that write: it starts once the write is done.
            if holdsStoreWriter && writesBeside > 0 { startDeferred = true } else { startThread() }
        }
        guard jobs.count < capacity else { return (.full, retiredJobs) }
        jobs.append(job)
        lock.signal()
        return (.queued, retiredJobs)
    }

    private func waitForSpace(_ continuation: CheckedContinuation<Void, Never>) {
        lock.lock()
        if jobs.count < capacity || outcome != nil {
            lock.unlock()
            continuation.resume()
        } else {
            spaceWaiters.append(continuation)
            lock.unlock()
        }
    }

    /// Marks the end of the jobs; returns whether the thread runs (and so must be waited for).
    private func close(commit: Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        shouldCommit = commit
        lock.signal()
        return started
    }

    private func waitForOutcome(_ continuation: CheckedContinuation<Void, Never>) {
        lock.lock()
        if outcome != nil {
            lock.unlock()
            continuation.resume()
        } else {
            outcomeWaiters.append(continuation)
            lock.unlock()
        }
    }

    /// The outcome, and the jobs left to release.
    private func takeOutcome() -> (Result<Void, any Error>?, [Job]) {
        lock.lock()
        defer { lock.unlock() }
        let leftovers = retired
        retired = []
        return (outcome, leftovers)
    }

    private func startThread() {
        writer.submit { [self] in run() }
    }

    private struct RolledBack: Error {}

    private func run() {
        let result: Result<Void, any Error>
        do {
            try open { scope in
                let heartbeat = keepAliveInterval.map { interval in
                    Heartbeat(label: "feedwork.pass.keepalive", every: interval) { [weak self] in
                        self?.queueKeepAlive() ?? false
                    }
                }
                defer { heartbeat?.stop() }
                var done: Job?
                while let job = nextJob(retiring: &done) {
                    try job(scope)
                    done = job
                }
                return commitRequested()
            }
            result = commitRequested() ? .success(()) : .failure(RolledBack())
        } catch let error as RejectLimitError {
            result = .failure(error)  // the pass's verdict on its records, not a store failure
        } catch let error as DeleteLimitError {
            result = .failure(error)  // the pass's verdict on its deletions, likewise
        } catch {
            result = .failure(StoreError(path: location, error))
        }
        lock.lock()
        outcome = result
        let waiters = spaceWaiters + outcomeWaiters
        spaceWaiters = []
        outcomeWaiters = []
        // The jobs still here (the last pages' records, about a tenth of the writer's time at
        // 20,000 rows) are released by whoever finishes the pass, not by the writer thread,
        // which the next feed's transaction may be waiting for.
        retired += jobs
        jobs = []
        lock.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// Queues a ``PassWriter/keepAlive()`` when no job waits (a job shows the session alive as
    /// well); returns whether the transaction is still open.
    private func queueKeepAlive() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !closed, outcome == nil else { return false }
        if jobs.isEmpty {
            jobs.append { scope in try scope.keepAlive() }
            lock.signal()
        }
        return true
    }

    private func commitRequested() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return shouldCommit
    }

    /// The next job, waiting for one; `nil` once the transaction is closed. `done`, the job just
    /// run, moves to `retired`, so the writer keeps no reference that would free it here.
    private func nextJob(retiring done: inout Job?) -> Job? {
        lock.lock()
        if let job = done.take() { retired.append(job) }
        while jobs.isEmpty && !closed { lock.wait() }
        guard !jobs.isEmpty else {
            lock.unlock()
            return nil
        }
        let job = jobs.removeFirst()
        let waiters = spaceWaiters
        spaceWaiters = []
        lock.unlock()
        for waiter in waiters { waiter.resume() }
        return job
    }
}
