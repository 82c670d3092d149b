extension OutsideEvent {
    /// The outside events of one instant, in declaration order: on a real clock one thread performs them all, so
    /// that events declared for the same time keep their order. Instants ascend. Package access: the live runner's
    /// rule, which the CF and pool oracles share instead of copying.
    package static func groupedByTime(_ events: [OutsideEvent]) -> [(time: Duration, events: [OutsideEvent])] {
        var groups: [(time: Duration, events: [OutsideEvent])] = []
        for event in events {
            if let index = groups.firstIndex(where: { $0.time == event.time }) {
                groups[index].events.append(event)
            } else {
                groups.append((event.time, [event]))
            }
        }
        return groups.sorted { $0.time < $1.time }
    }
}
