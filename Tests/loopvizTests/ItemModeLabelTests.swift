import LoopEngine
import Testing

@testable import loopviz

/// Text output shows what colour would: an item of another mode says its mode, and no run is said as such.
@Suite("the items panel says which mode an item is in, and when no run is active")
struct ItemModeLabelTests {
    static let source = """
        thread T
          port K in default, Modal
          timer tick at 100ms every 100ms in default
          timer modal at 50ms in Modal
          run Modal for 100ms
        """

    static func screen(step: Int?) throws -> String {
        let script = try ScenarioParser.parse(Self.source)
        var model = AppModel(session: Session(script: script), fileName: "modes.loop")
        _ = updateInline(&model, .resize(width: 100, height: 30))
        model.isPaused = true
        model.cursor = step ?? model.trace.count
        model.furthest = model.cursor
        return render(model).lines.joined(separator: "\n")
    }

    @Test("in a Modal run, the default-only timer is labelled [default]; the Modal items are not labelled")
    func otherModeLabelled() throws {
        let text = try Self.screen(step: 4)
        #expect(text.contains("Mode Modal: items"))
        #expect(text.contains(" 2 [default] timer tick/0.100s "))
        #expect(text.contains(" 3 timer modal once "))
        #expect(text.contains("1 port K "))
    }

    @Test("after the run, the header says no run is active and every item shows its modes")
    func noRun() throws {
        let text = try Self.screen(step: nil)
        #expect(text.contains("Items (no run: e, E or 1-9 select)"))
        #expect(!text.contains("Mode -:"))
        #expect(text.contains("1 [default, Modal] port K "))
    }
}
