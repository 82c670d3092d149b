import LoopEngine
import Testing

@testable import loopviz

/// The runtime draws a frame only when the screen would change: between two steps of playback nothing does.
@Suite("frames drawn only on change")
struct FrameSkipTests {
    @Test("a tick that does not reach the next step draws like the frame before; a step does not")
    func ticksBetweenSteps() {
        var model = RenderTests.model(width: 80, height: 24, step: 10)
        model.isPaused = false
        let before = model
        _ = updateInline(&model, .tick(seconds: 0.01))
        #expect(model.cursor == before.cursor && model != before)
        #expect(model.drawsLike(before))
        #expect(render(model) == render(before))
        _ = updateInline(&model, .tick(seconds: 1))
        #expect(model.cursor > before.cursor)
        #expect(!model.drawsLike(before))
    }

    @Test("the step credit and the play clock are not drawn")
    func timekeepingIsNotDrawn() {
        let model = RenderTests.model(width: 132, height: 43, step: 50)
        var other = model
        other.stepCredit = 0.75
        other.playClock = model.now + .seconds(3)
        #expect(render(other) == render(model))
    }
}
