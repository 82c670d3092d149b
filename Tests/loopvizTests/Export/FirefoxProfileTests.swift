import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// `loopviz run FILE --trace firefox`: a Firefox Profiler processed profile whose markers are the loop's callouts,
/// sleeps, phases and hangs, checked against the format's schema (`FirefoxProfileSchema`).
@Suite("Firefox Profiler export")
struct FirefoxProfileTests {
    typealias Marker = FirefoxProfileSchema.Marker

    static func event(
        _ ms: Int, _ kind: LoopEvent.Kind, name: String? = nil, fact: LoopEvent.Fact? = nil
    ) -> LoopEvent {
        LoopEvent(
            time: .zero + .milliseconds(ms), loop: "main", depth: 1, mode: "default", iteration: 1, kind: kind,
            name: name, fact: fact)
    }

    /// A recording as LoopRecorder writes one (activities only, and its own observer of beforeWaiting and exit):
    /// a short busy start, a sleep, then 306 ms without a sleep (a mark in it), a sleep, and the exit.
    static let recording: LoopTrace = [
        event(0, .entry), event(0, .beforeTimers), event(0, .beforeSources), event(10, .beforeWaiting),
        event(11, .observer, name: HangAnalysis.recorderObserver, fact: .activity(.beforeWaiting)),
        event(100, .afterWaiting), event(200, .note, name: "decode image", fact: .mark(.point)),
        event(400, .beforeTimers), event(400, .beforeSources), event(405, .beforeWaiting),
        event(406, .observer, name: HangAnalysis.recorderObserver, fact: .activity(.beforeWaiting)),
        event(500, .afterWaiting), event(510, .exit),
        event(511, .observer, name: HangAnalysis.recorderObserver, fact: .activity(.exit)),
    ]

