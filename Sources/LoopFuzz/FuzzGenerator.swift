import LoopEngine

/// Makes random valid scenarios from the `.loop` grammar, for the differential fuzzer (`loopviz fuzz`).
///
/// One secondary thread `T` (what the CF oracle runs), items of every kind in `default`, `M1` or the common modes,
/// callout scripts (work, signals, sends, wake-ups, stops, adds and removes, invalidations, reschedules, blocks,
/// one level of nested runs, queries, an owner's properties and `if` conditions), a program of set-up actions and
/// one to three runs (`run … for`, Foundation's `RunLoop.run … before`, `run until`, `acceptInput`, the
/// `while not FLAG` idiom, `while COND` over an owner going away) and outside events (queries from another thread
/// and an owner's `dealloc` among them). Also ordered performs and their cancels, a version-0 source's schedule
/// and cancel callouts with its command queue (`commands N`, `post`), and sometimes a second thread `U` (maybe
/// `later`, started by T's program) that T hands work to from its timers (`send … on U`, `perform … on U`,
/// `post`/`signal` of U's source, `wakeup on U`); U never acts on T (``SecondThread``).
///
/// Every time is a multiple of ``grid`` (20 ms), so that instants the real CFRunLoop reaches by different routes
/// (a timer, an outside thread, a run's limit) are far apart compared with scheduling noise; the shapes that are
/// still a race are discarded by ``FuzzValidator`` (docs/fuzzing.md lists what is excluded and why).
struct FuzzGenerator {
    /// The spacing of every scheduled instant.
    static let grid = Duration.milliseconds(20)

    var rng: SplitMix64
    /// The draws of the shapes added since seed 1's campaigns (the main thread, …): a stream of their own, so that
    /// a case to which they add nothing is the very scenario it was before them.
    var extra: SplitMix64
    /// The async main's draws (``addAsyncMain(to:)``): a third stream, so that the cases before it are unchanged.
    var asyncMainDraws: SplitMix64
    let maxItems: Int

    var sources0: [String] = []
    var ports: [String] = []
    var timers: [String] = []
    var observers: [String] = []
    /// Two observers share an order: a mode made common after they were added to the common modes gets them in
    /// CFSet order (their addresses' hashes), so their calls of one activity come in an order that changes from
    /// run to run (seed 79 case 1022).
    var observersShareAnOrder = false
    var blocks = 0
    var flag: String?
    /// The owner `vc` with its weak reference `weakSelf` (`owner vc weak weakSelf`), in some scenarios.
    var hasOwner = false
    /// Whether `dealloc vc` has been generated: an owner goes away once.
    var deallocated = false
    static let owner = "vc"
    static let weakName = "weakSelf"
    /// The second thread, when the scenario has one.
    var second: SecondThread?
    /// Whether the script being generated may hand work over to the second thread: only a timer's, due at 20 ms
    /// or later, so that every hand-over comes after U exists and runs, at an instant of T's own (docs/fuzzing.md).
    var handOverAllowed = false
    /// The targets and tasks of ordered performs (`perform f1 target str order 2`).
    static let performTargets = ["self", "str"]
    static let performTasks = ["f1", "f2", "f3"]
    static let commands = ["c1", "c2", "c3"]

    init(seed: UInt64, maxItems: Int) {
        rng = SplitMix64(seed: seed)
        extra = SplitMix64(seed: seed ^ Self.extraStream)
        asyncMainDraws = SplitMix64(seed: seed ^ Self.asyncMainStream)
        self.maxItems = max(1, maxItems)
    }

    /// What sets the extra stream apart from the first.
    static let extraStream: UInt64 = 0x6D61_696E_7468_7264
    /// What sets the async main's stream apart from the other two.
    static let asyncMainStream: UInt64 = 0x6173_796E_636D_6169

    var items: [String] { sources0 + ports + timers + observers }
    static let modes: [ModeName] = [.default, "M1"]

    mutating func grid(_ range: ClosedRange<Int>) -> Duration { Self.grid * rng.int(range) }

