import LoopEngine
import Testing

@testable import loopviz

/// The items panel dates a Foundation timer as its call does on the file's profile (docs/cfrunloop.md §9.5).
@Suite("the items panel shows a Foundation timer's next fire by its call and profile")
struct FoundationTimerPanelTests {
    static func screen(profile: String) throws -> String {
        let source = """
            profile \(profile)
            thread T
              port K
              timer poll every 100ms foundation init
              run default for 50ms
            """
        let script = try ScenarioParser.parse(source)
        var model = AppModel(session: Session(script: script), fileName: "foundation.loop")
        _ = updateInline(&model, .resize(width: 100, height: 30))
        model.isPaused = true
        model.cursor = 1
        model.furthest = model.cursor
        return render(model).lines.joined(separator: "\n")
    }

    @Test("before any fire, a linux foundation init timer is due at 0, a darwin one at one interval")
    func nextFireByProfile() throws {
        let linux = try Self.screen(profile: "linux")
        let darwin = try Self.screen(profile: "darwin")
        #expect(linux.contains("timer poll/0.100s ×0 "), "\(linux)")
        #expect(linux.contains("] 0.000"), "\(linux)")
        #expect(darwin.contains("] 0.100"), "\(darwin)")
    }
}
