import LoopEngine

/// The events a filter keeps, as their indexes in trace order: made by one pass when the filter is set, extended
/// by the new events only when the trace grows, made again when the trace is replaced (a poke, a replay). With it
/// a frame of the filtered log and `*`/`#` are a binary search, however rare the matches in a trace of 1,000,000
/// events. Bounded: the pass is bounded by the trace's event budget, and the index holds 4 bytes a kept event plus
/// what each name and fact of the trace matched.
///
/// The pass compares the trace's ids, not strings: what each name, kind and fact matches is worked out once, the
/// first time an event names it (``EventFilter/matches(_:)`` gives the same answers, event by event).
struct FilterIndex: Equatable {
    let filter: EventFilter
    /// The ``Session/traceIdentity`` of the trace indexed.
    private(set) var traceIdentity = -1
    /// The events looked at: the first `scanned` of the trace.
    private(set) var scanned = 0
    /// The kept events' indexes, ascending.
    private(set) var kept: [Int32] = []
    private var matcher: Matcher

    init(_ filter: EventFilter) {
        self.filter = filter
        matcher = Matcher(filter)
    }

    /// Equal when made by the same filter from the same events: the rest follows from those.
    static func == (lhs: FilterIndex, rhs: FilterIndex) -> Bool {
        lhs.filter == rhs.filter && lhs.traceIdentity == rhs.traceIdentity && lhs.scanned == rhs.scanned
            && lhs.kept.count == rhs.kept.count
    }

    /// True when the index is for `trace` (of identity `identity`) as it is now.
    func isCurrent(for trace: LoopTrace, identity: Int) -> Bool {
        identity == traceIdentity && scanned == trace.count
    }

    /// Brings the index up to `trace`: the new events only when it grew, all of them when it is another trace.
    mutating func update(to trace: LoopTrace, identity: Int) {
        if identity != traceIdentity || trace.count < scanned {
            traceIdentity = identity
            scanned = 0
            kept = []
        }
        guard scanned < trace.count else { return }
        matcher.scan(trace, scanned..<trace.count, into: &kept)
        scanned = trace.count
    }