    /// One scenario named `name`.
    mutating func scenario(name: String) -> Scenario {
        let common: [ModeName] = rng.chance(30) ? ["M1"] : []
        let count = rng.int(1...maxItems)
        var kinds: [Int] = (0..<count).map { _ in rng.int(0...3) }
        kinds.sort()
        for kind in kinds {
            switch kind {
            case 0: sources0.append("s\(sources0.count + 1)")
            case 1: ports.append("p\(ports.count + 1)")
            case 2: timers.append("t\(timers.count + 1)")
            default: observers.append("o\(observers.count + 1)")
            }
        }
        if rng.chance(15) { flag = "done" }
        hasOwner = rng.chance(25)
        var specs: [ItemSpec] = []
        if rng.chance(25) {
            second = SecondThread(later: rng.chance(50))
            // No outside events with two threads (so no flag or owner loop, which one ends): T's program may
            // return before an event addressed to it, and CF tears T's loop down then, which the engine does not
            // model (with one thread, the outside events stop when its program has returned).
            flag = nil
            hasOwner = false
        }
        for name in sources0 {
            let order = rng.chance(30) ? rng.int(-2...2) : 0
            var spec = ItemSpec.source0(name, order: order, modes: itemModes(), script(observer: false))
            if rng.chance(30) { spec.sourceCallouts = sourceCallouts(name) }
            specs.append(spec)
        }
        for name in ports { specs.append(.port(name, modes: itemModes(), script(observer: false))) }
        for name in timers {
            let interval = rng.chance(40) ? grid(1...4) : .zero
            let first = grid(0...6)
            handOverAllowed = second != nil && first >= Self.grid
            let steps = script(observer: false)
            handOverAllowed = false
            specs.append(.timer(name, first: first, every: interval, modes: itemModes(), steps))
        }
        var observerOrders: Set<Int> = []
        for name in observers {
            var activities: Activity = []
            if rng.chance(25) {
                activities = .allActivities
            } else {
                for activity in Activity.each where rng.chance(35) { activities.insert(activity) }
                if activities.isEmpty { activities = rng.pick(Activity.each) }
            }
            let order = rng.chance(30) ? rng.int(-2...2) : 0
            if !observerOrders.insert(order).inserted { observersShareAnOrder = true }
            specs.append(
                .observer(
                    name, activities, repeats: !rng.chance(20), order: order, modes: itemModes(),
                    script(observer: true)))
        }
        var program: [Action] = []
        if let second, second.later { program.append(.start(thread: SecondThread.name)) }
        for _ in 0..<rng.int(0...2) {
            let action = setUpAction()
            // A program's first `common M` would read back as the thread's common modes (set before the items).
            if program.isEmpty, case .addCommonMode = action { continue }
            // Nor may a `common M` follow a `start U` (the parser reads it as T's common modes, too).
            if program.count == 1, case .start = program[0], case .addCommonMode = action { continue }
            program.append(action)
        }
        let runs = rng.int(1...3)
        var usesWhile = false
        var ownerWhile: Condition?
        for index in 0..<runs {
            var call = runCall(allowWhile: flag != nil && index == runs - 1)
            if hasOwner, index == runs - 1, flag == nil || rng.chance(50), rng.chance(60) {
                call = .whileHolds(ownerWhileCondition(), mode: rng.pick(Self.modes))
            }
            if case .whileNot = call { usesWhile = true }
            if case .whileHolds(let condition, _) = call { ownerWhile = condition }
            program.append(.run(call))
            if rng.chance(20) { program.append(setUpAction()) }
        }
        var outside: [OutsideEvent] = []
        var times = Set<Int>()
        for _ in 0..<(second == nil ? rng.int(0...3) : 0) {
            let slot = rng.int(1...10)
            guard times.insert(slot).inserted else { continue }
            outside.append(OutsideEvent(at: Self.grid * slot, outsideActions()))
        }
        if let flag, usesWhile {
            // The idiom needs its flag set and a stop to notice it: both at one grid instant.
            let slot = (1...12).first { !times.contains($0) && $0 >= 6 } ?? 12
            times.insert(slot)
            outside.append(OutsideEvent(at: Self.grid * slot, [.setFlag(flag), .stop]))
        }
        if let ownerWhile {
            // The owner's loop ends when its property is set or it goes away, and a stop makes the run notice.
            // (Some pairs never end, `while not weakSelf.stopped` after a dealloc: the validator discards those.)
            let slot = (1...12).first { !times.contains($0) && $0 >= 6 } ?? 12
            outside.append(OutsideEvent(at: Self.grid * slot, [ownerEnding(ownerWhile), .stop]))
        }
        outside.sort { $0.time < $1.time }
        var scenario = Scenario(name: name, commonModes: common, items: specs, program: program, outside: outside)
        if hasOwner { scenario.owners = [OwnerSpec(name: Self.owner, weakName: Self.weakName)] }
        if let second {
            scenario.threads.append(secondThread(second))
        } else {
            withExtraStream { $0.addMainThread(to: &scenario) }
        }
        withExtraStream { $0.addDelayedPerforms(to: &scenario) }
        if second == nil { withExtraStream { $0.addRunUntilStopped(to: &scenario) } }
        withExtraStream { $0.addConcurrency(to: &scenario) }
        withExtraStream { $0.addTimerCalls(to: &scenario) }
        withExtraStream { $0.addFoundationTimers(to: &scenario) }
        withExtraStream { $0.addSecondThreadOwner(to: &scenario) }
        swap(&rng, &asyncMainDraws)
        addAsyncMain(to: &scenario)
        swap(&rng, &asyncMainDraws)
        return scenario
    }

