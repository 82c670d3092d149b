/// A recorded trace, stored compactly: each event is 32 bytes of plain values in chunks that never move
/// (`EventChunk`), and each string and fact is kept once for the whole trace. Reading an event builds its
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

    /// Appends one event whose strings and fact are already this trace's ids (``nameID(_:)``, ``factID(_:)``):
    /// what the core hands a ``TraceRecorder``. `modeCode`, `nameCode` and `factCode` are an id + 1, or 0 for none,
    /// as a ``CompactEvent`` keeps them.
    @inline(__always)
    package mutating func append(
        _ kind: LoopEvent.Kind, time: LoopInstant, loopID: UInt32, depth: Int, modeCode: UInt32, iteration: Int,
        nameCode: UInt32, factCode: UInt32
    ) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.append(
            CompactEvent(
                nanoseconds: time.nanoseconds, loop: loopID, mode: modeCode, name: nameCode, fact: factCode,
                iteration: UInt32(clamping: iteration), depth: UInt16(clamping: depth), kind: Storage.code(kind)))
    }

    /// The id of `name` in this trace's table, added when new. Ids stay the same for as long as events are
    /// appended to this trace (its copies included); a trace built another way has a table of its own.
    @inline(__always)
    package mutating func nameID(_ name: String) -> UInt32 {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage.nameID(name)
    }

    /// The id of `fact` in this trace's fact table, added when new (see ``nameID(_:)``).
    @inline(__always)
    package mutating func factID(_ fact: LoopEvent.Fact) -> UInt32 {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage.factID(fact)
    }

    /// The id of the fact `.activity(activity)`, found by the activity's bit without building the fact.
    @inline(__always)
    package mutating func activityFactID(_ activity: Activity) -> UInt32 {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage.activityFactID(activity)
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
            /// Every chunk but the last is full; the last has room, or is full and the next event starts a chunk.
            var chunks: [EventChunk] = []
            /// The last chunk, read without a retain (`chunks` holds it).
            unowned(unsafe) var tail: EventChunk?
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

        func copy() -> Storage { firstEvents(state.pointee.count) }

        /// A storage of the first `count` events: it shares the full chunks, and has its own copy of a last chunk
        /// with room (only one storage ever writes to a chunk).
        func firstEvents(_ count: Int) -> Storage {
            var state = self.state.pointee
            let chunks = (count + LoopTrace.chunkSize - 1) >> LoopTrace.chunkShift
            state.chunks.removeLast(state.chunks.count - chunks)
            state.tail = nil
            if chunks > 0 {
                let kept = count - (chunks - 1) * LoopTrace.chunkSize
                let last = state.chunks[chunks - 1]
                if kept < last.capacity {
                    state.chunks[chunks - 1] = EventChunk(copying: kept, of: last, capacity: last.capacity)
                }
                state.tail = state.chunks[chunks - 1]
            }
            state.count = count
            return Storage(state)
        }

        func append(
            _ kind: LoopEvent.Kind, time: LoopInstant, loop: String, depth: Int, mode: String?, iteration: Int,
            name: String?, fact: LoopEvent.Fact?
        ) {
            var modeCode: UInt32 = 0
            if let mode { modeCode = nameID(mode) + 1 }
            var nameCode: UInt32 = 0
            if let name { nameCode = nameID(name) + 1 }
            var factCode: UInt32 = 0
            if let fact { factCode = factID(fact) + 1 }
            append(
                CompactEvent(
                    nanoseconds: time.nanoseconds, loop: nameID(loop), mode: modeCode, name: nameCode, fact: factCode,
                    iteration: UInt32(clamping: iteration), depth: UInt16(clamping: depth), kind: Self.code(kind)))
        }

        @inline(__always)
        func append(_ compact: CompactEvent) {
            let offset = state.pointee.count & (LoopTrace.chunkSize - 1)
            if offset == 0 || offset == state.pointee.tail.unsafelyUnwrapped.capacity { makeRoom(at: offset) }
            state.pointee.tail.unsafelyUnwrapped.base[offset] = compact
            state.pointee.count += 1
        }

        /// A new chunk for the event at `offset` of its chunk: a whole one at a chunk's start (the first chunk
        /// starts small and grows as an array does, so a short trace stays small), or the first chunk grown.
        @inline(never)
        private func makeRoom(at offset: Int) {
            let chunk: EventChunk
            if offset == 0 {
                chunk = EventChunk(capacity: state.pointee.chunks.isEmpty ? 64 : LoopTrace.chunkSize)
                state.pointee.chunks.append(chunk)
            } else {
                let old = state.pointee.tail.unsafelyUnwrapped
                chunk = EventChunk(copying: offset, of: old, capacity: Swift.min(2 * old.capacity, LoopTrace.chunkSize))
                state.pointee.chunks[state.pointee.chunks.count - 1] = chunk
            }
            state.pointee.tail = chunk
        }

        @inline(__always)
        func nameID(_ name: String) -> UInt32 { state.pointee.names.id(name) }

        func event(at index: Int) -> LoopEvent {
            // Through the pointer: a copy of the state would retain and release its every array.
            let state = self.state
            let compact = state.pointee.chunks[index >> LoopTrace.chunkShift].base[index & (LoopTrace.chunkSize - 1)]
            return LoopEvent(
                time: LoopInstant(nanoseconds: compact.nanoseconds), loop: state.pointee.names[compact.loop],
                depth: Int(compact.depth), mode: compact.mode == 0 ? nil : state.pointee.names[compact.mode - 1],
                iteration: Int(compact.iteration), kind: Self.kinds[Int(compact.kind)],
                name: compact.name == 0 ? nil : state.pointee.names[compact.name - 1],
                fact: compact.fact == 0 ? nil : state.pointee.facts[Int(compact.fact - 1)])
        }

        /// Calls `body` with each stored event of `range` and its index, chunk by chunk, building no event.
        func forEachCompact(in range: Range<Int>, _ body: (Int, CompactEvent) -> Void) {
            var index = range.lowerBound
            while index < range.upperBound {
                let offset = index & (LoopTrace.chunkSize - 1)
                let end = Swift.min(range.upperBound, index - offset + LoopTrace.chunkSize)
                let chunk = state.pointee.chunks[index >> LoopTrace.chunkShift].events(offset + end - index)
                for position in index..<end { body(position, chunk[offset + position - index]) }
                index = end
            }
        }

        func name(_ id: UInt32) -> String { state.pointee.names[id] }

        func fact(_ id: UInt32) -> LoopEvent.Fact { state.pointee.facts[Int(id)] }

        /// The fact's id. Facts that repeat (an activity, a wake's cause, a mode, an outcome) are kept once; those
        /// that name an instant or a text (a sleep's deadlines, a late fire, a note) rarely do and are kept as
        /// they come, without hashing.
        func factID(_ fact: LoopEvent.Fact) -> UInt32 {
            if case .activity(let activity) = fact { return activityFactID(activity) }
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

        /// The id of `.activity(activity)`: one of the six activities by its bit, without hashing; a set of
        /// several (never emitted by the core) as any other fact.
        @inline(__always)
        func activityFactID(_ activity: Activity) -> UInt32 {
            guard activity.rawValue.nonzeroBitCount == 1 else {
                let fact = LoopEvent.Fact.activity(activity)
                if let id = state.pointee.factIDs[fact] { return id }
                let id = add(fact)
                state.pointee.factIDs[fact] = id
                return id
            }
            let bit = activity.rawValue.trailingZeroBitCount
            let known = state.pointee.activityFacts[bit]
            if known != .max { return known }
            let id = add(.activity(activity))
            state.pointee.activityFacts[bit] = id
            return id
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
