/// The virtual clock and kernel: deterministic, where time moves only when every thread waits (to the next
/// deadline or the next scripted outside event) or a callout declares that it works for a while.
///
/// Outside events (what another thread or the user does at a given time) are scheduled with
/// ``at(_:_:)``; the world performs them, in time order, whenever time passes over them - while a loop sleeps
/// or while a callout works. The same inputs always produce the same trace.
///
/// A world can host several virtual threads, each with its own loop, on one clock (see `runThreads`): each runs on
/// an OS thread of its own, but only one at a time, and the world alone decides which (see
/// `VirtualWorld+Threads.swift`). A world used without hosted threads is driven by its caller, as one thread.
///
/// A world halts when it would have to move past its ``horizon``, or when nothing left could ever wake a
/// waiting thread (``HaltReason/idle``); every run then unwinds without further callouts.
public final class VirtualWorld: LoopClock, LoopWaiter, @unchecked Sendable {
    // @unchecked Sendable: a virtual world is driven by one thread at a time (the caller, or the holder of the
    // baton when it hosts threads); its loops hold `engineLock`.

    /// Why a world stopped moving.
    public enum HaltReason: Sendable, Equatable {
        /// Time would have passed the horizon.
        case horizon
        /// Every thread waited with nothing scheduled that could wake it: they would sleep forever.
        case idle
        /// ``halt()`` was called (a replay reached the step it wanted).
        case requested
        /// The scenario's process exited: its async `main` returned (or, on Darwin, the run loop it ran did).
        /// A normal end, as every program's end is.
        case exited
        /// A loop refused a run nested deeper than ``RunLoopCore/maximumNestingDepth``.
        case nestingLimit(NestingLimit)
        /// A thread could not be created: the thread limit, or the OS refused it.
        case threadLimit(ThreadLimit)
        /// The real backend could not have a file descriptor (too many open files); never on the virtual clock.
        case descriptorLimit(DescriptorLimit)
        /// The run did more item operations than its work budget (``WorkLimit``).
        case workLimit(WorkLimit)
    }

    /// What one iteration of a loop costs on this clock unless a world is told otherwise: 1.5 µs, the time one
    /// iteration of the real CFRunLoop takes on the machine loopviz is checked on (2 cores, Linux). There
    /// `loopviz bench` measures CF at 1.65 µs per iteration with no observer on an idle machine (1.9-2.0 µs
    /// under load), and a source0 that signals itself from its perform, run for 20 ms after a first signal at
    /// 1 ms, performs about 14,000 times when idle (1.4 µs an iteration) and 4,000-9,600 times under load. At
    /// 1.5 µs the engine performs it 12,666 times: the same order, deterministically.
    public static let defaultIterationCost: Duration = .nanoseconds(1_500)

    public let profile: PlatformProfile
    public let engineLock = LoopLock()
    /// Time never moves past this instant.
    public var horizon: LoopInstant = .distantFuture
    /// Why the world halted (the horizon, idle, the nesting or thread limit); nil while it runs.
    public internal(set) var haltReason: HaltReason? {
        didSet { halted = haltReason != nil }
    }
    /// When the world went idle: the threads it left blocked in a wait nothing could end (``StuckWait``).
    public internal(set) var stuckWaits: [StuckWait] = []
    /// `haltReason != nil`, kept on its own: the core asks at every step, and a private stored flag is read
    /// without the dynamic exclusivity check that a public property costs.
    private var halted = false

    /// True once the world has halted.
    public var isHalted: Bool { halted }

    /// The clock; moved forward only, by `spend`, `spendIteration` and `advance`.
    var current: LoopInstant = .zero
    // The kernel's state, kept by VirtualWorld+Ports.swift.
    var ports: [VirtualPort] = []
    var portSets: [VirtualPortSet] = []
    var armGroups: [VirtualArmGroup] = []
    /// Closed arm groups, whose places the next groups take.
    var freeArmGroups: [Int] = []
    /// The work budget in item operations (``WorkLimit``); nil: none. Set before the run.
    package var workLimit: Int?
    /// Item operations the loops reported so far (``spendWork(_:)``).
    package internal(set) var workDone = 0
    /// How many arms of groups the world made, and how many ports joined a group (tests read them).
    package internal(set) var armGroupArms = 0
    package internal(set) var armGroupJoins = 0
    /// The outside events to come, by time, then by the order they were scheduled in; found by that sequence
    /// number to cancel.
    var happenings = IndexedHeap<UInt64, HappeningOrder, () -> Void>()
    private var sequence: UInt64 = 0
    /// Above zero while an outside event runs: its code is on no virtual thread.
    var outsideDepth = 0
    /// Outside events due now that wait for the loops to release the engine lock (``perform(after:_:)``).
    var duePokes: [() -> Void] = []
    /// `!duePokes.isEmpty`, kept on its own: asked at every iteration's end.
    var hasDuePokes = false

