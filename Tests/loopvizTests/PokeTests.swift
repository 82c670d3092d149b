import LoopEngine
import Testing

@testable import loopviz

/// Every poke key, made while paused at a step that shares its virtual time with the events after it: the poke
/// takes effect right after the step on screen (at the first moment another thread could act: the loop holds its
/// lock until a callout or its wait), never before events of the same time, and paused stays paused.
@Suite("a poke lands right after the step on screen and keeps the play state")
struct PokeTests {
    /// `time thread step` of events `range` (numbered from 1, as the log shows them).
    static func lines(_ model: AppModel, _ range: ClosedRange<Int>) -> [String] {
        range.filter { $0 <= model.trace.count }.map {
            let event = model.trace[$0 - 1]
            return "\($0) \(event.time) \(event.loop) \(event.step)"
        }
    }

    /// The built-in lesson paused at step `step` with `g`.
    static func lesson(at step: Int) -> AppModel {
        var model = UpdateTests.model(width: 132, height: 43)
        let digits = String(step).map { Key.character($0) }
        _ = UpdateTests.press(.character(" "), .character("g"), on: &model)
        for key in digits + [.enter] { _ = updateInline(&model, .key(key)) }
        return model
    }

    static func type(_ keys: String, _ model: inout AppModel) {
        for key in keys { _ = updateInline(&model, .key(.character(key))) }
    }

    /// Step 41 of the built-in lesson is the observer's callout for beforeSources at 1.340003; the iteration goes on
    /// at that time (blocks, sources, beforeWaiting, the sleep at event 44).
    static let before = [
        "39 1.340003 worker observer activity", "40 1.340003 worker beforeSources",
        "41 1.340003 worker observer activity",
    ]

    @Test(
        "each item key at step 41 acts right after it",
        arguments: [
            // f: the timer fires now: the outside call wakes the loop, which fires it at the same time.
            (
                "2f", "fire tick", ["42 1.340003 worker wakeUp", "43 1.340003 worker beforeWaiting"],
                "49 1.340003 worker timer tick"
            ),
            // s: the signal lands before this iteration's sources pass: `work` runs at once.
            (
                "3s", "signal work + wake up", ["42 1.340003 worker signal work", "43 1.340003 worker wakeUp"],
                "44 1.340003 worker source0 work"
            ),
            // S: the same without a wake-up; the sources pass still comes after it in this iteration.
            ("3S", "signal work (no wake-up)", ["42 1.340003 worker signal work"], "43 1.340003 worker source0 work"),
            (
                "4o", "send to net", ["42 1.340003 worker send net", "43 1.340003 worker beforeWaiting"],
                "49 1.340003 worker source1 net"
            ),
            ("w", "wake up", ["42 1.340003 worker wakeUp"], "46 1.340003 worker wake"),
            (
                "x", "stop", ["42 1.340003 worker stop", "43 1.340003 worker wakeUp"],
                "52 1.3400045 worker result stopped"
            ),
            ("b", "perform block B1", ["42 1.340003 worker enqueue B1"], "43 1.340003 worker block B1"),
            (
                "m", "scroll: run Tracking for 0.8 s",
                ["42 1.340003 worker enqueue scroll1", "43 1.340003 worker wakeUp"],
                "45 1.340003 worker runStart Tracking"
            ),
            (
                "N", "nested run in default for 0.3 s",
                ["42 1.340003 worker enqueue nested1", "43 1.340003 worker wakeUp"],
                "45 1.340003 worker runStart default"
            ),
            (
                "A", "add source1 to default", ["42 1.340003 worker schedule source1"],
                "43 1.340003 worker beforeWaiting"
            ),
            // O: the observer is added in time for this iteration's beforeWaiting.
            (
                "O", "add observer1", ["42 1.340003 worker beforeWaiting", "43 1.340003 worker observer activity"],
                "44 1.340003 worker observer observer1"
            ),
        ])
    func itemKeys(_ keys: String, _ label: String, _ next: [String], _ effect: String) {
        var model = Self.lesson(at: 41)
        let original = model.trace
        #expect(Self.lines(model, 39...41) == Self.before)
        Self.type(keys, &model)
        #expect(model.isPaused && model.playback == .paused, "a poke keeps the pause")
        #expect(model.cursor == 41)
        #expect(model.flash?.text.hasPrefix(label) == true, "\(model.flash?.text ?? "-")")
        #expect(model.flash?.text.contains("after step 41") == true, "\(model.flash?.text ?? "-")")
        #expect(Array(model.trace.prefix(41)) == Array(original.prefix(41)), "nothing before the step changes")
        #expect(Self.lines(model, 39...(41 + next.count)) == Self.before + next)
        let number = Int(effect.prefix { $0 != " " })!
        #expect(Self.lines(model, number...number) == [effect])
    }

    @Test("a: the timer added after step 41 first fires 500 ms later, at 1.840003")
    func addTimer() {
        var model = Self.lesson(at: 41)
        Self.type("a", &model)
        #expect(model.isPaused)
        #expect(model.flash?.text == "add timer1 (every 500 ms) to default after step 41 (t=1.340003s)")
        let fire = model.trace.firstIndex { $0.kind == .timer && $0.name == "timer1" }.map { $0 + 1 }
        #expect(fire.map { Self.lines(model, $0...$0) } == ["\(fire ?? 0) 1.840003 worker timer timer1"])
    }

