/// An instant and a sequence number of the virtual world: when a port became ready (or is armed for), then the
/// world's count of such moments, which no two ports share. The readiness order of a wait.
struct PortOrder: Comparable {
    var time: LoopInstant
    var sequence: UInt64

    static func < (a: PortOrder, b: PortOrder) -> Bool {
        a.time != b.time ? a.time < b.time : a.sequence < b.sequence
    }
}

/// One port set of the virtual kernel (an epoll instance): which of its ports are ready, in readiness order, and
/// which of its timer ports are armed, by deadline.
///
/// A wait used to look at every port of its set; with thousands of ports in a mode, every wake-up cost thousands
/// of steps. The world keeps these two heaps up to date as ports are written, read, armed, added and removed
/// (each port knows its few sets), so a wait takes the first ready port, and finds the next deadline, in
/// O(log n). Which port that is does not change: the smallest readiness key, as the linear scan found it (keys are
/// unique, so the set's order never mattered).
struct VirtualPortSet {
    /// Member ports with at least one message, by when they became ready. On linux it also keeps *stale* entries:
    /// ports another set's wait emptied, and timer ports re-armed before this set's wait took their expiry. An
    /// epoll entry leaves its set's ready list only when that set's own wait reports it or passes it by, so a port
    /// written again (or a timer port expiring again) keeps its old place (``VirtualWorld`` drops a stale entry
    /// when a wait reaches it).
    private var ready = IndexedHeap<PortID, PortOrder, Void>()
    /// Member timer ports armed for an instant, by that instant (then when they were armed).
    private var armed = IndexedHeap<PortID, PortOrder, Void>()
    /// Every member port: whether a port is in the set is one lookup, not a walk of the port's sets (the wake-up
    /// port is in every mode's set).
    private(set) var members: Set<PortID> = []
    /// Member ports in an arm group (`VirtualWorld+ArmGroups.swift`): brought up to date before the set is looked
    /// at.
    var groupedMembers: Set<PortID> = [] {
        didSet { hasGroupedMembers = !groupedMembers.isEmpty }
    }
    /// `!groupedMembers.isEmpty`, kept on its own: asked at every wait.
    private(set) var hasGroupedMembers = false

    /// The ready port a wait takes first.
    var firstReady: PortID? { ready.min?.id }

    /// The armed timer port with the earliest deadline, and that deadline.
    var earliestArmed: (port: PortID, time: LoopInstant)? { armed.min.map { ($0.id, $0.key.time) } }

    /// A port joins the set, ready (with its readiness key) or armed (with its deadline) or neither.
    mutating func add(_ port: PortID, ready readyKey: PortOrder?, armed deadline: PortOrder?) {
        members.insert(port)
        if let readyKey { ready.set(port, key: readyKey, value: ()) }
        if let deadline { armed.set(port, key: deadline, value: ()) }
    }

    mutating func remove(_ port: PortID) {
        members.remove(port)
        ready.remove(port)
        armed.remove(port)
    }

    mutating func makeReady(_ port: PortID, _ key: PortOrder) {
        ready.set(port, key: key, value: ())
    }

    /// The port got a message: it joins the ready list at `key`, unless it is still on it (a stale entry keeps
    /// its place, as epoll's callback leaves a linked entry where it is).
    mutating func makeReadyKeepingPlace(_ port: PortID, _ key: PortOrder) {
        if !ready.contains(port) { ready.set(port, key: key, value: ()) }
    }

    mutating func makeEmpty(_ port: PortID) {
        ready.remove(port)
    }

    /// The deadline of a timer port has passed (it is ready now, or it was never armed).
    mutating func forgetDeadline(_ port: PortID) {
        armed.remove(port)
    }

    /// A timer port was armed for `deadline` (nil: disarmed): an expiry nobody read is forgotten, so it is not
    /// ready either. `keepingPlace` (linux): its entry stays on the ready list, stale, where it is; if the port
    /// expires again before a wait of this set reaches the entry, it is taken from there (epoll's entry is still
    /// linked when the timerfd's next expiry calls back), otherwise the wait drops it as not ready.
    mutating func rearm(_ port: PortID, at deadline: PortOrder?, keepingPlace: Bool) {
        if !keepingPlace { ready.remove(port) }
        if let deadline {
            armed.set(port, key: deadline, value: ())
        } else {
            armed.remove(port)
        }
    }
}
