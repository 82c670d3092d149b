import LoopEngine
import Testing

@testable import loopviz

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal runtime's loop, driven through a text presenter: keys in, frames out, resizes, signals and the
/// ways out, without a terminal.
@Suite("the terminal loop, without a terminal")
struct TerminalLoopTests {
    /// Plays `script` on the built-in lesson (or `model`), with a clock that never moves (playback stays put).
    static func play(
        _ script: [TextPresenter.Step], model: AppModel = UpdateTests.model(),
        engine: some EngineRunner = InlineEngine()
    ) -> (loopviz.ExitStatus, TextPresenter) {
        let presenter = TextPresenter(script)
        let status = TerminalApp.play(model, on: presenter, engine: engine, recorder: nil, clock: { 0 })
        return (status, presenter)
    }

    @Test(
        "keys in, frames out: a frame for the start and one after each key that changes the screen; q quits and gives the terminal back"
    )
    func keysInFramesOut() {
        let (status, presenter) = Self.play([
            .typed(" "), .typed("?"), .typed("n"), .typed("q"),
        ])
        var expected = UpdateTests.model()
        _ = UpdateTests.press(.character(" "), .character("?"), on: &expected)
        #expect(status == .success && presenter.isRestored)
        // `n` in the help scrolls nothing (the help fits): no frame for it.
        #expect(presenter.frames.count == 3 && presenter.frames.map { $0.full } == [true, false, false])
        #expect(presenter.screen == render(expected).lines)
    }

    @Test("a resize draws the next frame at the new size")
    func resize() {
        let (status, presenter) = Self.play([.input([.message(.resize(width: 132, height: 43))]), .typed("q")])
        var expected = UpdateTests.model()
        _ = updateInline(&expected, .resize(width: 132, height: 43))
        #expect(status == .success && presenter.frames.count == 2)
        #expect(presenter.screen.count == 43 && presenter.screen == render(expected).lines)
    }

    @Test("the end of input ends the UI and gives the terminal back")
    func endOfInput() {
        let (status, presenter) = Self.play([])
        #expect(status == .success && presenter.isRestored && presenter.frames.count == 1)
    }

    @Test("a signal that ends a process ends the UI with 128 + its number, the terminal given back")
    func terminatingSignal() {
        let (status, presenter) = Self.play([.input([.signal(SIGTERM)])])
        #expect(
            status == loopviz.ExitStatus(endedBy: SIGTERM) && status.rawValue == 128 + SIGTERM && presenter.isRestored)
    }

    @Test("Ctrl-Z gives the terminal back and stops; fg takes it again and redraws every cell")
    func suspendAndResume() {
        let (status, presenter) = Self.play([
            .input([.signal(SIGTSTP)]), .input([.signal(SIGCONT)]), .typed("q"),
        ])
        #expect(status == .success && presenter.suspensions == 1 && presenter.resumptions == 1)
        #expect(presenter.frames.map { $0.full } == [true, true] && presenter.isRestored)
    }

    @Test(
        "a poke's run goes to the engine runner: the frames say COMPUTING… until it answers, and a key typed meanwhile acts after it"
    )
    func pokeComputesOffTheLoop() {
        let engine = HeldEngine()
        let (status, presenter) = Self.play(
            [
                .typed("w"), .typed("x"), .perform { engine.answer() }, .input([]),
                .perform { engine.answer() }, .input([]), .typed("q"),
            ], model: EngineEffectTests.model(), engine: engine)
        var direct = EngineEffectTests.model()
        _ = UpdateTests.press(.character("w"), .character("x"), on: &direct)
        #expect(status == .success)
        #expect(
            presenter.frames.map { $0.lines.last ?? "" } == [
                " PAUSED  4 steps/s  t=0.000s  ? help  q quit  Space play/pause  n/p step",
                " COMPUTING…  wake up after step 5 (t=0.000s)  4 steps/s  t=0.000s",
                // `x` waits in the queue (the model changed, the screen did not).
                " COMPUTING…  wake up after step 5 (t=0.000s)  4 steps/s  t=0.000s",
                " COMPUTING…  stop after step 5 (t=0.000s)  4 steps/s  t=0.000s",
                " PAUSED  stop after step 5 (t=0.000s)  4 steps/s  t=0.000s",
            ])
        #expect(presenter.screen == render(direct).lines)
    }
}
