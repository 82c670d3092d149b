import LoopEngine
import Testing

@testable import loopviz

/// The timeline's rows are kept between frames and each frame folds only the events since the last: stepping
/// through a run with the kept rows must draw what a fresh fold of the same window draws, forks and all.
@Suite("the timeline's kept rows fold as a fresh pass does")
struct TimelineFoldTests {
    /// Every step of `model`'s run, one frame each with one render cache, against a render without it.
    static func stepThrough(_ model: AppModel, _ name: String) {
        var model = model
        var cache = RenderCache()
        BookmarkTests.go(to: 1, &model)
        for step in 1...model.trace.count {
            model.cursor = step
            model.furthest = max(model.furthest, step)
            let kept = render(model, cache: &cache).lines
            let fresh = render(model).lines
            #expect(kept == fresh, "\(name), step \(step)")
            if kept != fresh { return }
        }
    }

    @Test(
        "step by step through the race lessons and lesson 03, at the default axis and zoomed in, kept rows = fresh",
        arguments: TimelineBranchMarksTests.races + ["03-tasks-on-a-kept-alive-thread.loop"])
    func lessons(_ name: String) {
        var model = ThreadPickerTests.lesson(name)
        _ = UpdateTests.press(.escape, on: &model)
        Self.stepThrough(model, name)
        for _ in 0..<4 { ThreadPickerTests.press(">", &model) }
        Self.stepThrough(model, "\(name) zoomed in")
    }

    @Test("step by step through the demo recording (lanes from its activities), kept rows = fresh")
    func recording() throws {
        Self.stepThrough(try TimelineHangsTests.demo(step: 1), "the demo recording")
    }
}
