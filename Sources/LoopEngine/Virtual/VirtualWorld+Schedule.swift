/// The scheduler's choices at its branch points, taken from the world's `Schedule` and recorded as
/// `ScheduleBranchPoint`s.
extension VirtualWorld {
    /// Who goes on next.
    enum Pick {
        case outsideEvent
        case thread(VirtualThreadID)
    }

    /// Picks who goes on among the outside event due now (if `eventDue`) and the `runnable` threads (declaration
    /// order): the first, unless this is a branch point (two or more could go on, the world not halted) and the
    /// schedule says otherwise. Every branch point is recorded, up to `Schedule/maximumBranchPoints`.
    func choose(eventDue: Bool, runnable: [VirtualThreadID]) -> Pick {
        pick(among: (eventDue ? [Pick.outsideEvent] : []) + runnable.map { Pick.thread($0) })
    }

    /// The schedule's pick among `picks` (the default's order): a branch point when there are two or more.
    private func pick(among picks: [Pick]) -> Pick {
        let options = picks.map { pick -> ScheduleBranchPoint.Option in
            switch pick {
            case .outsideEvent: .outsideEvent(target: nextOutsideEventTarget)
            case .thread(let thread): .thread(threads[thread.rawValue].name)
            }
        }
        return picks[choice(among: options)]
    }

    /// The schedule's choice among `options` (option 0 is the default): a branch point, recorded, when there are
    /// two or more and the world is not halted.
    private func choice(among options: [ScheduleBranchPoint.Option]) -> Int {
        guard options.count > 1, haltReason == nil else { return 0 }
        guard branchPoints.count < Schedule.maximumBranchPoints else {
            branchPointsCut = true
            return 0
        }
        let index = branchPoints.count
        var chosen = schedule.choice(at: index)
        var point = ScheduleBranchPoint(
            index: index, time: now, eventCount: eventCount?() ?? 0, options: options, chosen: chosen)
        if chosen >= options.count {
            chosen = 0
            if unfittedBranchPoint == nil { unfittedBranchPoint = point }
            point.chosen = 0
        }
        branchPoints.append(point)
        return chosen
    }

    /// A job on its way back from the global executor and the main thread's look at the main queue: a branch
    /// point whose default is the job arriving first (what real runs show when the main thread has anything to
    /// do in between), the other the look coming first (fuzz seed 5 case 1316, docs/concurrency.md rule 4).
    public func hopArrivesBeforeLook(_ job: String, loop: String) -> Bool {
        choice(among: [.hop(job: job), .mainQueueLook(loop: loop)]) == 0
    }

    /// Which of a job on its way back from the global executor and a job queued behind it lands on the main queue
    /// first: a branch point whose default is the first one.
    public func overtakesHop(_ job: String, isHop: Bool, ahead: String, loop: String) -> Bool {
        choice(among: [.hop(job: ahead), isHop ? .hop(job: job) : .queued(job: job)]) == 1
    }

    /// Foundation's limit and CF's microsecond clock (`LoopWaiter.clockReadsBeforeLimit(loop:)`): a branch point
    /// whose default is the limit passed (a poll), the other CF's clock still a microsecond behind it (a wait).
    public func clockReadsBeforeLimit(loop: String) -> Bool {
        choice(among: [.limitPassed(loop: loop), .limitAhead(loop: loop)]) == 1
    }

    /// A timer-port wake and a timer due microseconds later (`LoopWaiter.wakeCameLate(loop:)`): a branch point
    /// whose default is the wake at the deadline, as the virtual kernel wakes, the other a wake late enough for
    /// that timer to be due in the same pass.
    public func wakeCameLate(loop: String) -> Bool {
        choice(among: [.wakeOnTime(loop: loop), .wakeLate(loop: loop)]) == 1
    }

    /// A point between two steps of the calling thread's code (a callout starting, a program or script going on
    /// to its next action), where on real threads another thread running at the same moment could act first.
    /// When another thread can go on now, or an outside event is due now, this is a branch point whose default
    /// (option 0) is the caller going on, as the world always did; another option gives the baton to that thread
    /// (the caller can go on again whenever the scheduler picks it) or performs that event first.
    func yieldPoint() {
        guard threads.count > 1 || !happenings.isEmpty, let thread = hostedCaller, haltReason == nil else { return }
        let eventDue = happenings.min.map { $0.key.time <= now } == true
        let others = runnableThreads().filter { $0 != thread }
        guard eventDue || !others.isEmpty else { return }
        let picks = [Pick.thread(thread)] + others.map { Pick.thread($0) } + (eventDue ? [Pick.outsideEvent] : [])
        switch pick(among: picks) {
        case .thread(let next) where next == thread:
            return
        case .outsideEvent:
            performNextOutsideEvent()
        case .thread(let next):
            guard let baton else { preconditionFailure("hosted threads run without a baton") }
            threads[thread.rawValue].phase = .yielded
            runningThread = next
            baton.pass(to: next.rawValue)
            baton.await(thread.rawValue)
            threads[thread.rawValue].phase = .running
        }
    }

    /// The thread the next outside event addresses (empty when it was scheduled without one).
    private var nextOutsideEventTarget: String {
        happenings.min.flatMap { happeningTargets[$0.key.sequence] } ?? ""
    }

    /// Performs the first outside event due now, on no virtual thread.
    func performNextOutsideEvent() {
        guard let first = happenings.popMin() else { return }
        happeningTargets[first.key.sequence] = nil
        outsideDepth += 1
        first.value()
        outsideDepth -= 1
    }
}
