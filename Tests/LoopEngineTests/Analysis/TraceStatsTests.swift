import LoopEngine
import Testing

@Suite("trace totals: per item, per activity, iteration and sleep histograms")
struct TraceStatsTests {
    static func event(
        _ ms: Int, _ kind: LoopEvent.Kind, loop: String = "T", depth: Int = 1, mode: String = "default",
        iteration: Int = 1, name: String? = nil
    ) -> LoopEvent {
        LoopEvent(
            time: .zero + .milliseconds(ms), loop: loop, depth: depth, mode: mode, iteration: iteration, kind: kind,
            name: name)
    }

    /// Two iterations of T: a timer (5 ms) and an observer (0 ms), a sleep of 40 ms, then the timer again (15 ms)
    /// in Tracking; U's one callout in between does not end T's.
    static let events: [LoopEvent] = [
        event(0, .runStart, iteration: 0, name: "default"),
        event(0, .entry),
        event(0, .beforeTimers),
        event(0, .timer, name: "tick"),
        event(3, .source0, loop: "U", name: "other"),
        event(5, .beforeSources),
        event(5, .beforeWaiting),
        event(5, .observer, name: "CA"),
        event(5, .sleep),
        event(45, .wake),
        event(45, .afterWaiting),
        event(45, .beforeTimers, iteration: 2),
        event(45, .timer, mode: "Tracking", iteration: 2, name: "tick"),
        event(60, .beforeSources, iteration: 2),
        event(61, .exit, iteration: 2),
    ]

