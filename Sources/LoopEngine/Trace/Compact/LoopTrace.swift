/// A recorded trace, stored compactly: each event is 32 bytes of plain values in chunks that grow without ever
/// being copied, and each string and fact is kept once for the whole trace. Reading an event builds its
/// ``LoopEvent``; a million events take about 35 MB instead of the 130 MB an array of `LoopEvent` needed.
///
/// A value: appending to a trace another copy shares makes that copy's own storage first.
public struct LoopTrace: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    public typealias Index = Int
    public typealias Element = LoopEvent

    /// Events per chunk: 2 MiB.
    static let chunkShift = 16
    static let chunkSize = 1 << chunkShift

    private var storage: Storage

    /// An empty trace.
    public init() { storage = Storage() }

    /// A trace of `events`, in their order.
    public init(_ events: some Sequence<LoopEvent>) {
        self.init()
        append(contentsOf: events)
    }

    public init(arrayLiteral events: LoopEvent...) { self.init(events) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }

    public subscript(position: Int) -> LoopEvent {
        precondition(position >= 0 && position < storage.count, "trace index out of range")
        return storage.event(at: position)
    }

    package mutating func append(_ event: LoopEvent) {
        append(
            event.kind, time: event.time, loop: event.loop, depth: event.depth, mode: event.mode,
            iteration: event.iteration, name: event.name, fact: event.fact)
    }

    /// Appends one event given as its parts (what ``TraceRecorder`` takes from the core): its strings are looked up
    /// by their bits, never copied into an event first.
    @inline(__always)
    package mutating func append(
        _ kind: LoopEvent.Kind, time: LoopInstant, loop: String, depth: Int, mode: String?, iteration: Int,
        name: String?, fact: LoopEvent.Fact?
    ) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.append(
            kind, time: time, loop: loop, depth: depth, mode: mode, iteration: iteration, name: name, fact: fact)
    }

    package mutating func append(contentsOf events: some Sequence<LoopEvent>) {
        for event in events { append(event) }
    }

    /// The first `count` events, sharing this trace's chunks but the last (names and facts are kept whole): a
    /// replay that reuses the events before a change takes them without storing them again.
    package func firstEvents(_ count: Int) -> LoopTrace {
        let count = Swift.min(Swift.max(0, count), self.count)
        var trace = LoopTrace()
        trace.storage = storage.firstEvents(count)
        return trace
    }

    /// About the bytes the trace holds: its chunks as allocated, its names and its facts (each fact twice: in the
    /// table and as a key of its index).
    package var storedBytes: Int { storage.storedBytes }

    public static func == (lhs: LoopTrace, rhs: LoopTrace) -> Bool {
        lhs.storage === rhs.storage || lhs.elementsEqual(rhs)
    }

    /// The events, names and facts of a trace. Only a uniquely referenced storage is ever changed.
    final class Storage: @unchecked Sendable {
        // @unchecked Sendable: changed only while uniquely referenced (``LoopTrace/append(_:)``); shared copies
        // are only read.

        struct State {
            var count = 0
            var chunks: [[CompactEvent]] = []
            var names = NameTable()
            var facts: [LoopEvent.Fact] = []
            var factIDs: [LoopEvent.Fact: UInt32] = [:]
            /// An observer's activity, the fact that repeats most, by the activity's bit: found without hashing.
            var activityFacts = [UInt32](repeating: .max, count: 32)
            /// The facts of a poll and of the wakes with no payload, which repeat every iteration, by
            /// ``plainFactCode(_:)``: found without hashing.
            var plainFacts = [UInt32](repeating: .max, count: 5)
        }

        /// Behind a pointer allocated once: `append` runs for every event, and a stored property of a class would
        /// cost it a dynamic exclusivity check per access (see ``TraceRecorder``).
        private let state: UnsafeMutablePointer<State>

        init(_ initial: State = State()) {
            state = .allocate(capacity: 1)
            state.initialize(to: initial)
        }

        deinit {
            state.deinitialize(count: 1)
            state.deallocate()
        }

        var count: Int { state.pointee.count }

        func copy() -> Storage { Storage(state.pointee) }

        /// A storage of the first `count` events.
        func firstEvents(_ count: Int) -> Storage {
            var state = self.state.pointee
            let chunks = (count + LoopTrace.chunkSize - 1) >> LoopTrace.chunkShift
            state.chunks.removeLast(state.chunks.count - chunks)
            if chunks > 0 {
                let kept = count - (chunks - 1) * LoopTrace.chunkSize
                let last = state.chunks[chunks - 1].count
                state.chunks[chunks - 1].removeLast(last - kept)
            }
            state.count = count
            return Storage(state)
        }

        func append(
            _ kind: LoopEvent.Kind, time: LoopInstant, loop: String, depth: Int, mode: String?, iteration: Int,
            name: String?, fact: LoopEvent.Fact?
        ) {
            var modeID: UInt32 = 0
            if let mode { modeID = state.pointee.names.id(mode) + 1 }
            var nameID: UInt32 = 0
            if let name { nameID = state.pointee.names.id(name) + 1 }
            var factCode: UInt32 = 0
            if let fact { factCode = factID(fact) + 1 }
            let compact = CompactEvent(
                nanoseconds: time.nanoseconds, loop: state.pointee.names.id(loop), mode: modeID, name: nameID,
                fact: factCode, iteration: UInt32(clamping: iteration), depth: UInt16(clamping: depth),
                kind: Self.code(kind))
            if state.pointee.count & (LoopTrace.chunkSize - 1) == 0 {
                // The first chunk grows as arrays do (a short trace stays small); later ones are made whole.
                var chunk: [CompactEvent] = []
                if !state.pointee.chunks.isEmpty { chunk.reserveCapacity(LoopTrace.chunkSize) }
                state.pointee.chunks.append(chunk)
            }
            state.pointee.chunks[state.pointee.chunks.count - 1].append(compact)
            state.pointee.count += 1
        }

        func event(at index: Int) -> LoopEvent {
            let state = self.state.pointee
            let compact = state.chunks[index >> LoopTrace.chunkShift][index & (LoopTrace.chunkSize - 1)]
            return LoopEvent(
                time: LoopInstant(nanoseconds: compact.nanoseconds), loop: state.names[compact.loop],
                depth: Int(compact.depth), mode: compact.mode == 0 ? nil : state.names[compact.mode - 1],
                iteration: Int(compact.iteration), kind: Self.kinds[Int(compact.kind)],
                name: compact.name == 0 ? nil : state.names[compact.name - 1],
                fact: compact.fact == 0 ? nil : state.facts[Int(compact.fact - 1)])
        }

        /// Calls `body` with each stored event of `range` and its index, chunk by chunk, building no event.
        func forEachCompact(in range: Range<Int>, _ body: (Int, CompactEvent) -> Void) {
            var index = range.lowerBound
            while index < range.upperBound {
                let offset = index & (LoopTrace.chunkSize - 1)
                let end = Swift.min(range.upperBound, index - offset + LoopTrace.chunkSize)
                state.pointee.chunks[index >> LoopTrace.chunkShift].withUnsafeBufferPointer { chunk in
                    for position in index..<end { body(position, chunk[offset + position - index]) }
                }
                index = end
            }
        }

        func name(_ id: UInt32) -> String { state.pointee.names[id] }

        func fact(_ id: UInt32) -> LoopEvent.Fact { state.pointee.facts[Int(id)] }

        /// The fact's id. Facts that repeat (an activity, a wake's cause, a mode, an outcome) are kept once; those
        /// that name an instant or a text (a sleep's deadlines, a late fire, a note) rarely do and are kept as
        /// they come, without hashing.
        private func factID(_ fact: LoopEvent.Fact) -> UInt32 {
            if case .activity(let activity) = fact, activity.rawValue.nonzeroBitCount == 1 {
                let bit = activity.rawValue.trailingZeroBitCount
                let known = state.pointee.activityFacts[bit]
                if known != .max { return known }
                let id = add(fact)
                state.pointee.activityFacts[bit] = id
                return id
            }
            if let code = Self.plainFactCode(fact) {
                let known = state.pointee.plainFacts[code]
                if known != .max { return known }
                let id = add(fact)
                state.pointee.plainFacts[code] = id
                return id
            }
            switch fact {
            case .wait, .late, .run, .note, .operation: return add(fact)
            default:
                if let id = state.pointee.factIDs[fact] { return id }
                let id = add(fact)
                state.pointee.factIDs[fact] = id
                return id
            }
        }

        /// A small number for a fact that has no payload and comes every iteration; nil for any other.
        @inline(__always)
        private static func plainFactCode(_ fact: LoopEvent.Fact) -> Int? {
            switch fact {
            case .wait(.poll): 0
            case .woken(.nothing): 1
            case .woken(.wakeUpPort): 2
            case .woken(.timerPort): 3
            case .woken(.mainQueue): 4
            default: nil
            }
        }

        private func add(_ fact: LoopEvent.Fact) -> UInt32 {
            state.pointee.facts.append(fact)
            return UInt32(state.pointee.facts.count - 1)
        }

        var storedBytes: Int {
            let state = self.state.pointee
            let events = state.chunks.reduce(0) { $0 + $1.capacity } * MemoryLayout<CompactEvent>.stride
            let names = state.names.names.reduce(0) { $0 + 16 + $1.utf8.count } * 2
            let facts = state.facts.capacity * MemoryLayout<LoopEvent.Fact>.stride
            let index = state.factIDs.capacity * (MemoryLayout<LoopEvent.Fact>.stride + 4)
            return events + names + facts + index
        }

        static let kinds = LoopEvent.Kind.allCases

        /// A kind's position among ``LoopEvent/Kind/allCases``: the byte a case without payload is stored as
        /// (`LoopTraceTests` checks every kind round-trips).
        @inline(__always)
        static func code(_ kind: LoopEvent.Kind) -> UInt8 { unsafeBitCast(kind, to: UInt8.self) }
    }
}

extension LoopTrace {
    /// Calls `body` with each event of `range` as stored (strings and fact as the trace's ids) and its index,
    /// building no ``LoopEvent``: a pass over a million events that compares ids, not strings (the UI's filter).
    package func forEachCompact(in range: Range<Int>, _ body: (Int, CompactEvent) -> Void) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "trace range out of bounds")
        storage.forEachCompact(in: range, body)
    }

    /// The string of a name id: a ``CompactEvent``'s `loop` as is, its `mode` and `name` less one.
    package func name(id: UInt32) -> String { storage.name(id) }

    /// The fact of a ``CompactEvent``'s `fact` less one.
    package func fact(id: UInt32) -> LoopEvent.Fact { storage.fact(id) }

    /// The kind of a ``CompactEvent``'s `kind` code.
    package static func kind(code: UInt8) -> LoopEvent.Kind { Storage.kinds[Int(code)] }

    /// The index of the first event later than `instant` (``endIndex`` if none): a binary search, since a trace
    /// is recorded in time order.
    package func firstIndex(after instant: LoopInstant) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].time > instant { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The index of the first event at `instant` or later (``endIndex`` if none).
    package func firstIndex(atOrAfter instant: LoopInstant) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].time >= instant { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