    @Test("r: the timer removed after step 41 no longer fires at 1.600")
    func removeItem() {
        var model = Self.lesson(at: 41)
        Self.type("2r", &model)
        #expect(model.isPaused && model.flash?.text == "invalidate tick after step 41 (t=1.340003s)")
        #expect(!model.trace.dropFirst(41).contains { $0.kind == .timer && $0.name == "tick" })
        #expect(model.trace.prefix(41).contains { $0.kind == .timer && $0.name == "tick" })
    }

    @Test("issue 12's recipe: S at the 1.340 sleep (step 44) is the next event, and work waits for the 1.600 wake")
    func signalWithoutWakeUpWhileAsleep() {
        var model = Self.lesson(at: 44)
        #expect(Self.lines(model, 43...44) == ["43 1.340003 worker observer activity", "44 1.340003 worker sleep"])
        Self.type("3S", &model)
        #expect(model.isPaused)
        #expect(
            Self.lines(model, 44...47) == [
                "44 1.340003 worker sleep", "45 1.340003 worker signal work", "46 1.600 worker wake",
                "47 1.600 worker afterWaiting",
            ])
        let work = model.trace.dropFirst(44).firstIndex { $0.kind == .source0 && $0.name == "work" }
        #expect(work.map { model.trace[$0].time } == LoopInstant.zero + .milliseconds(1620) + .nanoseconds(1500))
    }

    @Test("a poke after step 1 (made while the thread's items are scheduled) happens at the first wait or callout")
    func pokeAtTheFirstStep() {
        var model = Self.lesson(at: 1)
        let original = model.trace
        Self.type("w", &model)
        #expect(model.isPaused && model.flash?.text == "wake up after step 1 (t=0.000s)")
        let wake = model.trace.firstIndex { $0.kind == .wakeUp }
        #expect(wake != nil)
        #expect(Array(model.trace.prefix(wake ?? 0)) == Array(original.prefix(wake ?? 0)))
        #expect(wake.map { model.trace[$0].time } == .zero)
    }

    @Test(
        "an item key acts on the selected item only: of the wrong kind, the status bar says what to select first, then why, and nothing changes"
    )
    func wrongKind() {
        for (keys, flash) in [
            ("1f", "f needs a timer: select 2 first (item 1 keepAlive is a port)"),
            ("2s", "s needs a version-0 source: select 3 first (item 2 tick is a timer)"),
            ("2S", "S needs a version-0 source: select 3 first (item 2 tick is a timer)"),
            ("3o", "o needs a port: select 1, 4 first (item 3 work is a version-0 source)"),
            ("5f", "f needs a timer: select 2 first (item 5 activity is an observer)"),
        ] {
            var model = Self.lesson(at: 41)
            let original = model.trace
            Self.type(keys, &model)
            #expect(model.flash?.text == flash)
            #expect(model.trace == original && model.session.interventions.isEmpty)
        }
    }

    @Test("a poke made before an earlier poke's step forgets the later one (its step is now another event)")
    func earlierPokeForgetsLaterOnes() {
        var model = Self.lesson(at: 60)
        Self.type("w", &model)
        _ = UpdateTests.press(.character("g"), .character("4"), .character("1"), .enter, on: &model)
        Self.type("w", &model)
        #expect(model.session.interventions.map(\.afterEvent) == [41])
        #expect(model.flash?.text == "wake up after step 41; 1 poke made after a later step forgotten (t=1.340003s)")
    }

    @Test(
        "each pool key after step 9 (opReady upload1 at 0.000) acts once that add is done, before the next add",
        arguments: [
            (
                "a", "add op1 to uploads (normal, work 1 s)",
                ["14 0.000 uploads opAdd op1", "15 0.000 uploads opReady op1"]
            ),
            ("jc", "cancel thumb", ["14 0.000 uploads opCancel thumb"]),
            (
                "C", "cancel all operations of uploads",
                ["14 0.000 uploads queue cancelAll", "15 0.000 uploads opCancel thumb"]
            ),
            ("s", "suspend uploads", ["14 0.000 uploads queue suspended"]),
            (">", "limit of uploads 2, now 3", ["14 0.000 uploads queue limit"]),
            ("<", "limit of uploads 2, now 1", ["14 0.000 uploads queue limit"]),
        ])
    func poolKeys(_ keys: String, _ label: String, _ next: [String]) {
        var model = PoolFixture.model()
        model.isPaused = true
        model.cursor = 9
        model.furthest = 9
        let original = model.trace
        Self.type(keys, &model)
        #expect(model.isPaused && model.cursor == 9)
        #expect(model.flash?.text == label + " after step 9 (t=0.000s)")
        // Events 10-13 are the same add's doing (upload1 starts on a new worker): the poke comes after them.
        #expect(Array(model.trace.prefix(13)) == Array(original.prefix(13)))
        #expect(Self.lines(model, 14...(13 + next.count)) == next)
    }
}
