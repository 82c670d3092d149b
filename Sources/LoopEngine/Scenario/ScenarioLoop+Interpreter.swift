/// The one interpreter of the `.loop` language: what each action means - which thread's item it reaches, the
/// flags, conditions and owners, how many messages a `send` is, a `while` idiom's runs, where a perform goes -
/// written once for both adapters (``ScenarioLoop``). Only what an action does to a loop is the adapter's.
extension ScenarioLoop {
    /// Performs `actions` in order as this thread's code; on an outside event's thread (`outside`) until its
    /// adapter says the program has ended.
    /// Runs the program of thread `spec`: its actions, or the async `main` they are the body of.
    package func runProgram(of spec: ThreadSpec) {
        if spec.isAsyncMain {
            asyncMain(spec.name, MainActorTaskPart.parts(of: spec.program))
        } else {
            perform(spec.program)
        }
    }

    package func perform(_ actions: [Action], outside: Bool = false) {
        for action in actions {
            guard mayPerform(outside: outside) else { return }
            perform(action, outside: outside)
        }
    }

    private func perform(_ action: Action, outside: Bool) {
        defer { didPerform() }
        switch action {
        case .work(let duration):
            work(duration, outside: outside)
        case .signal(let name):
            owner(of: name).signal(name)
        case .send(let name, let count):
            send(count, to: name, of: owner(of: name))
        case .sendTo(let thread, let port, let count):
            // A port of that thread itself (the parser made it that thread's item); nothing before it starts.
            guard let target = self.thread(named: thread) else { return }
            send(count, to: port, of: target)
        case .start(let thread):
            startThread(thread)
        case .wakeUp:
            wakeUp()
        case .stop:
            stop()
        case .stopMode(let mode):
            stopMode(mode)
        case .add(let name, let mode):
            owner(of: name).add(name, mode, onThread: nil)
        case .remove(let name, let mode):
            owner(of: name).remove(name, mode, onThread: nil)
        case .addOn(let thread, let name, let mode):
            // A started thread's loop exists from its creation (docs/cfrunloop.md §17.1).
            guard hasLoop(named: thread) else { return }
            owner(of: name).add(name, mode, onThread: thread)
        case .removeOn(let thread, let name, let mode):
            guard hasLoop(named: thread) else { return }
            owner(of: name).remove(name, mode, onThread: thread)
        case .invalidate(let name):
            owner(of: name).invalidate(name)
        case .setNextFireDate(let name, let delay):
            owner(of: name).setNextFireDate(name, after: delay)
        case .fire(let name):
            fire(name, of: owner(of: name))
        case .performBlock(let name, let modes, let inner):
            performBlock(name, modes: modes, inner)
        case .mainQueue(let name, let inner):
            mainQueue(name, inner)
        case .mainActorTask(let name, let body):
            mainActorTask(name, MainActorTaskPart.parts(of: body))
        case .await:
            // Only directly in a `mainactor` body, which the interpreter cuts there (MainActorTaskPart).
            break
        case .asyncAfter(let name, let delay, let inner):
            asyncAfter(name, delay: delay, inner)
        case .addCommonMode(let mode):
            addCommonMode(mode)
        case .run(let call):
            runCall(call)
        case .note(let text):
            record(.note, nil, fact: .note(.say(text)))
        case .query(let question):
            ask(question)
        case .setFlag(let flag):
            _ = flags.assign(.flag(flag), true)
        case .assign(let reference, let value):
            if let note = flags.assign(reference, value) { ownerNote(note) }
        case .ifHolds(let condition, let inner):
            if holds(condition) { perform(inner, outside: outside) }
        case .dealloc(let owner, let inner):
            guard let begun = flags.beginDealloc(owner) else { return }
            ownerNote(begun)
            perform(inner, outside: outside)
            if let freed = flags.endDealloc(owner), !isHalted { ownerNote(freed) }
        case .performOn(let thread, let task, let wait, let inner):
            performOn(thread, task, wait: wait, inner)
        case .performOrdered(let task, let target, let order, let modes, let inner):
            performOrdered(task, target: target, order: order, modes: modes, inner)
        case .cancelPerforms(let task, let target):
            cancelOrderedPerforms(task: task, target: target)
        case .performDelayed(let task, let target, let delay, let modes, let inner):
            performDelayed(task, target: target, delay: delay, modes: modes, inner)
        case .cancelDelayedPerforms(let task, let target):
            cancelDelayedPerforms(task: task, target: target)
        case .post(let command, let source):
            owner(of: source).post(command, to: source)
        case .wakeUpThread(let thread):
            wakeUp(thread: thread)
        case .addOperation(let queue, let spec):
            addOperation(spec, to: queue)
        case .cancelOperation(let name):
            cancelOperation(name)
        case .cancelAll(let queue):
            cancelAll(queue)
        case .setSuspended(let queue, let flag):
            setSuspended(queue, flag)
        case .setLimit(let queue, let limit):
            setLimit(queue, limit)
        case .finishOperation(let name):
            finishOperation(name)
        case .waitUntilAllFinished(let queue):
            waitUntilAllFinished(queue)
        case .detach(let task, let inner):
            detach(task, inner)
        }
    }

