import Foundation
import SnapshotSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `loopviz compare` on every lesson and on the shapes that need real threads: the main thread (its loop is
/// `CFRunLoopGetMain()` only in the `loopviz` process, whose commands run on the main thread - under `swift test`
/// libdispatch parks the main thread, so these tests run the executable), `perform … on THREAD [wait]`, and threads
/// started on the way that talk over each other's ports (`start T`, `send P on T`: lesson 39). No lesson is skipped.
@Suite("loopviz compare checks every lesson on the real CFRunLoop", .serialized)
struct CompareEveryLessonTests {
    /// Real threads are late by scheduling noise; CI uses 60 ms. `LOOPVIZ_TOLERANCE_MS` changes it.
    static let tolerance: String = {
        if let text = getenv("LOOPVIZ_TOLERANCE_MS"), let value = Int(String(cString: text)) { return "\(value)ms" }
        return "60ms"
    }()

    static func compare(_ arguments: [String], files: [String: String] = [:]) throws -> LoopvizProcess.Result {
        try RealTimeGate.exclusive {
            try LoopvizProcess.run(["compare", "--tolerance", tolerance] + arguments, files: files)
        }
    }

    /// The steps of each side of a side-by-side table (`#  time  step  time  step` rows, columns two or more spaces
    /// apart), from the line after `header` to the next blank line.
    static func columns(_ output: String, after header: String) -> (engine: [String], reference: [String]) {
        let lines = output.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: header) else { return ([], []) }
        var engine: [String] = []
        var reference: [String] = []
        for line in lines[(start + 2)...] {
            if line.isEmpty { break }
            let cells = line.split(separator: "  ", omittingEmptySubsequences: true).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 5 else { continue }
            engine.append(cells[2])
            reference.append(cells[4])
        }
        return (engine, reference)
    }

    #if os(Linux)
    @Test("every lesson in examples/ agrees with the real CFRunLoop (or Foundation's OperationQueue), none skipped")
    func everyLesson() throws {
        let folder = LoopvizProcess.packageRoot.appendingPathComponent("examples")
        let paths = ExampleFiles.lessons.map { folder.appendingPathComponent($0).path }
        try #require(!paths.isEmpty)
        let result = try Self.compare(["--quiet"] + paths)
        let verdicts = result.stdout.components(separatedBy: "\n").filter {
            ["AGREE ", "DIFFER ", "SKIP ", "ERROR "].contains(where: $0.hasPrefix)
        }
        #expect(verdicts.count == paths.count, "\(result.stdout)\n\(result.stderr)")
        for path in paths {
            #expect(verdicts.contains { $0.hasPrefix("AGREE \(path) (") }, "\(path)\n\(result.stdout)")
        }
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    }

    @Test("the main-queue rule is compared on the process's main thread: a default run with nothing in it sleeps there")
    func mainQueueRule() throws {
        let main = """
            scenario "main queue"
            thread main main
              run default for 100ms
            at 50ms on main
              mainqueue m
                work 10ms
            """
        // The same run on a secondary thread: an empty mode, finished at once.
        let secondary = """
            scenario "secondary"
            thread T
              run default for 100ms
            """
        let result = try Self.compare(
            ["main.loop", "secondary.loop"], files: ["main.loop": main, "secondary.loop": secondary])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("AGREE main.loop (13 steps)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("AGREE secondary.loop (2 steps)\n"), "\(result.stdout)")
        let onMain = Self.columns(result.stdout, after: "AGREE main.loop (13 steps)")
        #expect(
            onMain.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "mainQueue m", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit",
                "result timedOut",
            ], "\(result.stdout)")
        #expect(onMain.engine == onMain.reference)
        let onSecondary = Self.columns(result.stdout, after: "AGREE secondary.loop (2 steps)")
        #expect(onSecondary.reference == ["runStart default", "result finished"], "\(result.stdout)")
    }

    @Test("a main-queue block sent from another thread's program wakes the main thread's rash run: handledSource")
    func mainQueueFromAThread() throws {
        let scenario = """
            scenario "from a thread"
            thread main main
              run default for 200ms returnAfterSourceHandled
            thread worker
              work 40ms
              mainqueue m
                say "main: m ran"
            """
        let result = try Self.compare(["q.loop"], files: ["q.loop": scenario])
        let verdict = "AGREE q.loop (2 threads, each compared on its own: main 10 steps, worker 0 steps)"
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.hasPrefix(verdict + "\nthread main:\n"), "\(result.stdout)")
        let main = Self.columns(result.stdout, after: "thread main:")
        #expect(
            main.reference == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "mainQueue m", "note", "exit", "result handledSource",
            ], "\(result.stdout)")
    }
    #endif
}
