import Foundation
import LoopEngine
import Testing

@testable import loopviz

#if canImport(Glibc)
import Glibc
#endif

/// docs/limits.md, "Files are never lost": every file loopviz writes — `-o`, `--record`'s cast, `fuzz --out` —
/// follows one rule (audit D4–D6): never onto an input, a regular file through a temporary file renamed into
/// place only when it is whole, a link followed, a device or FIFO written into and never replaced, a write error
/// a message and a non-zero status with the old file kept, and every signal that ends the process a clean end.
@Suite("files are never lost")
struct FilesNeverLostTests {
    static let good = SampleScenarios.good
    /// Frames that differ from one another, as a cast records them (the screens' content does not matter here).
    static func frames(_ count: Int, width: Int = 80, height: Int = 24) -> [Screen] {
        (0..<count).map { index in
            var screen = Screen(width: width, height: height)
            screen.put("frame \(index)", x: 0, y: 0)
            return screen
        }
    }

    static let isRoot = getuid() == 0

    /// A recorder on `path` with a clock that moves half a second a frame.
    static func recorder(_ path: String, inputs: [String] = []) throws -> AsciicastRecorder {
        var now = 0.0
        return try AsciicastRecorder(
            path: path, inputs: inputs, title: "loopviz t.loop", environment: [], timestamp: 1_700_000_000,
            clock: {
                now += 0.5
                return now
            })
    }

    /// A device number (glibc's `makedev`, a macro Swift does not import, for small numbers).
    static func device(_ major: UInt, _ minor: UInt) -> dev_t { dev_t(major << 8 | minor) }

