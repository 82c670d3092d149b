import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

#if canImport(Glibc)
import Glibc
#endif

/// `record --live` without the UI: a fake recorder (a shell script started as `record --live` starts a program,
/// writing the fixture's lines into the file it is given) feeds the temporary file, which is renamed into place
/// once the program ends, while the feed reads on; quitting ends a program still running, bounded.
@Suite("record --live: the recording followed while the program writes it", .timeLimit(.minutes(1)))
struct LiveRecordingTests {
    /// A folder for the recording, and one for the fake recorder's parts (so the first lists the recording alone).
    struct Folders {
        let recording = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        let parts = FileManager.default.temporaryDirectory.appendingPathComponent("live-parts-\(UUID().uuidString)")
        init() throws {
            try FileManager.default.createDirectory(at: recording, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        }
        func remove() {
            try? FileManager.default.removeItem(at: recording)
            try? FileManager.default.removeItem(at: parts)
        }
        var names: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: recording.path)) ?? []).sorted()
        }
        var output: String { recording.appendingPathComponent("app.jsonl").path }
        func part(_ name: String) -> String { parts.appendingPathComponent(name).path }
    }

    /// Starts `script` (`/bin/sh -c`) as `record --live` starts a program, recording into `-o` of `folders`; the
    /// library named does not exist (the dynamic linker's complaint goes to /dev/null with the program's output).
    static func start(
        _ script: String, _ folders: Folders, limit: Duration = .seconds(30), grace: Duration = .seconds(5)
    ) throws -> LiveRecording {
        guard case .success(let file) = OutputFile.open(folders.output, inputs: []), let temporary = file.temporaryPath
        else { throw POSIXError(.EIO) }
        let feed = try FollowFeed(path: temporary)
        guard
            case .success(let pid) = RecordedChild.spawn(
                ["/bin/sh", "-c", script], library: folders.part("no-library.so"), recording: temporary,
                detached: true)
        else { throw POSIXError(.ENOEXEC) }
        return LiveRecording(
            feed: feed, watch: RecordedChild.Watch(pid: pid, limit: limit, grace: grace), file: file,
            output: folders.output)
    }

    /// Looks (every 10 ms, at most 10 s) until `done` holds for the batches taken so far; the batches.
    static func look(_ recording: LiveRecording, until done: ([FollowBatch]) -> Bool) -> [FollowBatch] {
        var batches: [FollowBatch] = []
        for _ in 0..<1000 {
            if case .followed(let batch) = recording.take() { batches.append(batch) }
            if done(batches) { break }
            usleep(10_000)
        }
        return batches
    }

    static func events(_ batches: [FollowBatch]) -> [LoopEvent] { batches.flatMap(\.events) }

    /// Every event of the finished recording, as the whole-file reader reads them.
    static var fixtureEvents: [LoopEvent] {
        Array(try! JSONLTraceReader.read(RecordingFixture.finished, maximumEvents: 1000).events)
    }

    /// Opens the FIFO for writing (waiting at most 10 s for its reader) and closes it: the script's `read` ends.
    static func release(_ fifo: String) {
        for _ in 0..<1000 {
            let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 {
                _ = write(descriptor, "go\n", 3)
                close(descriptor)
                return
            }
            usleep(10_000)
        }
    }

    @Test("the temporary file is read while the program writes it; once it ends, the file renamed into place")
    func temporaryThenRenamed() throws {
        let folders = try Folders()
        defer { folders.remove() }
        let lines = RecordingFixture.eventLines
        try Data(RecordingFixture.recordingHeader + lines[..<3].flatMap { $0 }).write(
            to: URL(fileURLWithPath: folders.part("first")))
        try Data(lines[3...].flatMap { $0 }).write(to: URL(fileURLWithPath: folders.part("rest")))
        try Data(RecordingFixture.finishedHeader).write(to: URL(fileURLWithPath: folders.part("header")))
        let fifo = folders.part("go")
        #expect(mkfifo(fifo, 0o600) == 0)
        let script = """
            cat '\(folders.part("first"))' > "$LOOPVIZ_RECORD_FILE"; read go < '\(fifo)'
            cat '\(folders.part("rest"))' >> "$LOOPVIZ_RECORD_FILE"
            dd if='\(folders.part("header"))' of="$LOOPVIZ_RECORD_FILE" conv=notrunc status=none
            """
        let recording = try Self.start(script, folders)
        let first = Self.look(recording) { Self.events($0).count == 3 }
        #expect(first.first?.header?.recording?.thread == "main")
        #expect(Self.events(first) == Array(Self.fixtureEvents[..<3]))
        #expect(!first.contains { $0.ended })
        // Only the temporary file exists while the program runs: the user's path is untouched.
        #expect(folders.names.count == 1 && folders.names[0].hasPrefix(".app.jsonl.loopviz-"))
        Self.release(fifo)
        // The header may say the recording ended a moment before the program has exited (it stops in `atexit`):
        // the looks go on until the program is reaped too.
        let rest = Self.look(recording) { $0.contains { $0.ended } && recording.ending != nil }
        #expect(Self.events(rest) == Array(Self.fixtureEvents[3...]))
        #expect(rest.last?.ended == true && rest.allSatisfy { $0.problem == nil })
        #expect(recording.ending == .exited(0) && recording.kept == .committed && !recording.endedByQuit)
        #expect(folders.names == ["app.jsonl"])
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folders.output))) == RecordingFixture.finished)
        #expect(recording.take() == nil)
    }

    @Test("quitting while the program runs sends it SIGTERM and waits for it; the recording is kept")
    func quitEndsTheProgram() throws {
        let folders = try Folders()
        defer { folders.remove() }
        try Data(RecordingFixture.recordingHeader).write(to: URL(fileURLWithPath: folders.part("header")))
        let recording = try Self.start(
            "cat '\(folders.part("header"))' > \"$LOOPVIZ_RECORD_FILE\"; exec sleep 60", folders)
        _ = Self.look(recording) { $0.contains { $0.header != nil } }
        #expect(recording.finish(endedBy: nil) == .signaled(SIGTERM))
        #expect(recording.endedByQuit && recording.kept == .committed)
        #expect(folders.names == ["app.jsonl"])
        // The header was never rewritten (sleep is no recorder): the writer's end ends following.
        #expect(Self.look(recording) { !$0.isEmpty } == [FollowBatch(ended: true)])
    }

    @Test("quitting after the recording said it is complete lets the exiting program end on its own: no signal")
    func quitAfterTheEnd() throws {
        let folders = try Folders()
        defer { folders.remove() }
        try Data(RecordingFixture.finishedHeader).write(to: URL(fileURLWithPath: folders.part("header")))
        // The header rewritten, then a moment (the rest of `exit`) before the process ends.
        let recording = try Self.start(
            "cat '\(folders.part("header"))' > \"$LOOPVIZ_RECORD_FILE\"; sleep 0.3; exit 0", folders)
        _ = Self.look(recording) { $0.contains { $0.ended } }
        #expect(recording.finish(endedBy: nil) == .exited(0))
        #expect(!recording.endedByQuit && recording.kept == .committed)
    }

    @Test("a program that ignores SIGTERM is killed with SIGKILL a grace later")
    func ignoredTermIsKilled() throws {
        let folders = try Folders()
        defer { folders.remove() }
        try Data(RecordingFixture.recordingHeader).write(to: URL(fileURLWithPath: folders.part("header")))
        let recording = try Self.start(
            "trap '' TERM; cat '\(folders.part("header"))' > \"$LOOPVIZ_RECORD_FILE\"; exec sleep 60", folders,
            grace: .milliseconds(200))
        _ = Self.look(recording) { $0.contains { $0.header != nil } }
        #expect(recording.finish(endedBy: nil) == .signaled(SIGKILL))
        #expect(recording.kept == .committed && folders.names == ["app.jsonl"])
    }

    @Test("the time limit is kept while the UI looks: SIGTERM then, the recording renamed into place, following ended")
    func timeLimit() throws {
        let folders = try Folders()
        defer { folders.remove() }
        try Data(RecordingFixture.recordingHeader).write(to: URL(fileURLWithPath: folders.part("header")))
        let recording = try Self.start(
            "cat '\(folders.part("header"))' > \"$LOOPVIZ_RECORD_FILE\"; exec sleep 60", folders,
            limit: .milliseconds(200))
        let batches = Self.look(recording) { $0.contains { $0.ended } }
        #expect(batches.first?.header != nil && batches.last == FollowBatch(ended: true))
        #expect(recording.ending == .timeLimit && recording.kept == .committed && !recording.endedByQuit)
        #expect(recording.finish(endedBy: nil) == .timeLimit)
        #expect(folders.names == ["app.jsonl"])
    }

    @Test("the UI's signal is passed on instead of SIGTERM")
    func signalPassedOn() throws {
        let folders = try Folders()
        defer { folders.remove() }
        try Data(RecordingFixture.recordingHeader).write(to: URL(fileURLWithPath: folders.part("header")))
        let recording = try Self.start(
            "cat '\(folders.part("header"))' > \"$LOOPVIZ_RECORD_FILE\"; exec sleep 60", folders)
        _ = Self.look(recording) { $0.contains { $0.header != nil } }
        #expect(recording.finish(endedBy: SIGHUP) == .signaled(SIGHUP))
    }

    @Test("a program that records nothing: following says so, and no file is left")
    func nothingRecorded() throws {
        let folders = try Folders()
        defer { folders.remove() }
        let recording = try Self.start("exit 3", folders)
        #expect(Self.look(recording) { !$0.isEmpty } == [FollowBatch(problem: .nothingRecorded)])
        #expect(recording.ending == .exited(3) && recording.kept == .nothingRecorded)
        #expect(folders.names.isEmpty)
    }
}
