import LoopEngine
import Testing

/// The timeline's hangs are found in a compact trace without building most of its events: the segments must be
/// exactly those a pass over every event finds, whatever the trace.
@Suite("busy segments of a compact trace")
struct BusySegmentTraceTests {
    @Test("every lesson: the same segments as a pass over every event", arguments: ExampleLessonTests.lessons)
    func lessons(_ name: String) throws {
        let script = try ExampleLessonTests.load(name)
        let trace = ScenarioRunner.run(script.scenario, horizon: script.until ?? .seconds(60)).trace
        #expect(BusySegment.all(in: trace) == BusySegment.all(in: Array(trace)), "\(name)")
        let long = BusySegment.all(in: Array(trace)).filter { $0.length >= .milliseconds(100) }
        #expect(BusySegment.all(in: trace, keepingAtLeast: .milliseconds(100)) == long, "\(name): the hangs")
    }

    @Test("two loops, marks, a late timer and a segment left open: the same segments in the same order")
    func handMade() {
        let events = BusySegmentFinderTests.events
        let trace = LoopTrace(events)
        let segments = BusySegment.all(in: trace)
        #expect(segments == BusySegment.all(in: events))
        #expect(segments.count == 10 && segments.last?.endedBy == nil)
    }

    @Test("each prefix of a lesson with hangs, nested runs and two threads: the same segments")
    func everyPrefix() throws {
        for name in [
            "11-observer-order-hang-monitor.loop", "16-modal-nested-run.loop", "24-worker-checks-in-on-a-port.loop",
        ] {
            let script = try ExampleLessonTests.load(name)
            let trace = ScenarioRunner.run(script.scenario, horizon: script.until ?? .seconds(60)).trace
            for count in stride(from: 0, through: trace.count, by: max(1, trace.count / 97)) {
                let prefix = trace.firstEvents(count)
                #expect(
                    BusySegment.all(in: prefix) == BusySegment.all(in: Array(prefix)), "\(name): first \(count) events")
            }
        }
    }
}
