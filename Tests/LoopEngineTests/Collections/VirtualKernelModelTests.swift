import Testing

@testable import LoopEngine

/// The virtual kernel's ports, port sets and outside events (heaps and per-set indexes since issue 10) against the
/// linear algorithms they replaced, written out here as they were: the same operations must give the same ports,
/// messages and event order. On linux the model also keeps each set's ready list as epoll does (an entry stays
/// where it is until that set's own wait reports it or passes it by, even when its timer port is re-armed; a
/// deadline that passed has expired before anything else touches the port; docs/cfrunloop.md §15).
@Suite("the virtual kernel against its linear model")
struct VirtualKernelModelTests {
    /// The old kernel: ports with counters and keys, sets as arrays scanned in full at every wait.
    struct LinearKernel {
        struct Port {
            var kind: PortKind
            var count = 0
            var readyKey: (LoopInstant, UInt64) = (.zero, 0)
            var armedAt: LoopInstant?
            var armedWhen: LoopInstant = .zero
            var armSequence: UInt64 = 0
        }

        let profile: PlatformProfile
        var now: LoopInstant = .zero
        var ports: [Port] = []
        var sets: [[Int]] = []
        /// Linux: each set's ready list, as the key each listed port is listed under (stale entries included).
        var listed: [[Int: (LoopInstant, UInt64)]] = []
        var sequence: UInt64 = 0

        mutating func next() -> UInt64 {
            sequence += 1
            return sequence
        }

        mutating func send(_ port: Int) {
            let wasReady = ports[port].count > 0
            if !wasReady { ports[port].readyKey = (now, next()) }
            if ports[port].kind == .wakeUp && profile == .darwin {
                ports[port].count = 1
            } else {
                ports[port].count += 1
            }
            guard !wasReady else { return }
            for set in sets.indices where sets[set].contains(port) && listed[set][port] == nil {
                listed[set][port] = ports[port].readyKey
            }
        }

        /// Linux: a timer port whose deadline has passed is ready once, listed in every set it is in — except where
        /// it is still listed (an expiry before a re-arm that no wait of that set reached): there it keeps its place.
        mutating func expire(_ port: Int) {
            guard let armed = ports[port].armedAt, armed <= now else { return }
            ports[port].armedAt = nil
            ports[port].count = 1
            ports[port].readyKey = (max(armed, ports[port].armedWhen), ports[port].armSequence)
            for set in sets.indices where sets[set].contains(port) && listed[set][port] == nil {
                listed[set][port] = ports[port].readyKey
            }
        }

        /// Re-arming forgets an unread expiry. Linux: an expiry due by now happened first, and the port's entries
        /// stay listed (stale until it expires again); darwin's sets forget it.
        mutating func arm(_ port: Int, at instant: LoopInstant?) {
            if profile == .linux { expire(port) }
            ports[port].armedAt = instant
            ports[port].armedWhen = now
            ports[port].armSequence = next()
            ports[port].count = 0
            if profile == .darwin {
                for set in listed.indices { listed[set][port] = nil }
            }
        }

        mutating func insert(_ port: Int, into set: Int) {
            guard !sets[set].contains(port) else { return }
            // Linux: a timer port already due is a ready descriptor when it is added.
            if profile == .linux { expire(port) }
            sets[set].append(port)
            // Linux: a ready port added to a set is listed at the end, as of now.
            if ports[port].count > 0 { listed[set][port] = (now, next()) }
        }

        mutating func remove(_ port: Int, from set: Int) {
            sets[set].removeAll { $0 == port }
            listed[set][port] = nil
        }

        /// Linux: the due timer ports of `set` expire (in every set), the stale entries ahead of the first ready one
        /// are dropped, and that one is taken.
        mutating func firstListed(_ set: Int) -> Int? {
            for port in sets[set] { expire(port) }
            for (port, _) in listed[set].sorted(by: { $0.value < $1.value }) {
                if ports[port].count > 0 { return port }
                listed[set][port] = nil
            }
            return nil
        }

        mutating func firstReady(_ members: [Int]) -> Int? {
            var best: Int?
            var bestKey: (LoopInstant, UInt64) = (.distantFuture, .max)
            for port in members {
                if let armed = ports[port].armedAt, armed <= now {
                    ports[port].armedAt = nil
                    ports[port].count = 1
                    ports[port].readyKey = (max(armed, ports[port].armedWhen), ports[port].armSequence)
                }
                guard ports[port].count > 0 else { continue }
                if ports[port].readyKey < bestKey {
                    best = port
                    bestKey = ports[port].readyKey
                }
            }
            return best
        }

