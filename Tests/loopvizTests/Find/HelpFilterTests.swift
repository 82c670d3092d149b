import SnapshotSupport
import Testing

@testable import loopviz

/// `/` in the help: its keys filtered as each character is typed.
@Suite("the help filters as you type")
struct HelpFilterTests {
    @Test("each character narrows the keys; Backspace widens; Esc clears the filter, then closes the help")
    func typing() {
        var model = UpdateTests.model()
        _ = UpdateTests.press(.character("?"), .character("/"), on: &model)
        #expect(model.helpFilter == "")
        for character in "book" { _ = updateInline(&model, .key(.character(character))) }
        #expect(model.helpFilter == "book")
        let lines = helpLines(.loop, Glyphs(theme: .init()), filter: "book").map(\.0)
        #expect(
            lines == [
                "Keys matching \"book\"_ (Backspace widens, Esc clears)", "find",
                "  B       bookmark this step (again: remove it)", "  '       next bookmark",
                "  \"       previous bookmark", "  ;       write a note on this step (bookmarks it)",
                "  M       the bookmarks and notes: go to one",
            ])
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.helpFilter == nil && model.overlay == .help)
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.overlay == .none)
    }

    @Test("a filter nothing matches says so")
    func noMatch() {
        let lines = helpLines(.loop, Glyphs(theme: .init()), filter: "zzz").map(\.0)
        #expect(lines == ["Keys matching \"zzz\"_ (Backspace widens, Esc clears)", "  no key matches"])
    }

    @Test("the filtered help at 80×24 and 132×43", arguments: [(80, 24), (132, 43)])
    func screens(_ size: (Int, Int)) {
        var model = RenderTests.model(width: size.0, height: size.1, step: 12)
        _ = UpdateTests.press(.character("?"), .character("/"), on: &model)
        for character in "next" { _ = updateInline(&model, .key(.character(character))) }
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/help-\(size.0)x\(size.1)-filter-next.screen", target: "loopvizTests")
    }
}
