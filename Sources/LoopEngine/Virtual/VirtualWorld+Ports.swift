/// The virtual kernel: ports (eventfds, timerfds, message ports), port sets (epoll instances) and the wait of
/// ``LoopWaiter``, with each profile's readiness rules (docs/cfrunloop.md §15).
extension VirtualWorld {
    public func makePort(_ kind: PortKind, label: String) -> PortID {
        ports.append(VirtualPort(kind: kind, label: label))
        return PortID(rawValue: ports.count - 1)
    }

    public func send(_ port: PortID) {
        let index = port.rawValue
        let wasReady = ports[index].count > 0
        if !wasReady { ports[index].readyKey = PortOrder(time: current, sequence: nextSequence()) }
        // Darwin's wake-up port has a queue of one; everything else counts.
        if ports[index].kind == .wakeUp && profile == .darwin {
            ports[index].count = 1
        } else {
            ports[index].count += 1
        }
        if !wasReady { becameReady(port) }
    }

    public func arm(_ port: PortID, at instant: LoopInstant?) {
        settle(port)
        armAlone(port, at: instant)
    }

    /// ``arm(_:at:)`` of a port in no arm group.
    func armAlone(_ port: PortID, at instant: LoopInstant?) {
        let index = port.rawValue
        // Linux: a deadline that passed while no wait looked has expired all the same: the timerfd went on its
        // sets' ready lists then, so that place is what the re-armed port keeps (docs/cfrunloop.md §15).
        if profile == .linux, let armed = ports[index].armedAt, armed <= current { expire(port) }
        ports[index].armedAt = instant
        ports[index].armedWhen = current
        ports[index].armSequence = nextSequence()
        // Re-arming a timerfd forgets an expiry nobody read; on linux its epoll entries stay where they are.
        ports[index].count = 0
        let deadline = instant.map { PortOrder(time: $0, sequence: ports[index].armSequence) }
        for set in ports[index].sets { portSets[set].rearm(port, at: deadline, keepingPlace: profile == .linux) }
    }

    public func makePortSet(label: String) -> PortSetID {
        portSets.append(VirtualPortSet())
        return PortSetID(rawValue: portSets.count - 1)
    }

    public func insert(_ port: PortID, into set: PortSetID) {
        settle(port)
        let index = port.rawValue
        guard !portSets[set.rawValue].members.contains(port) else { return }
        // Linux: a timerfd whose deadline passed is ready now, so it is added as a ready descriptor.
        if profile == .linux, let armed = ports[index].armedAt, armed <= current { expire(port) }
        ports[index].sets.append(set.rawValue)
        let state = ports[index]
        // Linux: epoll_ctl(ADD) of a ready descriptor puts it at the end of the set's ready list, behind ports
        // that became ready before it was added (docs/cfrunloop.md §15).
        let readyKey = profile == .linux ? PortOrder(time: current, sequence: nextSequence()) : state.readyKey
        portSets[set.rawValue].add(
            port, ready: state.count > 0 ? readyKey : nil,
            armed: state.armedAt.map { PortOrder(time: $0, sequence: state.armSequence) })
    }

    public func remove(_ port: PortID, from set: PortSetID) {
        settle(port)
        let index = port.rawValue
        guard let place = ports[index].sets.firstIndex(of: set.rawValue) else { return }
        ports[index].sets.remove(at: place)
        portSets[set.rawValue].remove(port)
    }

    public func poll(_ port: PortID) -> WaitOutcome {
        if isHalted { return .halted }
        settle(port)
        if let armed = ports[port.rawValue].armedAt, armed <= current { expire(port) }
        guard ports[port.rawValue].count > 0 else { return .nothing }
        return .port(port, messages: consume(port, harvestedBy: nil))
    }

    public func wait(on set: PortSetID, poll: Bool) -> WaitOutcome {
        while true {
            if hasDuePokes { performDuePokes() }
            if isHalted { return .halted }
            // Look at the set afresh each time: outside events may have added or removed ports meanwhile.
            if let port = firstReady(in: set) { return .port(port, messages: consume(port, harvestedBy: set.rawValue)) }
            if poll { return .nothing }
            // A hosted thread blocks: the world runs other threads, or moves time, until its set has a ready
            // port. A wait that needs not block never gives the baton away, as a kernel returns at once.
            if let thread = hostedCaller {
                suspend(thread, as: .waiting(set))
                continue
            }
            // Driven by its caller (or from an outside event): move time to whatever could make a port ready.
            var next = happenings.min?.key.time
            if let armed = earliestDeadline(in: set), next == nil || armed < next! { next = armed }
            guard let next else {
                haltReason = .idle
                return .halted
            }
            advance(to: max(next, current))
        }
    }

