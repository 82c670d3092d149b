import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The pool view, as text, at the sizes people use; re-record with `RECORD_SNAPSHOTS=1`.
@Suite("the UI draws the pool view")
struct PoolRenderTests {
    /// The fixture paused just after the pool event `step` (`opStart upload2`), with `selected` selected.
    static func model(
        width: Int, height: Int, after step: String, selected: String? = "index", theme: AppModel.Theme = .init()
    ) -> AppModel {
        var model = PoolFixture.model(width: width, height: height)
        model.theme = theme
        model.isPaused = true
        model.cursor = model.trace.firstIndex { $0.kind.isPool && $0.step == step }! + 1
        model.furthest = model.cursor
        model.selectedOperation = selected
        return model
    }

    static let moments = ["opStart upload1", "opFinish upload1", "opStart index", "threadExit uploads.1"]

    @Test("screens at 80×24 and 132×43 at several moments", arguments: [(80, 24), (132, 43)], moments)
    func screens(_ size: (Int, Int), _ step: String) {
        let model = Self.model(width: size.0, height: size.1, after: step)
        let name = step.replacingOccurrences(of: " ", with: "-")
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/pool-\(size.0)x\(size.1)-\(name).screen", target: "loopvizTests")
    }

    @Test("the lanes show which operation ran where, idle time, creation and retirement")
    func lanes() {
        let lines = render(Self.model(width: 80, height: 24, after: "threadExit uploads.1")).lines
        #expect(lines[2].hasPrefix("uploads.1  +tttttt2222222222222222222·"))
        #expect(lines[2].hasSuffix("×"))
        #expect(lines[3].hasPrefix("uploads.2  +1111111111111111lliiiii·"))
    }

    @Test("the ASCII theme uses no character outside ASCII")
    func asciiTheme() {
        let model = Self.model(
            width: 80, height: 24, after: "threadExit uploads.1", theme: .init(color: true, unicode: false))
        #expect(render(model).lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/pool-80x24-end-ascii.screen", target: "loopvizTests")
    }

    @Test("the monochrome theme uses no colour and still marks the selection and running operations")
    func monochromeTheme() {
        let model = Self.model(
            width: 132, height: 43, after: "opStart index", theme: .init(color: false, unicode: true))
        let screen = render(model)
        var cells: [Screen.Cell] = []
        for y in 0..<screen.height {
            for x in 0..<screen.width { cells.append(screen[x, y]) }
        }
        #expect(cells.allSatisfy { $0.style.foreground == .normal && $0.style.background == .normal })
        #expect(cells.contains { $0.character == "i" && $0.style.reverse })
        #expect(cells.contains { $0.character == "2" && $0.style.bold && !$0.style.reverse })
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/pool-132x43-opStart-index-mono.screen", target: "loopvizTests")
    }

    @Test("the Why panel explains the latest pool event, also when the step is a worker's loop")
    func why() {
        var model = Self.model(width: 80, height: 24, after: "opStart upload2")
        let text = RenderTests.text(model)
        #expect(text.contains("upload2 starts on uploads.1, an idle worker reused"))
        model.cursor += 3
        #expect(model.currentEvent?.kind.isPool == false)
        #expect(RenderTests.text(model).contains("upload2 starts on uploads.1, an idle worker reused"))
    }

    @Test("the help overlay of the pool view lists the pool keys")
    func helpOverlay() {
        var model = Self.model(width: 132, height: 43, after: "opStart upload1")
        model.overlay = .help
        let text = RenderTests.text(model)
        for binding in KeyMap.bindings(in: .pool) { #expect(text.contains(binding.help), "\(binding.help)") }
        #expect(!text.contains("fire the selected timer now"))
        Snapshot.assertMatches(text, "Screens/pool-help-132x43.screen", target: "loopvizTests")
    }

    @Test("the loop view of a pool lesson shows the worker whose event is current, and says it has no declared items")
    func loopViewFollowsTheWorker() {
        var model = Self.model(width: 132, height: 43, after: "opStart upload1")
        model.view = .loop
        model.cursor = model.trace.firstIndex { $0.loop == "uploads.1" && $0.kind == .beforeTimers }! + 1
        let text = RenderTests.text(model)
        #expect(text.contains("thread uploads.1   mode default"), "\(text)")
        #expect(
            text.contains("thread uploads.1 was started by the run (a pool's worker or a detached thread)"), "\(text)")
    }

