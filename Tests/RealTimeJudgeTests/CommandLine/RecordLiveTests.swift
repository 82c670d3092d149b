import Foundation
import LoopEngine
import SnapshotSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `loopviz record --live` on a pseudo-terminal, as a person runs it: the UI follows the recording while the
/// program writes it; quitting (or a signal) ends a program still running, bounded, and keeps the recording; the
/// terminal is given back every time. Every wait is bounded (PtyProcess: 30 s for a screen, 10 s for an exit).
@Suite("loopviz record --live records and shows the recording at once", .timeLimit(.minutes(5)))
struct RecordLiveTests {
    typealias Folder = RecordCommandTests.Folder

    /// Types q (again if the first was taken by an overlay), waits for the end: status and standard error.
    static func quit(_ ui: PtyProcess) -> (status: Int32, stderr: String) {
        ui.type("q")
        if !ui.waitForExit() { ui.type("q") }
        guard ui.waitForExit() else {
            kill(ui.process.processIdentifier, SIGKILL)
            return (-1, "still running after q")
        }
        return ui.wait()
    }

    static func marks(in path: String) throws -> [String?] {
        let trace = try JSONLTraceReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: path))), maximumEvents: 100_000)
        return trace.events.filter { if case .mark = $0.fact { true } else { false } }.map(\.name)
    }

    @Test("record --live -- loopviz-sample: the UI shows the program end, q quits, the recording is in place")
    func sampleEndToEnd() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("sample.jsonl")
        let sample = RecordCommandTests.sample.path
        // The sample keeps a core busy for its 300 ms hang: the other real-time judges wait (RealTimeGate).
        let (status, stderr, modesBack, ended) = try RealTimeGate.exclusive {
            let ui = try PtyProcess(
                ["record", "--live", "-o", output, "--time-limit", "30s", "--", sample], in: folder.url)
            let ended = ui.waitForScreen(containing: "the program has ended")
            let (status, stderr) = Self.quit(ui)
            return (status, stderr, ui.modes == ui.initialModes, ended)
        }
        #expect(ended)
        #expect(status == 0)
        #expect(stderr == "loopviz: \(sample) exited with status 0; its main run loop is recorded in \(output)\n")
        #expect(modesBack, "the terminal is back in the modes it had")
        #expect(folder.names == ["sample.jsonl"])
        let (trace, hangs) = try RecordCommandTests.hangs(in: output)
        #expect(trace.header.recording?.process == "loopviz-sample")
        #expect(hangs.count == 1)
    }

    @Test("q while the program runs: it is sent SIGTERM, its recording kept, exit 143")
    func quitEndsTheProgram() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("sleep.jsonl")
        let ui = try PtyProcess(["record", "--live", "-o", output, "--", "/bin/sleep", "60"], in: folder.url)
        // The header read (the title names the process): the recorder runs in the program, and its SIGTERM handler
        // writes the signal's mark.
        #expect(ui.waitForScreen(containing: "sleep  (sleep.jsonl)"))
        let (status, stderr) = Self.quit(ui)
        #expect(status == 143)
        #expect(
            stderr
                == "loopviz: the UI was quit while /bin/sleep was running: it was sent SIGTERM and was ended by SIGTERM; its main run loop up to then is recorded in \(output)\n"
        )
        #expect(ui.modes == ui.initialModes)
        #expect(folder.names == ["sleep.jsonl"])
        #expect(try Self.marks(in: output) == ["LoopRecorder: the program received signal SIGTERM"])
    }

    @Test("a signal that ends the UI is passed on to the program: 128 + its number, the recording kept")
    func signalPassedOn() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let output = folder.path("sleep.jsonl")
        let ui = try PtyProcess(["record", "--live", "-o", output, "--", "/bin/sleep", "60"], in: folder.url)
        #expect(ui.waitForScreen(containing: "sleep  (sleep.jsonl)"))
        kill(ui.process.processIdentifier, SIGINT)
        #expect(ui.waitForExit())
        let (status, stderr) = ui.wait()
        #expect(status == 130)
        #expect(
            stderr
                == "loopviz: /bin/sleep was ended by SIGINT; its main run loop up to then is recorded in \(output)\n")
        #expect(ui.modes == ui.initialModes)
        #expect(try Self.marks(in: output) == ["LoopRecorder: the program received signal SIGINT"])
    }

    @Test("--live with -o naming a device refuses, exit 2, before starting the program", arguments: ["/dev/null", "-"])
    func deviceRefused(output: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let ui = try PtyProcess(["record", "--live", "-o", output, "--", "/bin/touch", "started"], in: folder.url)
        #expect(ui.waitForExit())
        let (status, stderr) = ui.wait()
        #expect(status == 2)
        #expect(
            stderr
                == "loopviz: error: --live follows the recording as a file: -o \(output) must name a regular file or a new one (not standard output, a device or a FIFO)\nSee 'loopviz record --help'.\n"
        )
        #expect(folder.names.isEmpty)
    }
}
