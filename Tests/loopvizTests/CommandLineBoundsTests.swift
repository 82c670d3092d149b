import Foundation
import LoopEngine
import SnapshotSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("bounded resources and safe files on the command line", .timeLimit(.minutes(15)))
struct CommandLineBoundsTests {
    /// A timer every millisecond for a day: a million events in about 143 virtual seconds.
    static let runaway = """
        scenario "runaway"
        until 100000s
        thread T
          timer t at 1ms every 1ms
          run default for 100000s
        """
    static let good = CommandLineTests.good

    static func trace(_ text: String, maxEvents: Int) throws -> [LoopEvent] {
        let script = try ScenarioParser.parse(text, file: "x.loop")
        return ScenarioRunner.run(script.scenario, horizon: script.until ?? .seconds(60), maxEvents: maxEvents).events
    }

    static let full = "loopviz: error: cannot write standard output: No space left on device\n"

    @Test(
        "a full standard output is one line naming it and why, exit 4, for every command",
        arguments: [
            ["run", "good.loop"], ["run", "good.loop", "--trace", "chrome"], ["check", "good.loop"],
            ["screen", "good.loop"], ["compare", "--help"], ["--help"],
        ])
    func fullStandardOutput(_ arguments: [String]) throws {
        let folder = try BoundsFolder(["good.loop": Self.good])
        defer { folder.remove() }
        let devFull = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try folder.run(arguments, stdout: devFull)
        #expect(result.status == 4)
        #expect(result.stderr == Self.full)
    }

