import LoopEngine
import Testing

@testable import loopviz

/// A recording of every thread's loop (`record --all-threads`) replayed: a lane per thread, the header's words
/// counting them, and no more lanes than the thread limit whatever the file holds.
@Suite("replaying a recording of several threads' loops")
struct ReplayThreadsTests {
    static let header =
        #"{"format":"loopviz-trace","version":1,"scenario":"app","clock":"real","recorded":{"process":"app","pid":12,"thread":"main"},"events":null}"#

    static func line(_ time: String, _ thread: String, _ kind: String, iteration: Int = 0) -> String {
        #"{"t":\#(time),"thread":"\#(thread)","depth":1,"mode":"default","iteration":\#(iteration),"kind":"\#(kind)","name":null,"detail":null}"#
    }

    static func session(_ lines: [String]) throws -> Session {
        let text = ([header] + lines).joined(separator: "\n") + "\n"
        return Session(replay: try JSONLTraceReader.read(Array(text.utf8), maximumEvents: 100_000))
    }

    @Test("two threads: a lane each, in the order they first appear, and the header says 2 threads")
    func laneEach() throws {
        let session = try Self.session([
            Self.line("0.001", "main", "entry"), Self.line("0.002", "worker", "entry"),
            Self.line("0.003", "main", "beforeTimers", iteration: 1),
            Self.line("0.004", "worker", "beforeTimers", iteration: 1),
        ])
        #expect(session.snapshots(after: session.trace.count).map(\.thread) == ["main", "worker"])
        #expect(
            session.script.header == [
                "A trace, recorded from app (pid 12), 2 threads: a read-only replay (pokes are unavailable)."
            ])
    }

    @Test("one thread: the header names it")
    func oneThread() throws {
        let session = try Self.session([Self.line("0.001", "main", "entry")])
        #expect(
            session.script.header == [
                "A trace, recorded from app (pid 12), thread main: a read-only replay (pokes are unavailable)."
            ])
    }

    @Test("more threads than lanes: the lanes shown, labels cut in the middle, and how many more under them")
    func hiddenLanes() throws {
        let lines = (0..<6).map { Self.line("0.00\($0 + 1)", "thread 3034\($0)", "entry") }
        var model = AppModel(session: try Self.session(lines), fileName: "app.jsonl")
        _ = updateInline(&model, .resize(width: 80, height: 24))
        _ = updateInline(&model, .key(.end))
        let screen = render(model).lines
        let lanes = screen.filter { $0.hasPrefix("thre…") }.map { String($0.prefix(9)) }
        #expect(lanes.count == 4 && Set(lanes).count == 4)
        #expect(screen.contains { $0.hasPrefix("+2 more   0s") })
    }

    @Test("End in a recording replayed whole goes to its last step")
    func endGoesToTheLastStep() throws {
        let lines = (0..<6).map { Self.line("0.00\($0 + 1)", "main", $0 == 0 ? "entry" : "beforeTimers") }
        var model = AppModel(session: try Self.session(lines), fileName: "app.jsonl")
        _ = updateInline(&model, .resize(width: 80, height: 24))
        #expect(model.cursor < 6)
        _ = updateInline(&model, .key(.end))
        #expect(model.cursor == 6)
    }

    @Test("a recording's status bar offers the keys that read it, none that poke")
    func statusBarWithoutPokes() throws {
        var model = AppModel(session: try Self.session([Self.line("0.001", "main", "entry")]), fileName: "app.jsonl")
        _ = updateInline(&model, .resize(width: 132, height: 43))
        _ = updateInline(&model, .key(.character(" ")))
        let status = render(model).lines.last ?? ""
        #expect(
            status.hasSuffix("? help  q quit  Space play/pause  n/p step  t thread  g go to  / search"), "\(status)")
    }

    @Test("a log row whose text escapes control characters is cut at a word, with an ellipsis")
    func escapedLogRowCutAtAWord() throws {
        let mark =
            #"{"t":0.002,"thread":"main","depth":1,"mode":"default","iteration":0,"kind":"note","name":"the loop of thread \u001b[41mLATE\u0007 and of every thread after it is not","detail":"mark","fact":["mark","point"]}"#
        var model = AppModel(
            session: try Self.session([Self.line("0.001", "main", "entry"), mark]), fileName: "app.jsonl")
        _ = updateInline(&model, .resize(width: 80, height: 24))
        _ = updateInline(&model, .key(.end))
        let row = try #require(render(model).lines.first { $0.contains("note the loop of thread") })
        #expect(row.hasSuffix("…"), "\(row)")
        #expect(row.contains(#"\e[41mLATE\u{7}"#), "\(row)")
        #expect(!row.contains(" e…") && !row.contains(" ev…"), "\(row)")
    }

    @Test("a file naming 600 threads shows at most the thread limit's lanes")
    func boundedLanes() throws {
        let lines = (0..<600).map { Self.line("0.\(String(1000 + $0))", "t\($0)", "entry") }
        let session = try Self.session(lines)
        #expect(session.snapshots(after: session.trace.count).count == ThreadLimit.maximumThreads)
    }
}
