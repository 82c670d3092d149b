import Foundation
import Testing

/// Issue 10's runaway scenarios through the built executable: each ends, with a clear message and a documented
/// exit status, never a signal.
@Suite("runaway scenarios on the command line", .timeLimit(.minutes(15)))
struct RunawayCommandTests {
    static let reentry = """
        thread T
          source0 s
            signal s
            run default for 1s
          run default for 1s
        at 1ms on T
          signal s
          wakeup
        expect in order
          source0 s
        """
    static let selfSignalling = """
        thread T
          port keepAlive in default
          source0 s in default
            signal s
          run default for 20ms
        at 1ms on T
          signal s
          wakeup
        """
    /// The clock `run` offers without real time; `--clock real` and `compare` (the real backend, the real
    /// CFRunLoop) run the same scenarios in RealTimeJudgeTests (`RunawayRealTimeCommandTests`).
    static let clocks = ["virtual"]
    static let comparing: [String] = []

    static let message =
        "loopviz: error: reentry.loop: source0 s re-entered the run loop of thread T 256 runs deep, the nesting "
        + "limit (256); the run was stopped there\n"

    /// A timer every nanosecond that reschedules 1,000 idle timers: a few events, 2,000 item operations a fire.
    static let rescheduleStorm = """
        thread T
          timer u1..1000 at 3600s
          timer s at 0ms every 1ns
            reschedule u1..1000 in 3600s
          run default for 2s
        """

