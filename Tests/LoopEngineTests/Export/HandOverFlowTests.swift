import Foundation
import LoopEngine
import SnapshotSupport
import Testing

/// The Chrome/Perfetto export's arrows across threads: each piece of work one thread hands to another's loop
/// starts a `handOver` flow on the sending thread and ends at the callout it causes on the other thread. The link
/// is the engine's typed `HandOver`, kept beside the trace; the lessons' golden traces do not change.
@Suite("Chrome export: flows from a hand-over to the callout it causes")
struct HandOverFlowTests {
    /// One arrow as the file draws it: the thread and slice where it starts, the thread and slice where it ends.
    struct Arrow: Equatable, CustomStringConvertible {
        var from: String
        var start: String
        var to: String
        var end: String
        var description: String { "\(from): \(start) => \(to): \(end)" }
    }

    static func lesson(_ name: String) throws -> ScenarioRunner.Outcome {
        let url = Snapshot.packageRoot.appendingPathComponent("examples").appendingPathComponent(name)
        let script = try ScenarioParser.parse(try String(contentsOf: url, encoding: .utf8), file: "examples/\(name)")
        return ScenarioRunner.run(script.scenario, horizon: script.until ?? .seconds(60))
    }

    /// The arrows of a Chrome file, checked on the way: every `handOver` flow has one start (`s`) and one end
    /// (`f`, bound to its enclosing slice), the start at a `handOver` slice of its track and the end at the
    /// innermost callout slice that begins on its track at that instant, never before the start.
    static func arrows(_ text: String) throws -> [Arrow] {
        let top = try ExportJSON.object(text)
        let events = try #require(top["traceEvents"] as? [[String: Any]])
        var names: [Int: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "thread_name" {
            let args = try #require(event["args"] as? [String: Any])
            names[try #require(event["tid"] as? Int)] = try #require(args["name"] as? String)
        }
        let flows = events.filter { $0["cat"] as? String == "flow" && $0["name"] as? String == "handOver" }
        let slices = events.filter { $0["ph"] as? String == "X" }
        var starts: [Int: [String: Any]] = [:]
        var ends: [Int: [String: Any]] = [:]
        for flow in flows {
            let id = try #require(flow["id"] as? Int)
            switch flow["ph"] as? String {
            case "s":
                #expect(starts[id] == nil, "one start per flow id")
                starts[id] = flow
            case "f":
                #expect(ends[id] == nil, "one end per flow id")
                #expect(flow["bp"] as? String == "e", "the end binds to its enclosing slice")
                ends[id] = flow
            default:
                Issue.record("a handOver flow event is an s or an f: \(flow)")
            }
        }
        #expect(Set(starts.keys) == Set(ends.keys), "every flow that starts ends, and no other")
        var arrows: [Arrow] = []
        for id in starts.keys.sorted() {
            let start = try #require(starts[id])
            let end = try #require(ends[id])
            let (startTid, startTs) = (try #require(start["tid"] as? Int), try #require(start["ts"] as? Double))
            let (endTid, endTs) = (try #require(end["tid"] as? Int), try #require(end["ts"] as? Double))
            #expect(startTs <= endTs, "an arrow never goes back in time")
            let sender = slices.first {
                $0["cat"] as? String == "handOver" && $0["tid"] as? Int == startTid && $0["ts"] as? Double == startTs
            }
            // The innermost callout beginning there: the last one written (a perform's source0 comes first).
            let callout = slices.last {
                $0["cat"] as? String == "callout" && $0["tid"] as? Int == endTid && $0["ts"] as? Double == endTs
            }
            arrows.append(
                Arrow(
                    from: names[startTid] ?? "?", start: try #require(sender?["name"] as? String),
                    to: names[endTid] ?? "?", end: try #require(callout?["name"] as? String)))
        }
        return arrows
    }

    @Test("a perform on another thread: an arrow from the sender to each task's perform callout")
    func performs() throws {
        let outcome = try Self.lesson("03-tasks-on-a-kept-alive-thread.loop")
        #expect(
            outcome.handOvers.filter(\.crossesThreads).map(\.what) == [
                .perform("upload1"), .perform("upload2"), .perform("stopWorker"),
            ])
        #expect(outcome.handOvers.filter(\.crossesThreads).allSatisfy { $0.from == "main" && $0.to == "worker" })
        let text = ChromeTraceFormatter.format(outcome.trace, scenario: "03", handOvers: outcome.handOvers)
        let arrows = try Self.arrows(text)
        #expect(
            arrows == [
                Arrow(from: "main", start: "perform upload1 → worker", to: "worker", end: "perform upload1"),
                Arrow(from: "main", start: "perform upload2 → worker", to: "worker", end: "perform upload2"),
                Arrow(from: "main", start: "perform stopWorker → worker", to: "worker", end: "perform stopWorker"),
            ])
    }

    @Test("sends to another thread's port, from a callout too: an arrow to the source1 callout that consumes each")
    func portConversation() throws {
        let outcome = try Self.lesson("39-a-port-conversation.loop")
        let text = ChromeTraceFormatter.format(outcome.trace, scenario: "39", handOvers: outcome.handOvers)
        let arrows = try Self.arrows(text)
        #expect(
            arrows == [
                Arrow(from: "worker", start: "send mainPort → main", to: "main", end: "source1 mainPort"),
                Arrow(from: "main", start: "send workerPort → worker", to: "worker", end: "source1 workerPort"),
                Arrow(from: "worker", start: "send mainPort → main", to: "main", end: "source1 mainPort"),
                Arrow(from: "main", start: "send workerPort → worker", to: "worker", end: "source1 workerPort"),
            ])
    }

    @Test("a detached thread's sends: its track is made for the arrows' starts")
    func detachedSender() throws {
        let outcome = try Self.lesson("24-worker-checks-in-on-a-port.loop")
        let text = ChromeTraceFormatter.format(outcome.trace, scenario: "24", handOvers: outcome.handOvers)
        let arrows = try Self.arrows(text)
        #expect(
            arrows == [
                Arrow(from: "worker", start: "send mainPort → main", to: "main", end: "source1 mainPort"),
                Arrow(from: "worker", start: "send mainPort → main", to: "main", end: "source1 mainPort"),
            ])
    }

    /// A source of app's in worker's loop, signalled by app (then woken); a main-queue job from worker, and one main
    /// queues for itself, which is no hand-over across threads.
    static let signalAndMainQueue = """
        scenario "A signal and main-queue jobs across threads"

        thread app main
          source0 job in nothing
            work 1ms
          port keep in default
          mainqueue own
            work 1ms
          work 5ms
          add job to default on worker
          work 5ms
          signal job
          wakeup on worker
          run default for 100ms

        thread worker
          port keepAlive in default
          work 2ms
          mainqueue fromWorker
            work 2ms
          run default for 100ms

        """

    @Test("a signal of a source in another thread's loop, a main-queue job from a worker: arrows to their callouts")
    func signalAndMainQueueJob() throws {
        let script = try ScenarioParser.parse(Self.signalAndMainQueue, file: "hand-overs.loop")
        let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(1))
        #expect(
            outcome.handOvers.map { "\($0.from ?? "outside") \($0.words) to \($0.to)" } == [
                "app mainQueue own to app", "worker mainQueue fromWorker to app", "app signal job to worker",
            ])
        let text = ChromeTraceFormatter.format(outcome.trace, scenario: "hand-overs", handOvers: outcome.handOvers)
        let arrows = try Self.arrows(text)
        #expect(
            arrows == [
                Arrow(from: "worker", start: "mainQueue fromWorker → app", to: "app", end: "mainQueue fromWorker"),
                Arrow(from: "app", start: "signal job → worker", to: "worker", end: "source0 job"),
            ])
    }

    @Test("a block a thread queues on another thread's loop: an arrow from the enqueue to the block's callout")
    func block() throws {
        func event(_ ms: Int, _ kind: LoopEvent.Kind, _ name: String?, loop: String) -> LoopEvent {
            LoopEvent(
                time: .zero + .milliseconds(ms), loop: loop, depth: 1, mode: "default", iteration: 1, kind: kind,
                name: name)
        }
        // ui queues b on worker's loop (CFRunLoopPerformBlock takes the loop), worker queues c on its own.
        let events: LoopTrace = [
            event(0, .beforeSources, nil, loop: "ui"), event(1, .enqueue, "b", loop: "worker"),
            event(2, .enqueue, "c", loop: "worker"), event(3, .block, "b", loop: "worker"),
            event(4, .block, "c", loop: "worker"),
        ]
        let handOvers = [
            HandOver(.block("b"), from: "ui", to: "worker", position: 1, time: .zero + .milliseconds(1)),
            HandOver(.block("c"), from: "worker", to: "worker", position: 2, time: .zero + .milliseconds(2)),
        ]
        let text = ChromeTraceFormatter.format(events, scenario: "blocks", handOvers: handOvers)
        let arrows = try Self.arrows(text)
        #expect(arrows == [Arrow(from: "ui", start: "block b → worker", to: "worker", end: "block b")])
    }

    @Test("an outside event's send (a scenario's `at` line) is no thread's hand-over: no arrow")
    func outsideSend() throws {
        let outcome = try Self.lesson("08-port-wakes-the-loop.loop")
        #expect(!outcome.handOvers.isEmpty)
        #expect(outcome.handOvers.allSatisfy { $0.from == nil })
        let text = ChromeTraceFormatter.format(outcome.trace, scenario: "08", handOvers: outcome.handOvers)
        #expect(try Self.arrows(text) == [])
    }

    @Test("without hand-overs the file is the one it was: a converted trace, the golden export")
    func noHandOvers() throws {
        let outcome = try Self.lesson("03-tasks-on-a-kept-alive-thread.loop")
        let without = ChromeTraceFormatter.format(outcome.trace, scenario: "03")
        #expect(try Self.arrows(without) == [])
        #expect(!without.contains("\"handOver\""))
    }
}