    @Test("a closed pipe ends a long run quietly with 141, long before its budget")
    func closedPipe() throws {
        let folder = try BoundsFolder(["runaway.loop": Self.runaway])
        defer { folder.remove() }
        let (process, out, err) = try folder.start(["run", "runaway.loop", "--max-events", "10000000"])
        let reader = try #require(out).fileHandleForReading
        let first = reader.readData(ofLength: 100)
        // The header comes first (its columns as wide as the first events' cells).
        let header = String(decoding: first, as: UTF8.self).split(separator: "\n").first ?? ""
        #expect(header.split(separator: " ").prefix(4) == ["time", "thread", "depth", "mode"])
        try reader.close()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 141)
        #expect(error.isEmpty)
    }

    @Test(
        "-o naming an input, however spelled, is refused with exit 2 and the input untouched",
        arguments: ["x.loop", "./x.loop", "missing/../x.loop", "link.loop", "hard.loop", "\(UUID())/../x.loop"])
    func outputIsAnInput(_ spelling: String) throws {
        let folder = try BoundsFolder(["x.loop": Self.good])
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("link.loop").path, withDestinationPath: "x.loop")
        try FileManager.default.linkItem(
            at: folder.url.appendingPathComponent("x.loop"), to: folder.url.appendingPathComponent("hard.loop"))
        let result = try folder.run(["run", "x.loop", "-o", spelling])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("loopviz: error: -o \(spelling) is an input file"))
        #expect(result.stdout == "")
        #expect(try folder.read("x.loop") == Self.good)
        #expect(folder.names == ["hard.loop", "link.loop", "x.loop"])
    }

    @Test("-o replaces a file whole, keeps its permissions, and leaves no temporary file")
    func outputReplacesAtomically() throws {
        let folder = try BoundsFolder(["good.loop": Self.good, "out.txt": "old\n"])
        defer { folder.remove() }
        let out = folder.url.appendingPathComponent("out.txt").path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: out)
        let expected = TextTraceFormatter.format(try Self.trace(Self.good, maxEvents: .max))
        let result = try folder.run(["run", "good.loop", "-o", "out.txt"])
        #expect(result.status == 0)
        #expect(result.stdout == "" && result.stderr == "")
        #expect(try folder.read("out.txt") == expected)
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        #expect(folder.names == ["good.loop", "out.txt"])
    }

    @Test("jsonl to a new file is written in one run, its header put before the events at the end: the same bytes")
    func jsonlHeaderPrependedToAFile() throws {
        let folder = try BoundsFolder(["good.loop": Self.good, "out.jsonl": "old\n"])
        defer { folder.remove() }
        let out = folder.url.appendingPathComponent("out.jsonl").path
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: out)
        // Standard output cannot be written out of order: there a first run counts the events.
        let piped = try folder.run(["run", "good.loop", "--trace", "jsonl"])
        let expected = JSONLTraceFormatter.format(try Self.trace(Self.good, maxEvents: .max), scenario: "good")
        #expect(piped.status == 0 && piped.stdout.hasSuffix(expected.drop { $0 != "\n" }))
        let result = try folder.run(["run", "good.loop", "--trace", "jsonl", "-o", "out.jsonl"])
        #expect(result.status == 0 && result.stderr == "")
        #expect(try folder.read("out.jsonl") == piped.stdout)
        #expect(try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int == 0o604)
        #expect(folder.names == ["good.loop", "out.jsonl"])
        // At the event budget the header counts what was written.
        let stopped = try folder.run(["run", "good.loop", "--trace", "jsonl", "--max-events", "5", "-o", "out.jsonl"])
        #expect(stopped.status == 3)
        let lines = try folder.read("out.jsonl").split(separator: "\n")
        #expect(lines.count == 6 && lines[0].hasSuffix(#""events":5}"#))
        #expect(folder.names == ["good.loop", "out.jsonl"])
    }

    @Test("-o through a symbolic link replaces the file it leads to and leaves the link a link")
    func outputThroughALink() throws {
        let folder = try BoundsFolder(["good.loop": Self.good])
        defer { folder.remove() }
        let manager = FileManager.default
        try manager.createDirectory(at: folder.url.appendingPathComponent("other"), withIntermediateDirectories: true)
        try folder.write("other/target.txt", "old\n")
        try manager.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("link.txt").path, withDestinationPath: "other/target.txt")
        let expected = TextTraceFormatter.format(try Self.trace(Self.good, maxEvents: .max))
        let result = try folder.run(["run", "good.loop", "-o", "link.txt"])
        #expect(result.status == 0 && result.stderr == "")
        #expect(try folder.read("other/target.txt") == expected)
        let link = folder.url.appendingPathComponent("link.txt").path
        #expect(try manager.destinationOfSymbolicLink(atPath: link) == "other/target.txt")
        #expect(
            try manager.contentsOfDirectory(atPath: folder.url.appendingPathComponent("other").path) == ["target.txt"])
        // A link to nothing yet creates its target, as the shell's `>` does.
        try manager.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("new.txt").path, withDestinationPath: "other/new.txt")
        #expect(try folder.run(["run", "good.loop", "-o", "new.txt"]).status == 0)
        #expect(try folder.read("other/new.txt") == expected)
        #expect(
            try manager.destinationOfSymbolicLink(atPath: folder.url.appendingPathComponent("new.txt").path)
                == "other/new.txt")
    }

    @Test("-o /dev/stdout writes standard output, whatever it is, and /dev/stdout stays a link")
    func outputToDevStdout() throws {
        let folder = try BoundsFolder(["good.loop": Self.good, "got.txt": ""])
        defer { folder.remove() }
        let expected = TextTraceFormatter.format(try Self.trace(Self.good, maxEvents: .max))
        let piped = try folder.run(["run", "good.loop", "-o", "/dev/stdout"])
        #expect(piped.status == 0 && piped.stdout == expected)
        let file = try FileHandle(forWritingTo: folder.url.appendingPathComponent("got.txt"))
        let redirected = try folder.run(["run", "good.loop", "-o", "/dev/stdout"], stdout: file)
        try file.close()
        #expect(redirected.status == 0)
        #expect(try folder.read("got.txt") == expected)
        let info = try FileManager.default.attributesOfItem(atPath: "/dev/stdout")
        #expect(info[.type] as? FileAttributeType == .typeSymbolicLink)
    }

    @Test("-o in a folder that does not exist: one line naming the path and why, exit 4")
    func outputCannotBeCreated() throws {
        let folder = try BoundsFolder(["good.loop": Self.good])
        defer { folder.remove() }
        let result = try folder.run(["run", "good.loop", "-o", "nowhere/out.txt"])
        #expect(result.status == 4)
        #expect(result.stderr == "loopviz: error: cannot write nowhere/out.txt: No such file or directory\n")
    }

    // A signal ending a headless run (a real process, waited for on real time): `SignalCommandTests` in
    // RealTimeJudgeTests.

    /// What `run` and `screen` say (`traceKept`), and `check` and `compare`, which keep no trace.
    static func budgetMessage(_ limit: Int, traceKept: Bool = true) -> String {
        "loopviz: runaway.loop: stopped at the event budget of \(limit) events "
            + "(\(traceKept ? "the trace so far is kept; " : "")--max-events N allows more)\n"
    }

    @Test("the event budget stops run: what was recorded is printed, stderr says so, exit 3")
    func runBudget() throws {
        let folder = try BoundsFolder(["runaway.loop": Self.runaway])
        defer { folder.remove() }
        let events = try Self.trace(Self.runaway, maxEvents: 40)
        #expect(events.count == 40)
        let text = try folder.run(["run", "runaway.loop", "--max-events", "40"])
        #expect(text.status == 3)
        #expect(text.stdout == TextTraceFormatter.format(events))
        #expect(text.stderr == Self.budgetMessage(40))
        for format in ["jsonl", "chrome", "mermaid"] {
            let result = try folder.run(["run", "runaway.loop", "--max-events=40", "--trace", format])
            #expect(result.status == 3)
            #expect(result.stderr == Self.budgetMessage(40))
            let expected =
                switch format {
                case "jsonl": JSONLTraceFormatter.format(events, scenario: "runaway")
                case "chrome": ChromeTraceFormatter.format(events, scenario: "runaway")
                default: MermaidTraceFormatter.format(events, scenario: "runaway")
                }
            #expect(result.stdout == expected, "\(format)")
        }
    }

    @Test("check reports a run stopped by the budget as a FAIL of that file and exits 3")
    func checkBudget() throws {
        let runaway = Self.runaway + "\nexpect in order\n  timer t\n"
        let folder = try BoundsFolder(["runaway.loop": runaway, "good.loop": Self.good])
        defer { folder.remove() }
        let result = try folder.run(["check", "good.loop", "runaway.loop", "--max-events", "100"])
        #expect(result.status == 3)
        #expect(
            result.stdout == """
                PASS good.loop (9 expect lines in 1 section, 11 events)
                FAIL runaway.loop: stopped at the event budget of 100 events; expectations not checked

                """)
        #expect(result.stderr == Self.budgetMessage(100, traceKept: false))
    }

    // compare at the budget runs the real CFRunLoop: `CompareCommandTests` in RealTimeJudgeTests.

    @Test("screen stops at the budget too, and says so")
    func screenBudget() throws {
        let folder = try BoundsFolder(["runaway.loop": Self.runaway])
        defer { folder.remove() }
        let result = try folder.run(["screen", "runaway.loop", "--max-events", "100"])
        #expect(result.status == 3)
        #expect(result.stdout.contains("stopped at the event budget (100 events)"))
        #expect(result.stderr == Self.budgetMessage(100))
    }

    @Test("--max-events takes a positive number", arguments: ["0", "-3", "many", ""])
    func badBudget(_ value: String) throws {
        let folder = try BoundsFolder(["good.loop": Self.good])
        defer { folder.remove() }
        for command in ["run", "check", "compare", "screen"] {
            let result = try folder.run([command, "good.loop", "--max-events", value])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("loopviz: error: '\(value)' is not a number of events"))
        }
    }

    @Test("--max-events allows at most ten million events", arguments: ["10000001", "9223372036854775807"])
    func budgetAboveTheMaximum(_ value: String) throws {
        let folder = try BoundsFolder(["good.loop": Self.good])
        defer { folder.remove() }
        for command in ["run", "check", "compare", "screen", "hangs"] {
            let result = try folder.run([command, "good.loop", "--max-events", value])
            #expect(result.status == 2, "\(command)")
            #expect(
                result.stderr.hasPrefix(
                    "loopviz: error: '\(value)' is more events than a run may record: at most 10000000; "
                        + "use e.g. 5000000"
                ), "\(command)")
        }
    }

    static let lessons = ExampleFiles.lessons

    @Test("run writes each lesson, as it goes, exactly as its golden trace and its JSON Lines", arguments: lessons)
    func streamingMatchesTheGoldens(_ name: String) throws {
        let path = Snapshot.packageRoot.appendingPathComponent("examples/\(name)").path
        let folder = try BoundsFolder([:])
        defer { folder.remove() }
        let base = String(name.dropLast(".loop".count))
        let golden = try String(
            contentsOf: Snapshot.packageRoot.appendingPathComponent(
                "Tests/LoopEngineTests/Snapshots/Examples/\(base).trace"), encoding: .utf8)
        let text = try folder.run(["run", path])
        #expect(text.status == 0)
        #expect(text.stdout == golden)
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let script = try ScenarioParser.parse(source, file: path)
        let events = ScenarioRunner.run(script.scenario, horizon: script.until ?? .seconds(60)).events
        let jsonl = try folder.run(["run", path, "--trace", "jsonl"])
        #expect(jsonl.stdout == JSONLTraceFormatter.format(events, scenario: script.scenario.name))
    }
}

/// The lessons in examples/.
enum ExampleFiles {
    static let lessons: [String] = {
        let folder = Snapshot.packageRoot.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".loop") }.sorted()
    }()
}
