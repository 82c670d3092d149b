import LoopEngine

/// What a folded state takes in memory, estimated from its item counts: the checkpoints of a long trace are
/// bounded in these bytes (``FoldCheckpoints``), so a scenario with 100,000 timers keeps fewer states, not a
/// bigger heap. An estimate errs high: an entry of a dictionary or set of names is counted as 64 bytes (a key of
/// up to 15 UTF-8 bytes is stored inline, the value beside it, a hash table about half full), and states that
/// still share a buffer (copy on write) are counted once each.
enum EstimatedBytes {
    /// A struct with a few names and counters, and the headers of its collections.
    static let fixed = 512
    /// One entry of a dictionary, set or array of names.
    static let entry = 64
    /// One operation, worker or run of the pool view (names, instants, optional facts).
    static let poolRecord = 192
}

extension LoopSnapshot {
    /// The estimated bytes of this thread's state.
    var estimatedBytes: Int {
        let entries =
            runs.count + signalled.count + pendingMessages.count + timerFireCounts.count + lastTimerFire.count
            + lateFires.count + observerCalls.count + blocksQueued.count + spentObservers.count + removedFrom.count
            + invalidated.count
        return EstimatedBytes.fixed + entries * EstimatedBytes.entry
    }
}

extension PoolSnapshot {
    /// The estimated bytes of every queue's and detached thread's state.
    var estimatedBytes: Int {
        let queueRecords = queues.reduce(0) { total, queue in
            total + 1 + queue.operations.count + queue.workers.count + queue.workers.reduce(0) { $0 + $1.runs.count }
        }
        let detachedRecords = detached.count + detached.reduce(0) { $0 + $1.runs.count }
        return EstimatedBytes.fixed + (queueRecords + detachedRecords) * EstimatedBytes.poolRecord
    }
}
