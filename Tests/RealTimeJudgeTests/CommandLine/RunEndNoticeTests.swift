import Foundation
import SnapshotSupport
import Testing

/// A run that did not end by itself says why: the virtual clock's default horizon, and `compare` of a wait that
/// nothing can end, which stops the real side soon after the engine's instead of at its 65 s time limit.
@Suite("a run that stops without ending says why", .serialized)
struct RunEndNoticeTests {
    static let forever = """
        scenario "a timer for ever"
        thread T
          timer t at 1ms every 20s
          run default forever
        """

    @Test("run: the default 60 s horizon ends a scenario still running with a note on standard error, exit 0")
    func horizonNote() throws {
        let result = try LoopvizProcess.run(["run", "forever.loop"], files: ["forever.loop": Self.forever])
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "loopviz: note: forever.loop: the scenario was still running when the virtual clock reached 60 s, "
                + "the default horizon; the run ended there (`until DURATION` in the file or --until DURATION runs "
                + "longer)\n")
        #expect(result.stdout.contains("default  timer          t\n"))
    }

    @Test("run: a horizon the file or --until chose ends the run quietly")
    func chosenHorizonIsQuiet() throws {
        let file = Self.forever.replacingOccurrences(of: "thread T", with: "until 2s\nthread T")
        let inFile = try LoopvizProcess.run(["run", "f.loop"], files: ["f.loop": file])
        #expect(inFile.status == 0 && inFile.stderr.isEmpty, "\(inFile.stderr)")
        let byOption = try LoopvizProcess.run(["run", "f.loop", "--until", "2s"], files: ["f.loop": Self.forever])
        #expect(byOption.status == 0 && byOption.stderr.isEmpty, "\(byOption.stderr)")
    }

    @Test("check: the default 60 s horizon's note goes to standard error beside the file's verdict, exit 0")
    func checkHorizonNote() throws {
        let file = Self.forever + "\nexpect in order\n  timer t\n"
        let result = try LoopvizProcess.run(["check", "forever.loop"], files: ["forever.loop": file])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "PASS forever.loop (1 expect line in 1 section, 27 events)\n")
        #expect(
            result.stderr
                == "loopviz: note: forever.loop: the scenario was still running when the virtual clock reached 60 s, "
                + "the default horizon; the run ended there (`until DURATION` in the file or --until DURATION runs "
                + "longer)\n")
    }

    @Test("check: a horizon the file chose ends the run quietly")
    func checkChosenHorizonIsQuiet() throws {
        let file =
            Self.forever.replacingOccurrences(of: "thread T", with: "until 2s\nthread T")
            + "\nexpect in order\n  timer t\n"
        let result = try LoopvizProcess.run(["check", "f.loop"], files: ["f.loop": file])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout == "PASS f.loop (1 expect line in 1 section, 13 events)\n")
    }

    #if os(Linux)
    @Test("compare: two threads that perform on each other and wait agree at once, the notes say both hang")
    func compareDeadlock() throws {
        let deadlock = """
            scenario "two threads wait for each other"
            thread A
              port pa
              perform x on B wait
              run default for 1s
            thread B
              port pb
              perform y on A wait
              run default for 1s
            """
        let started = Date()
        let result = try RealTimeGate.exclusive {
            try LoopvizProcess.run(["compare", "--quiet", "d.loop"], files: ["d.loop": deadlock])
        }
        #expect(Date().timeIntervalSince(started) < 30, "the real side is stopped soon after the engine's end")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("AGREE d.loop (2 threads, each compared on its own: A 0 steps, B 0 steps)"))
        #expect(
            result.stderr
                == "loopviz: note: d.loop: thread A never returns from `perform x on B wait` (waitUntilDone:YES): the "
                + "loop of B never runs x; the run ended there\n"
                + "loopviz: note: d.loop: thread B never returns from `perform y on A wait` (waitUntilDone:YES): the "
                + "loop of A never runs y; the run ended there\n")
    }

    @Test("compare: a wait for a suspended queue agrees at once with Foundation's, the note says it hangs")
    func compareStuckQueue() throws {
        let stuck = """
            scenario "a wait on a suspended queue"
            queue q suspended
            thread T
              operation a on q work 1ms
              wait for q
            """
        let started = Date()
        let result = try RealTimeGate.exclusive {
            try LoopvizProcess.run(["compare", "--quiet", "q.loop"], files: ["q.loop": stuck])
        }
        #expect(Date().timeIntervalSince(started) < 30, "Foundation's side is stopped soon after the engine's end")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "AGREE q.loop (1 operations on Foundation's OperationQueue)\n")
        #expect(
            result.stderr
                == "loopviz: note: q.loop: thread T never returns from `wait for q` (waitUntilAllOperationsAreFinished): "
                + "nothing left can finish queue q's operations; the run ended there\n")
    }
    #endif
}
