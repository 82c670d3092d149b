#if os(Linux)
extension EpollWaiter {
    /// The state that lets a poll skip its system call, indexed by descriptor (descriptors are small integers).
    struct PollState {
        /// Bumped after every write to a port and every port added to a set.
        var generation = 0
        /// Per port set: the generation at which a poll last found nothing ready in it (-1: unknown).
        private var emptyAt: [Int] = []
        /// Per port set: its timer ports.
        private var timers: [[Int32]] = []
        /// Per timer port: the `LoopInstant` nanoseconds it was last armed for (`Int64.max`: not armed).
        private var deadlines: [Int64] = []

        /// True when the set was found empty at `generation` and none of its timers is due at `now`.
        func isStillEmpty(_ set: Int32, generation: Int, now: Int64) -> Bool {
            let index = Int(set)
            guard index < emptyAt.count, emptyAt[index] == generation else { return false }
            for timer in timers[index] where Int(timer) < deadlines.count && deadlines[Int(timer)] <= now {
                return false
            }
            return true
        }

        mutating func setEmptyAt(_ generation: Int, for set: Int32) {
            grow(set)
            emptyAt[Int(set)] = generation
        }

        mutating func setDeadline(_ nanoseconds: Int64, of timer: Int32) {
            let index = Int(timer)
            if index >= deadlines.count { deadlines += Array(repeating: .max, count: index + 1 - deadlines.count) }
            deadlines[index] = nanoseconds
        }

        mutating func add(timer: Int32, to set: Int32) {
            grow(set)
            if !timers[Int(set)].contains(timer) { timers[Int(set)].append(timer) }
        }

        mutating func remove(timer: Int32, from set: Int32) {
            guard Int(set) < timers.count else { return }
            timers[Int(set)].removeAll { $0 == timer }
        }

        /// A closed set's descriptor may be reused: forget what was known about it.
        mutating func forget(set: Int32) {
            guard Int(set) < emptyAt.count else { return }
            emptyAt[Int(set)] = -1
            timers[Int(set)] = []
        }

        private mutating func grow(_ set: Int32) {
            let needed = Int(set) + 1
            guard needed > emptyAt.count else { return }
            emptyAt += Array(repeating: -1, count: needed - emptyAt.count)
            timers += Array(repeating: [], count: needed - timers.count)
        }
    }
}
#endif
