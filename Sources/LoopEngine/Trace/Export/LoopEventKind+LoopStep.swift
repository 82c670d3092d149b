extension LoopEvent.Kind {
    /// The steps of the loop itself (activities, callouts, sleep, wake, a run's start and result), as opposed to
    /// what happens *to* the loop (signals, sends, wake-ups, stops, notes, schedule/cancel callouts). Exports use
    /// it to delimit callouts, sleeps and iterations: a control event may come from the running callout itself,
    /// so it must not end that callout.
    var isLoopStep: Bool {
        isActivity || isCallout || self == .sleep || self == .wake || self == .runStart || self == .result
    }
}
