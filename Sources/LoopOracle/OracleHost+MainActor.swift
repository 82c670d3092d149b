import Foundation
import LoopEngine

/// Swift Concurrency's main actor on the real runtime: a real `Task { @MainActor in … }` that suspends at real
/// `Task.yield()` and `Task.sleep(for:)`, and a real `DispatchQueue.main.asyncAfter` - what the engine models as
/// main-queue jobs (docs/concurrency.md). Scenarios without a main thread are rejected up front.
extension OracleHost {
    func mainActorTask(_ name: String, _ parts: [MainActorTaskPart]) {
        guard let main = world.mainHost else { return }
        // The task holds its world (the host's reference is unowned): a job after the scenario's end reads it.
        let world = world
        world.mainJobs.enter()
        Task { @MainActor in
            defer { world.mainJobs.leave() }
            for (index, part) in parts.enumerated() {
                // After the scenario (a sleep past its end) the rest does nothing, as on the engine.
                guard !world.isHalted, !world.isFinished else { return }
                main.trace.record(.mainQueue, name, fact: .job(MainActorTaskPart.job(index, of: parts)))
                main.runTaskPart(name, part)
                switch part.await {
                case .yield?: await Task.yield()
                case .sleep(let duration)?: try? await Task.sleep(for: max(duration, .zero))
                case nil: return
                }
            }
        }
    }

    func asyncAfter(_ name: String, delay: Duration, _ inner: [Action]) {
        guard let main = world.mainHost else { return }
        let seconds = Double(max(delay, .zero).components.seconds) + Double(delay.components.attoseconds) / 1e18
        let world = world
        world.mainJobs.enter()
        DispatchQueue.main.asyncAfter(deadline: .now() + max(seconds, 0)) { [weak main] in
            defer { world.mainJobs.leave() }
            guard let main, !world.isHalted, !world.isFinished else { return }
            main.trace.record(.mainQueue, name, fact: .job(.asyncAfter(delay)))
            main.perform(inner)
        }
    }
}
