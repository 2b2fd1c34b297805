extension Collection {
    /// The collection in consecutive pieces of `size` elements (the last may be shorter); of
    /// one element each when `size` is less than 1.
    func chunks(of size: Int) -> [SubSequence] {
        var pieces: [SubSequence] = []
        var start = startIndex
        while start != endIndex {
            let end = index(start, offsetBy: Swift.max(size, 1), limitedBy: endIndex) ?? endIndex
            pieces.append(self[start..<end])
            start = end
        }
        return pieces
    }
}