    private mutating func itemModes() -> [ModeName] {
        switch rng.int(0...19) {
        case 0...9: [.default]
        case 10...12: ["M1"]
        case 13...15: [.default, "M1"]
        case 16...18: [.common]
        default: []
        }
    }

    mutating func script(observer: Bool) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        for _ in 0..<rng.int(0...(observer ? 2 : 3)) {
            let action = calloutAction(depth: 0)
            var when: ScriptStep.When = .always
            switch rng.int(0...9) {
            case 0...3: when = .always
            case 4...5: when = .call(rng.int(1...3))
            case 6...7: when = .callsThrough(rng.int(1...3))
            default: when = observer ? .activity(rng.pick(Activity.each)) : .call(1)
            }
            // A nested run on every call of an item the nested run calls again would recurse: once, or twice. A
            // limit date polls the mode, a nested run too.
            if case .run = action { when = .call(rng.int(1...2)) }
            // An ordered perform on every call would queue one per iteration for ever.
            if case .performOrdered = action { when = .call(rng.int(1...2)) }
            if case .query(.limitDate) = action { when = .call(rng.int(1...2)) }
            steps.append(ScriptStep(action, when: when))
        }
        if handOverAllowed, rng.chance(70) {
            let action = handOver()
            var when: ScriptStep.When = rng.chance(50) ? .call(1) : .always
            if case .performOn(_, _, true, _) = action { when = .call(1) }
            steps.append(ScriptStep(action, when: when))
        }
        return steps
    }

    mutating func anyItem() -> String? { items.isEmpty ? nil : rng.pick(items) }

    mutating func anyMode(common: Bool = true) -> ModeName {
        common && rng.chance(15) ? .common : rng.pick(Self.modes)
    }

    /// What a callout does; `depth` counts the blocks and nested runs around it.
    mutating func calloutAction(depth: Int) -> Action {
        while true {
            switch rng.int(0...20) {
            case 0, 1: return .work(.milliseconds(rng.pick([1, 2, 5, 10])))
            case 2: if let s = sources0.isEmpty ? nil : rng.pick(sources0) { return .signal(s) }
            case 3: if let p = ports.isEmpty ? nil : rng.pick(ports) { return .send(p, count: rng.int(1...2)) }
            case 4: return .wakeUp
            case 5: return .stop
            case 6: if let item = anyItem() { return .add(item, anyMode()) }
            case 7: if let item = anyItem() { return .remove(item, anyMode()) }
            case 8: if let item = anyItem(), rng.chance(50) { return .invalidate(item) }
            case 9:
                if let t = timers.isEmpty ? nil : rng.pick(timers) { return .setNextFireDate(t, after: grid(-1...3)) }
            case 10, 11:
                if depth < 1 { return block(depth: depth) }
            case 12:
                if depth < 1 {
                    let mode = rng.pick(Self.modes)
                    return .run(
                        .inMode(mode, seconds: grid(0...3).secondsValue, returnAfterSourceHandled: rng.chance(40)))
                }
            case 13: if let flag { return .setFlag(flag) }
            case 14: return .query(question(pollingAllowed: depth == 0))
            case 15: if hasOwner { return .assign(property(weak: rng.chance(50)), rng.chance(70)) }
            case 16:
                if depth < 1, hasOwner || flag != nil {
                    let inner = (0..<rng.int(1...2)).map { _ in calloutAction(depth: depth + 1) }
                    return .ifHolds(condition(), inner)
                }
            case 18:
                if let s = sources0.isEmpty ? nil : rng.pick(sources0) {
                    return .post(command: rng.pick(Self.commands), source: s)
                }
            case 19: if depth < 1 { return orderedPerform(depth: depth) }
            case 20:
                let target = rng.pick(Self.performTargets)
                return .cancelPerforms(task: rng.chance(60) ? rng.pick(Self.performTasks) : nil, target: target)
            default: if let s = sources0.isEmpty ? nil : rng.pick(sources0), rng.chance(50) { return .signal(s) }
            }
        }
    }

    /// `perform fN target X order N [in M, …]` with up to two actions inside.
    private mutating func orderedPerform(depth: Int) -> Action {
        let modes: [ModeName] = rng.pick([[.default], [.default], ["M1"], [.default, "M1"], [.common]])
        let inner = (0..<rng.int(0...2)).map { _ in calloutAction(depth: depth + 1) }
        return .performOrdered(
            task: rng.pick(Self.performTasks), target: rng.pick(Self.performTargets), order: rng.int(0...3),
            modes: modes, inner)
    }

    /// A question for `query`. `pollingAllowed`: whether `limitDate` may be asked (on the loop's own thread it
    /// polls the mode, a nested run; in a block or an `if` of a callout that could recur).
    private mutating func question(pollingAllowed: Bool) -> LoopQuery {
        let modes: [ModeName] = [.default, "M1", "M2"]
        while true {
            switch rng.int(0...8) {
            case 0: return .currentMode
            case 1: if pollingAllowed { return .limitDate(rng.pick(modes)) }
            case 2: return .nextTimerFireDate(rng.pick(modes))
            case 3: return .isWaiting
            case 4, 5: if let item = anyItem() { return .contains(item: item, mode: anyMode()) }
            case 6: if let item = anyItem() { return .isValid(item: item) }
            case 7: if let t = timers.isEmpty ? nil : rng.pick(timers) { return .nextFireDate(timer: t) }
            default: return .allModes
            }
        }
    }

    private mutating func block(depth: Int) -> Action {
        blocks += 1
        let name = "B\(blocks)"
        var modes: [ModeName] = [.default]
        switch rng.int(0...5) {
        case 0: modes = ["M1"]
        case 1: modes = [.default, "M1"]
        case 2: modes = [.common]
        default: break
        }
        let inner = (0..<rng.int(0...2)).map { _ in calloutAction(depth: depth + 1) }
        return .performBlock(name, modes: modes, inner)
    }

    /// An action of the program before (or between) its runs.
    private mutating func setUpAction() -> Action {
        switch rng.int(0...7) {
        case 0: if let s = sources0.isEmpty ? nil : rng.pick(sources0) { return .signal(s) }
        case 1: if let p = ports.isEmpty ? nil : rng.pick(ports) { return .send(p, count: 1) }
        case 2: return block(depth: 0)
        case 3: if rng.chance(30) { return .stop }
        // With two source0s, CFRunLoopAddCommonMode calls their schedule callouts in CFSet order (their
        // addresses' hashes), not a rule: seed 1 case 4269. Two observers of one order join the mode in that
        // order too, and are called in it (seed 79 case 1022).
        case 4: if sources0.count < 2 && !observersShareAnOrder { return .addCommonMode("M1") }
        case 5: return .query(question(pollingAllowed: true))
        case 6: if rng.chance(50) { return orderedPerform(depth: 0) }
        default: break
        }
        return calloutAction(depth: 1)
    }

    private mutating func runCall(allowWhile: Bool) -> RunCall {
        if allowWhile { return .whileNot(flag: flag ?? "done", mode: rng.pick(Self.modes)) }
        let mode: ModeName = rng.chance(8) ? rng.pick([.common, "M2"]) : rng.pick(Self.modes)
        switch rng.int(0...9) {
        case 0...4:
            let limit = rng.chance(5) ? .zero - Self.grid : grid(0...6)
            return .inMode(mode, seconds: limit.secondsValue, returnAfterSourceHandled: rng.chance(30))
        case 5, 6: return .foundation(mode, before: date())
        case 7: return .foundationUntil(date())
        default: return .acceptInput(mode, before: date())
        }
    }

    private mutating func date() -> FoundationDate {
        switch rng.int(0...9) {
        case 0: return .distantPast
        case 1, 2: return .sinceStart(grid(1...8))
        default: return .fromNow(grid(0...5))
        }
    }

    private mutating func outsideActions() -> [Action] {
        switch rng.int(0...9) {
        case 0...2:
            if let s = sources0.isEmpty ? nil : rng.pick(sources0) { return [.signal(s), .wakeUp] }
        case 3, 4:
            if let p = ports.isEmpty ? nil : rng.pick(ports) { return [.send(p, count: rng.int(1...2))] }
        case 5: return [.stop]
        case 6: return [block(depth: 0), .wakeUp]
        case 7: if let item = anyItem() { return [rng.chance(50) ? .add(item, anyMode()) : .remove(item, anyMode())] }
        case 8: if let t = timers.isEmpty ? nil : rng.pick(timers) { return [.setNextFireDate(t, after: grid(0...2))] }
        case 9:
            // From another thread: what it sees of the loop (limitDate answers nil there, without polling).
            if rng.chance(70) { return [.query(question(pollingAllowed: true))] }
            if hasOwner, !deallocated {
                deallocated = true
                return [.dealloc(owner: Self.owner, []), .wakeUp]
            }
        default: break
        }
        return [.wakeUp]
    }
}
