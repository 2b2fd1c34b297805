import FeedKit

extension IncrementalCursor {
    /// The problems of `window_end:`: `exclusive` or `inclusive`, with `window`, and for
    /// `inclusive` a cursor format whose unit (``TimestampFormat/resolution``) is known and no
    /// longer than the window.
    static func checkWindowEnd(
        _ spec: JSONAdapter.IncrementalSpec, format: TimestampFormat, errors: inout OptionError.List
    ) {
        let at = ["incremental", "window_end"]
        guard let text = spec.windowEnd else { return }
        guard text == "exclusive" || text == "inclusive" else {
            errors.append(OptionError("window_end must be exclusive or inclusive, not '\(text)'", at: at))
            return
        }
        guard let window = spec.window else {
            errors.append(OptionError("window_end needs window", at: at))
            return
        }
        guard text == "inclusive" else { return }
        guard let unit = format.resolution else {
            errors.append(
                OptionError(
                    "window_end: inclusive needs a cursor format that writes days at least (its unit is what separates one window's end from the next start)",
                    at: at))
            return
        }
        if window.milliseconds * 1000 < unit {
            errors.append(
                OptionError(
                    "window must be at least one unit of the cursor's format with window_end: inclusive", at: at))
        }
    }
}

extension TimestampFormat {
    /// The smallest step this format writes, in microseconds: 1 s for ISO 8601 (as APIs
    /// mostly read it) and `unix`, 1 ms for `unix_ms`, the finest field of a pattern (a day
    /// for `yyyy-MM-dd`); `nil` for a pattern without days.
    var resolution: Int64? {
        switch self {
        case .iso8601, .unixSeconds: return 1_000_000
        case .unixMilliseconds: return 1000
        case .pattern(let tokens):
            let units: [(Token, Int64)] = [(.second, 1), (.minute, 60), (.hour, 3600), (.day, 86400)]
            return units.first { tokens.contains($0.0) }.map { $0.1 * 1_000_000 }
        }
    }
}
