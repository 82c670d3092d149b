import Testing

@testable import LoopEngine

/// The queue's scheduling rules as a value, without threads, clocks or traces: what starts next, in which order,
/// under which limit, and when a dependent becomes ready.
@Suite("a queue's schedule (no threads)")
struct PoolScheduleTests {
    static func entry(_ name: String, _ sequence: Int, _ priority: QueuePriority = .normal) -> PoolSchedule.Entry {
        PoolSchedule.Entry(name: name, sequence: sequence, priority: priority)
    }

    /// Starts what the schedule allows, as the queue does, and returns the names in start order.
    static func startAll(_ schedule: inout PoolSchedule) -> [String] {
        var started: [String] = []
        while let next = schedule.next {
            schedule.start(next)
            started.append(next.name)
        }
        return started
    }

    @Test("the highest priority starts first, the first added first within a level")
    func priorityThenAddOrder() {
        var schedule = PoolSchedule(limit: 1, defaultWidth: 4, suspended: true)
        let entries = [
            Self.entry("low", 0, .low), Self.entry("n1", 1), Self.entry("high", 2, .high), Self.entry("n2", 3),
            Self.entry("veryHigh", 4, .veryHigh), Self.entry("veryLow", 5, .veryLow),
        ]
        let readyAtOnce = entries.map { schedule.add($0, waitingFor: []) }
        #expect(readyAtOnce == Array(repeating: true, count: 6))
        #expect(schedule.readyInOrder == ["veryHigh", "high", "n1", "n2", "low", "veryLow"])
        #expect(schedule.next == nil)  // suspended
        schedule.isSuspended = false
        var order: [String] = []
        while let next = schedule.next {
            schedule.start(next)
            order.append(next.name)
            #expect(schedule.next == nil)  // the limit is one
            schedule.finishExecuting()
        }
        #expect(order == ["veryHigh", "high", "n1", "n2", "low", "veryLow"])
    }

    @Test("an operation ready late takes its place by add order, not by when it became ready")
    func lateReadyKeepsAddOrder() {
        var schedule = PoolSchedule(limit: 0, defaultWidth: 4, suspended: false)
        let first = schedule.add(Self.entry("first", 0), waitingFor: ["x"])
        let second = schedule.add(Self.entry("second", 1), waitingFor: [])
        #expect(!first && second)
        #expect(schedule.readyInOrder == ["second"])
        let readied = schedule.dependencyFinished("x")
        #expect(readied == ["first"])
        #expect(schedule.readyInOrder == ["first", "second"])
        #expect(schedule.next == nil)  // a limit of zero starts nothing
    }

    @Test("at most the limit execute; a negative limit starts nothing; nil is the default width")
    func theLimit() {
        var schedule = PoolSchedule(limit: 2, defaultWidth: 3, suspended: false)
        for index in 0..<5 { _ = schedule.add(Self.entry("op\(index)", index), waitingFor: []) }
        let started1 = Self.startAll(&schedule)
        #expect(started1 == ["op0", "op1"])
        #expect(schedule.executing == 2)
        schedule.limit = -1
        #expect(schedule.width == 0)
        schedule.finishExecuting()
        let started2 = Self.startAll(&schedule)
        #expect(started2 == [])
        schedule.limit = nil
        #expect(schedule.width == 3)
        let started3 = Self.startAll(&schedule)
        #expect(started3 == ["op2", "op3"])
        #expect(schedule.executing == 3)
        #expect(schedule.readyInOrder == ["op4"])
    }

    @Test("a default width below one is one")
    func defaultWidthAtLeastOne() {
        #expect(PoolSchedule(limit: nil, defaultWidth: 0, suspended: false).width == 1)
    }

    @Test("a dependent is ready when its last dependency finishes, and dependents ready in add order")
    func dependents() {
        var schedule = PoolSchedule(limit: nil, defaultWidth: 4, suspended: true)
        let added = [
            schedule.add(Self.entry("c", 2), waitingFor: ["a", "b"]),
            schedule.add(Self.entry("d", 3), waitingFor: ["a"]),
            schedule.add(Self.entry("e", 4), waitingFor: ["a"]),
        ]
        #expect(added == [false, false, false])
        #expect(schedule.isPending("c"))
        let afterA = schedule.dependencyFinished("a")
        #expect(afterA == ["d", "e"])
        #expect(schedule.isPending("c"))
        let afterATwice = schedule.dependencyFinished("a")
        #expect(afterATwice == [])  // told twice: nothing more
        let afterB = schedule.dependencyFinished("b")
        #expect(afterB == ["c"])
        #expect(!schedule.isPending("c"))
        #expect(schedule.readyInOrder == ["c", "d", "e"])
    }

    @Test("cancelling a pending operation readies it at once; its dependencies are ignored from then on")
    func cancelPending() {
        var schedule = PoolSchedule(limit: nil, defaultWidth: 4, suspended: false)
        let added = schedule.add(Self.entry("b", 1), waitingFor: ["a"])
        let cancelled = schedule.cancelPending("b")
        let cancelledAgain = schedule.cancelPending("b")  // ready now: it keeps its place
        #expect(!added && cancelled && !cancelledAgain)
        #expect(schedule.readyInOrder == ["b"])
        let readied = schedule.dependencyFinished("a")
        #expect(readied == [])
        let started4 = Self.startAll(&schedule)
        #expect(started4 == ["b"])
        #expect(schedule.readyInOrder == [])
    }

    @Test("suspending stops starts but not what executes; resuming starts the rest")
    func suspension() {
        var schedule = PoolSchedule(limit: nil, defaultWidth: 2, suspended: false)
        for index in 0..<3 { _ = schedule.add(Self.entry("op\(index)", index), waitingFor: []) }
        let started5 = Self.startAll(&schedule)
        #expect(started5 == ["op0", "op1"])
        schedule.isSuspended = true
        schedule.finishExecuting()
        #expect(schedule.executing == 1)
        let started6 = Self.startAll(&schedule)
        #expect(started6 == [])
        schedule.isSuspended = false
        let started7 = Self.startAll(&schedule)
        #expect(started7 == ["op2"])
    }
}
