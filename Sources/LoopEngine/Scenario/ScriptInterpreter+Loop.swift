/// The engine's adapter of the `.loop` language (``ScenarioLoop``): what each action does to a `RunLoopCore`.
/// What an action means - flags, conditions, owners, counts - is decided in `ScenarioLoop+Interpreter.swift`.
extension ScriptInterpreter: ScenarioLoop {
    // MARK: - The scenario around the loop

    var flags: ScenarioFlags { shared.flags }
    var isHalted: Bool { world.isHalted }

    func thread(named name: String) -> ScriptInterpreter? {
        shared.host(named: name)
    }

    func hasLoop(named name: String) -> Bool {
        shared.loop(named: name) != nil
    }

    func isThisThread(_ name: String) -> Bool {
        shared.loop(named: name) === loop
    }

    func firstThread(where test: (ScriptInterpreter) -> Bool) -> ScriptInterpreter? {
        shared.firstHost(where: test)
    }

    // MARK: - The interpreter's hooks

    func mayPerform(outside: Bool) -> Bool {
        world.otherThreadsMayAct()
        return !world.isHalted
    }

    func didPerform() {}

    func record(_ kind: LoopEvent.Kind, _ name: String?, fact: LoopEvent.Fact?) {
        loop.record(kind, name, fact: fact)
    }

    func diagnose(_ note: LoopEvent.Note) {
        loop.note(note)
    }

    // MARK: - Items and modes

    func add(_ name: String, _ mode: ModeName, onThread thread: String?) {
        // The engine core applies CF's rule for an item of another loop.
        guard let target = thread.map({ shared.loop(named: $0) }) ?? loop else { return }
        if let source = sources[name] { target.add(source, to: mode) }
        if let timer = timers[name] { target.add(timer, to: mode) }
        if let observer = observers[name] { target.add(observer, to: mode) }
    }

    func remove(_ name: String, _ mode: ModeName, onThread thread: String?) {
        guard let target = thread.map({ shared.loop(named: $0) }) ?? loop else { return }
        if let source = sources[name] { target.remove(source, from: mode) }
        if let timer = timers[name] { target.remove(timer, from: mode) }
        if let observer = observers[name] { target.remove(observer, from: mode) }
    }

    func invalidate(_ name: String) {
        sources[name]?.invalidate()
        dropCommands(of: name)
        timers[name]?.invalidate()
        observers[name]?.invalidate()
    }

    func signal(_ name: String) {
        sources[name]?.signal()
    }

    func send(_ name: String) {
        sources[name]?.send()
    }

    func setNextFireDate(_ name: String, after delay: Duration) {
        timers[name]?.setNextFireDate(loop.clock.now + delay)
    }

    func timerRepeats(_ name: String) -> Bool? {
        guard let timer = timers[name], timer.isValid else { return nil }
        return timer.isRepeating
    }

    func script(of name: String) -> [ScriptStep] {
        scripts[name] ?? []
    }

    func invalidateAfterFire(_ name: String) {
        timers[name]?.invalidateUnreported()
    }

    func addCommonMode(_ mode: ModeName) {
        loop.addCommonMode(mode)
    }

    // MARK: - The loop

    func work(_ duration: Duration, outside: Bool) {
        world.work(duration)
    }

    func wakeUp() {
        loop.wakeUp()
    }

    func wakeUp(thread: String) {
        shared.loop(named: thread)?.wakeUp()
    }

    func stop() {
        loop.stop()
    }

    func stopMode(_ mode: ModeName) {
        loop.stopMode(mode)
    }

    func runOnce(_ mode: ModeName) -> Bool {
        loop.runFoundation(mode: mode, before: .distantFuture)
    }

    func runs(in mode: ModeName, _ body: () -> Void) {
        body()
    }

    // MARK: - Blocks, performs and threads

    func performBlock(_ name: String, modes: [ModeName], _ inner: [Action]) {
        loop.perform(name, modes: modes) { [unowned self] in
            self.world.otherThreadsMayAct()
            self.perform(inner)
        }
    }

    func mainQueue(_ name: String, _ inner: [Action]) {
        // DispatchQueue.main.async from any thread targets the main thread's loop.
        mainHost.loop.performOnMainQueue(name) { [unowned mainHost] in mainHost.perform(inner) }
    }

    /// The main thread's host (the parser requires one for `mainqueue`, `mainactor` and `asyncafter`).
    private var mainHost: ScriptInterpreter {
        loop.isMainThread ? self : (shared.hosts.first { $0.loop.isMainThread } ?? self)
    }

    func mainActorTask(_ name: String, _ parts: [MainActorTaskPart]) {
        mainHost.queueTaskPart(name, parts, 0, at: nil)
    }

    func asyncMain(_ name: String, _ parts: [MainActorTaskPart]) {
        // Its first part is the program's, on the main thread before any run loop (SE-0323).
        runTaskPart(name, parts[0])
        guard !isHalted else { return }
        guard let wait = parts[0].await else { return exitProcess(name, .returned) }
        queueRest(name, parts, after: wait, then: { [unowned self] in self.exitProcess(name, .returned) })
        switch loop.profile {
        case .linux:
            // `dispatch_main()` (probed): the main thread leaves; its loop never runs again.
            record(.note, name, fact: .note(.asyncMainLeavesMainThread(task: name)))
            loop.serveMainQueueWithoutLoop()
        case .darwin:
            // `CFRunLoopRun()`, then `exit(0)` (the runtime's source; not verified here).
            record(.note, name, fact: .note(.asyncMainRunsMainLoop(task: name)))
            loop.runUntilStopped()
            if !isHalted { exitProcess(name, .loopReturned) }
        }
    }

