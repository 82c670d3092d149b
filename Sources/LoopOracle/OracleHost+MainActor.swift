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

#if os(Linux)
/// An async `main` on the real runtime, in a process of its own (``CFOracle/runAsyncMainEndingProcess``): what the
/// compiler's entry point does with `static func main() async` - the body as a main-actor task started at once on
/// the main thread (SE-0323), then `swift_task_asyncMainDrainQueue()`, which on Linux is `dispatch_main()` - and
/// `exit(0)` at the body's end.
extension OracleHost {
    func asyncMain(_ name: String, _ parts: [MainActorTaskPart]) {
        guard let exitProcess = world.exitProcess else { return }
        let world = world
        MainActor.assumeIsolated {
            _ = Task.immediate { @MainActor [self] in
                for (index, part) in parts.enumerated() {
                    guard !world.isHalted else { return }
                    if index > 0 { trace.record(.mainQueue, name, fact: .job(MainActorTaskPart.job(index, of: parts))) }
                    runTaskPart(name, part)
                    switch part.await {
                    case .yield?: await Task.yield()
                    case .sleep(let duration)?: try? await Task.sleep(for: max(duration, .zero))
                    case nil: break
                    }
                }
                trace.record(.note, name, fact: .note(.asyncMainExits(task: name, because: .returned)))
                exitProcess()
            }
        }
        // Here at the body's first suspension: the main thread goes where the runtime sends it.
        trace.record(.note, name, fact: .note(.asyncMainLeavesMainThread(task: name)))
        OracleAsyncMain.drainQueue()
    }
}

/// The Swift runtime's entry for an async `main` after its first suspension (what compiled code calls).
enum OracleAsyncMain {
    @_silgen_name("swift_task_asyncMainDrainQueue")
    private static func swiftTaskAsyncMainDrainQueue() -> Never

    static func drainQueue() -> Never { swiftTaskAsyncMainDrainQueue() }
}
#endif
