import Foundation
import LoopEngine
import SnapshotSupport
import Testing

/// The `.loop` printer writes every construct of the language so that the parser reads the same script back:
/// every lesson and every conformance file, printed and parsed again, is the script it was (line numbers aside,
/// the printed file has its lines elsewhere).
@Suite("the .loop printer")
struct LoopScriptPrinterTests {
    static func files(in folder: String) -> [String] {
        let url = Snapshot.packageRoot.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".loop") }.sorted().map { "\(folder)/\($0)" }
    }

    static let lessonsAndConformance = files(in: "examples") + files(in: "conformance")

    @Test("there are lessons and conformance files to print")
    func thereAreFiles() {
        #expect(Self.files(in: "examples").count >= 14)
        #expect(Self.files(in: "conformance").count >= 1)
    }

    @Test("each lesson and conformance file, printed, parses back to the same script", arguments: lessonsAndConformance)
    func printedFileParsesToTheSameScript(_ path: String) throws {
        let url = Snapshot.packageRoot.appendingPathComponent(path)
        let script = try ScenarioParser.parse(String(contentsOf: url, encoding: .utf8), file: path)
        let printed = LoopScriptPrinter.text(of: script)
        let reparsed = try ScenarioParser.parse(printed, file: path)
        #expect(reparsed.isSame(as: script), "printed:\n\(printed)")
    }

    @Test("a script using every kind of line, printed, parses back to the same script")
    func printsEveryConstruct() throws {
        let source = """
            # A lesson.
            #
            # [zh]
            # 一课。

            scenario "every \\"construct\\""
            profile darwin
            until 2s
            iteration cost 10us
            owner vc weak weakSelf

            thread main main
              common Tracking
              source0 render order 2 commands 4 in default, Tracking
                on schedule: wakeup
                call 1: work 5ms
              port inbox
              timer tick at 100ms every 250ms tolerance 10ms order 1
                first 2 calls: signal render
              observer watch on beforeTimers, beforeWaiting order 3 once in Tracking
                on beforeWaiting: say "about to sleep"
              say "ready"
                claims next main: source0 render
              say zh "准备好了"
              block b1 in Tracking
                set vc.done
              perform task target tgt afterDelay 50ms
                work 1ms
              cancelPrevious task target tgt
              operation op1 on q priority high work 5ms check every 1ms
              operation op2 on q after op1 async reply after 20ms
              async workItem w1 on d work 2ms
              cancel all on q
              limit q default
              wait for q
              add tick to default on worker
              remove tick from default on worker
              while weakSelf and not vc.done RunLoop.run default
              run default for 500ms returnAfterSourceHandled

            thread worker later
              work 1ms

            queue q limit 2 suspended idle 3s
            queue d dispatch serial

            at 100ms on main
              signal render

            say "a timer fires" after 0.100 timer tick
              claims later never timer tick between 1.0s and 1.05s
            ask "What runs next?" at 150ms (sleep, source0 render)

            expect in order
              0.100 main: timer tick
              result handledSource in default
            expect
              timer tick at least 2 times
              query isWaiting is false

            """
        let script = try ScenarioParser.parse(source)
        let printed = LoopScriptPrinter.text(of: script)
        #expect(try ScenarioParser.parse(printed).withoutLines == script.withoutLines, "printed:\n\(printed)")
        #expect(script.questions.count == 1 && script.sayClaims.count == 2 && script.scenario.queues.count == 2)
    }

    @Test("the printer writes sections apart, keywords from the language, and each time at the precision it matches")
    func printsTheWholeText() throws {
        let source = """
            # A card.
            # [zh]
            # 一张卡。
            scenario "printed"
            thread T
              timer t at 100ms every 200ms
                work 1ms
              say "ticking"
                claims next T: timer t
              say zh "滴答"
              run default for 1s
            queue d dispatch concurrent
            expect in order
              0.1 timer t
              0.3005 timer t
            expect
              timer t between 1.5s and 1.9s
              never result finished
            """
        let expected = """
            # A card.
            # [zh]
            # 一张卡。

            scenario "printed"

            thread T
              timer t at 100ms every 200ms
                work 1ms
              say "ticking"
                claims next T: timer t
              say zh "滴答"
              run default for 1000ms

            queue d dispatch concurrent

            expect in order
              0.1s timer t
              300.5ms timer t

            expect
              timer t between 1.5s and 1.9s
              never result finished

            """
        let printed = LoopScriptPrinter.text(of: try ScenarioParser.parse(source))
        #expect(printed == expected, "printed:\n\(printed)")
    }
}