    @Test("run and screen stop at the work budget, say so (the trace kept, --max-events raises it) and exit 3")
    func workBudget() throws {
        let run = try LoopvizProcess.run(
            ["run", "storm.loop", "--max-events", "100000"], files: ["storm.loop": Self.rescheduleStorm])
        #expect(run.status == 3)
        #expect(
            run.stderr
                == "loopviz: storm.loop: stopped at the work budget of 1000000 item operations (4 an event: timers "
                + "moved, items added or removed, performs queued, once per mode) (the trace so far is kept; "
                + "--max-events N allows more)\n")
        #expect(run.stdout.contains("timer          s"))
        let screen = try LoopvizProcess.run(
            ["screen", "storm.loop", "--max-events", "100000", "--step", "50", "--size", "132x43"],
            files: ["storm.loop": Self.rescheduleStorm])
        #expect(screen.status == 3)
        #expect(screen.stdout.contains("stopped at the work budget (1000000 item operations)"), "\(screen.stdout)")
    }

    @Test("run stops a callout that re-enters its loop without end: the trace, one line naming it, exit 2")
    func runStopsDeepReentry() throws {
        for clock in Self.clocks {
            let result = try LoopvizProcess.run(
                ["run", "reentry.loop", "--clock", clock], files: ["reentry.loop": Self.reentry])
            #expect(result.status == 2, "\(clock)")
            #expect(result.stderr == Self.message, "\(clock)")
            // The trace up to the limit is printed: the 256th run performed s.
            let lastPerform = result.stdout.split(separator: "\n").last { $0.contains("source0") }
            #expect(lastPerform?.contains("T       256") == true, "\(clock)")
        }
    }

    @Test("under `ulimit -s 512` the virtual clock still reaches the nesting limit, not a stack overflow")
    func smallStackLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-stack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.reentry.write(to: folder.appendingPathComponent("reentry.loop"), atomically: true, encoding: .utf8)
        for clock in Self.clocks {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", "ulimit -s 512 && exec \"$0\" run reentry.loop --clock \(clock) > /dev/null 2> /dev/null",
                LoopvizProcess.executable.path,
            ]
            process.currentDirectoryURL = folder
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 2, "\(clock)")
        }
    }

    @Test("check and compare report the nesting limit as an error of that file, exit 2")
    func checkStopsDeepReentry() throws {
        for command in ["check"] + Self.comparing {
            let result = try LoopvizProcess.run([command, "reentry.loop"], files: ["reentry.loop": Self.reentry])
            #expect(result.status == 2, "\(command)")
            #expect(result.stdout == "ERROR reentry.loop: the run reached the nesting limit\n", "\(command)")
            #expect(result.stderr == Self.message, "\(command)")
        }
    }

    @Test("screen: the status line says the run stopped at the nesting limit, naming the callout; stderr too, exit 2")
    func screenShowsTheLimit() throws {
        let result = try LoopvizProcess.run(
            ["screen", "reentry.loop", "--size", "200x24"], files: ["reentry.loop": Self.reentry])
        #expect(result.status == 2)
        #expect(result.stderr == Self.message)
        let status = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            status.contains(
                "stopped: source0 s re-entered the run loop of thread T 256 runs deep, the nesting limit (256)"),
            "\(status)")
    }

    @Test("screen at 80×24 at the nesting limit: the depth whole, the mode stack shortened, the log's names shown")
    func narrowScreenAtTheLimit() throws {
        let result = try LoopvizProcess.run(["screen", "reentry.loop"], files: ["reentry.loop": Self.reentry])
        #expect(result.status == 2)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains { $0.hasSuffix("thread T   mode default (256 runs)") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("depth 256  pending stop ○  pending wake-up ○") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("T        default             [256] source0 s") }, "\(lines)")
        let status = lines.last { !$0.isEmpty } ?? ""
        #expect(status.hasSuffix("stopped: nesting limit 256 by source0 s on T"), "\(status)")
    }

    @Test("run says which thread a wait left stuck (exit 0: the scenario ran); the UI's status line says so at the end")
    func stuckWaitIsNoted() throws {
        let files = [
            "stuck.loop": """
            queue q limit 1 suspended
            thread A
              operation o on q work 10ms
              wait for q
            """
        ]
        let run = try LoopvizProcess.run(["run", "stuck.loop"], files: files)
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("queue    waitAll\n"), "\(run.stdout)")
        #expect(
            run.stderr
                == "loopviz: note: stuck.loop: thread A never returns from `wait for q` "
                + "(waitUntilAllOperationsAreFinished): nothing left can finish queue q's operations; the run ended "
                + "there\n")
        let screen = try LoopvizProcess.run(["screen", "stuck.loop"], files: files)
        #expect(screen.status == 0)
        let status = screen.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(status.contains("at the end: A waits forever in wait for q"), "\(status)")
    }

    @Test("run of a source0 that signals itself ends timedOut at 20 ms; --iteration-cost changes how often it ran")
    func runSelfSignallingSource() throws {
        let files = ["spin.loop": Self.selfSignalling]
        let plain = try LoopvizProcess.run(["run", "spin.loop", "--trace", "jsonl"], files: files)
        #expect(plain.status == 0)
        #expect(plain.stdout.components(separatedBy: "\"kind\":\"source0\"").count - 1 == 12_666)
        let last = plain.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("{\"t\":0.0200005,"), "\(last)")
        #expect(last.contains("\"kind\":\"result\",\"name\":\"timedOut\""), "\(last)")
        let slower = try LoopvizProcess.run(
            ["run", "spin.loop", "--trace", "jsonl", "--iteration-cost", "19us"], files: files)
        #expect(slower.status == 0)
        // 19 µs an iteration: the first perform 19 µs after the wake at 1 ms, the last in the iteration that ends
        // at or after 20 ms: 999 performs.
        #expect(slower.stdout.components(separatedBy: "\"kind\":\"source0\"").count - 1 == 999)
    }

    @Test("--iteration-cost takes a time from 0 to 1s on every command that runs the virtual clock")
    func iterationCostUsage() throws {
        let files = ["spin.loop": Self.selfSignalling]
        for command in ["run", "check", "compare", "screen"] {
            for bad in ["fast", "2s", "-1us"] {
                let result = try LoopvizProcess.run([command, "spin.loop", "--iteration-cost", bad], files: files)
                #expect(result.status == 2, "\(command) \(bad)")
                #expect(result.stderr.contains("is not an iteration cost"), "\(command) \(bad): \(result.stderr)")
            }
        }
        let zero = try LoopvizProcess.run(
            ["run", "good.loop", "--iteration-cost", "0"], files: ["good.loop": CommandLineTests.good])
        #expect(zero.status == 0)
        #expect(zero.stdout.contains("0.050  T       1      default  result         finished"))
    }
}
