import Foundation
import LoopEngine
import SnapshotSupport
import Testing

/// `loopviz record -- loopviz-sample` records a program that does not link LoopRecorder (a timer, a perform from
/// another thread, a port, one 300 ms hang in `decodeImageOnTheMainThread`) by preloading LoopRecorderPreload,
/// and `loopviz hangs` finds exactly that hang. Each run is bounded by `--time-limit` (the sample runs a second).
@Suite("loopviz record records a program with no code change", .timeLimit(.minutes(10)))
struct RecordCommandTests {
    static let sample = LoopvizProcess.executable.deletingLastPathComponent().appendingPathComponent("loopviz-sample")

    /// A fresh folder for one test's files, and its listing afterwards.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-record-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func remove() { try? FileManager.default.removeItem(at: url) }
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    static func hangs(in path: String) throws -> (trace: JSONLTrace, hangs: [BusySegment]) {
        let trace = try JSONLTraceReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: path))), maximumEvents: 100_000)
        return (trace, BusySegment.all(in: trace.events).filter { $0.length >= .milliseconds(250) })
    }

    @Test("record -- loopviz-sample writes its main loop, and hangs lists exactly its 300 ms hang")
    func sampleHang() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("sample.jsonl")
        // The sample keeps a core busy for its 300 ms hang: the other real-time judges wait (RealTimeGate).
        let result = try RealTimeGate.exclusive {
            try LoopvizProcess.run(
                ["record", "-o", output, "--time-limit", "30s", "--", Self.sample.path], in: folder.url)
        }
        #expect(result.status == 0)
        #expect(result.stdout == "loopviz-sample: hung once, the perform ran\n")
        #expect(
            result.stderr
                == "loopviz: \(Self.sample.path) exited with status 0; its main run loop is recorded in \(output)\n")
        #expect(folder.names == ["sample.jsonl"])
        let (trace, hangs) = try Self.hangs(in: output)
        #expect(trace.header.recording?.process == "loopviz-sample" && trace.header.recording?.thread == "main")
        // Without --all-threads the worker's loop is not recorded.
        #expect(trace.events.allSatisfy { $0.loop == "main" })
        #expect(hangs.count == 1)
        #expect(hangs.first.map { $0.length < .milliseconds(500) } == true)
        #expect(hangs.first?.startedBy == .afterWaiting && hangs.first?.endedBy == .beforeWaiting)
        // The timer that woke the loop held it: busy, in the wake-up work.
        let analysis = hangs.first.map { HangAnalysis($0, in: trace.events) }
        #expect(analysis?.verdict == .busy)
        #expect(analysis?.heldBy == .wakeUpWork)
        let listed = try LoopvizProcess.run(["hangs", output])
        #expect(listed.status == 1)
        #expect(listed.stdout.split(separator: "\n").filter { $0.hasPrefix("hang ") }.count == 1)
        #expect(
            listed.stdout.contains("\n  verdict: busy (the loop did not sleep in its wait)\n  held by: wake-up work ("))
    }

    @Test(
        "record --all-threads --stacks -- loopviz-sample: the worker's loop too, from its first run; one hang, on main")
    func sampleEveryThread() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("threads.jsonl")
        let result = try RealTimeGate.exclusive {
            try LoopvizProcess.run(
                ["record", "--all-threads", "--stacks", "-o", output, "--time-limit", "30s", "--", Self.sample.path],
                in: folder.url)
        }
        #expect(result.status == 0)
        #expect(result.stdout == "loopviz-sample: hung once, the perform ran\n")
        #expect(
            result.stderr
                == "loopviz: \(Self.sample.path) exited with status 0; its run loops are recorded in \(output)\n")
        let (trace, hangs) = try Self.hangs(in: output)
        #expect(trace.header.recording?.thread == "main")
        var threads: [String] = []
        for event in trace.events where !threads.contains(event.loop) { threads.append(event.loop) }
        // Both loops, each under its own name; which runs first is the scheduler's race (the worker is started just
        // before main's run), so the order is not asserted.
        #expect(threads.count == 2 && Set(threads) == ["main", "worker"])
        // The worker's loop from its first run to its end: one run of the default mode, its timers waking it.
        let worker = trace.events.filter { $0.loop == "worker" }
        #expect(worker.first?.kind == .entry && worker.first?.mode == "default" && worker.first?.depth == 1)
        #expect(worker.filter { $0.kind == .entry }.count == 1)
        #expect(worker.last?.kind == .observer && worker.last?.fact == .activity(.exit))
        #expect(worker.filter { $0.kind == .afterWaiting }.count >= 5)
        #expect(zip(trace.events, trace.events.dropFirst()).allSatisfy { $0.time <= $1.time })
        // The one hang is the main thread's, and every stack sample lies in a busy stretch of its own thread's loop.
        #expect(hangs.map(\.loop) == ["main"])
        let segments = BusySegment.all(in: trace.events)
        let samples = trace.events.filter { if case .stack = $0.fact { true } else { false } }
        #expect(!samples.isEmpty)
        #expect(
            samples.allSatisfy { sample in
                segments.contains { $0.loop == sample.loop && sample.time >= $0.start && sample.time <= $0.end }
            })
        let listed = try LoopvizProcess.run(["hangs", output])
        #expect(listed.status == 1)
        #expect(listed.stdout.split(separator: "\n").filter { $0.hasPrefix("hang ") }.count == 1)
        #expect(listed.stdout.contains(" on main mode default depth 1: afterWaiting -> beforeWaiting\n"))
    }

    @Test(
        "record --stacks: hangs names decodeImageOnTheMainThread as the hottest frame of the one hang, and only while busy"
    )
    func sampleHangStacks() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("stacks.jsonl")
        let result = try RealTimeGate.exclusive {
            try LoopvizProcess.run(
                ["record", "--stacks", "-o", output, "--time-limit", "30s", "--", Self.sample.path], in: folder.url)
        }
        #expect(result.status == 0)
        let (trace, hangs) = try Self.hangs(in: output)
        #expect(hangs.count == 1)
        let samples = trace.events.filter { if case .stack = $0.fact { true } else { false } }
        #expect(!samples.isEmpty)
        // Every sample lies inside a busy stretch of the loop: none while it slept.
        let segments = BusySegment.all(in: trace.events)
        #expect(samples.allSatisfy { sample in segments.contains { sample.time >= $0.start && sample.time <= $0.end } })
        let modules = trace.events.compactMap { if case .module = $0.fact { $0.name } else { nil } }
        #expect(modules.contains(Self.sample.path))
        let listed = try LoopvizProcess.run(["hangs", output, "--detector", "kscrash"])
        #expect(listed.status == 1)
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        let hottest = lines.first { $0.hasPrefix("  hottest frames (") }
        #expect(
            hottest.map {
                $0.contains("): loopviz_sample.decodeImageOnTheMainThread@Sendable () -> () in loopviz-sample ")
            } == true, "\(listed.stdout)")
        #expect(lines.contains("    loopviz_sample.decodeImageOnTheMainThread@Sendable () -> () in loopviz-sample"))
        #expect(lines.contains { $0.hasPrefix("  kscrash: reported at ") && $0.contains(", 0.250s into its window") })
    }

    @Test("record --stacks of a hang that sleeps (usleep): not cut short by a signal, its sample is the sleep's call")
    func sleepingHang() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("sleep.jsonl")
        let result = try RealTimeGate.exclusive {
            try LoopvizProcess.run(
                ["record", "--stacks", "-o", output, "--time-limit", "30s", "--", Self.sample.path, "--sleep"],
                in: folder.url)
        }
        #expect(result.status == 0)
        let (_, hangs) = try Self.hangs(in: output)
        // A thread asleep in a system call is read from /proc, not signalled: the sleep lasts its 300 ms.
        #expect(hangs.count == 1 && hangs.first.map { $0.length >= .milliseconds(290) } == true)
        let listed = try LoopvizProcess.run(["hangs", output])
        let hottest = listed.stdout.split(separator: "\n").first { $0.hasPrefix("  hottest frames (") }
        #expect(hottest.map { $0.contains("nanosleep") } == true, "\(listed.stdout)")
    }

    /// The pid of the child of `parent` named `name` once it is stopped (state T), within `seconds`.
    static func stoppedChild(of parent: Int32, named name: String, within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for entry in entries {
                guard let pid = Int32(entry),
                    let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
                else { continue }
                let lines = status.split(separator: "\n")
                guard lines.contains("Name:\t\(name)"), lines.contains("PPid:\t\(parent)"),
                    lines.contains(where: { $0.hasPrefix("State:\tT") })
                else { continue }
                return pid
            }
            usleep(20_000)
        }
        return nil
    }

    @Test("a program stopped (SIGSTOP) inside its hang: the verdict says the process did not run, not its work")
    func stoppedInsideTheHang() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("paused.jsonl")
        try RealTimeGate.exclusive {
            let record = Process()
            record.executableURL = LoopvizProcess.executable
            record.arguments = [
                "record", "--stacks", "-o", output, "--time-limit", "30s", "--", Self.sample.path, "--pause",
            ]
            record.currentDirectoryURL = folder.url
            record.standardOutput = FileHandle.nullDevice
            record.standardError = FileHandle.nullDevice
            try record.run()
            let child = Self.stoppedChild(of: record.processIdentifier, named: "loopviz-sample", within: 20)
            #expect(child != nil, "the sample stops itself 50 ms into its hang")
            if let child {
                usleep(600_000)
                kill(child, SIGCONT)
            }
            record.waitUntilExit()
            #expect(record.terminationStatus == 0)
        }
        let listed = try LoopvizProcess.run(["hangs", output])
        let verdicts = listed.stdout.split(separator: "\n").filter { $0.hasPrefix("  verdict: ") }
        #expect(verdicts.count == 1, "\(listed.stdout)")
        #expect(
            verdicts.first?.hasPrefix(
                "  verdict: not the program's work: the process did not run for 0.") == true, "\(listed.stdout)")
    }

    @Test("a program that crashes after its hang leaves a recording of it, ending with the signal's mark")
    func crashKeepsTheRecording() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("crash.jsonl")
        let result = try RealTimeGate.exclusive {
            try LoopvizProcess.run(
                ["record", "-o", output, "--time-limit", "30s", "--", Self.sample.path, "--crash"], in: folder.url)
        }
        #expect(result.status == 128 + SIGILL)
        #expect(
            result.stderr.hasSuffix(
                "loopviz: \(Self.sample.path) was ended by SIGILL; its main run loop up to then is recorded in \(output)\n"
            ))
        #expect(folder.names == ["crash.jsonl"])
        let (trace, hangs) = try Self.hangs(in: output)
        #expect(hangs.count == 1)
        let marks = trace.events.filter { if case .mark = $0.fact { true } else { false } }.map(\.name)
        #expect(marks == ["LoopRecorder: the program received signal SIGILL"])
    }

    @Test("a program that cannot be started: exit 127, its reason, and no file")
    func missingProgram() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let result = try LoopvizProcess.run(
            ["record", "-o", folder.path("none.jsonl"), "--", folder.path("no-such-program")], in: folder.url)
        #expect(result.status == 127)
        #expect(
            result.stderr
                == "loopviz: error: cannot start \(folder.path("no-such-program")): No such file or directory\n")
        #expect(folder.names.isEmpty)
    }

    @Test("the time limit sends SIGTERM: the recording up to then is kept, exit 143")
    func timeLimit() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("limit.jsonl")
        let result = try LoopvizProcess.run(
            ["record", "-o", output, "--time-limit", "200ms", "--", Self.sample.path], in: folder.url)
        #expect(result.status == 143)
        #expect(
            result.stderr
                == "loopviz: \(Self.sample.path) was still running at the time limit (0.200s) and was sent SIGTERM; its main run loop up to then is recorded in \(output) (--time-limit TIME records longer)\n"
        )
        let (trace, _) = try Self.hangs(in: output)
        let marks = trace.events.filter { if case .mark = $0.fact { true } else { false } }.map(\.name)
        #expect(marks == ["LoopRecorder: the program received signal SIGTERM"])
    }
}
