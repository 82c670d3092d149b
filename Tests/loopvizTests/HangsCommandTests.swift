import Foundation
import Testing

/// `loopviz hangs` through the built executable: what it lists, and its exit status at the boundaries.
@Suite("loopviz hangs")
struct HangsCommandTests {
    /// A trace with one busy segment of `seconds` (from afterWaiting at 1.000 to beforeWaiting), with a mark.
    static func trace(busy seconds: String) -> String {
        func line(_ t: String, _ kind: String, _ rest: String = #""name":null,"detail":null"#) -> String {
            #"{"t":\#(t),"thread":"main","depth":1,"mode":"default","iteration":1,"kind":"\#(kind)",\#(rest)}"#
        }
        return [
            #"{"format":"loopviz-trace","version":1,"scenario":"s","clock":"real","events":4}"#,
            line("1.000", "afterWaiting"),
            line("1.001", "note", #""name":"slow timer","detail":"begin","fact":["mark","begin"]"#),
            line(seconds, "beforeWaiting"),
            line(seconds, "observer", #""name":"LoopRecorder","detail":"beforeWaiting","fact":["activity",32]"#),
        ].joined(separator: "\n") + "\n"
    }

    @Test("a segment as long as the threshold is a hang (exit 1); one nanosecond less is not (exit 0)")
    func boundaries() throws {
        let at = try LoopvizProcess.run(["hangs", "t.jsonl"], files: ["t.jsonl": Self.trace(busy: "1.250")])
        #expect(at.status == 1)
        #expect(
            at.stdout == """
                hang 0.250s at 1.000 on main mode default depth 1: afterWaiting -> beforeWaiting
                  1.001 begin slow timer
                  verdict: busy (the loop did not sleep in its wait)
                  held by: wake-up work (afterWaiting -> beforeTimers: the observers of afterWaiting, then the timer, port or main queue that woke the loop, and blocks)
                  phases: wake-up work 100.0% (0.250s), beforeWaiting observers 0.0% (0.000s)
                t.jsonl: 1 hang at the threshold of 0.250s (0 severe), 0 micro-hangs, in 1 busy segment; the longest 0.250s

                """)
        let below = try LoopvizProcess.run(["hangs", "t.jsonl"], files: ["t.jsonl": Self.trace(busy: "1.249999999")])
        #expect(below.status == 0)
        #expect(below.stdout.hasPrefix("micro-hang 0.249999999s at 1.000 on main"))
        let severe = try LoopvizProcess.run(
            ["hangs", "t.jsonl", "--threshold", "100ms"], files: ["t.jsonl": Self.trace(busy: "1.500")])
        #expect(severe.status == 1)
        #expect(severe.stdout.hasPrefix("severe hang 0.500s at 1.000"))
        #expect(severe.stdout.contains("1 hang at the threshold of 0.100s (1 severe)"))
        let quiet = try LoopvizProcess.run(["hangs", "t.jsonl"], files: ["t.jsonl": Self.trace(busy: "1.050")])
        #expect(quiet.status == 0)
        #expect(
            quiet.stdout
                == "t.jsonl: 0 hangs at the threshold of 0.250s (0 severe), 0 micro-hangs, in 1 busy segment; the longest 0.050s\n"
        )
    }

    @Test("a corrupt trace is refused with its line and column (exit 2)")
    func corrupt() throws {
        let text = Self.trace(busy: "1.250").replacingOccurrences(of: #""kind":"note""#, with: #""kind":note"#)
        let result = try LoopvizProcess.run(["hangs", "t.jsonl"], files: ["t.jsonl": text])
        #expect(result.status == 2)
        #expect(result.stderr == "loopviz: error: t.jsonl:3:76: expected null\n")
    }

    @Test("run converts a trace file to another format")
    func convert() throws {
        let result = try LoopvizProcess.run(
            ["run", "t.jsonl", "--trace", "text"], files: ["t.jsonl": Self.trace(busy: "1.250")])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                time   thread  depth  mode     event          name          detail
                1.000  main    1      default  afterWaiting
                1.001  main    1      default  note           slow timer    begin
                1.250  main    1      default  beforeWaiting
                1.250  main    1      default  observer       LoopRecorder  beforeWaiting

                """)
    }
}
