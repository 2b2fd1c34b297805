/// A plain-text table with left-aligned text and right-aligned numbers.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []
    /// Columns aligned to the right.
    var numeric: Set<Int> = []

    init(_ header: [String], numeric: Set<Int> = []) {
        self.header = header
        self.numeric = numeric
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: max(0, widths[index] - cell.count))
                return numeric.contains(index) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line))
            .joined(separator: "\n")
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
