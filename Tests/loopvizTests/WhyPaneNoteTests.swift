import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The Why pane on a note: a lesson's `say` is shown in its own words, an engine note with its explanation
/// (lesson 45's declined add), not only its one-line words.
@Suite("the Why pane explains the engine's notes")
struct WhyPaneNoteTests {
    static func model(after count: Int) throws -> AppModel {
        let path = Snapshot.packageRoot.appendingPathComponent("examples/45-one-item-two-loops.loop").path
        let script = try ScenarioParser.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        var model = AppModel(session: Session(script: script), fileName: path)
        _ = updateInline(&model, .resize(width: 132, height: 43))
        model.isPaused = true
        model.cursor = count
        model.furthest = count
        return model
    }

    @Test("a timer CF declines to add: the Why pane gives the rule, as the explanation table says")
    func declinedAdd() throws {
        let model = try Self.model(after: 3)
        let index = try #require(
            model.trace.firstIndex { event in
                if case .note(.addDeclined) = event.fact { return true }
                return false
            })
        #expect(index == 2)
        #expect(
            whyText(model, explaining: index)
                == "CFRunLoopAddTimer of timer tick on worker's loop did nothing: the timer is in a mode of ui's loop, "
                + "and CF keeps a timer in one loop until it leaves its last mode there. CF returns without a word; "
                + "only this trace says so.")
    }

    @Test("a lesson's say is still shown in the lesson's words")
    func sayNote() throws {
        let model = try Self.model(after: 0)
        let index = try #require(
            model.trace.firstIndex { event in
                if case .note(.say) = event.fact { return true }
                return false
            })
        guard case .note(.say(let text)) = model.trace[index].fact else { return }
        #expect(whyText(model, explaining: index) == text)
    }
}
