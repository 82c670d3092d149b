import LoopEngine
import Testing

/// The rules the CF oracle takes from the engine instead of copying them (package access): which event an
/// observation point records, and which script steps a callout runs.
@Suite("Oracle shared rules")
struct OracleSharedRuleTests {
    @Test("each activity records its own event kind; a combination records exit")
    func activityEventKinds() {
        #expect(
            Activity.each.map { LoopEvent.Kind($0) } == [
                .entry, .beforeTimers, .beforeSources, .beforeWaiting, .afterWaiting, .exit,
            ])
        #expect(LoopEvent.Kind([.entry, .exit]) == .exit)
    }

    @Test("a step runs on the calls and activities its when names")
    func stepsApply() {
        let whens: [ScriptStep.When] = [.always, .call(2), .callsThrough(2), .activity([.entry, .beforeWaiting])]
        let calls: [(Int, Activity?)] = [(1, nil), (2, nil), (3, nil), (1, .entry), (2, .beforeWaiting), (3, .exit)]
        let table = whens.map { when in
            calls.map { ScriptStep(.wakeUp, when: when).applies(call: $0.0, activity: $0.1) }
        }
        #expect(
            table == [
                [true, true, true, true, true, true],
                [false, true, false, false, true, false],
                [true, true, false, true, true, false],
                [false, false, false, true, true, false],
            ])
    }
}
