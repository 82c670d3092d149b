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

    public init() { storage = Storage() }

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

    public mutating func append(_ event: LoopEvent) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.append(event)
    }

    public mutating func append(contentsOf events: some Sequence<LoopEvent>) {
        for event in events { append(event) }
    }

    /// About the bytes the trace holds: its chunks as allocated, its names and its facts (each fact twice: in the
    /// table and as a key of its index).
    public var storedBytes: Int { storage.storedBytes }

    public static func == (lhs: LoopTrace, rhs: LoopTrace) -> Bool {
        lhs.storage === rhs.storage || lhs.elementsEqual(rhs)
    }

    /// The events, names and facts of a trace. Only a uniquely referenced storage is ever changed.
    final class Storage: @unchecked Sendable {
        private(set) var count = 0
        private var chunks: [[CompactEvent]] = []
        private var names = NameTable()
        private var facts: [LoopEvent.Fact] = []
        private var factIDs: [LoopEvent.Fact: UInt32] = [:]
        /// The facts that repeat most (an observer's activity), found without hashing.
        private var activityFacts: [UInt32: UInt32] = [:]

        func copy() -> Storage {
            let other = Storage()
            other.count = count
            other.chunks = chunks
            other.names = names
            other.facts = facts
            other.factIDs = factIDs
            other.activityFacts = activityFacts
            return other
        }

        func append(_ event: LoopEvent) {
            let compact = CompactEvent(
                nanoseconds: event.time.nanoseconds, loop: names.id(event.loop),
                mode: event.mode.map { names.id($0) + 1 } ?? 0, name: event.name.map { names.id($0) + 1 } ?? 0,
                fact: event.fact.map { factID($0) + 1 } ?? 0, iteration: UInt32(clamping: event.iteration),
                depth: UInt16(clamping: event.depth), kind: Self.code(event.kind))
            if count & (LoopTrace.chunkSize - 1) == 0 {
                // The first chunk grows as arrays do (a short trace stays small); later ones are made whole.
                var chunk: [CompactEvent] = []
                if !chunks.isEmpty { chunk.reserveCapacity(LoopTrace.chunkSize) }
                chunks.append(chunk)
            }
            chunks[chunks.count - 1].append(compact)
            count += 1
        }

        func event(at index: Int) -> LoopEvent {
            let compact = chunks[index >> LoopTrace.chunkShift][index & (LoopTrace.chunkSize - 1)]
            return LoopEvent(
                time: LoopInstant(nanoseconds: compact.nanoseconds), loop: names[compact.loop],
                depth: Int(compact.depth), mode: compact.mode == 0 ? nil : names[compact.mode - 1],
                iteration: Int(compact.iteration), kind: Self.kinds[Int(compact.kind)],
                name: compact.name == 0 ? nil : names[compact.name - 1],
                fact: compact.fact == 0 ? nil : facts[Int(compact.fact - 1)])
        }

        private func factID(_ fact: LoopEvent.Fact) -> UInt32 {
            if case .activity(let activity) = fact, let id = activityFacts[activity.rawValue] { return id }
            if let id = factIDs[fact] { return id }
            let id = UInt32(facts.count)
            facts.append(fact)
            factIDs[fact] = id
            if case .activity(let activity) = fact { activityFacts[activity.rawValue] = id }
            return id
        }

        var storedBytes: Int {
            let events = chunks.reduce(0) { $0 + $1.capacity } * MemoryLayout<CompactEvent>.stride
            let names = self.names.names.reduce(0) { $0 + 16 + $1.utf8.count } * 2
            let facts = self.facts.count * (MemoryLayout<LoopEvent.Fact>.stride * 2 + 8)
            return events + names + facts
        }

        static let kinds = LoopEvent.Kind.allCases

        /// A kind's position among ``LoopEvent/Kind/allCases``: the byte a case without payload is stored as
        /// (`LoopTraceTests` checks every kind round-trips).
        @inline(__always)
        static func code(_ kind: LoopEvent.Kind) -> UInt8 { unsafeBitCast(kind, to: UInt8.self) }
    }
}
