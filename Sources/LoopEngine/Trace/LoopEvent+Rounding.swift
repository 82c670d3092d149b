extension LoopEvent {
    /// The event with its time and every instant of its facts (a sleep's deadlines, a late fire's due time)
    /// rounded to the nearest multiple of `resolution`: a real clock's nanoseconds of scheduling noise shown at
    /// one precision, so that an event's time and the times in its words read alike. Rounding keeps the order of
    /// times.
    package func rounded(to resolution: Duration) -> LoopEvent {
        let step = resolution.nanosecondsClamped
        guard step > 1 else { return self }
        func round(_ instant: LoopInstant) -> LoopInstant {
            guard instant < .distantFuture else { return instant }
            let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(step / 2)
            return overflow ? instant : LoopInstant(nanoseconds: sum / step * step)
        }
        var event = self
        event.time = round(time)
        switch fact {
        case .late(let due, let missed, let cause):
            event.fact = .late(due: round(due), missed: missed, cause: cause)
        case .wait(.sleep(let timer, let limit, let ready)):
            let rounded = timer.map { TimerDeadline(name: $0.name, fireTime: round($0.fireTime)) }
            event.fact = .wait(.sleep(nextTimer: rounded, timeLimit: limit.map(round), ready: ready))
        default:
            break
        }
        return event
    }
}