        mutating func consume(_ port: Int) -> Int {
            if ports[port].kind == .message && profile == .darwin {
                ports[port].count -= 1
                return 1
            }
            defer { ports[port].count = 0 }
            return ports[port].count
        }

        mutating func poll(set: Int) -> WaitOutcome {
            if profile == .linux {
                guard let port = firstListed(set) else { return .nothing }
                listed[set][port] = nil
                return .port(PortID(rawValue: port), messages: consume(port))
            }
            guard let port = firstReady(sets[set]) else { return .nothing }
            return .port(PortID(rawValue: port), messages: consume(port))
        }

        mutating func poll(port: Int) -> WaitOutcome {
            if profile == .linux { expire(port) }
            guard firstReady([port]) != nil else { return .nothing }
            return .port(PortID(rawValue: port), messages: consume(port))
        }

        func earliestDeadline(_ set: Int) -> LoopInstant? {
            sets[set].compactMap { ports[$0].armedAt }.min()
        }
    }

    @Test(
        "random sends, arms, set changes, polls and time agree with the linear kernel",
        arguments: [(PlatformProfile.linux, 31), (.linux, 32), (.darwin, 33), (.darwin, 34)]
            as [(PlatformProfile, UInt64)])
    func portsAgree(profile: PlatformProfile, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let world = VirtualWorld(profile: profile)
        var model = LinearKernel(profile: profile)
        let kinds: [PortKind] = [.message, .timer, .wakeUp, .mainQueue]
        for index in 0..<24 {
            let kind = kinds[index % kinds.count]
            #expect(world.makePort(kind, label: "p\(index)").rawValue == index)
            model.ports.append(.init(kind: kind))
        }
        for index in 0..<4 {
            #expect(world.makePortSet().rawValue == index)
            model.sets.append([])
            model.listed.append([:])
        }
        for _ in 0..<5_000 {
            let port = random.below(24)
            let set = random.below(4)
            switch random.below(9) {
            case 0, 1:
                guard model.ports[port].kind != .timer else { continue }
                world.send(PortID(rawValue: port))
                model.send(port)
            case 2:
                guard model.ports[port].kind == .timer else { continue }
                let instant: LoopInstant? =
                    random.below(5) == 0 ? nil : model.now + .microseconds(random.below(3_000) - 500)
                world.arm(PortID(rawValue: port), at: instant)
                model.arm(port, at: instant)
            case 3:
                world.insert(PortID(rawValue: port), into: PortSetID(rawValue: set))
                model.insert(port, into: set)
            case 4:
                world.remove(PortID(rawValue: port), from: PortSetID(rawValue: set))
                model.remove(port, from: set)
            case 5:
                let target = model.now + .microseconds(random.below(1_000))
                world.advance(to: target)
                model.now = target
            case 6:
                let expected = model.poll(port: port)
                #expect(world.poll(PortID(rawValue: port)) == expected)
            default:
                let expected = model.poll(set: set)
                #expect(world.wait(on: PortSetID(rawValue: set), poll: true) == expected)
            }
            #expect(world.now == model.now)
            #expect(world.earliestDeadline(in: PortSetID(rawValue: set)) == model.earliestDeadline(set))
            #expect(world.pendingMessages(PortID(rawValue: port)) == model.ports[port].count)
        }
    }

    @Test("outside events run by time, then in the order they were scheduled; cancelled ones never run")
    func outsideEventsAgree() {
        var random = SplitMix64(seed: 41)
        final class Log: @unchecked Sendable {
            var numbers: [Int] = []
        }
        let world = VirtualWorld()
        let log = Log()
        var model: [(time: LoopInstant, order: Int, number: Int)] = []
        var handles: [(ScheduledAction, Int)] = []
        for number in 0..<2_000 {
            let time = LoopInstant.zero + .milliseconds(random.below(50))
            if random.below(2) == 0 {
                world.at(time) { log.numbers.append(number) }
            } else {
                handles.append((world.schedule(at: time) { log.numbers.append(number) }, number))
            }
            model.append((time, number, number))
        }
        var cancelled: Set<Int> = []
        for (handle, number) in handles where random.below(3) == 0 {
            world.cancel(handle)
            cancelled.insert(number)
        }
        #expect(world.hasPendingEvents)
        world.advance(to: .zero + .milliseconds(100))
        let expected = model.filter { !cancelled.contains($0.number) }
            .sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map(\.number)
        #expect(log.numbers == expected)
        #expect(!world.hasPendingEvents)
    }
}
