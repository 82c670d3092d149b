import LoopEngine

extension Session {
    /// Real times carry nanoseconds of scheduling noise: the live UI shows every time - an event's, and the
    /// deadlines and due times in its words - to the millisecond, so they all read `0.347` as the virtual
    /// lessons do (the order of events stays the order they happened in).
    static let liveResolution: Duration = .milliseconds(1)
}
