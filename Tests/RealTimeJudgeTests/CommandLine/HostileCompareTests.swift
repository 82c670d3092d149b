import Foundation
import Testing

/// `loopviz compare` on a hostile lesson (`HostileLesson`, shared with the deterministic suite's
/// `HostileOutputTests`): its verdicts, which run Foundation's OperationQueue and the real CFRunLoop, show every
/// control sequence as an escape.
@Suite("hostile scenario files: compare's output is terminal-safe", .timeLimit(.minutes(15)))
struct HostileCompareTests {
    let name = HostileLesson.fileName
    let shown = HostileLesson.shownFileName

    static func compare(_ name: String, _ text: String) throws -> LoopvizProcess.Result {
        try LoopvizProcess.run(["compare", name], bytes: [name: Array(text.utf8)])
    }

    @Test("compare (Foundation's OperationQueue): a hostile say text in the pool events is shown as escapes")
    func comparePool() throws {
        let result = try Self.compare(name, HostileLesson.pool)
        #expect(!HostileLesson.hasUnsafe(result.stdout + result.stderr), "\(HostileLesson.unsafe(result.stdout))")
        #expect(result.stdout.hasPrefix("AGREE \(shown) (1 operations on Foundation's OperationQueue)\n"))
        let note = "note (pool \(HostileLesson.shownSequences))"
        #expect(result.stdout.components(separatedBy: note).count == 3, "both sides list the note")
    }

    #if os(Linux)
    @Test("compare (the real CFRunLoop): the verdict names the hostile file with escapes")
    func compareLoop() throws {
        let result = try Self.compare(name, HostileLesson.loop)
        #expect(!HostileLesson.hasUnsafe(result.stdout + result.stderr), "\(HostileLesson.unsafe(result.stdout))")
        // Real threads may be late under load: the verdict may be either, its line is what is checked here.
        let first = result.stdout.prefix { $0 != "\n" }
        #expect(first.hasPrefix("AGREE \(shown) (") || first.hasPrefix("DIFFER \(shown): "), "\(first)")
    }
    #endif
}
