import Testing

@testable import loopviz

#if canImport(Glibc)
import Glibc
#endif

/// Every way `loopviz record` ends, in the words it prints and with the status it exits with: one row a case.
@Suite("loopviz record says how the program ended")
struct RecordOutcomeWordingTests {
    static let rows: [(RecordOutcome, String, Int32)] = [
        (
            .exited(program: "app", status: 3, path: "a.jsonl"),
            "loopviz: app exited with status 3; its main run loop is recorded in a.jsonl", 3
        ),
        (
            .ended(program: "app", signal: SIGSEGV, path: "a.jsonl"),
            "loopviz: app was ended by SIGSEGV; its main run loop up to then is recorded in a.jsonl", 139
        ),
        (
            .ended(program: "app", signal: 40, path: "a.jsonl"),
            "loopviz: app was ended by signal 40; its main run loop up to then is recorded in a.jsonl", 168
        ),
        (
            .timeLimit(program: "app", limit: .seconds(2), path: "a.jsonl"),
            "loopviz: app was still running at the time limit (2.000s) and was sent SIGTERM; its main run loop up to then is recorded in a.jsonl (--time-limit TIME records longer)",
            143
        ),
        (
            .quit(program: "app", end: .signaled(SIGTERM), path: "a.jsonl"),
            "loopviz: the UI was quit while app was running: it was sent SIGTERM and was ended by SIGTERM; its main run loop up to then is recorded in a.jsonl",
            143
        ),
        (
            .quit(program: "app", end: .exited(0), path: "a.jsonl"),
            "loopviz: the UI was quit while app was running: it was sent SIGTERM and exited with status 0; its main run loop up to then is recorded in a.jsonl",
            0
        ),
        (
            .notLoaded(program: "app"),
            "loopviz: error: app did not load the recorder: nothing was recorded (a statically linked or set-user-ID program ignores LD_PRELOAD)",
            4
        ),
        (
            .cannotStart(program: "app", errorNumber: ENOENT),
            "loopviz: error: cannot start app: No such file or directory", 127
        ),
        (
            .libraryMissing(path: "/x/libLoopRecorderPreload.so"),
            "loopviz: error: the recorder library /x/libLoopRecorderPreload.so is missing (`swift build` builds it beside loopviz)",
            2
        ),
    ]

    @Test("each outcome has its sentence and its exit status")
    func wording() {
        for (outcome, words, status) in Self.rows {
            #expect(outcome.words == words)
            #expect(outcome.status.rawValue == status)
        }
    }

    @Test("a program name or path with control characters is printed terminal-safe")
    func terminalSafe() {
        let outcome = RecordOutcome.exited(program: "a\u{1B}[2Jb", status: 0, path: "p")
        #expect(!outcome.words.contains("\u{1B}"))
    }
}
