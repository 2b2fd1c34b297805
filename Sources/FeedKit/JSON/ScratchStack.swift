/// The elements of the containers a parser has open, innermost last, in one buffer that grows
/// rarely: a container pushes its elements as it reads them and, when it closes, moves them out
/// into an array of exactly their count.
///
/// Appending to a new array one element at a time reallocates it at 1, 2, 4 and 8 elements; a
/// record of six members and a nested object paid for about ten allocations that way.
final class ScratchStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The elements pushed and not yet moved out.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    func push(_ element: consuming Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements pushed since the stack held `start` into a new array.
    func pop(from start: Int) -> [Element] {
        let moved = count - start
        count = start
        guard moved > 0 else { return [] }
        let source = storage + start
        return [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
            buffer.baseAddress?.moveInitialize(from: source, count: moved)
            initialized = moved
        }
    }
}