    /// Turns the timer ports of `set` whose deadline has passed into ready ports, then picks the one ready first.
    func firstReady(in set: PortSetID) -> PortID? {
        if portSets[set.rawValue].hasGroupedMembers { settleGroupedPorts(in: set) }
        while let due = portSets[set.rawValue].earliestArmed, due.time <= current { expire(due.port) }
        // Stale entries (emptied through another set, or re-armed timer ports; linux) ahead of the first ready port are dropped, as the
        // kernel drops an entry it finds not ready.
        while let first = portSets[set.rawValue].firstReady, ports[first.rawValue].count == 0 {
            portSets[set.rawValue].makeEmpty(first)
        }
        return portSets[set.rawValue].firstReady
    }

    /// A timer port's deadline has passed: it is ready once, in every set it is in, in the order of its deadline
    /// (or of its arming, if that came later), then of its arming. On linux a set that still lists the port (an
    /// expiry before a re-arm that no wait of that set has reached) keeps it where it is: `timerfd_settime` does
    /// not take the descriptor off epoll's ready lists, and the new expiry's callback finds it linked.
    private func expire(_ port: PortID) {
        let index = port.rawValue
        guard let armed = ports[index].armedAt else {
            for set in ports[index].sets { portSets[set].forgetDeadline(port) }
            return
        }
        ports[index].armedAt = nil
        ports[index].count = 1
        ports[index].readyKey = PortOrder(time: max(armed, ports[index].armedWhen), sequence: ports[index].armSequence)
        let key = ports[index].readyKey
        for set in ports[index].sets {
            portSets[set].forgetDeadline(port)
            if profile == .linux {
                portSets[set].makeReadyKeepingPlace(port, key)
            } else {
                portSets[set].makeReady(port, key)
            }
        }
    }

    /// A port with no message got one: every set it is in has it ready now.
    private func becameReady(_ port: PortID) {
        let key = ports[port.rawValue].readyKey
        for set in ports[port.rawValue].sets {
            if profile == .linux {
                portSets[set].makeReadyKeepingPlace(port, key)
            } else {
                portSets[set].makeReady(port, key)
            }
        }
    }

    /// Reads a ready port: an eventfd or timerfd read takes everything; a darwin message port one message.
    /// `harvestedBy`: the set whose wait took it (nil: the port was polled on its own).
    private func consume(_ port: PortID, harvestedBy set: Int?) -> Int {
        let index = port.rawValue
        if ports[index].kind == .message && profile == .darwin {
            ports[index].count -= 1
            if ports[index].count == 0 { becameEmpty(port, harvestedBy: set) }
            return 1
        }
        let messages = ports[index].count
        ports[index].count = 0
        becameEmpty(port, harvestedBy: set)
        return messages
    }

    /// The port was read empty. On linux (epoll, edge-triggered) only the set whose wait reported it forgets it:
    /// in the other sets its entry stays where it is until their own wait reaches it, so a write before that keeps
    /// the old place — the wake-up port a stop wrote in one run stays ahead of a port written later, in the next
    /// run of another mode (docs/cfrunloop.md §15). Darwin's port sets (Mach) forget it everywhere.
    private func becameEmpty(_ port: PortID, harvestedBy harvester: Int?) {
        for set in ports[port.rawValue].sets where profile != .linux || set == harvester {
            portSets[set].makeEmpty(port)
        }
    }

    /// How many ports the world has made (their ids are 0 up to this): for tests that look at every port.
    package var portCount: Int { ports.count }

    /// The number of unread messages on a port (for the UI: pending port messages).
    package func pendingMessages(_ port: PortID) -> Int {
        settle(port)
        return ports[port.rawValue].count
    }

    public func pendingMessageCount(_ port: PortID) -> Int? { pendingMessages(port) }

    /// What a wait on `set` would take now: the same look as the wait's own (a timer port whose deadline passed
    /// turns ready, as the wait would turn it at this instant), without reading the port.
    public func readyPort(in set: PortSetID) -> WaitOutcome? {
        guard let port = firstReady(in: set) else { return .nothing }
        return .port(port, messages: ports[port.rawValue].count)
    }

    /// The earliest instant at which a timer port of `set` becomes ready, if one is armed.
    func earliestDeadline(in set: PortSetID) -> LoopInstant? {
        if portSets[set.rawValue].hasGroupedMembers { settleGroupedPorts(in: set) }
        return portSets[set.rawValue].earliestArmed?.time
    }
}
