extension MainQueueJob {
    /// The detail of a `mainQueue` event that runs this job: `main-actor task starts`, `resumed after sleeping
    /// 0.100s`.
    package var words: String {
        switch self {
        case .taskStart: "main-actor task starts"
        case .resumed(after: .yield): "resumed after Task.yield()"
        case .resumed(after: .sleep(let duration)): "resumed after sleeping \(LoopEvent.seconds(duration))"
        case .asyncAfter(let delay): "asyncAfter \(LoopEvent.seconds(delay)) handler"
        case .asyncAfterTeardown: "asyncAfter's teardown job: nothing of the program's runs"
        }
    }
}
