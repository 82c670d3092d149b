import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--clock real` for the terminal runtime: the scenario running on real threads, its events crossing to the UI's
/// thread through a bounded buffer, and a pipe that wakes the UI's `poll` when a first event arrives (so an idle
/// screen still sleeps).
final class LiveFeed {
    #if os(Linux)
    private let run: LiveScenarioRun
    #endif
    private let sink: BufferedTraceSink
    private let pipeEnds: [Int32]
    private var ended = false
    /// A limit halted the run (told once, with the batch that first saw it).
    private var halted = false
    private var stopped = false

    init(_ scenario: Scenario) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        }
        pipeEnds = ends
        let writeEnd = ends[1]
        sink = BufferedTraceSink(capacity: 65_536) {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
        #if os(Linux)
        run = LiveScenarioRun(scenario, sink: sink)
        #endif
    }

    deinit {
        stop()
        for end in pipeEnds where end >= 0 { close(end) }
    }

    /// The descriptor that becomes readable when events are waiting.
    var readEnd: Int32 { pipeEnds[0] }

    /// The events recorded since the last call, as a message; nil when there is nothing new.
    func take() -> AppMessage? {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(pipeEnds[0], &bytes, bytes.count) > 0 {}
        let batch = sink.drain()
        #if os(Linux)
        let endedNow = run.hasEnded
        let halt = run.limitReason
        #else
        let endedNow = true
        let halt: VirtualWorld.HaltReason? = nil
        #endif
        let haltNow = halt != nil
        guard !batch.events.isEmpty || batch.dropped > 0 || endedNow != ended || haltNow != halted else { return nil }
        ended = endedNow
        halted = haltNow
        return .live(events: batch.events, dropped: batch.dropped, ended: endedNow, halt: halt)
    }

    /// Performs the user's poke now, from this thread.
    func perform(_ actions: [Action], onThread thread: String) {
        #if os(Linux)
        run.perform(actions, onThread: thread)
        #endif
    }

    /// Halts the real threads and joins them.
    func stop() {
        guard !stopped else { return }
        stopped = true
        #if os(Linux)
        run.stop()
        #endif
    }
}