    /// The number of kept events before `index`: where `index` is, or would be, in ``kept``.
    func position(of index: Int) -> Int {
        var low = 0
        var high = kept.count
        while low < high {
            let middle = (low + high) / 2
            if Int(kept[middle]) < index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first kept event at `start` or later (forward), or the last one before `start` (backward).
    func search(from start: Int, forward: Bool) -> Int? {
        let position = position(of: start)
        if forward { return position < kept.count ? Int(kept[position]) : nil }
        return position > 0 ? Int(kept[position - 1]) : nil
    }

    /// The last `count` kept events before `end`, oldest first.
    func last(_ count: Int, before end: Int) -> ArraySlice<Int32> {
        let high = position(of: end)
        return kept[max(0, high - max(0, count))..<high]
    }
}

extension FilterIndex {
    /// ``EventFilter/matches(_:)`` on a trace's ids, remembering what each id matched.
    private struct Matcher {
        let filter: EventFilter
        /// The kind codes kept (all when the filter names no kind).
        private var kinds = [Bool](repeating: true, count: 256)
        /// By name id: 0 not yet known, 1 kept, 2 not (one table per field, as a name may be both).
        private var threads: [UInt8] = []
        private var items: [UInt8] = []
        private var modes: [UInt8] = []
        /// By name id, kind code and fact id: which free words are found in it (bit `i`: word `i`), and whether
        /// that is known yet. More words than fit fall back to ``EventFilter/matches(_:)``.
        private var nameWords: [UInt64] = []
        private var nameWordsKnown: [Bool] = []
        private var kindWords = [UInt64](repeating: 0, count: 256)
        private var factWords: [UInt64] = []
        private var factWordsKnown: [Bool] = []
        private let allWords: UInt64
        private let byIDs: Bool

        init(_ filter: EventFilter) {
            self.filter = filter
            byIDs = filter.words.count < 64
            allWords = byIDs ? (1 << UInt64(filter.words.count)) - 1 : 0
            if !filter.kinds.isEmpty {
                kinds = [Bool](repeating: false, count: 256)
                for kind in filter.kinds { kinds[LoopEvent.Kind.allCases.firstIndex(of: kind) ?? 0] = true }
            }
            if byIDs {
                for code in 0..<LoopEvent.Kind.allCases.count {
                    kindWords[code] = Self.words(filter.words, in: LoopTrace.kind(code: UInt8(code)).rawValue)
                }
            }
        }

        mutating func scan(_ trace: LoopTrace, _ range: Range<Int>, into kept: inout [Int32]) {
            guard byIDs else {
                for index in range where filter.matches(trace[index]) { kept.append(Int32(index)) }
                return
            }
            trace.forEachCompact(in: range) { index, event in
                if keeps(event, trace) { kept.append(Int32(index)) }
            }
        }

        private mutating func keeps(_ event: CompactEvent, _ trace: LoopTrace) -> Bool {
            guard kinds[Int(event.kind)] else { return false }
            let filter = self.filter
            if !filter.threads.isEmpty
                && !Self.known(&threads, event.loop, { filter.threads.contains(trace.name(id: $0)) })
            {
                return false
            }
            if !filter.items.isEmpty
                && (event.name == 0
                    || !Self.known(&items, event.name - 1, { filter.items.contains(trace.name(id: $0)) }))
            {
                return false
            }
            if !filter.modes.isEmpty
                && (event.mode == 0
                    || !Self.known(&modes, event.mode - 1, { filter.modes.contains(trace.name(id: $0)) }))
            {
                return false
            }
            guard allWords != 0 else { return true }
            var found = kindWords[Int(event.kind)] | nameWords(event.loop, trace)
            if event.name != 0 { found |= nameWords(event.name - 1, trace) }
            if event.mode != 0 { found |= nameWords(event.mode - 1, trace) }
            if found == allWords { return true }
            guard event.fact != 0 else { return false }
            return found | factWords(event.fact - 1, trace) == allWords
        }

        /// Whether name `id` passes `test`, worked out the first time.
        private static func known(_ table: inout [UInt8], _ id: UInt32, _ test: (UInt32) -> Bool) -> Bool {
            let slot = Int(id)
            grow(&table, to: slot, with: 0)
            if table[slot] == 0 { table[slot] = test(id) ? 1 : 2 }
            return table[slot] == 1
        }

        /// Makes `slot` an index of `table`, doubling it: names and facts are numbered as they come.
        private static func grow<Element>(_ table: inout [Element], to slot: Int, with empty: Element) {
            guard slot >= table.count else { return }
            table += repeatElement(empty, count: max(slot + 1, table.count * 2) - table.count)
        }

        private mutating func nameWords(_ id: UInt32, _ trace: LoopTrace) -> UInt64 {
            let slot = Int(id)
            Self.grow(&nameWords, to: slot, with: 0)
            Self.grow(&nameWordsKnown, to: slot, with: false)
            if !nameWordsKnown[slot] {
                nameWords[slot] = Self.words(filter.words, in: trace.name(id: id))
                nameWordsKnown[slot] = true
            }
            return nameWords[slot]
        }

        private mutating func factWords(_ id: UInt32, _ trace: LoopTrace) -> UInt64 {
            let slot = Int(id)
            Self.grow(&factWords, to: slot, with: 0)
            Self.grow(&factWordsKnown, to: slot, with: false)
            if !factWordsKnown[slot] {
                factWords[slot] = Self.words(filter.words, in: LoopEvent.detail(of: trace.fact(id: id)))
                factWordsKnown[slot] = true
            }
            return factWords[slot]
        }

        /// Bit `i` set when `words[i]` is found in `text`, as ``EventFilter/matches(_:)`` looks for it.
        private static func words(_ words: [String], in text: String?) -> UInt64 {
            var found: UInt64 = 0
            for (bit, word) in words.enumerated() where EventFilter.contains(text, word) { found |= 1 << UInt64(bit) }
            return found
        }
    }
}
