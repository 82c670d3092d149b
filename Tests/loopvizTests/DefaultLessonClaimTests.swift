import LoopEngine
import Testing

@testable import loopviz

/// The built-in lesson narrates too: its lines that tell an outcome rest on claims, as every lesson's do, and
/// the claims hold on the run the UI plays.
@Suite("the built-in lesson's narration is checked")
struct DefaultLessonClaimTests {
    @Test("every line of the built-in lesson that tells a result, a stop, a fire or a wake rests on a claim")
    func outcomeLinesRestOnClaims() throws {
        let script = try ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        #expect(script.unclaimedOutcomeLines == [])
        #expect(script.sayClaimCount >= 5)
    }

    @Test("the built-in lesson's claims hold on its run")
    func claimsHold() throws {
        let script = try ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(5))
        let failures = script.sayClaimFailures(in: outcome.events)
        #expect(failures.isEmpty, "\(failures.joined())")
    }
}
