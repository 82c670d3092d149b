import LoopEngine
import Testing

/// The compact trace gives back exactly the events it was given.
@Suite("the compact trace")
struct LoopTraceTests {
    @Test("every kind, with and without names, modes and facts, reads back as it was recorded")
    func everyKindRoundTrips() {
        var events: [LoopEvent] = []
        for (index, kind) in LoopEvent.Kind.allCases.enumerated() {
            events.append(
                LoopEvent(
                    time: .zero + .nanoseconds(index * 1_000_001), loop: "T\(index % 3)", depth: index % 4,
                    mode: index.isMultiple(of: 2) ? nil : "mode\(index % 5)", iteration: index * 7, kind: kind,
                    name: index.isMultiple(of: 3) ? nil : "item \(index)"))
        }
        for (kind, fact, _) in EventWordingTests.table {
            events.append(
                LoopEvent(
                    time: .zero, loop: "a thread with a long name", depth: 1, mode: "default", iteration: 1,
                    kind: kind, name: "x", fact: fact))
        }
        let trace = LoopTrace(events)
        #expect(trace.count == events.count)
        #expect(Array(trace) == events)
        #expect(trace == LoopTrace(events))
    }

    @Test("a trace longer than a chunk keeps its order across chunk boundaries")
    func acrossChunks() {
        let events = (0..<150_000).map { index in
            LoopEvent(
                time: .zero + .nanoseconds(index), loop: "T", depth: 1, mode: "default", iteration: index,
                kind: index.isMultiple(of: 2) ? .observer : .timer, name: "n\(index % 7)",
                fact: index.isMultiple(of: 2)
                    ? .activity(.beforeWaiting) : .late(due: .zero + .nanoseconds(index), missed: nil, cause: .busy))
        }
        let trace = LoopTrace(events)
        for index in [0, 65_535, 65_536, 65_537, 131_071, 131_072, 149_999] { #expect(trace[index] == events[index]) }
        #expect(trace.elementsEqual(events))
    }

    @Test("appending to a copy leaves the original as it was")
    func valueSemantics() {
        let event = LoopEvent(time: .zero, loop: "T", depth: 0, mode: nil, iteration: 0, kind: .note)
        var first = LoopTrace([event])
        let second = first
        first.append(event)
        #expect(first.count == 2 && second.count == 1)
        #expect(first != second)
    }

    @Test("prefixes and copies share full chunks and part where they diverge: each reads its own events")
    func prefixesAndCopiesDiverge() {
        func event(_ index: Int, _ branch: String) -> LoopEvent {
            LoopEvent(
                time: .zero + .nanoseconds(index), loop: "T", depth: 1, mode: "default", iteration: index,
                kind: .observer, name: branch, fact: .activity(.beforeTimers))
        }
        let common = (0..<70_000).map { event($0, "common") }
        var original = LoopTrace(common)
        // Cut inside the growing first chunk, at its full end, at a whole chunk's end, and inside the second chunk.
        for cut in [40, 64, 65_536, 65_600, 70_000] {
            var prefix = original.firstEvents(cut)
            var copy = original
            prefix.append(event(cut, "prefix"))
            copy.append(event(70_000, "copy"))
            #expect(prefix.count == cut + 1 && Array(prefix) == Array(common[..<cut]) + [event(cut, "prefix")])
            #expect(copy.count == 70_001 && copy[70_000] == event(70_000, "copy"))
            #expect(Array(copy[..<70_000]) == common)
        }
        // The original, written to after its copies and prefixes went their ways, is unchanged by theirs.
        original.append(event(70_000, "original"))
        #expect(Array(original) == common + [event(70_000, "original")])
    }

    @Test("a scenario's trace is the same compact or not: the recorder keeps it compact")
    func recorderKeepsWhatTheEngineEmits() {
        let outcome = ScenarioRunner.run(ExportScenarios.rich)
        #expect(outcome.events == Array(outcome.trace))
        #expect(outcome.trace.count > 50)
        // Strings are stored once: a long trace holds far fewer bytes than its events as values.
        let long = ScenarioRunner.run(ExportScenarios.rich, horizon: .seconds(60))
        #expect(long.trace.storedBytes < long.trace.count * MemoryLayout<LoopEvent>.stride)
    }
}
