/// How far apart two words are, for "did you mean" hints: the optimal-string-alignment form of the
/// Damerau–Levenshtein distance (an insertion, a deletion, a substitution or a swap of two neighbours each
/// costs 1). Typos are mostly one of those four, so a word a distance of 1 or 2 from a known one is taken for it.
package enum EditDistance {
    /// Words longer than this are never compared: a 10 MB token costs nothing (and is no typo of a keyword).
    package static let maxLength = 64

    /// The distance between `a` and `b` (nil when either is longer than ``maxLength``). O(|a|·|b|).
    package static func between(_ a: String, _ b: String) -> Int? {
        let a = Array(a.unicodeScalars.prefix(maxLength + 1))
        let b = Array(b.unicodeScalars.prefix(maxLength + 1))
        guard a.count <= maxLength, b.count <= maxLength else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Three rows of the table: two back (for a swap), one back, and the one being filled.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, twoBack[j - 2] + 1) }
                current[j] = best
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }

    /// The known word `word` most likely stands for, or nil when none is close: one that differs only in case
    /// (`afterwaiting` → `afterWaiting`), else the nearest ignoring case, at most 1 away for words of 3 or 4
    /// characters and 2 for longer ones (the first listed wins a tie); a word of 1 or 2 characters is a typo of
    /// almost anything, so it gets no guess. The word itself is never suggested; at most ``maxCandidates``
    /// candidates are compared.
    package static func nearest(to word: String, among candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        let limit = word.count <= 4 ? 1 : 2
        var best: (word: String, distance: Int)?
        for candidate in candidates.prefix(maxCandidates) where candidate != word {
            let other = candidate.lowercased()
            if other == lowered { return candidate }
            // Words whose lengths differ by more than the limit are further apart than it: not compared.
            guard word.count >= 3, abs(other.count - lowered.count) <= limit else { continue }
            guard let distance = between(lowered, other), distance <= limit else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.word
    }

    /// How many known words one hint looks at, at most: a file may declare thousands of items, and a hint
    /// stays cheap (at most 1,000 comparisons of 64 by 64 characters).
    package static let maxCandidates = 1_000
}