    /// The thread that owns item `name`: this one, else the first other thread that has it (a thread holding a
    /// reference to another thread's timer or port, as real programs do); this one when none has it.
    package func owner(of name: String) -> Self {
        if hasItem(name) { return self }
        return firstThread { $0.hasItem(name) } ?? self
    }

    /// `count` messages to `target`'s port `name`, each an event: once the run is halted the rest are not sent.
    private func send(_ count: Int, to name: String, of target: Self) {
        for _ in 0..<max(count, 0) {
            if isHalted { return }
            target.send(name)
        }
    }

    // MARK: - Scripts

    /// One callout of item (or source callout) `key`: counts it, then performs the steps of `script` that apply
    /// to this call (and `activity`) as `performer`'s code - this thread's, or another thread's whose loop calls
    /// out this thread's item (`add … on THREAD`).
    package func runScript(_ key: String, _ script: [ScriptStep], activity: Activity?, as performer: Self) {
        let call = callCounts.next(key)
        for step in script where step.applies(call: call, activity: activity) {
            if isHalted { return }
            performer.perform([step.action])
        }
    }

    // MARK: - Conditions, owners and answers

    /// Tests `condition` as this thread's code; a bad access the test makes is recorded on this thread's trace.
    package func holds(_ condition: Condition) -> Bool {
        var notes: [LoopEvent.Note] = []
        let result = flags.holds(condition, notes: &notes)
        if !isHalted { for note in notes { ownerNote(note) } }
        return result
    }

    /// A note about an owner, named by it.
    private func ownerNote(_ note: LoopEvent.Note) {
        record(.note, note.ownerName, fact: .note(note))
    }

    /// Answers `question` about this thread's loop, and records the `query` event. The item it names is found as
    /// every action finds one (``owner(of:)``): this thread's, else the first other thread's that has it, so a
    /// question about another thread's timer asks CF about that very timer (in this loop's modes for `contains`).
    private func ask(_ question: LoopQuery) {
        let holder = question.item.map { owner(of: $0) } ?? self
        let answer = answer(question, itemsOf: holder)
        if isHalted { return }
        record(.query, nil, fact: .query(question, answer))
    }

    /// The Bool a `run(mode:before:)` of the program gave back, as the program sees it.
    package func returned(_ value: Bool) {
        if isHalted { return }
        record(.note, nil, fact: .returned(value))
    }

    // MARK: - Runs and performs

    /// A run call; the `while` idioms are the language's: a run per turn while the flag or condition says so.
    private func runCall(_ call: RunCall) {
        switch call {
        case .whileNot(let flag, let mode):
            runWhile(mode) { !flags.isSet(flag) }
        case .whileHolds(let condition, let mode):
            runWhile(mode) { holds(condition) }
        case .inMode, .untilStopped, .foundation, .foundationUntil, .acceptInput, .foundationForever:
            run(call)
        }
    }

    private func runWhile(_ mode: ModeName, _ condition: () -> Bool) {
        runs(in: mode) {
            while condition() && !isHalted {
                let ran = runOnce(mode)
                returned(ran)
                guard ran else {
                    // run(mode:before:) returned NO at once: the real idiom would spin here, burning a core.
                    diagnose(.emptyModeSpins(mode: mode.rawValue))
                    return
                }
            }
        }
    }

    /// `Timer.fire()` of `owner`'s timer `name`, called by this thread: Foundation calls the timer's block at once,
    /// on the calling thread - not in a timer pass of the loop, which neither marks it firing nor moves its date -
    /// and invalidates it afterwards when it does not repeat (docs/cfrunloop.md §9.5). An invalid timer: nothing.
    private func fire(_ name: String, of owner: Self) {
        guard let repeats = owner.timerRepeats(name) else { return }
        record(.timer, name, fact: .fireCalled(repeats: repeats))
        owner.runScript(name, owner.script(of: name), activity: nil, as: self)
        if !repeats && !isHalted { owner.invalidateAfterFire(name) }
    }

    /// One job of main-actor task `task` on the main thread: its part's actions, then what the task does next -
    /// it suspends at the part's `await`, or it is done.
    package func runTaskPart(_ task: String, _ part: MainActorTaskPart) {
        perform(part.actions)
        if isHalted { return }
        if let wait = part.await {
            record(.note, task, fact: .note(.taskSuspended(task: task, at: wait)))
        } else {
            record(.note, task, fact: .note(.taskFinished(task: task)))
        }
    }

    /// `performSelector:onThread:withObject:waitUntilDone:` from this thread.
    private func performOn(_ thread: String, _ task: String, wait: Bool, _ inner: [Action]) {
        // A started thread's loop exists from its creation, before its program has run (docs/cfrunloop.md §17.1).
        guard hasLoop(named: thread) else {
            diagnose(.noSuchThread(task: task, thread: thread))
            return
        }
        if isThisThread(thread) && wait {
            // Foundation performs at once when the target is the calling thread.
            diagnose(.performInline(task: task))
            perform(inner)
            return
        }
        performTask(task, onThread: thread, wait: wait, inner)
    }
}
