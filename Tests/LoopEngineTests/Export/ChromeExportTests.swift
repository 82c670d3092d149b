import Foundation
import LoopEngine
import Testing

@Suite("Chrome trace export")
struct ChromeExportTests {
    struct Slice {
        var name: String
        var category: String
        var tid: Int
        var ts: Double
        var dur: Double
        var end: Double { ts + dur }

        func contains(_ other: Slice) -> Bool { ts <= other.ts && other.end <= end }
    }

    static func parse(_ events: [LoopEvent]) throws -> (top: [String: Any], events: [[String: Any]]) {
        let text = ChromeTraceFormatter.format(events, scenario: "rich")
        let top = try ExportJSON.object(text)
        let traceEvents = try #require(top["traceEvents"] as? [[String: Any]])
        return (top, traceEvents)
    }

    static func slices(_ events: [[String: Any]]) throws -> [Slice] {
        try events.filter { $0["ph"] as? String == "X" }.map { event in
            Slice(
                name: try #require(event["name"] as? String), category: try #require(event["cat"] as? String),
                tid: try #require(event["tid"] as? Int), ts: try #require(event["ts"] as? Double),
                dur: try #require(event["dur"] as? Double))
        }
    }

    static let traces: [(String, [LoopEvent])] = [
        ("rich", ScenarioRunner.run(ExportScenarios.rich).events),
        ("halted mid-run", ScenarioRunner.run(ExportScenarios.rich, maxEvents: 45).events),
        ("two threads", ExportScenarios.twoThreads),
    ]

    @Test("the file is JSON with the trace events, the time unit and the scenario", arguments: traces)
    func topLevel(_ name: String, _ events: [LoopEvent]) throws {
        let (top, traceEvents) = try Self.parse(events)
        #expect(top["displayTimeUnit"] as? String == "ms")
        let other = try #require(top["otherData"] as? [String: Any])
        #expect(other["scenario"] as? String == "rich")
        #expect(other["clock"] as? String == "virtual")
        for event in traceEvents {
            #expect(event["ph"] is String)
            #expect(event["pid"] as? Int == 1)
            if event["ph"] as? String != "M" { #expect((event["ts"] as? Double ?? -1) >= 0) }
        }
        let times = traceEvents.compactMap { $0["ts"] as? Double }
        #expect(times == times.sorted(), "events are written in time order")
    }

    @Test("every slice has a non-negative time and duration, and slices on one track nest", arguments: traces)
    func slicesNest(_ name: String, _ events: [LoopEvent]) throws {
        let slices = try Self.slices(try Self.parse(events).events)
        // One slice per run and per callout the trace holds, a run cut short by a halt included.
        #expect(slices.filter { $0.category == "run" }.count == events.filter { $0.kind == .runStart }.count)
        #expect(slices.filter { $0.category == "callout" }.count == events.filter(\.kind.isCallout).count)
        for slice in slices { #expect(slice.ts >= 0 && slice.dur >= 0, "\(slice)") }
        for tid in Set(slices.map(\.tid)) {
            let track = slices.filter { $0.tid == tid }
            for (index, a) in track.enumerated() {
                for b in track[(index + 1)...] {
                    let disjoint = a.end <= b.ts || b.end <= a.ts
                    #expect(disjoint || a.contains(b) || b.contains(a), "\(a.name) and \(b.name) overlap partially")
                }
            }
        }
    }

    @Test("callouts sit in iterations or runs, iterations in runs, a nested run inside the callout that started it")
    func sliceHierarchy() throws {
        let slices = try Self.slices(try Self.parse(ScenarioRunner.run(ExportScenarios.rich).events).events)
        let runs = slices.filter { $0.category == "run" }
        let iterations = slices.filter { $0.category == "iteration" }
        let callouts = slices.filter { $0.category == "callout" }
        #expect(runs.map(\.name) == ["run default", "run Inner"])
        for iteration in iterations { #expect(runs.contains { $0.contains(iteration) }) }
        for callout in callouts {
            #expect(iterations.contains { $0.contains(callout) } || runs.contains { $0.contains(callout) })
        }
        let inner = try #require(runs.first { $0.name == "run Inner" })
        let starter = try #require(callouts.first { $0.name == "source0 Nest" })
        #expect(starter.contains(inner))
        #expect(inner.dur == 15_000, "the nested run lasts 15 ms: 0.050 to the Tick timer at 0.065")
        let timer = try #require(callouts.first { $0.name == "timer T1" })
        #expect(timer.dur == 5_000, "a callout lasts until the loop's next step: T1 works for 5 ms")
        let sleeps = slices.filter { $0.category == "sleep" }
        #expect(sleeps.contains { $0.ts == 35_000 && $0.dur == 15_000 }, "sleep → wake at the outside wake-up")
    }

    @Test("every track is named by metadata, in one process named loopviz", arguments: traces)
    func metadata(_ name: String, _ events: [LoopEvent]) throws {
        let traceEvents = try Self.parse(events).events
        let metadata = traceEvents.filter { $0["ph"] as? String == "M" }
        let process = try #require(metadata.first { $0["name"] as? String == "process_name" })
        #expect((process["args"] as? [String: Any])?["name"] as? String == "loopviz")
        var trackNames: [Int: String] = [:]
        for event in metadata where event["name"] as? String == "thread_name" {
            trackNames[try #require(event["tid"] as? Int)] = (event["args"] as? [String: Any])?["name"] as? String
        }
        let used = Set(traceEvents.filter { $0["ph"] as? String != "M" }.compactMap { $0["tid"] as? Int })
        #expect(used.isSubset(of: Set(trackNames.keys)))
        #expect(Set(trackNames.values) == Set(events.map(\.loop)))
    }

    @Test("flows pair one start with one end, same name, never backwards in time", arguments: traces)
    func flowsMatch(_ name: String, _ events: [LoopEvent]) throws {
        let traceEvents = try Self.parse(events).events
        var starts: [Int: [String: Any]] = [:]
        var ends: [Int: [String: Any]] = [:]
        for event in traceEvents {
            let phase = event["ph"] as? String
            guard phase == "s" || phase == "f" else { continue }
            let id = try #require(event["id"] as? Int)
            if phase == "s" {
                #expect(starts[id] == nil, "flow \(id) starts twice")
                starts[id] = event
            } else {
                #expect(ends[id] == nil, "flow \(id) ends twice")
                #expect(event["bp"] as? String == "e")
                ends[id] = event
            }
        }
        #expect(Set(starts.keys) == Set(ends.keys))
        for (id, start) in starts {
            let end = try #require(ends[id])
            #expect(start["name"] as? String == end["name"] as? String)
            #expect(start["cat"] as? String == end["cat"] as? String)
            #expect(start["tid"] as? Int == end["tid"] as? Int)
            #expect((start["ts"] as? Double)! <= (end["ts"] as? Double)!)
        }
    }

    @Test("flows: signal → perform, wake-up → its wake, send → the wake its port causes")
    func flowKinds() throws {
        let traceEvents = try Self.parse(ScenarioRunner.run(ExportScenarios.rich).events).events
        let ends = traceEvents.filter { $0["ph"] as? String == "f" }
        func times(_ name: String) -> [Double] {
            ends.filter { $0["name"] as? String == name }.compactMap { $0["ts"] as? Double }
        }
        // Signals of A at 0 and 0.150 and of Nest at 0.050; their performs at 0, 0.050 and 0.155.
        #expect(times("signal") == [0, 50_000, 155_000])
        // Wake-ups at 0.050, 0.150 (woken at 0.155: the timer port won the wait at 0.150) and the time limit.
        #expect(times("wakeUp") == [50_000, 155_000, 200_000])
        // Two sends before the run (one wake), one at 0.120.
        #expect(times("send") == [0, 0, 120_000])
    }

    @Test("counters track signalled sources, pending port messages and timer fires")
    func counters() throws {
        let traceEvents = try Self.parse(ScenarioRunner.run(ExportScenarios.rich).events).events
        func series(_ name: String) -> [Int] {
            traceEvents.filter { $0["ph"] as? String == "C" && $0["name"] as? String == name }
                .compactMap { ($0["args"] as? [String: Any])?["T"] as? Int }
        }
        #expect(series("signalled sources") == [0, 1, 0, 1, 0, 1, 0])
        #expect(series("pending port messages") == [0, 1, 2, 0, 1, 0])
        #expect(series("timer fires") == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test("activities are thread-scoped instants")
    func activities() throws {
        let events = ScenarioRunner.run(ExportScenarios.rich).events
        let traceEvents = try Self.parse(events).events
        let activities = traceEvents.filter { $0["cat"] as? String == "activity" }
        #expect(activities.count == events.filter(\.kind.isActivity).count)
        for activity in activities {
            #expect(activity["ph"] as? String == "i")
            #expect(activity["s"] as? String == "t")
        }
    }
}

extension ChromeExportTests {
    @Test("an empty trace is still a valid file with its process")
    func emptyTrace() throws {
        let (top, traceEvents) = try Self.parse([])
        #expect(top["displayTimeUnit"] as? String == "ms")
        #expect(traceEvents.count == 1)
        #expect(traceEvents.first?["name"] as? String == "process_name")
    }
}