    @Test("each item's calls, total and longest time (until its loop's next step) and modes, in first-call order")
    func items() {
        let stats = TraceStats.of(Self.events)
        #expect(stats.events == 15)
        #expect(
            stats.items == [
                TraceStats.Item(
                    loop: "T", kind: .timer, name: "tick", calls: 2, total: .milliseconds(20),
                    longest: .milliseconds(15), modes: ["default", "Tracking"], firstIndex: 3),
                TraceStats.Item(
                    loop: "U", kind: .source0, name: "other", calls: 1, total: .zero, longest: .zero,
                    modes: ["default"], firstIndex: 4),
                TraceStats.Item(
                    loop: "T", kind: .observer, name: "CA", calls: 1, total: .zero, longest: .zero,
                    modes: ["default"], firstIndex: 7),
            ])
        #expect(stats.otherCalls == 0)
    }

    @Test("a callout lasts until its loop's next step at its depth: a nested run inside it and its says count")
    func nestedRunInsideACallout() {
        // A timer's callout runs a nested run of 200 ms (its own timer fires at depth 2) and says something; the
        // outer iteration goes on at 250 ms.
        let events: [LoopEvent] = [
            Self.event(0, .runStart, iteration: 0, name: "default"),
            Self.event(0, .entry),
            Self.event(50, .timer, name: "openModal"),
            Self.event(50, .runStart, depth: 2, mode: "Modal", iteration: 0, name: "Modal"),
            Self.event(50, .entry, depth: 2, mode: "Modal"),
            Self.event(100, .timer, depth: 2, mode: "Modal", name: "blink"),
            Self.event(101, .beforeTimers, depth: 2, mode: "Modal", iteration: 2),
            Self.event(250, .exit, depth: 2, mode: "Modal", iteration: 2),
            Self.event(250, .result, depth: 2, mode: "Modal", iteration: 2, name: "timedOut"),
            Self.event(250, .note, name: "back from the modal"),
            Self.event(252, .beforeTimers, iteration: 2),
        ]
        let stats = TraceStats.of(events)
        #expect(
            stats.items == [
                TraceStats.Item(
                    loop: "T", kind: .timer, name: "openModal", calls: 1, total: .milliseconds(202),
                    longest: .milliseconds(202), modes: ["default"], firstIndex: 2),
                TraceStats.Item(
                    loop: "T", kind: .timer, name: "blink", calls: 1, total: .milliseconds(1),
                    longest: .milliseconds(1), modes: ["Modal"], firstIndex: 5),
            ])
    }

    @Test("each activity's count, and the mean and longest time between two reaches on one thread")
    func activities() {
        let stats = TraceStats.of(Self.events)
        #expect(stats.activities.map(\.kind) == LoopEvent.Kind.activities)
        #expect(stats.activities.map(\.count) == [1, 2, 2, 1, 1, 1])
        #expect(stats.activities.map(\.meanGap) == [nil, .milliseconds(45), .milliseconds(55), nil, nil, nil])
        #expect(
            stats.activities.map(\.longestGap) == [.zero, .milliseconds(45), .milliseconds(55), .zero, .zero, .zero])
        #expect(stats.activities.map(\.firstIndex) == [1, 2, 5, 6, 10, 14])
    }

    @Test("an iteration lasts from its first event to its last (the exit ends it); a sleep from sleep to wake")
    func histograms() {
        let stats = TraceStats.of(Self.events)
        // T's first iteration 0…45 ms (its wake and afterWaiting included), the second 45…61 ms; U's 3…3 ms.
        #expect(stats.iterations.counts == [1, 0, 0, 2, 0, 0, 0])
        #expect(stats.iterations.firstIndex == [4, nil, nil, 1, nil, nil, nil])
        #expect(stats.iterations.longest == .milliseconds(45))
        #expect(stats.sleeps.counts == [0, 0, 0, 1, 0, 0, 0])
        #expect(stats.sleeps.firstIndex == [nil, nil, nil, 8, nil, nil, nil])
        #expect(stats.sleeps.longest == .milliseconds(40))
    }

    @Test("bucket edges: zero, below 1 ms, then decades; each edge belongs to the bucket above it")
    func buckets() {
        let cases: [(Duration, TraceStats.Bucket)] = [
            (.zero, .zero), (.nanoseconds(1), .belowMillisecond), (.nanoseconds(999_999), .belowMillisecond),
            (.milliseconds(1), .milliseconds1), (.milliseconds(10), .milliseconds10),
            (.milliseconds(100), .milliseconds100), (.seconds(1), .seconds1), (.seconds(10), .seconds10),
            (.seconds(3600), .seconds10),
        ]
        for (length, bucket) in cases { #expect(TraceStats.Bucket(length) == bucket, "\(length)") }
    }

    @Test("items past the bound are counted, not kept: memory stays bounded however many names a trace has")
    func boundedItems() {
        var builder = TraceStats.Builder()
        for index in 0..<(TraceStats.maximumItems + 5) {
            builder.add(Self.event(index, .block, name: "b\(index)"))
        }
        let stats = builder.finish()
        #expect(stats.items.count == TraceStats.maximumItems)
        #expect(stats.otherCalls == 5)
        #expect(stats.items.last?.name == "b\(TraceStats.maximumItems - 1)")
    }

    @Test("an item's modes are kept up to the bound")
    func boundedModes() {
        let events = (0..<20).map { Self.event($0, .timer, mode: "m\($0)", name: "t") }
        let stats = TraceStats.of(events)
        #expect(stats.items.first?.modes == (0..<TraceStats.maximumModes).map { "m\($0)" })
        #expect(stats.items.first?.calls == 20)
    }

    @Test("a million events in one pass keep one item, one open iteration per thread and exact counts")
    func million() {
        let pattern: [LoopEvent.Kind] = [
            .beforeTimers, .timer, .beforeSources, .beforeWaiting, .sleep, .wake, .afterWaiting,
        ]
        var builder = TraceStats.Builder()
        do {
            for index in 0..<1_000_000 {
                let kind = pattern[index % pattern.count]
                builder.add(
                    LoopEvent(
                        time: .zero + .microseconds(index), loop: "main", depth: 1, mode: "default",
                        iteration: 1 + index / pattern.count, kind: kind, name: kind == .timer ? "tick" : nil))
            }
        }
        let stats = builder.finish()
        #expect(stats.events == 1_000_000)
        #expect(stats.items.map(\.calls) == [142_857])
        #expect(stats.iterations.total == 142_858)
    }
}
