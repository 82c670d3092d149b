import LoopEngine
import Testing

@testable import loopviz

/// `compare` says under its verdict which Foundation features were checked against loopviz's model of
/// Foundation (the oracle builds them on CF, as Linux Foundation lacks them), not against the real thing.
@Suite("compare names what it checked against loopviz's model of Foundation")
struct ReferenceModelWordingTests {
    private static func models(_ source: String) throws -> [ReferenceModel] {
        ReferenceModel.models(in: try ScenarioParser.parse(source).scenario)
    }

    @Test("a scenario of CF calls alone relies on no model, and its verdict has no note")
    func cfAloneHasNoNote() throws {
        let models = try Self.models(
            """
            thread main
              source0 s in default
              signal s
              run default for 1s
            """)
        #expect(models == [])
        #expect(ReferenceModel.verdictNote(models) == nil)
    }

    @Test("a perform on another thread is checked against the model of performSelector:onThread:")
    func performOnThread() throws {
        let models = try Self.models(
            """
            thread main
              perform upload on worker
                work 10ms
            thread worker
              port keepAlive in default
              run default for 1s
            """)
        #expect(models == [.performOnThread])
        #expect(
            ReferenceModel.verdictNote(models)
                == "  performSelector:onThread: checked against loopviz's model of Foundation, not the real thing "
                + "(Linux Foundation lacks it: the oracle builds it on the real CFRunLoop)")
    }

    @Test("ordered and delayed performs, nested in a block, are both named, in a fixed order")
    func orderedAndDelayed() throws {
        let models = try Self.models(
            """
            thread main
              perform task target tgt afterDelay 50ms
                work 1ms
              block b
                perform a order 1
                  work 1ms
              run default for 1s
            """)
        #expect(models == [.orderedPerform, .delayedPerform])
        #expect(
            ReferenceModel.verdictNote(models)
                == "  performSelector:target:argument:order:modes: and performSelector:withObject:afterDelay: checked "
                + "against loopviz's model of Foundation, not the real thing (Linux Foundation lacks them: the "
                + "oracle builds them on the real CFRunLoop)")
    }

    @Test("three models are listed with commas and a final and")
    func threeModels() {
        #expect(
            ReferenceModel.verdictNote(ReferenceModel.allCases)
                == "  performSelector:onThread:, performSelector:target:argument:order:modes: and "
                + "performSelector:withObject:afterDelay: checked against loopviz's model of Foundation, not the real "
                + "thing (Linux Foundation lacks them: the oracle builds them on the real CFRunLoop)")
    }
}