    static func type(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    // MARK: --record (D4, D5)

    @Test(
        "--record naming the scenario played, however spelled, is refused with exit 2 and the lesson untouched",
        arguments: ["x.loop", "./x.loop", "missing/../x.loop", "link.loop", "hard.loop"])
    func recordOntoTheInput(_ spelling: String) throws {
        let folder = try BoundsFolder(["x.loop": Self.good])
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("link.loop").path, withDestinationPath: "x.loop")
        try FileManager.default.linkItem(
            at: folder.url.appendingPathComponent("x.loop"), to: folder.url.appendingPathComponent("hard.loop"))
        let result = try folder.run(["x.loop", "--record", spelling])
        #expect(result.status == 2)
        let same = spelling == "x.loop" ? "" : " (x.loop)"
        #expect(
            result.stderr == "loopviz: error: --record \(spelling) is an input file\(same); it would be overwritten\n")
        #expect(try folder.read("x.loop") == Self.good)
        #expect(folder.names == ["hard.loop", "link.loop", "x.loop"])
    }

    @Test("--record naming a lesson of the playlist (a folder opened in the picker) is refused too")
    func recordOntoALessonOfTheFolder() throws {
        let folder = try BoundsFolder(["a.loop": Self.good, "b.loop": Self.good])
        defer { folder.remove() }
        let result = try folder.run([".", "--record", "b.loop"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("loopviz: error: --record b.loop is an input file ("))
        #expect(try folder.read("b.loop") == Self.good)
    }

    @Test("--record - is refused: standard output is the UI's terminal")
    func recordToStandardOutput() throws {
        let result = try LoopvizProcess.run(["x.loop", "--record", "-"], files: ["x.loop": Self.good])
        #expect(result.status == 2)
        #expect(
            result.stderr == "loopviz: error: --record -: the terminal is the UI's; name a file such as lesson.cast\n")
    }

    @Test("without a terminal the UI does not start, and the old cast is kept with no temporary file left")
    func recordWithoutATerminal() throws {
        let folder = try BoundsFolder(["x.loop": Self.good, "old.cast": "old cast\n"])
        defer { folder.remove() }
        let result = try folder.run(["x.loop", "--record", "old.cast"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("loopviz: cannot start the interactive UI: "))
        #expect(try folder.read("old.cast") == "old cast\n")
        #expect(folder.names == ["old.cast", "x.loop"])
    }

    @Test("a cast through a symbolic link replaces the file it leads to, and the link stays a link")
    func recordThroughALink() throws {
        let folder = try BoundsFolder(["target.cast": "old cast\n"])
        defer { folder.remove() }
        let link = folder.url.appendingPathComponent("link.cast").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.cast")
        let recorder = try Self.recorder(link)
        for screen in Self.frames(2) { recorder.record(screen) }
        let outcome = recorder.finish()
        #expect(!outcome.failed && outcome.message.hasPrefix("loopviz: recorded 2 frames, "))
        #expect(Self.type(link) == .typeSymbolicLink)
        let cast = try folder.read("target.cast")
        #expect(cast.hasPrefix("{\"version\": 2, ") && cast.split(separator: "\n").count == 3)
        #expect(folder.names == ["link.cast", "target.cast"])
    }

    @Test("a write error stops the cast: the status bar says why, the old file is kept, the end is a failure")
    func recordWriteErrorKeepsTheOldFile() throws {
        let folder = try BoundsFolder(["x.cast": "old cast\n"])
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("x.cast").path
        let recorder = try Self.recorder(path)
        let frames = Self.frames(3)
        #expect(recorder.record(frames[0]) == nil)
        // What a full disk does to the next write(2), at the writer's one point of failure.
        recorder.output.writer.fail(ENOSPC)
        #expect(recorder.record(frames[1]) == "recording stopped: cannot write \(path): No space left on device")
        #expect(recorder.record(frames[2]) == nil)
        #expect(
            recorder.finish()
                == AsciicastRecorder.Outcome(
                    message:
                        "loopviz: error: cannot write \(path): No space left on device; the recording is not kept, \(path) is as it was",
                    failed: true))
        #expect(try folder.read("x.cast") == "old cast\n")
        #expect(folder.names == ["x.cast"])
    }

    @Test("a cast into a FIFO is streamed to its reader, and the FIFO stays a FIFO")
    func recordIntoAFIFO() throws {
        let folder = try BoundsFolder([:])
        defer { folder.remove() }
        let fifo = folder.url.appendingPathComponent("cast.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader first, so that opening the FIFO for writing does not wait for one.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        _ = fcntl(reader, F_SETFL, 0)
        // A writer of the test's own until the cast is finished: the reader sees no end of file before it.
        let keeper = open(fifo, O_WRONLY | O_NONBLOCK)
        let received = Locked(Data())
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(reader, &buffer, buffer.count)
                guard count > 0 else { break }
                received.withLock { $0.append(contentsOf: buffer[0..<count]) }
            }
            finished.signal()
        }
        let recorder = try Self.recorder(fifo)
        #expect(recorder.temporaryPath == nil)
        for screen in Self.frames(2) { recorder.record(screen) }
        #expect(!recorder.finish().failed)
        close(keeper)
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let cast = received.withLock { String(decoding: $0, as: UTF8.self) }
        #expect(cast.hasPrefix("{\"version\": 2, ") && cast.split(separator: "\n").count == 3)
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test(
        "a cast into a device is written into it, never replaced: /dev/null's twin takes it, /dev/full's fails (root: nodes made with mknod in a temporary folder, never the real /dev)",
        .enabled(if: isRoot))
    func recordIntoADevice() throws {
        let folder = try BoundsFolder([:])
        defer { folder.remove() }
        let null = folder.url.appendingPathComponent("null").path
        let full = folder.url.appendingPathComponent("full").path
        #expect(mknod(null, S_IFCHR | 0o666, Self.device(1, 3)) == 0)
        #expect(mknod(full, S_IFCHR | 0o666, Self.device(1, 7)) == 0)
        let intoNull = try Self.recorder(null)
        #expect(intoNull.temporaryPath == nil)
        for screen in Self.frames(2) { intoNull.record(screen) }
        #expect(!intoNull.finish().failed)
        let intoFull = try Self.recorder(full)
        #expect(
            intoFull.record(Self.frames(1)[0])
                == "recording stopped: cannot write \(full): No space left on device")
        #expect(
            intoFull.finish()
                == AsciicastRecorder.Outcome(
                    message: "loopviz: error: cannot write \(full): No space left on device", failed: true))
        for node in [null, full] {
            var info = stat()
            #expect(lstat(node, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "\(node) is still a device")
        }
        #expect(folder.names == ["full", "null"])
    }

    // MARK: the UI on a terminal (D5, D6)

    @Test(
        "every signal that ends a process ends the UI with 128 + its number, the terminal's modes given back, the cast kept",
        arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ])
    func signalEndsTheUI(_ signal: Int32) throws {
        let folder = try BoundsFolder(["x.loop": Self.good, "old.cast": "old cast\n"])
        defer { folder.remove() }
        let ui = try PtyProcess(["x.loop", "--record", "old.cast"], in: folder.url)
        #expect(ui.waitForScreen(containing: "loopviz"))
        kill(ui.process.processIdentifier, signal)
        let (status, stderr) = ui.wait()
        #expect(status == 128 + signal)
        #expect(ui.modes == ui.initialModes, "the terminal is back in the modes it had")
        #expect(stderr.hasPrefix("loopviz: recorded "))
        #expect(try folder.read("old.cast").hasPrefix("{\"version\": 2, "))
        #expect(folder.names == ["old.cast", "x.loop"])
    }

    @Test("a cast past the file size limit (ulimit -f): SIGXFSZ ends the UI with 153, the old cast kept")
    func castPastTheFileSizeLimit() throws {
        let folder = try BoundsFolder(["x.loop": Self.good, "old.cast": "old cast\n"])
        defer { folder.remove() }
        let ui = try PtyProcess(["x.loop", "--record", "old.cast"], in: folder.url, shell: "ulimit -f 8;")
        let (status, stderr) = ui.wait()
        #expect(status == 153)
        #expect(ui.modes == ui.initialModes)
        #expect(stderr.hasPrefix("loopviz: error: cannot write old.cast: File too large; the recording is not kept"))
        #expect(try folder.read("old.cast") == "old cast\n")
        #expect(folder.names == ["old.cast", "x.loop"])
    }

    @Test("a cast that cannot be written with SIGXFSZ ignored: the UI says so, quits with exit 2, the old cast kept")
    func castWriteErrorEndsWithStatus2() throws {
        let folder = try BoundsFolder(["x.loop": Self.good, "old.cast": "old cast\n"])
        defer { folder.remove() }
        let ui = try PtyProcess(
            ["x.loop", "--record", "old.cast"], in: folder.url, shell: "trap '' XFSZ; ulimit -f 8;")
        #expect(ui.waitForScreen(containing: "recording stopped: cannot write old.cast: File too large"))
        ui.type("q")
        if !ui.waitForExit() { ui.type("q") }
        let (status, stderr) = ui.wait()
        #expect(status == 2)
        #expect(
            stderr
                == "loopviz: error: cannot write old.cast: File too large; the recording is not kept, old.cast is as it was\n"
        )
        #expect(try folder.read("old.cast") == "old cast\n")
        #expect(folder.names == ["old.cast", "x.loop"])
    }

    // MARK: headless (D6)

    @Test(
        "every signal that ends a process ends a headless run with 128 + its number, the old -o file kept",
        arguments: TerminationSignals.all)
    func signalEndsAHeadlessRun(_ signal: Int32) throws {
        let folder = try BoundsFolder(["runaway.loop": SignalCommandTests.runaway, "out.txt": "old\n"])
        defer { folder.remove() }
        let (process, _, err) = try folder.start(["run", "runaway.loop", "--max-events", "10000000", "-o", "out.txt"])
        var waited = 0
        while !folder.names.contains(where: { $0.hasPrefix(".out.txt.loopviz-") }) && waited < 2_000 {
            usleep(5_000)
            waited += 1
        }
        #expect(folder.names.contains { $0.hasPrefix(".out.txt.loopviz-") })
        kill(process.processIdentifier, signal)
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signal)
        #expect(error.isEmpty)
        #expect(try folder.read("out.txt") == "old\n")
        #expect(folder.names == ["out.txt", "runaway.loop"])
    }

    @Test("the CPU time limit (ulimit -t) ends a run with 152 (SIGXCPU), the old -o file kept")
    func cpuTimeLimit() throws {
        let folder = try BoundsFolder(["runaway.loop": SignalCommandTests.runaway, "out.txt": "old\n"])
        defer { folder.remove() }
        let result = try Self.shell(
            "ulimit -S -t 1;", ["run", "runaway.loop", "--max-events", "10000000", "-o", "out.txt"], in: folder)
        #expect(result.status == 152)
        #expect(try folder.read("out.txt") == "old\n")
        #expect(folder.names == ["out.txt", "runaway.loop"])
    }

    @Test(
        "the file size limit (ulimit -f) ends a run with 153 (SIGXFSZ), or with exit 4 when SIGXFSZ is ignored; the old -o file kept",
        arguments: [("", 153), ("trap '' XFSZ;", 4)] as [(String, Int32)])
    func fileSizeLimit(_ trap: String, _ status: Int32) throws {
        let folder = try BoundsFolder(["runaway.loop": SignalCommandTests.runaway, "out.txt": "old\n"])
        defer { folder.remove() }
        let result = try Self.shell(
            "\(trap) ulimit -f 8;", ["run", "runaway.loop", "--max-events", "100000", "-o", "out.txt"], in: folder)
        #expect(result.status == status)
        #expect(result.stderr == (status == 4 ? "loopviz: error: cannot write out.txt: File too large\n" : ""))
        #expect(try folder.read("out.txt") == "old\n")
        #expect(folder.names == ["out.txt", "runaway.loop"])
    }

    /// loopviz (or `executable`) run by `/bin/sh -c "PREFIX exec loopviz ARGUMENTS"` in `folder` (a limit set
    /// first).
    static func shell(
        _ prefix: String, _ arguments: [String], in folder: BoundsFolder,
        executable: URL = LoopvizProcess.executable
    ) throws -> LoopvizProcess.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(prefix) exec \"$@\"", "sh", executable.path] + arguments
        process.currentDirectoryURL = folder.url
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return LoopvizProcess.Result(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: error, as: UTF8.self))
    }

    @Test("a signal ends the bench with 128 + its number, its child run ended first and its temporary folder removed")
    func signalEndsTheBench() throws {
        let folder = try BoundsFolder([:])
        defer { folder.remove() }
        let process = Process()
        process.executableURL = LoopvizProcess.executable
        process.arguments = ["bench", "--workload", "run-jsonl", "--events", "10000000"]
        process.environment = ["TMPDIR": folder.url.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The child `loopviz run … -o trace.jsonl` is writing once its temporary file is there.
        func childWrites() -> Bool {
            folder.names.contains { name in
                let inside = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path + "/" + name)) ?? []
                return inside.contains { $0.hasPrefix(".trace.jsonl.loopviz-") }
            }
        }
        var waited = 0
        while !childWrites() && waited < 3_000 {
            usleep(10_000)
            waited += 1
        }
        #expect(childWrites())
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(folder.names == [])
    }

    // MARK: LoopRecorder (D7)

    @Test("a recording cut short by the file size limit (ulimit -f) holds only complete lines, counted in its header")
    func recordingPastTheFileSizeLimitReads() throws {
        let folder = try BoundsFolder([:])
        defer { folder.remove() }
        let demo = LoopvizProcess.executable.deletingLastPathComponent().appendingPathComponent("loopviz-demo")
        // SIGXFSZ ignored, as a program that records itself may have it: the write fails (EFBIG) past 4 KiB.
        let result = try Self.shell("trap '' XFSZ; ulimit -f 8;", ["demo.jsonl"], in: folder, executable: demo)
        #expect(result.status == 4, "the demo says its recording failed")
        let bytes = Array(try Data(contentsOf: folder.url.appendingPathComponent("demo.jsonl")))
        #expect(bytes.count <= 4096 && bytes.last == 0x0A)
        let trace = try JSONLTraceReader.read(bytes, maximumEvents: 100_000)
        #expect(trace.events.count > 10 && trace.header.events == trace.events.count)
        #expect(trace.events.count + 1 == bytes.split(separator: 0x0A).count)
        let hangs = try folder.run(["hangs", "demo.jsonl"])
        #expect(hangs.status == 0 && hangs.stderr == "")
    }

    // MARK: fuzz --out

    @Test("fuzz --out's files follow -o's rule: through a link its target is replaced whole, the link kept")
    func fuzzOutputThroughALink() throws {
        let folder = try BoundsFolder(["target.loop": "old\n"])
        defer { folder.remove() }
        let link = folder.url.appendingPathComponent("fuzz-1-0.loop").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.loop")
        #expect(OutputFile.write("scenario \"x\"\n", to: link) == nil)
        #expect(try folder.read("target.loop") == "scenario \"x\"\n")
        #expect(Self.type(link) == .typeSymbolicLink)
        #expect(folder.names == ["fuzz-1-0.loop", "target.loop"])
        let failure = OutputFile.write("x", to: folder.url.appendingPathComponent("none/x.loop").path)
        #expect(failure?.status == .writeError)
    }
}
