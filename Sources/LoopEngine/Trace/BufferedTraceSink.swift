/// A bounded buffer of events between a loop's thread and a reader on another thread (the UI, a recorder).
///
/// Why: a sink is called on the loop's thread with the engine lock held, so a slow consumer there would slow the
/// loop, and an unbounded one would let memory grow without limit when the reader falls behind. This sink only
/// appends to an array under its own short lock; ``drain()`` takes the whole array at once (a swap), so the loop
/// never waits for the reader's work. When the buffer is full, new events are dropped and counted, never silently:
/// each batch says how many were dropped right after its events, and ``droppedTotal`` adds them all up.
///
/// ```swift
/// let events = BufferedTraceSink(capacity: 10_000)
/// let worker = LoopThread(name: "worker", sink: events)
/// …
/// let batch = events.drain()            // from any thread, as often as it likes
/// show(batch.events)
/// if batch.dropped > 0 { show("… \(batch.dropped) events dropped here") }
/// ```
public final class BufferedTraceSink: TraceSink, @unchecked Sendable {
    // @unchecked Sendable: `buffer`, `dropped`, `droppedTotal` and `recordedTotal` are guarded by `lock`.

    /// What one ``drain()`` returns.
    public struct Batch: Sendable, Equatable {
        /// The events recorded since the previous drain, in order.
        public var events: [LoopEvent]
        /// How many events were dropped after the last of `events` because the buffer was full. Events after
        /// those drops are in the next batch.
        public var dropped: Int

        package init(events: [LoopEvent], dropped: Int) {
            self.events = events
            self.dropped = dropped
        }
    }

    /// The most events held between two drains.
    public let capacity: Int
    private let lock = LoopLock()
    private let onFirstEvent: (@Sendable () -> Void)?
    private var buffer: [LoopEvent] = []
    private var dropped = 0
    private var droppedSoFar = 0
    private var recordedSoFar = 0

    /// - Parameters:
    ///   - capacity: the most events kept between two drains (at least 1).
    ///   - onFirstEvent: called on the loop's thread, with the engine lock held, when an event arrives in an
    ///     empty buffer: a cue for a reader that sleeps (write to an eventfd, signal a condition). Keep it short.
    public init(capacity: Int = 65_536, onFirstEvent: (@Sendable () -> Void)? = nil) {
        self.capacity = max(1, capacity)
        self.onFirstEvent = onFirstEvent
        buffer.reserveCapacity(min(self.capacity, 1_024))
    }

    public func record(_ event: consuming LoopEvent) {
        lock.lock()
        guard buffer.count < capacity else {
            dropped += 1
            droppedSoFar += 1
            lock.unlock()
            return
        }
        buffer.append(event)
        recordedSoFar += 1
        let first = buffer.count == 1
        lock.unlock()
        if first { onFirstEvent?() }
    }

    /// Takes every event recorded since the previous drain, and how many were dropped after them.
    public func drain() -> Batch {
        var fresh: [LoopEvent] = []
        // Allocated outside the lock, so the loop never waits for malloc on the reader's behalf.
        fresh.reserveCapacity(min(capacity, 1_024))
        lock.lock()
        swap(&buffer, &fresh)
        let droppedNow = dropped
        dropped = 0
        lock.unlock()
        return Batch(events: fresh, dropped: droppedNow)
    }

    /// Events dropped since the sink was made.
    public var droppedTotal: Int { lock.withLock { droppedSoFar } }
    /// Events kept since the sink was made (drained or still buffered).
    public var recordedTotal: Int { lock.withLock { recordedSoFar } }
}
