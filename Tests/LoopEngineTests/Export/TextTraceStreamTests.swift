import LoopEngine
import Testing

@Suite("the text trace written as events arrive")
struct TextTraceStreamTests {
    static func event(
        _ ms: Int64, _ mode: String, _ kind: LoopEvent.Kind, _ name: String? = nil, _ fact: LoopEvent.Fact? = nil
    )
        -> LoopEvent
    {
        LoopEvent(
            time: LoopInstant(nanoseconds: ms * 1_000_000), loop: "T", depth: 1, mode: mode, iteration: 1, kind: kind,
            name: name, fact: fact)
    }

    static let events = [
        event(0, "default", .entry), event(0, "default", .timer, "t"),
        event(50, "LongModeName", .timer, "aVeryLongTimer", .note(.say("x"))), event(60, "default", .exit),
    ]

    @Test("columns are aligned in terminal columns: a thread, mode or name of CJK characters widens by two each")
    func wideCharactersAlign() {
        let events = [
            LoopEvent(
                time: .zero, loop: "界面", depth: 1, mode: "模式", iteration: 1, kind: .source0, name: "ポート"),
            LoopEvent(time: .zero, loop: "T", depth: 1, mode: "default", iteration: 1, kind: .exit),
        ]
        #expect(
            TextTraceFormatter.format(events) == """
                time   thread  depth  mode     event    name    detail
                0.000  界面    1      模式     source0  ポート
                0.000  T       1      default  exit

                """)
    }

    @Test("a trace shorter than the lookahead is laid out exactly as the whole-trace formatter lays it out")
    func shortTraceIsUnchanged() {
        for events in [Self.events, ScenarioRunner.run(ExportScenarios.rich).events] {
            var stream = TextTraceFormatter.Stream()
            var text = ""
            for event in events { text += stream.append(event) }
            text += stream.finish()
            #expect(text == TextTraceFormatter.format(events))
        }
    }

    @Test("lines are held back only for the lookahead, then each is written at once; a wider cell widens its column")
    func laterCellsWiden() {
        var stream = TextTraceFormatter.Stream(lookahead: 2)
        #expect(stream.append(Self.events[0]) == "")
        #expect(
            stream.append(Self.events[1]) == """
                time   thread  depth  mode     event  name  detail
                0.000  T       1      default  entry
                0.000  T       1      default  timer  t

                """)
        #expect(stream.append(Self.events[2]) == "0.050  T       1      LongModeName  timer  aVeryLongTimer  x\n")
        #expect(stream.append(Self.events[3]) == "0.060  T       1      default       exit\n")
        #expect(stream.finish() == "")
    }
}
