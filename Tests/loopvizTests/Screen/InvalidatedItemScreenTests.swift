import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// An item the scenario itself invalidates is marked as such on screen, from its `invalidate` event, as one a poke
/// invalidates is: the items panel says `[invalidated]`, the event log and the Why pane say what left which modes.
@Suite("an item the scenario invalidates is marked invalidated on screen")
struct InvalidatedItemScreenTests {
    static let source = """
        thread T
          port K
          timer tick at 100ms every 100ms
          timer stopper at 250ms
            invalidate tick
            invalidate watch
          observer watch on beforeWaiting
          run default for 400ms
        say "stopper invalidates tick and watch: both leave default for good" after invalidate watch
        say zh "stopper 让 tick 和 watch 失效：两者永远离开 default" after invalidate watch
        """

    static func model(step: Int, language: Language = .en) throws -> AppModel {
        let script = try ScenarioParser.parse(Self.source, file: "invalidate.loop")
        var model = AppModel(session: Session(script: script), fileName: "invalidate.loop")
        model.language = language
        _ = update(&model, .resize(width: 80, height: 24))
        model.isPaused = true
        model.cursor = step
        model.furthest = step
        return model
    }

    @Test(
        "at 80×24, after stopper's callout invalidates tick and watch, both are listed [invalidated]",
        arguments: [
            Language.en, .zh,
        ])
    func screenAfterTheInvalidations(_ language: Language) throws {
        let lines = render(try Self.model(step: 29, language: language)).lines
        #expect(lines.count == 24 && lines.allSatisfy { DisplayWidth.columns($0) <= 80 })
        Snapshot.assertMatches(
            lines.joined(separator: "\n") + "\n", "Screens/invalidated-80x24-\(language.rawValue).screen",
            target: "loopvizTests")
    }

    @Test("before the invalidation the items are listed as in the mode; the spent one-shot says so, not invalidated")
    func beforeTheInvalidation() throws {
        let text = render(try Self.model(step: 27)).lines.joined(separator: "\n")
        #expect(!text.contains("[invalidated]"))
        #expect(text.contains(" 2 timer tick/0.100s ×2"))
        #expect(text.contains(" 3 timer stopper once ×1  (spent)"))
        #expect(text.contains(" 4 observer watch beforeWaiting order 0 ×3"))
    }

    @Test("the Why pane at each invalidation names the call, the modes left and that no callout runs")
    func whyAtEachInvalidation() throws {
        let tick = render(try Self.model(step: 28)).lines.joined(separator: "\n")
        #expect(tick.contains("    28    0.250  T        default   invalidate tick  (timer, left default)"))
        #expect(tick.contains(" 2 [invalidated] timer tick/0.100s"))
        #expect(tick.contains(" 4 observer watch beforeWaiting order 0 ×3"))
        let watch = render(try Self.model(step: 29)).lines.joined(separator: "\n")
        #expect(watch.contains(" 4 [invalidated] observer watch…"))
        #expect(watch.contains(" CFRunLoopObserverInvalidate(watch): the observer leaves every mode it was in"))
        #expect(watch.contains("─ » stopper invalidates tick and watch: both leave default for good ─"))
    }
}
