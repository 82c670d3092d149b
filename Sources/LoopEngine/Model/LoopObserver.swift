/// A run loop observer: called at the activities it asks for, in ascending `order` (ties: insertion order).
///
/// A non-repeating observer is invalidated right after its first callout. An observer may be in many modes but
/// belongs to one loop. Its mutable state is guarded by the engine lock.
public final class LoopObserver: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: mutable state is only touched with the engine lock held.
    /// Its name in the trace (`observer NAME`).
    public let name: String
    /// The activities at which it is called.
    public let activities: Activity
    /// False: invalidated right after its first callout.
    public let repeats: Bool
    /// Observers of one activity are called in ascending order.
    public let order: Int
    let callout: (Activity) -> Void

    // Guarded by the engine lock.
    /// Its name's id in the recorder it last emitted to.
    @exclusivity(unchecked) var traceName = TraceNameSlot()
    var isValidStorage = true
    var isFiring = false
    weak var loop: RunLoopCore?
    var modes: [ModeName] = []
    /// Number of callouts (read it with ``callCount``).
    var callCountStorage = 0
    /// The engine lock of the backend of the loop it was first added to.
    let binding = EngineBinding()

    /// An observer, not in any mode yet (``RunLoopCore/add(_:to:)-(LoopObserver,_)`` adds it).
    ///
    /// `callout` is called on the loop's thread with the activity it is called for.
    public init(
        name: String, activities: Activity, repeats: Bool = true, order: Int = 0,
        callout: @escaping (Activity) -> Void
    ) {
        self.name = name
        self.activities = activities
        self.repeats = repeats
        self.order = order
        self.callout = callout
    }

    public var description: String { "observer \(name)" }
}
