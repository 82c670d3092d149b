import Testing

@testable import LoopEngine

/// A mode's timer queue against the sorted array it replaced: the old code's algorithms, run on the same timers.
@Suite("TimerQueue: a mode's timers in CF's order")
struct TimerQueueTests {
    /// The array the core used to keep, with its insert and its questions, as they were.
    struct SortedArrayModel {
        var timers: [LoopTimer] = []

        mutating func insert(_ timer: LoopTimer) {
            let index = timers.firstIndex { $0.fireTime > timer.fireTime } ?? timers.endIndex
            timers.insert(timer, at: index)
        }

        mutating func remove(_ timer: LoopTimer) -> Bool {
            guard let index = timers.firstIndex(where: { $0 === timer }) else { return false }
            timers.remove(at: index)
            return true
        }

        func due(by limit: LoopInstant) -> [LoopTimer] {
            timers.filter { $0.isValidStorage && !$0.isFiring && $0.fireTime <= limit }
        }

        /// CF's walk, each deadline with the stamp of its computation (`stamp(of:)`).
        func armingWindow(
            honourTolerance: Bool, stamp: (LoopTimer) -> UInt64
        ) -> (TimerQueue.Order, TimerQueue.Order)? {
            var soft: TimerQueue.Order?
            var hard: TimerQueue.Order?
            for timer in timers where !timer.isFiring {
                if let hard, timer.fireTime > hard.fireTime { break }
                let timerSoft = TimerQueue.Order(fireTime: timer.fireTime, stamp: stamp(timer))
                let timerHard =
                    honourTolerance
                    ? TimerQueue.Order(fireTime: timer.fireTime + timer.effectiveTolerance, stamp: stamp(timer))
                    : timerSoft
                if soft == nil || timerSoft < soft! { soft = timerSoft }
                if hard == nil || timerHard < hard! { hard = timerHard }
            }
            guard let soft, let hard else { return nil }
            return (soft, hard)
        }
    }

    static func names(_ timers: [LoopTimer]) -> [String] { timers.map(\.name) }

    @Test(
        "random adds, moves (re-arms) and removals agree with the sorted array: order, what is due, what to arm",
        arguments: [21, 22, 23, 24] as [UInt64])
    func agreesWithSortedArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        // Few distinct deadlines, so that ties (insertion order) are the rule.
        func instant() -> LoopInstant { .zero + .milliseconds(random.below(12)) }
        let timers = (0..<60).map { index in
            LoopTimer(
                name: "t\(index)", fireDate: .zero, interval: .milliseconds(index % 3 == 0 ? 0 : 10),
                tolerance: .microseconds(random.below(4) * 700)
            ) { _ in }
        }
        let queue = TimerQueue()
        var model = SortedArrayModel()
        // The loop's stamps: one for each insert and each move.
        var stamps: UInt64 = 0
        func stamp() -> UInt64 {
            stamps += 1
            return stamps
        }
        var stampOf: [ObjectIdentifier: UInt64] = [:]
        for _ in 0..<3_000 {
            let timer = timers[random.below(timers.count)]
            switch random.below(6) {
            case 0, 1:
                guard !queue.contains(timer) else { continue }
                timer.fireTime = instant()
                let stamp = stamp()
                stampOf[ObjectIdentifier(timer)] = stamp
                queue.insert(timer, stamp: stamp)
                model.insert(timer)
            case 2:
                let removed = queue.remove(timer)
                #expect(removed == model.remove(timer))
            case 3:
                // What the core does when a timer's deadline moves: change it, then reposition it.
                timer.fireTime = instant()
                let stamp = stamp()
                let moved = queue.reposition(timer, stamp: stamp)
                if moved { stampOf[ObjectIdentifier(timer)] = stamp }
                if model.remove(timer) { model.insert(timer) } else { #expect(!moved) }
            case 4:
                timer.isFiring.toggle()
            default:
                timer.isValidStorage = random.below(8) != 0
            }
            #expect(queue.count == model.timers.count)
            #expect(queue.isEmpty == model.timers.isEmpty)
            #expect(queue.first === model.timers.first)
            #expect(queue.firstNotFiring() === model.timers.first { !$0.isFiring })
            let limit = instant()
            #expect(Self.names(queue.due(by: limit)) == Self.names(model.due(by: limit)))
            for honour in [false, true] {
                let window = queue.armingWindow(honourTolerance: honour)
                let expected = model.armingWindow(honourTolerance: honour) { stampOf[ObjectIdentifier($0)] ?? 0 }
                #expect(window?.soft == expected?.0 && window?.hard == expected?.1)
            }
        }
        #expect(Self.names(queue.ordered) == Self.names(model.timers))
    }

    @Test("equal deadlines keep insertion order; a moved timer goes after those already at its new deadline")
    func tiesAndMoves() {
        let timers = ["a", "b", "c", "d"].map { LoopTimer(name: $0, fireDate: .zero + .milliseconds(5)) { _ in } }
        let queue = TimerQueue()
        var stamps: UInt64 = 0
        func stamp() -> UInt64 {
            stamps += 1
            return stamps
        }
        for timer in timers { queue.insert(timer, stamp: stamp()) }
        #expect(Self.names(queue.ordered) == ["a", "b", "c", "d"])
        let movedA = queue.reposition(timers[0], stamp: stamp())
        #expect(movedA)
        #expect(Self.names(queue.ordered) == ["b", "c", "d", "a"])
        timers[2].fireTime = .zero + .milliseconds(1)
        let movedC = queue.reposition(timers[2], stamp: stamp())
        #expect(movedC)
        #expect(Self.names(queue.ordered) == ["c", "b", "d", "a"])
        #expect(Self.names(queue.due(by: .zero + .milliseconds(4))) == ["c"])
        timers[2].isFiring = true
        #expect(queue.firstNotFiring() === timers[1])
        #expect(Self.names(queue.due(by: .zero + .milliseconds(5))) == ["b", "d", "a"])
        let stray = LoopTimer(name: "x", fireDate: .zero) { _ in }
        let strayMoved = queue.reposition(stray, stamp: stamp())
        let strayRemoved = queue.remove(stray)
        #expect(!strayMoved && !strayRemoved)
    }
}
