extension ScriptInterpreter {
    /// What every thread of a scenario shares.
    final class Shared {
        /// Every thread's host, in declaration order.
        var hosts: [ScriptInterpreter] = []
        /// The scenario's operation queues, in declaration order.
        var queues: [OperationQueueCore] = []
        /// Where every loop's events go (threads created while the scenario runs get it too).
        let sink: (any TraceSink)?

        init(sink: (any TraceSink)?) {
            self.sink = sink
        }

        func queue(named name: String) -> OperationQueueCore? {
            queues.first { $0.name == name }
        }

        /// The queue that has the operation named `name` (the first in declaration order).
        func queue(having name: String) -> OperationQueueCore? {
            queues.first { $0.has(name) }
        }

        /// The scenario's flags and owners, which any thread may set or test (`ScenarioFlags` guards them: on
        /// real threads they are set and read at the same time).
        var flags = ScenarioFlags()

        func host(named name: String) -> ScriptInterpreter? {
            hosts.first { $0.loop.name == name } ?? lateHostLock.withLock { lateHosts.first { $0.loop.name == name } }
        }

        /// The threads declared `later` that have not started yet, and the hosts of those that have (guarded by
        /// `lateHostLock`: on real threads one starts while others look names up).
        private var laterThreads: [String: ThreadSpec] = [:]
        private var lateHosts: [ScriptInterpreter] = []
        private let lateHostLock = LoopLock()

        func holdUntilStarted(_ spec: ThreadSpec) {
            lateHostLock.withLock { laterThreads[spec.name] = spec }
        }

        /// The spec of a `later` thread to start now; nil when there is none of that name or it has started.
        func takeLaterThread(_ name: String) -> ThreadSpec? {
            lateHostLock.withLock { laterThreads.removeValue(forKey: name) }
        }

        func addLateHost(_ host: ScriptInterpreter) {
            lateHostLock.withLock { lateHosts.append(host) }
        }

        /// The loops of the threads started on the way, from their creation: CF makes a thread's loop on demand,
        /// so another thread can queue a perform for it, wake it or add to it before the thread's program has run
        /// (docs/cfrunloop.md §17.1).
        private var startedLoops: [RunLoopCore] = []

        func addStartedLoop(_ loop: RunLoopCore) {
            lateHostLock.withLock { startedLoops.append(loop) }
        }

        /// The loop of thread `name`: a declared thread's, or one started on the way (its host made or not).
        func loop(named name: String) -> RunLoopCore? {
            host(named: name)?.loop ?? lateHostLock.withLock { startedLoops.first { $0.name == name } }
        }

        /// The first host, in declaration order and then in the order of their start, for which `test` holds.
        func firstHost(where test: (ScriptInterpreter) -> Bool) -> ScriptInterpreter? {
            hosts.first(where: test) ?? lateHostLock.withLock { lateHosts.first(where: test) }
        }

        /// Lets the hosts of threads started on the way go (they and the world hold each other).
        func discardLateHosts() {
            lateHostLock.withLock {
                lateHosts = []
                startedLoops = []
            }
        }
    }
}

extension ScriptInterpreter.Shared {
    /// The set-up both runners share, so that the virtual and the live runs cannot drift apart: an interpreter per
    /// thread of `scenario` in declaration order (its loop from `makeLoop`, its items made and added), then the
    /// scenario's queues in one directory (an operation may depend on operations of another queue).
    func start(
        _ scenario: Scenario, world: any ScenarioWorld, defaultWidth: Int, makeLoop: (ThreadSpec) -> RunLoopCore
    ) {
        flags = ScenarioFlags(owners: scenario.owners)
        for spec in scenario.threads {
            if spec.startsLater {
                holdUntilStarted(spec)
                continue
            }
            let loop = makeLoop(spec)
            loop.sink = sink
            hosts.append(ScriptInterpreter(loop: loop, world: world, spec: spec, shared: self))
        }
        let directory = PoolDirectory()
        queues = scenario.queues.map {
            OperationQueueCore($0, world: world, directory: directory, sink: sink, defaultWidth: defaultWidth)
        }
    }
}