    @Test("stepping back then forward returns the identical pool screen")
    func stepBackAndForth() {
        var model = Self.model(width: 80, height: 24, after: "opStart index")
        let before = render(model)
        for _ in 0..<5 { _ = updateInline(&model, .key(.left)) }
        #expect(render(model) != before)
        for _ in 0..<5 { _ = updateInline(&model, .key(.right)) }
        #expect(render(model) == before)
    }
}

/// The pool lessons in `examples/` play in the pool view at the smallest size, in every theme.
@Suite("the pool lessons in the UI")
struct PoolLessonTests {
    static var lessons: [String] {
        let folder = Snapshot.packageRoot.appendingPathComponent("examples").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".loop") }
            .sorted().map { folder + "/" + $0 }
    }

    @Test("every lesson with a queue opens on the pool view and draws every pool step within 80×24")
    func lessons() throws {
        var checked = 0
        for path in Self.lessons {
            guard case .success(var model) = UICommand.loadModel(path), model.session.hasQueues else { continue }
            checked += 1
            #expect(model.view == .pool, "\(path)")
            _ = updateInline(&model, .resize(width: 80, height: 24))
            model.isPaused = true
            model.theme = .init(color: false, unicode: false)
            for index in model.trace.indices where model.trace[index].kind.isPool {
                model.cursor = index + 1
                let lines = render(model).lines
                #expect(lines.count == 24 && lines.allSatisfy { $0.count <= 80 && $0.allSatisfy(\.isASCII) })
                #expect(model.pool.queues.allSatisfy { $0.operations.allSatisfy { $0.symbol != "?" } })
            }
        }
        #expect(checked >= 1)
    }
}

extension PoolRenderTests {
    /// Two queues: c on P waits for a (on N, 50 ms) and b (on P, 100 ms).
    static func acrossQueues() -> AppModel {
        func add(_ name: String, on queue: String, _ millis: Int, after: [String] = []) -> Action {
            .addOperation(
                queue: queue,
                OperationSpec(name: name, dependencies: after, body: .work(.milliseconds(millis), checkEvery: nil)))
        }
        let scenario = Scenario(
            name: "Across queues",
            threads: [
                ThreadSpec(
                    name: "main", isMain: true, items: [.port("keepAlive")],
                    program: [
                        add("a", on: "N", 50), add("b", on: "P", 100), add("c", on: "P", 10, after: ["a", "b"]),
                        .run(.untilStopped),
                    ])
            ],
            queues: [QueueSpec(name: "N", limit: 1), QueueSpec(name: "P", limit: 1)])
        var model = AppModel(
            session: Session(script: LoopScript(scenario: scenario, until: .seconds(1))), fileName: "across.loop")
        _ = updateInline(&model, .resize(width: 80, height: 24))
        model.isPaused = true
        model.shownQueue = 1
        return model
    }

    @Test("a waiting operation lists the dependencies not finished yet, whichever queue each is on")
    func dependenciesAcrossQueues() {
        var model = Self.acrossQueues()
        // Wide enough for the whole row (at 80 columns the body ends at a word, with an ellipsis).
        _ = updateInline(&model, .resize(width: 132, height: 43))
        /// The queue panel's row of c, after the pool event `kind` of `name`.
        func rowOfC(after kind: LoopEvent.Kind, _ name: String) -> String? {
            model.cursor = model.trace.firstIndex { $0.kind == kind && $0.name == name }! + 1
            model.furthest = model.cursor
            return render(model).lines.first { $0.hasPrefix(" normal     c c ") }
        }
        #expect(rowOfC(after: .opStart, "b")?.contains("after a, b  work 0.010s") == true)
        // a (queue N) has finished: c waits for b alone.
        #expect(rowOfC(after: .opFinish, "a")?.contains("after b  work 0.010s") == true)
    }
}
