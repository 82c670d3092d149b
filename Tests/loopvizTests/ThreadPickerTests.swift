import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// `t` chooses the thread whose loop the loop view shows; by default it follows the current event's thread.
@Suite("the loop view shows the thread you pick")
struct ThreadPickerTests {
    static func lesson(_ name: String, width: Int = 80, height: Int = 24) -> AppModel {
        let path = Snapshot.packageRoot.appendingPathComponent("examples/\(name)").path
        guard case .success(var model) = UICommand.loadModel(path) else { preconditionFailure(path) }
        _ = updateInline(&model, .resize(width: width, height: height))
        model.isPaused = true
        return model
    }

    static func press(_ keys: String, _ model: inout AppModel) {
        for key in keys { _ = updateInline(&model, .key(key == "\n" ? .enter : .character(key))) }
    }

    @Test("lesson 18, P then g 60: the loop view follows uploads.2, and t lists main and every worker")
    func uploadPool() {
        var model = Self.lesson("18-upload-pool.loop")
        Self.press("Pg60\n", &model)
        #expect(model.view == .loop && model.cursor == 60)
        let thread = model.loopThread
        #expect(thread != "main" && thread.hasPrefix("uploads."), "\(thread)")
        var lines = render(model).lines
        #expect(lines[1].contains("Loop of \(thread) (follows the step, t)"), "\(lines[1])")
        #expect(lines[2].contains("thread \(thread) "), "\(lines[2])")
        Self.press("t", &model)
        #expect(model.overlay == .threads(0))
        let rows = threadPickerRows(model).map(\.text)
        #expect(rows.first == "follow the current event's thread")
        #expect(rows.dropFirst().first == "thread main")
        let workers = Set(model.trace.filter { $0.kind == .threadCreate }.map(\.loop))
        #expect(workers.count >= 2)
        for worker in workers { #expect(rows.contains("thread \(worker)  (started by the run)"), "\(worker)") }
        let text = render(model).lines.joined(separator: "\n")
        #expect(text.contains("Show the loop of"), "\(text)")
        // j Enter: main, kept while stepping through the workers' events.
        Self.press("j\n", &model)
        #expect(model.shownThread == "main" && model.loopThread == "main" && model.overlay == .none)
        #expect(model.flash?.text == "the loop view shows thread main")
        Self.press("nnnn", &model)
        lines = render(model).lines
        #expect(lines[1].contains("Loop of main (pinned, t)"), "\(lines[1])")
        #expect(lines[2].contains("thread main "), "\(lines[2])")
        // The timeline has main's lane; the items are main's.
        #expect(model.items.map(\.name) == model.session.declaredThread(named: "main")?.items.map(\.name))
        // t, Home, Enter: following again.
        _ = updateInline(&model, .key(.character("t")))
        _ = updateInline(&model, .key(.home))
        _ = updateInline(&model, .key(.enter))
        #expect(model.shownThread == nil && model.flash?.text == "the loop view follows the current event's thread")
    }

    @Test("a worker's loop has no items to poke: the item keys say so")
    func workerHasNoItems() {
        var model = Self.lesson("18-upload-pool.loop")
        Self.press("Pg60\n", &model)
        let thread = model.loopThread
        Self.press("w", &model)
        #expect(
            model.flash?.text
                == "t picks a declared thread (thread \(thread) was started by the run: the file declares no loop "
                + "items for it to poke)")
        #expect(model.session.interventions.isEmpty)
    }

    @Test(
        "in the multi-thread lessons the picker lists every thread, and following names each event's thread",
        arguments: [
            "03-tasks-on-a-kept-alive-thread.loop", "21-thread-per-task-vs-pool.loop",
            "24-worker-checks-in-on-a-port.loop", "26-stop-on-the-wrong-thread.loop",
            "27-work-sent-to-a-finished-thread.loop",
        ])
    func multiThread(_ lesson: String) {
        var model = Self.lesson(lesson)
        if model.view == .pool { Self.press("P", &model) }
        let queues = Set(model.session.script.scenario.queues.map(\.name))
        let threads = model.trace.map(\.loop).filter { !queues.contains($0) }
        var seen: [String] = []
        for thread in model.session.script.scenario.threads.map(\.name) + threads where !seen.contains(thread) {
            seen.append(thread)
        }
        #expect(seen.count >= 2, "\(lesson) has several threads")
        #expect(model.threadNames == seen)
        for step in stride(from: 1, through: model.trace.count, by: max(1, model.trace.count / 40)) {
            model.cursor = step
            let event = model.trace[step - 1]
            guard !queues.contains(event.loop) else { continue }
            #expect(model.loopThread == event.loop)
            let title = render(model).lines[1]
            #expect(title.contains("Loop of \(event.loop)"), "\(lesson) step \(step): \(title)")
        }
        // Every thread can be chosen, and the loop view then shows it.
        for (row, thread) in seen.enumerated() {
            Self.press("t", &model)
            _ = updateInline(&model, .key(.home))
            for _ in 0...row { _ = updateInline(&model, .key(.down)) }
            _ = updateInline(&model, .key(.enter))
            #expect(model.shownThread == thread)
            #expect(render(model).lines[1].contains("Loop of \(thread)"))
        }
    }
}
