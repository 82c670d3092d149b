/// A run loop input source: version 0 (signalled by hand, never wakes the loop) or version 1 (a port; a message
/// wakes a sleeping loop by itself).
///
/// A source may be in many modes of many loops of one backend (the backend of the first loop it is added to, or
/// for a version-1 source the backend of its port). Its mutable state is guarded by that backend's engine lock.
public final class LoopSource: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: mutable state is only touched with the engine lock held.
    /// CF's source versions: 0 is signalled by hand and does not wake a loop; 1 has a port whose messages do.
    public enum Version: Int, Sendable {
        /// A version-0 source (`CFRunLoopSourceSignal`).
        case zero = 0
        /// A version-1 source, on a port (`mach_port_t`, on Linux an eventfd).
        case one = 1
    }

    /// Its name in the trace (`source0 NAME`, `source1 NAME`).
    public let name: String
    /// Version 0 (signalled, performed by the loop) or version 1 (a port the loop waits on).
    public let version: Version
    /// Pass order of version-0 sources (ascending); stored but unused for version 1, as in CF.
    public let order: Int
    /// The port of a version-1 source.
    package let port: PortID?
    /// Two sources with the same non-nil key and order are *equal* to CF (docs/cfrunloop.md §7.7): adding the second to
    /// a mode where the first is does nothing.
    package let equalityKey: String?
    /// Called when the source is performed; the argument is the number of port messages consumed (1 for
    /// version 0).
    let perform: (Int) -> Void
    /// Called (outside the lock) when the source is inserted into a concrete mode of a loop.
    let scheduleCallout: ((RunLoopCore, ModeName) -> Void)?
    /// Called (outside the lock) when the source is removed from a mode, or invalidated.
    let cancelCallout: ((RunLoopCore, ModeName) -> Void)?
    let waiter: (any LoopWaiter)?

    // Guarded by the engine lock.
    /// Its name's id in the recorder it last emitted to.
    @exclusivity(unchecked) var traceName = TraceNameSlot()
    var isValidStorage = true
    var signalled = false
    /// When the first signal since the last perform came (re-signalling keeps it), as a count of every signal of
    /// every source (``signalStamps``). A loop's signals are counted under its lock, in the order they happen, so
    /// the count orders them as their times and the loop's own sequence did, without a clock read per signal.
    var signalStamp: UInt64 = 0
    /// Every source's signal count.
    static let signalStamps = AtomicCounter()
    struct Membership {
        weak var loop: RunLoopCore?
        var mode: ModeName
        /// The mode's state in that loop, without a look-up by name. Read only while `loop` is alive (a loop never
        /// drops a mode's state), or compared by identity.
        unowned(unsafe) let state: LoopModeState
    }
    var memberships: [Membership] = []
    /// The engine lock of the backend it belongs to (set by its first add; a port source is born bound).
    let binding: EngineBinding

    /// A version-0 source.
    public init(
        name: String, order: Int = 0, equalityKey: String? = nil,
        schedule: ((RunLoopCore, ModeName) -> Void)? = nil, cancel: ((RunLoopCore, ModeName) -> Void)? = nil,
        perform: @escaping () -> Void
    ) {
        self.name = name
        self.version = .zero
        self.order = order
        self.port = nil
        self.equalityKey = equalityKey
        self.perform = { _ in perform() }
        self.scheduleCallout = schedule
        self.cancelCallout = cancel
        self.waiter = nil
        self.binding = EngineBinding()
    }

    /// A version-1 source with its own port on `waiter`'s kernel; `perform` receives the messages consumed.
    public init(
        portNamed name: String, order: Int = 0, on waiter: any LoopWaiter,
        schedule: ((RunLoopCore, ModeName) -> Void)? = nil, cancel: ((RunLoopCore, ModeName) -> Void)? = nil,
        perform: @escaping (Int) -> Void
    ) {
        self.name = name
        self.version = .one
        self.order = order
        self.port = waiter.makePort(.message, label: name)
        self.equalityKey = nil
        self.perform = perform
        self.scheduleCallout = schedule
        self.cancelCallout = cancel
        self.waiter = waiter
        self.binding = EngineBinding(boundTo: waiter.engineLock)
    }

    deinit {
        // Nothing can send to the port any more, and no mode holds the source (modes keep their sources alive).
        if let port, let waiter { waiter.closePort(port) }
    }

    public var description: String { "source\(version.rawValue) \(name)" }

    func isEqualForCF(_ other: LoopSource) -> Bool {
        if self === other { return true }
        guard let key = equalityKey, let otherKey = other.equalityKey else { return false }
        return key == otherKey && order == other.order && version == other.version
    }
}
