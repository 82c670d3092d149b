/// Modes of one loop that share timers and that no run is in, moved and armed as one
/// (`RunLoopCore+RestingModes.swift`). A member may hold timers of its own besides, all due after the group's
/// window (``withExtras``).
///
/// Such modes see the same fires, so their queues take the same moves and their arming windows the same values:
/// the group keeps one queue for them all, one window, and one arm group of the waiter for their timer ports. A
/// fire then costs one move and one arm for the whole group, not one for each mode. Each member's own queue keeps
/// its timers but not their order while it rests; it is put back in order when the mode wakes.
final class RestingTimerGroup {
    /// The members' timers, kept in order by every move.
    let queue: TimerQueue
    /// The members' timer ports, armed together.
    let armGroup: ArmGroupID
    /// What the members' ports were last armed for (`LoopModeState.armedSoft`, `armedHard`).
    var armedSoft: TimerQueue.Order?
    var armedHard: TimerQueue.Order?
    /// The resting modes; each knows its place here (`LoopModeState.restingIndex`).
    var members: [LoopModeState] = []
    /// The members with timers of their own, out of the group, by the earliest of those (each after the group's
    /// window while the member rests).
    var withExtras = IndexedHeap<ObjectIdentifier, TimerQueue.Order, LoopModeState>()
    /// The key the loop finds it by.
    let signature: TimerSetSignature

    init(queue: TimerQueue, armGroup: ArmGroupID, signature: TimerSetSignature) {
        self.queue = queue
        self.armGroup = armGroup
        self.signature = signature
    }
}

/// A mode's timers as two sums of a hash of each: the same for the same timers whatever the order they came in,
/// kept up to date in O(1) an add or remove. It finds a resting group to check; the check itself compares the
/// timers (`TimerQueue.holdsSameTimers(as:)`).
struct TimerSetSignature: Hashable {
    private var first: UInt64 = 0
    private var second: UInt64 = 0

    mutating func add(_ timer: LoopTimer) {
        let (a, b) = Self.hashes(timer)
        first &+= a
        second &+= b
    }

    mutating func remove(_ timer: LoopTimer) {
        let (a, b) = Self.hashes(timer)
        first &-= a
        second &-= b
    }

    /// Two SplitMix64 finalisations of the timer's identity.
    private static func hashes(_ timer: LoopTimer) -> (UInt64, UInt64) {
        let identity = UInt64(UInt(bitPattern: ObjectIdentifier(timer)))
        return (mix(identity &+ 0x9E37_79B9_7F4A_7C15), mix(identity &+ 0xD1B5_4A32_D192_ED03))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// When a mode that holds timers rests (`RunLoopCore+RestingModes.swift`).
package struct RestingPolicy: Sendable, Equatable {
    /// The least number of moves of its timers, in a row with no run of it, after which a mode rests; nil: never.
    /// A mode with more timers waits longer (one move per 8 timers): resting and waking cost a pass over its timers,
    /// which those moves pay for, so that a mode run now and then costs no more than if it never rested.
    let minimumMoves: Int?

    /// Every mode is moved and armed at every fire of its timers, as CF does: the oracle resting is checked
    /// against.
    package static let never = RestingPolicy(minimumMoves: nil)
    /// After at least 4 moves.
    package static let standard = RestingPolicy(minimumMoves: 4)
    /// After one move, whatever the number of timers: for tests that want every idle mode to rest.
    package static let atOnce = RestingPolicy(minimumMoves: 1)

    /// How many moves a mode with `timers` timers waits before it rests; nil: it never does.
    func moves(forTimers timers: Int) -> Int? {
        guard let minimumMoves else { return nil }
        return minimumMoves == 1 ? 1 : max(minimumMoves, timers / 8)
    }
}