    // Hosted threads (VirtualWorld+Threads.swift), touched only by the holder of the baton.
    /// Every hosted thread, in declaration order (the order that breaks ties).
    var threads: [VirtualThread] = []
    /// The thread holding the baton while hosted threads run; nil when the world is driven by its caller.
    var runningThread: VirtualThreadID?
    var baton: VirtualBaton?
    /// OS threads of virtual threads created while the world runs (``spawnThread(named:_:)``), joined at its end.
    var spawned: [HostedThread] = []
    // Branch points (VirtualWorld+Schedule.swift).
    /// The choices the scheduler makes where several could go on; the default is declaration order.
    package var schedule = Schedule.default
    /// Every branch point met so far, at most `Schedule.maximumBranchPoints`.
    package internal(set) var branchPoints: [ScheduleBranchPoint] = []
    /// True when the run met more branch points than it records (it took option 0 at the others).
    package internal(set) var branchPointsCut = false
    /// The first branch point whose option `schedule` names does not exist in this run (option 0 was taken).
    package internal(set) var unfittedBranchPoint: ScheduleBranchPoint?
    /// How many events have been recorded: each branch point notes it (nil: 0).
    package var eventCount: (() -> Int)?
    /// The thread each outside event scheduled with a target addresses, by sequence number.
    var happeningTargets: [UInt64: String] = [:]
    /// OS threads started and joined by `runThreads` (test hooks: no thread may outlive its world's run).
    package internal(set) var osThreadsStarted = 0
    package internal(set) var osThreadsJoined = 0

    struct VirtualPort {
        var kind: PortKind
        var label: String
        var count = 0
        /// When the port became ready (then a sequence number): the readiness order of the wait.
        var readyKey = PortOrder(time: .zero, sequence: 0)
        var armedAt: LoopInstant?
        var armedWhen: LoopInstant = .zero
        var armSequence: UInt64 = 0
        /// The port sets it is in (a handful: one per mode that waits on it).
        var sets: [Int] = []
        /// The arm group it is armed with (`VirtualWorld+ArmGroups.swift`), and the members it took its first
        /// arm with (nil until then).
        var armGroup: Int?
        var cohort: ArmCohort?
    }

    /// When an outside event is due, then the order it was scheduled in.
    struct HappeningOrder: Comparable {
        var time: LoopInstant
        var sequence: UInt64

        static func < (a: HappeningOrder, b: HappeningOrder) -> Bool {
            a.time != b.time ? a.time < b.time : a.sequence < b.sequence
        }
    }

    /// The cost model: what one iteration of a loop's own work costs, paid by the loop at the end of every
    /// iteration (before it decides whether to go on). CF's iterations take real time; without a cost, virtual time
    /// would stand still in a loop that never sleeps (a source0 that signals itself, a timer every nanosecond), and
    /// such a run would never reach its time limit. A callout costs nothing beyond its declared `work`: an
    /// iteration's cost covers the callouts of a usual iteration, and every callout runs inside an iteration, so
    /// time moves on whatever a loop does. Zero keeps time still between waits (the behaviour before the model:
    /// exact instants, but a loop that never sleeps never ends).
    public let iterationCost: Duration
    /// `iterationCost` in nanoseconds: converting a `Duration` (128-bit attoseconds) at every iteration would cost
    /// more than the rest of the charge.
    private let iterationNanoseconds: Int64

    /// - Parameters:
    ///   - profile: the CoreFoundation to imitate (linux or darwin).
    ///   - iterationCost: see ``iterationCost``; negative counts as zero.
    public init(profile: PlatformProfile = .linux, iterationCost: Duration = VirtualWorld.defaultIterationCost) {
        self.profile = profile
        self.iterationCost = max(iterationCost, .zero)
        iterationNanoseconds = self.iterationCost.nanosecondsClamped
    }

    // MARK: - LoopClock

    public var now: LoopInstant { current }

    /// Spends `duration` on the calling thread. A hosted thread gives up the baton meanwhile (the other threads
    /// are other CPUs: they run while it works) - unless nothing else could happen before the work ends, when it
    /// just moves the clock on, as the scheduler would, without handing the baton between OS threads. The caller of
    /// an unhosted world, or an outside event, just moves the clock on, performing the outside events on the way.
    public func spend(_ duration: Duration) {
        if hasDuePokes { performDuePokes() }
        guard duration > .zero, haltReason == nil else { return }
        let until = current + duration
        if let thread = hostedCaller {
            if nothingElseHappens(until: until, besides: thread) {
                current = until
            } else {
                suspend(thread, as: .spending(until: until))
            }
        } else {
            advance(to: until)
        }
    }

    /// ``spend(_:)`` of ``iterationCost``, without the `Duration` arithmetic; when nothing else could happen before
    /// the iteration's cost is paid (the usual case), it only moves the clock.
    public func spendIteration() {
        if hasDuePokes { performDuePokes() }
        guard iterationNanoseconds > 0, !halted else { return }
        let (sum, overflow) = current.nanoseconds.addingReportingOverflow(iterationNanoseconds)
        let until = overflow ? LoopInstant.distantFuture : LoopInstant(nanoseconds: sum)
        if let thread = hostedCaller {
            if nothingElseHappens(until: until, besides: thread) {
                current = until
            } else {
                suspend(thread, as: .spending(until: until))
            }
        } else if until <= horizon && !(happenings.min.map { $0.key.time <= until } ?? false) {
            current = until
        } else {
            advance(to: until)
        }
    }

    /// The world's next sequence number: orders outside events, readiness and arming.
    func nextSequence() -> UInt64 {
        sequence &+= 1
        return sequence
    }
}
