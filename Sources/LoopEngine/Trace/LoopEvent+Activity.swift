extension LoopEvent.Kind {
    /// The event of an observation point: `.entry` … `.exit` for the six single activities. Package access so
    /// that the CF oracle records real CF's observer callbacks by the engine's own rule, not a copy of it.
    /// A combination of activities (never passed by a run) is `.exit`, as it always was.
    package init(_ activity: Activity) {
        switch activity {
        case .entry: self = .entry
        case .beforeTimers: self = .beforeTimers
        case .beforeSources: self = .beforeSources
        case .beforeWaiting: self = .beforeWaiting
        case .afterWaiting: self = .afterWaiting
        default: self = .exit
        }
    }
}