    @Test("a recording: a marker per phase between activities, the hang with its verdict and phase, the mark")
    func recordingMarkers() throws {
        let text = FirefoxProfileFormatter.format(Self.recording, scenario: "recording", clock: .real)
        let threads = try FirefoxProfileSchema.check(text)
        #expect(threads.map(\.name) == ["main"])
        let thread = try #require(threads.first)
        #expect(
            thread.markers == [
                Marker(name: "entry observers", start: 0, end: 0, category: "Observers"),
                Marker(name: "beforeTimers observers", start: 0, end: 0, category: "Observers"),
                Marker(name: "sources and blocks", start: 0, end: 10, category: "Sources"),
                Marker(name: "beforeWaiting observers", start: 10, end: 11, category: "Observers"),
                Marker(name: "asleep", start: 11, end: 100, category: "Sleep"),
                Marker(name: "wake-up work", start: 100, end: 400, category: "Other"),
                Marker(name: "hang", start: 100, end: 406, category: "Hang"),
                Marker(name: "decode image", start: 200, end: 200, category: "Other", isInstant: true),
                Marker(name: "beforeTimers observers", start: 400, end: 400, category: "Observers"),
                Marker(name: "sources and blocks", start: 400, end: 405, category: "Sources"),
                Marker(name: "beforeWaiting observers", start: 405, end: 406, category: "Observers"),
                Marker(name: "asleep", start: 406, end: 500, category: "Sleep"),
                Marker(name: "wake-up work", start: 500, end: 510, category: "Other"),
                Marker(name: "exit observers", start: 510, end: 511, category: "Observers"),
            ])
        let hang = try #require(thread.data.first { $0["type"] as? String == "LoopHang" })
        #expect(hang["verdict"] as? String == "busy (the loop did not sleep in its wait)")
        #expect(
            hang["heldBy"] as? String
                == "wake-up work (afterWaiting -> beforeTimers: the observers of afterWaiting, then the timer, port or main queue that woke the loop, and blocks)"
        )
        #expect(hang["length"] as? String == "0.306s")
    }

    @Test("a lesson: callouts and sleeps in their categories, the phases too, on each thread")
    func lessonMarkers() throws {
        let url = Snapshot.packageRoot.appendingPathComponent("examples/03-tasks-on-a-kept-alive-thread.loop")
        let script = try ScenarioParser.parse(try String(contentsOf: url, encoding: .utf8), file: "03")
        let outcome = ScenarioRunner.run(script.scenario)
        let text = FirefoxProfileFormatter.format(outcome.trace, scenario: script.scenario.name, clock: .virtual)
        let threads = try FirefoxProfileSchema.check(text)
        #expect(threads.map(\.name) == ["worker", "main"])
        let worker = try #require(threads.first).markers
        // The first sleep (a callout-free wait for the perform), then upload1: the source0 callout ends where its
        // task's perform begins (the Chrome export's rule), the polled work runs to the exit, the poll is a sleep
        // of no length and no phase.
        let first = worker.filter { ["Sources", "Sleep"].contains($0.category) && $0.start < 140.003 }
        #expect(
            first == [
                Marker(name: "sleep", start: 0, end: 100, category: "Sleep"),
                Marker(name: "sources and blocks", start: 0, end: 0, category: "Sources"),
                Marker(name: "asleep", start: 0, end: 100, category: "Sleep"),
                Marker(name: "source0 performSelector", start: 100.0015, end: 100.0015, category: "Sources"),
                Marker(name: "perform upload1", start: 100.0015, end: 140.0015, category: "Sources"),
                Marker(name: "polled work", start: 100.0015, end: 140.003, category: "Sources"),
                Marker(name: "sleep", start: 140.0015, end: 140.0015, category: "Sleep"),
            ])
        #expect(threads.allSatisfy { thread in !thread.markers.contains { $0.category == "Hang" } })
    }

    @Test("no stack samples: the samples table is there and empty, the shared stack tables too")
    func noSamples() throws {
        let text = FirefoxProfileFormatter.format(Self.recording, scenario: "recording", clock: .real)
        let top = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let thread = try #require((top["threads"] as? [[String: Any]])?.first)
        let samples = try #require(thread["samples"] as? [String: Any])
        #expect(FirefoxProfileSchema.number(samples["length"]) == 0)
        #expect((samples["stack"] as? [Any])?.isEmpty == true)
    }

    @Test("a recording's stack samples: each thread's samples over the shared tables, named, the stacks rebuilt")
    func samples() throws {
        let binary = LoopvizProcess.executable.path
        let table = ELFSymbolTable(path: binary)
        let named = { (prefix: String) in
            table.functions.first { StackSymbolizer.demangled(table.name($0)).hasPrefix(prefix) }
        }
        let run = try #require(named("static loopviz.HangsCommand.run("))
        let main = try #require(table.functions.first { table.name($0) == "main" })
        let base: UInt64 = 0x5500_0000_0000
        let module = LoopEvent.LoadedModule(base: base, low: base, high: base + 0x1000_0000)
        let stack = { (top: UInt64) in
            LoopEvent.Fact.stack(LoopEvent.StackSample(frames: [top, base + main.start + 8]))
        }
        let trace = LoopTrace(
            Array(Self.recording.prefix(6)) + [
                Self.event(150, .note, name: binary, fact: .module(module)),
                Self.event(150, .note, name: "stack", fact: stack(base + run.start + 4)),
                Self.event(160, .note, name: "stack", fact: stack(base + run.start + 6)),
                Self.event(170, .note, name: "stack", fact: stack(0x10)),
            ] + Array(Self.recording.dropFirst(6)))
        let text = FirefoxProfileFormatter.format(trace, scenario: "recording", clock: .real)
        _ = try FirefoxProfileSchema.check(text, samples: true)
        let stacks = try FirefoxProfileSchema.sampleStacks(text)
        let runName = StackSymbolizer.demangled(table.name(run))
        #expect(stacks == [[[runName, "main"], [runName, "main"], ["0x10", "main"]]])
        // Two frames at two addresses of one function are one function; the two objects are one resource.
        let top = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let shared = try #require(top["shared"] as? [String: Any])
        #expect(FirefoxProfileSchema.number((shared["funcTable"] as? [String: Any])?["length"]) == 3)
        #expect(FirefoxProfileSchema.number((shared["frameTable"] as? [String: Any])?["length"]) == 4)
        #expect(FirefoxProfileSchema.number((shared["resourceTable"] as? [String: Any])?["length"]) == 1)
    }

    @Test("an empty trace is an empty profile: no threads")
    func empty() throws {
        let threads = try FirefoxProfileSchema.check(
            FirefoxProfileFormatter.format([], scenario: "nothing", clock: .virtual))
        #expect(threads.isEmpty)
    }
}
