import LoopEngine

/// What a replay keeps of a trace read as a stream: its last events (the UI keeps at most
/// ``Session/maximumLiveEvents``, and forgets the oldest quarter past that), how many came before them, its
/// threads in the order they first appear and the events its writer said it dropped. A recording of an hour (10⁷
/// events) is read once, with the memory of the events kept, not of the file's.
struct ReplayTail {
    /// The last events, oldest first once `ring` has wrapped at `start`.
    private var ring: [LoopEvent] = []
    private var start = 0
    private let capacity: Int
    /// Events read in all.
    private(set) var total = 0
    /// The threads (loops) in the order their first event came, at most ``ThreadLimit/maximumThreads``.
    private(set) var threads: [String] = []
    private var known: Set<String> = []
    private var lastLoop: String?
    /// The events the writer dropped (its `dropped` facts), summed.
    private(set) var dropped = 0

    /// A tail that keeps what a replay of `Session.maximumLiveEvents` keeps.
    init(capacity: Int = Session.maximumLiveEvents) {
        self.capacity = max(1, capacity)
    }

    mutating func append(_ event: LoopEvent) {
        total += 1
        // Consecutive events are mostly one thread's: its name is compared, not hashed.
        if event.loop != lastLoop {
            lastLoop = event.loop
            if threads.count < ThreadLimit.maximumThreads, known.insert(event.loop).inserted {
                threads.append(event.loop)
            }
        }
        if case .dropped(let count) = event.fact { dropped += count }
        if ring.count < capacity {
            ring.append(event)
        } else {
            ring[start] = event
            start = (start + 1) % capacity
        }
    }

    /// The events a replay shows: all of them up to ``Session/maximumLiveEvents``; past that the newest three
    /// quarters of it (the oldest quarter forgotten, as a live session forgets it).
    var events: [LoopEvent] {
        let ordered = Array(ring[start...] + ring[..<start])
        return Array(ordered.suffix(keptCount))
    }

    /// Events read before the first one kept.
    var forgotten: Int { total - keptCount }

    private var keptCount: Int { total > capacity ? capacity * 3 / 4 : ring.count }
}