    /// `exit(0)` of the scenario's process: the trace ends here, every thread with it.
    private func exitProcess(_ name: String, _ reason: LoopEvent.AsyncMainExit) {
        record(.note, name, fact: .note(.asyncMainExits(task: name, because: reason)))
        world.exitProcess()
    }

    /// Queues the part after an `await` (`wait`, which ended part `index - 1`).
    private func queueRest(
        _ name: String, _ parts: [MainActorTaskPart], after wait: TaskAwait, index: Int = 1,
        then finished: (() -> Void)?
    ) {
        switch wait {
        case .yield: queueTaskPart(name, parts, index, at: nil, hop: true, then: finished)
        case .sleep(let duration):
            queueTaskPart(name, parts, index, at: world.clock.now + max(duration, .zero), then: finished)
        }
    }

    /// Queues part `index` of a main-actor task on the main queue, now or (after a `Task.sleep`) at `instant`;
    /// when it has run, its `await` queues the next: `yield` at the back of the queue, by way of the global
    /// executor (`hop`: the main thread's next look at the main queue may come before it); `sleep` when its
    /// libdispatch timer fires (docs/concurrency.md, rules 1, 4 and 5).
    /// `finished` runs after the task's last part (an async `main`'s `exit(0)`).
    private func queueTaskPart(
        _ name: String, _ parts: [MainActorTaskPart], _ index: Int, at instant: LoopInstant?, hop: Bool = false,
        then finished: (() -> Void)? = nil
    ) {
        let job = MainActorTaskPart.job(index, of: parts)
        let run = { [unowned self] in
            self.runTaskPart(name, parts[index])
            guard !self.isHalted else { return }
            guard index + 1 < parts.count, let wait = parts[index].await else {
                finished?()
                return
            }
            self.queueRest(name, parts, after: wait, index: index + 1, then: finished)
        }
        if let instant {
            loop.performOnMainQueue(at: instant, name, job: job, run)
        } else {
            loop.performOnMainQueue(name, job: job, afterHop: hop, run)
        }
    }

    func asyncAfter(_ name: String, delay: Duration, _ inner: [Action]) {
        let main = mainHost
        let fire = world.clock.now + max(delay, .zero)
        main.loop.performOnMainQueue(at: fire, name, job: .asyncAfter(delay)) { [unowned main] in
            main.perform(inner)
            // libdispatch queues the timer's teardown behind its handler (docs/concurrency.md, rule 7).
            main.loop.performOnMainQueue(name, job: .asyncAfterTeardown) {}
        }
    }

    func performTask(_ task: String, onThread thread: String, wait: Bool, _ inner: [Action]) {
        guard let target = shared.loop(named: thread) else { return }
        // The task runs on the target's thread, whose host exists by then (a thread just started makes it first).
        let shared = shared
        guard wait else {
            target.performTask(task) { shared.host(named: thread)?.perform(inner) }
            return
        }
        // waitUntilDone: this thread blocks (virtually) until the target's loop has run the task. If it never
        // does - the target's program has ended, or it waits for this thread - the world ends up halting idle.
        let done = AtomicFlag()
        target.performTask(task) {
            shared.host(named: thread)?.perform(inner)
            done.set(true)
        }
        world.block(for: .performed(task: task, target: target.name)) { done.value }
    }

    func performOrdered(_ task: String, target: String, order: Int, modes: [ModeName], _ inner: [Action]) {
        loop.performOrdered(task, target: target, order: order, modes: modes) { [unowned self] in
            self.world.otherThreadsMayAct()
            self.perform(inner)
        }
    }

    func cancelOrderedPerforms(task: String?, target: String) {
        loop.cancelOrderedPerforms(task: task, target: target)
    }

    func performDelayed(_ task: String, target: String, delay: Duration, modes: [ModeName], _ inner: [Action]) {
        loop.performAfterDelay(task, target: target, delay: delay, modes: modes) { [unowned self] in
            self.world.otherThreadsMayAct()
            self.perform(inner)
        }
    }

    func cancelDelayedPerforms(task: String?, target: String) {
        loop.cancelDelayedPerforms(task: task, target: target)
    }

    // MARK: - Operation queues

    func addOperation(_ spec: OperationSpec, to queue: String) {
        guard let target = shared.queue(named: queue) else {
            loop.note(.noSuchQueue(operation: spec.name, queue: queue))
            return
        }
        target.add(spec)
    }

    func cancelOperation(_ name: String) {
        shared.queue(having: name)?.cancel(name)
    }

    func cancelAll(_ queue: String) {
        shared.queue(named: queue)?.cancelAll()
    }

    func setSuspended(_ queue: String, _ flag: Bool) {
        shared.queue(named: queue)?.setSuspended(flag)
    }

    func setLimit(_ queue: String, _ limit: Int?) {
        shared.queue(named: queue)?.setLimit(limit)
    }

    func finishOperation(_ name: String) {
        shared.queue(having: name)?.finishAsync(name)
    }

    func waitUntilAllFinished(_ queue: String) {
        shared.queue(named: queue)?.waitUntilAllFinished()
    }
}
