import LoopEngine
import Testing

/// Owners that go away, conditions, and threads that talk over ports: what each line parses into, and what a bad
/// one is told.
@Suite("the .loop parser: owners, conditions and port conversations")
struct ScenarioParserOwnerTests {
    static let stopped = FlagReference.property(owner: "vc", name: "stopped", weak: true)

    @Test("owner, set and clear of properties, if, dealloc and every kind of while")
    func ownerConstructs() throws {
        let script = try ScenarioParser.parse(
            """
            owner vc weak weakSelf
            thread T
              port K
              set vc.thread
              set done
              clear done
              if vc.thread and not done
                clear vc.thread
              dealloc vc
                set weakSelf.stopped
              while not done RunLoop.run
              while not weakSelf.stopped RunLoop.run
              while weakSelf and not not not weakSelf.stopped RunLoop.run Tracking
            """, file: "t.loop")
        #expect(script.scenario.owners == [OwnerSpec(name: "vc", weakName: "weakSelf")])
        let thread = FlagReference.property(owner: "vc", name: "thread", weak: false)
        #expect(
            script.scenario.threads[0].program == [
                .assign(thread, true),
                .setFlag("done"),
                .assign(.flag("done"), false),
                .ifHolds(.all([.isSet(thread), .not(.isSet(.flag("done")))]), [.assign(thread, false)]),
                .dealloc(owner: "vc", [.assign(Self.stopped, true)]),
                .run(.whileNot(flag: "done", mode: .default)),
                .run(.whileHolds(.not(.isSet(Self.stopped)), mode: .default)),
                .run(.whileHolds(.all([.ownerAlive("vc"), .not(.isSet(Self.stopped))]), mode: ModeName("Tracking"))),
            ])
    }

    @Test("a thread started later, start, and a send to another thread's port")
    func conversation() throws {
        let script = try ScenarioParser.parse(
            """
            thread main main
              port mainPort
                send workerPort 2 times on worker
              start worker
              run default for 1s
            thread worker later
              port workerPort
              send mainPort on main
              send workerPort on worker
              run default forever
            """, file: "t.loop")
        let threads = script.scenario.threads
        #expect(threads.map(\.startsLater) == [false, true])
        #expect(threads[0].items[0].script.map(\.action) == [.sendTo(thread: "worker", port: "workerPort", count: 2)])
        #expect(threads[0].program.first == .start(thread: "worker"))
        #expect(
            threads[1].program.prefix(2) == [
                .sendTo(thread: "main", port: "mainPort", count: 1), .send("workerPort", count: 1),
            ])
    }

    @Test(
        "a bad owner, condition, start or send is told where and why",
        arguments: [
            ("owner vc\nowner vc\nthread T\n  wakeup", 2, 7, "'vc' already names an owner or a weak reference"),
            (
                "thread T\n  set x.stopped", 2, 7,
                "unknown owner 'x' (declare it at the top level: `owner vc weak weakSelf`)"
            ),
            ("owner vc weak w\nthread T\n  dealloc w", 3, 11, "unknown owner 'w' (known: vc)"),
            (
                "owner vc weak w\nthread T\n  port K\n  while vc and not w.stopped RunLoop.run", 4, 9,
                "'vc' is the owner itself, which its own code always has; test its weak reference"
            ),
            ("owner vc\nthread T\n  set vc", 3, 7, "'vc' is an owner; set or clear one of its properties (NAME.flag)"),
            ("owner vc\nthread T\n  set vc.", 3, 7, "expected OWNER.property, e.g. vc.stopped"),
            ("thread T\n  port K\n  while not done", 3, 17, "expected 'and' or 'RunLoop.run' after the condition"),
            (
                "thread T\n  port K\n  while RunLoop.run", 3, 9,
                "expected a flag, an owner's property (vc.stopped) or a weak reference"
            ),
            ("thread T\n  if done", 2, 10, "`if` needs an indented block: the actions it guards"),
            (
                "thread T\n  port K\n  while not done RunLoop.run", 3, 13,
                "flag 'done' is never set, so this loop could never end; add `set done` somewhere"
            ),
            (
                "thread T\n  start U\nthread U\n  wakeup", 2, 9,
                "thread 'U' starts with the scenario; declare it `thread U later`"
            ),
            ("thread T\n  send p on U\nthread U\n  port q", 2, 8, "unknown item 'p' on thread U (known: q)"),
        ])
    func diagnostics(source: String, line: Int, column: Int, message: String) {
        do {
            _ = try ScenarioParser.parse(source, file: "t.loop")
            Issue.record("parsed without a diagnostic")
        } catch {
            let first = error.diagnostics.first
            #expect(first?.line == line)
            #expect(first?.column == column)
            #expect(first?.message == message)
        }
    }
}

/// The rules of an owner going away, which the interpreter and the CF oracle share.
@Suite("ScenarioFlags: weak references are nil from dealloc on, a freed owner is a bad access")
struct ScenarioFlagsTests {
    @Test("reads and writes through the owner and through its weak reference, in each state")
    func ownerStates() {
        let flags = ScenarioFlags(owners: [OwnerSpec(name: "vc", weakName: "weakSelf")])
        let strong = FlagReference.property(owner: "vc", name: "stopped", weak: false)
        let weak = FlagReference.property(owner: "vc", name: "stopped", weak: true)
        var notes: [LoopEvent.Note] = []
        // Alive: both references reach the same property.
        #expect(flags.assign(weak, true) == nil)
        #expect(flags.holds(.isSet(strong), notes: &notes))
        #expect(flags.assign(weak, false) == nil)
        #expect(flags.beginDealloc("vc") == .ownerDeallocating(owner: "vc"))
        #expect(flags.beginDealloc("vc") == nil)
        // Deallocating: the weak reference is nil (reads false, writes nothing); the owner's own code works.
        #expect(flags.assign(weak, true) == nil)
        #expect(!flags.holds(.isSet(strong), notes: &notes))
        #expect(flags.assign(strong, true) == nil)
        #expect(flags.holds(.isSet(strong), notes: &notes))
        #expect(!flags.holds(.isSet(weak), notes: &notes))
        #expect(flags.holds(.not(.isSet(weak)), notes: &notes))
        #expect(!flags.holds(.all([.ownerAlive("vc"), .not(.isSet(weak))]), notes: &notes))
        #expect(notes.isEmpty)
        #expect(flags.endDealloc("vc") == .ownerFreed(owner: "vc"))
        // Freed: a use through the owner is a bad access (noted, skipped, read as false).
        #expect(flags.assign(strong, false) == .usesDeallocatedOwner(owner: "vc", property: "stopped"))
        #expect(!flags.holds(.isSet(strong), notes: &notes))
        #expect(notes == [.usesDeallocatedOwner(owner: "vc", property: "stopped")])
        #expect(flags.assign(weak, false) == nil)
    }
}
