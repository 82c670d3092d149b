extension MainQueueJob {
    /// The detail of a `mainQueue` event that runs this job: `main-actor task starts`, `resumed after
    /// Task.sleep(0.100s)`.
    package var words: String {
        switch self {
        case .taskStart: "main-actor task starts"
        case .resumed(after: .yield): "resumed after Task.yield()"
        case .resumed(after: .sleep(let duration)): "resumed after Task.sleep(\(LoopEvent.seconds(duration)))"
        case .asyncAfter(let delay): "asyncAfter \(LoopEvent.seconds(delay)) handler"
        case .asyncAfterTeardown: "asyncAfter's teardown job: nothing of the program's runs"
        }
    }
}
