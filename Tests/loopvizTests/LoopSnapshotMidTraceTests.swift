import LoopEngine
import Testing

@testable import loopviz

/// A loop's state folded from the middle of a trace (a window of a long file, a live trace that forgot its oldest
/// events) learns the runs it is inside from the thread's first event: its depth, and its mode for the innermost.
@Suite("a loop's state folded from the middle of a trace")
struct LoopSnapshotMidTraceTests {
    static func event(_ kind: LoopEvent.Kind, depth: Int, mode: String, loop: String = "T") -> LoopEvent {
        LoopEvent(time: .zero, loop: loop, depth: depth, mode: mode, iteration: 3, kind: kind)
    }

    @Test("the first event's depth and mode give the runs already started: the outer ones' modes unknown")
    func learnsRunsFromTheFirstEvent() {
        var snapshot = LoopSnapshot(thread: "T", joinsMidTrace: true)
        snapshot.apply(Self.event(.beforeSources, depth: 2, mode: "tracking"), observers: [])
        #expect(snapshot.runs.map(\.mode) == ["?", "tracking"] && snapshot.state == "running")
        // Learnt once: a later, shallower event ends the inner run as any fold does.
        snapshot.apply(Self.event(.beforeTimers, depth: 1, mode: "default"), observers: [])
        #expect(snapshot.runs.map(\.mode) == ["?"])
    }

    @Test("a run's start as the first event: the runs around it are learnt, then it starts its own")
    func runStartFirst() {
        var snapshot = LoopSnapshot(thread: "T", joinsMidTrace: true)
        var start = Self.event(.runStart, depth: 3, mode: "modal")
        start.name = "modal"
        snapshot.apply(start, observers: [])
        #expect(snapshot.runs.map(\.mode) == ["?", "?", "modal"])
    }

    @Test("from the start of a trace nothing is learnt, and another thread's event teaches this one nothing")
    func fromTheStartOrAnotherThread() {
        var whole = LoopSnapshot(thread: "T")
        whole.apply(Self.event(.beforeSources, depth: 2, mode: "tracking"), observers: [])
        #expect(whole.runs.isEmpty)
        var mid = LoopSnapshot(thread: "T", joinsMidTrace: true)
        mid.apply(Self.event(.beforeSources, depth: 2, mode: "tracking", loop: "U"), observers: [])
        #expect(mid.runs.isEmpty && mid.joinsMidTrace)
    }
}
