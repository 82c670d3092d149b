import LoopEngine
import Testing

@testable import loopviz

/// Running the engine is an effect: `update` asks, the runtime runs it off the UI's thread and answers with a
/// message; meanwhile the screen says so and keys wait their turn.
@Suite("the engine runs as an effect of update")
struct EngineEffectTests {
    /// The built-in lesson, paused at step 5.
    static func model() -> AppModel {
        var model = UpdateTests.model()
        _ = UpdateTests.press(
            .character("n"), .character("n"), .character("n"), .character("n"), .character("n"), on: &model)
        return model
    }

    /// The run an effect list asks for (exactly one effect, a run).
    static func run(_ effects: [Effect]) -> EngineRequest? {
        guard effects.count == 1, case .runEngine(let request) = effects[0] else { return nil }
        return request
    }

    @Test(
        "a poke asks for an engine run; until it is answered the trace is the old one and the status bar says COMPUTING…"
    )
    func pokeIsAnEffect() throws {
        var model = Self.model()
        let before = model.trace
        let run = try #require(Self.run(update(&model, .key(.character("w")))))
        #expect(model.isComputing && model.trace == before && model.cursor == 5)
        #expect(render(model).lines.last == " COMPUTING…  wake up after step 5 (t=0.000s)  4 steps/s  t=0.000s")
        #expect(update(&model, .engineRan(run.run())) == [])
        #expect(!model.isComputing && model.trace != before && model.cursor == 5)
        #expect(model.session.interventions.map(\.label) == ["wake up"])
        #expect(render(model).lines.last == " PAUSED  wake up after step 5 (t=0.000s)  4 steps/s  t=0.000s")
    }

    @Test("a poke while the engine computes is queued, not lost: it asks for its own run once the first is answered")
    func pokeWhileComputingIsQueued() throws {
        var model = Self.model()
        let first = try #require(Self.run(update(&model, .key(.character("w")))))
        #expect(update(&model, .key(.character("x"))) == [])
        #expect(update(&model, .tick(seconds: 5)) == [])
        #expect(model.queued == [.key(.character("x"))] && model.cursor == 5)
        let second = try #require(Self.run(update(&model, .engineRan(first.run()))))
        #expect(model.isComputing && model.queued.isEmpty)
        #expect(update(&model, .engineRan(second.run())) == [])
        #expect(model.session.interventions.map(\.label) == ["wake up", "stop"])
        // The same as the two pokes made one after the other, each computed at once.
        var direct = Self.model()
        _ = UpdateTests.press(.character("w"), .character("x"), on: &direct)
        #expect(model == direct)
    }

    @Test("an answer to an earlier run is not used")
    func staleAnswerIgnored() throws {
        var model = Self.model()
        let first = try #require(Self.run(update(&model, .key(.character("w")))))
        _ = update(&model, .key(.character("x")))
        let second = try #require(Self.run(update(&model, .engineRan(first.run()))))
        let trace = model.trace
        #expect(update(&model, .engineRan(first.run())) == [])
        #expect(model.isComputing && model.trace == trace)
        #expect(update(&model, .engineRan(second.run())) == [] && !model.isComputing)
    }

    @Test("a step past the events computed asks for a run twice as long, then takes the step")
    func stepPastTheEndExtends() throws {
        var model = Self.model()
        model.cursor = model.trace.count
        let count = model.trace.count
        let horizon = model.session.horizon
        let run = try #require(Self.run(update(&model, .key(.character("n")))))
        #expect(run.horizon == horizon * 2 && model.queued == [.again(.key(.character("n")))] && model.cursor == count)
        #expect(update(&model, .engineRan(run.run())) == [])
        #expect(model.cursor == count + 1 && model.trace.count > count && !model.isComputing)
    }

    @Test(
        "a lesson read opens on its card at once and computes its trace; read again, it goes to its step once computed")
    func lessonOpenIsAnEffect() throws {
        typealias F = LibraryFixture
        var model = F.model(current: 1)
        let request = LessonRequest(index: 0, path: "lessons/01-one-timer.loop")
        let first = try #require(Self.run(update(&model, .lessonOpened(F.opened(request, F.oneTimer)))))
        #expect(model.overlay == .card && model.isComputing && model.trace.isEmpty)
        #expect(update(&model, .engineRan(first.run())) == [] && !model.isComputing && !model.trace.isEmpty)
        var again = LessonRequest(index: 0, path: "lessons/01-one-timer.loop")
        again.keepStep = 3
        let second = try #require(Self.run(update(&model, .lessonOpened(F.opened(again, F.oneTimer)))))
        #expect(model.queued == [.showKeptStep(3, pokesLeftOut: 0)] && model.cursor == 0)
        #expect(update(&model, .engineRan(second.run())) == [])
        #expect(model.cursor == 3 && model.flash?.text == "read again at step 3" && model.queued.isEmpty)
    }
}
