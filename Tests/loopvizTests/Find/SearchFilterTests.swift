import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// `/`, `*`, `#` and Esc: a search and filter of the events by their typed fields.
@Suite("search and filter the events")
struct SearchFilterTests {
    static func type(_ text: String, on model: inout AppModel) {
        for character in text { _ = updateInline(&model, .key(.character(character))) }
    }

    static func search(_ query: String, on model: inout AppModel) {
        _ = UpdateTests.press(.character("/"), on: &model)
        type(query, on: &model)
        _ = UpdateTests.press(.enter, on: &model)
    }

    static func paused(width: Int = 80, height: Int = 24) -> AppModel {
        var model = UpdateTests.model(width: width, height: height)
        model.isPaused = true
        return model
    }

    @Test("a query is read into typed terms: fields are alternatives within, all required across; words are free")
    func parsing() throws {
        let filter = try #require(try EventFilter.parse("thread:worker  kind:timer kind:source0 Tick"))
        #expect(
            filter
                == EventFilter(
                    typed: "thread:worker kind:timer kind:source0 Tick", threads: ["worker"],
                    kinds: [.timer, .source0],
                    words: ["tick"]))
        #expect(try EventFilter.parse("   ") == nil)
        #expect(throws: EventFilter.Problem.unknownKind("tmer")) { try EventFilter.parse("kind:tmer") }
        #expect(throws: EventFilter.Problem.unknownField("thred")) { try EventFilter.parse("thred:worker") }
        #expect(throws: EventFilter.Problem.emptyValue("item")) { try EventFilter.parse("item:") }
    }

    @Test("the prompt's problems name the fix")
    func problemWording() {
        #expect(
            EventFilter.Problem.unknownKind("tmer").message
                == "'tmer' is not an event kind (e.g. timer, source0, sleep, wake)")
        #expect(EventFilter.Problem.unknownKind("ti").message == "'ti' is not an event kind (timer)")
        #expect(
            EventFilter.Problem.unknownField("thred").message
                == "no field 'thred:' (thread: kind: item: mode:, or plain words)")
        #expect(EventFilter.Problem.emptyValue("item").message == "item: needs a value (item:NAME)")
    }

    @Test("/ kind:timer Enter goes to the first timer, * and # walk every timer in order, and nothing else")
    func walkMatches() {
        var model = Self.paused()
        Self.search("kind:timer", on: &model)
        let timers = model.trace.indices.filter { model.trace[$0].kind == .timer }.prefix(4).map { $0 + 1 }
        var visited = [model.cursor]
        #expect(
            model.flash
                == StatusMessage(
                    "step \(timers[0]) matches kind:timer", detail: "* next, # previous, Esc clears the filter"))
        for _ in 1..<timers.count {
            _ = UpdateTests.press(.character("*"), on: &model)
            visited.append(model.cursor)
        }
        #expect(visited == Array(timers))
        _ = UpdateTests.press(.character("#"), .character("#"), on: &model)
        #expect(model.cursor == timers[1])
        #expect(model.isPaused && model.filter?.kinds == [.timer])
    }

    @Test("a free word matches the formatter's words of the fact: 'until' finds the first sleep with a deadline")
    func wordMatchesFact() throws {
        var model = Self.paused()
        Self.search("until", on: &model)
        let event = try #require(model.currentEvent)
        #expect(event.kind == .sleep)
        #expect(event.detail?.contains("until") == true)
        let first = model.trace.firstIndex { $0.detail?.contains("until") == true }
        #expect(model.cursor == first.map { $0 + 1 })
    }

    @Test("fields combine: thread and item and mode must all hold")
    func fieldsCombine() throws {
        var model = Self.paused()
        Self.search("thread:worker item:work mode:default kind:source0", on: &model)
        let event = try #require(model.currentEvent)
        #expect((event.loop, event.kind, event.name, event.mode) == ("worker", .source0, "work", "default"))
        _ = UpdateTests.press(.escape, on: &model)
        let step = model.cursor
        Self.search("thread:nobody", on: &model)
        #expect(model.cursor == step)
        #expect(
            model.flash
                == StatusMessage(
                    "no match for thread:nobody after step \(step) computed so far", detail: "# searches back"))
    }

    @Test("Esc at the prompt keeps the filter; Esc on the panels clears it; an empty query clears it too")
    func clearing() {
        var model = Self.paused()
        Self.search("kind:timer", on: &model)
        _ = UpdateTests.press(.character("/"), on: &model)
        #expect(model.overlay == .search(SearchPrompt(typed: "kind:timer")))
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.overlay == .none && model.filter?.typed == "kind:timer")
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.filter == nil && model.flash == "filter cleared: every event shows")
        Self.search("kind:timer", on: &model)
        _ = UpdateTests.press(.character("/"), on: &model)
        for _ in 0..<10 { _ = UpdateTests.press(.backspace, on: &model) }
        _ = UpdateTests.press(.enter, on: &model)
        #expect(model.filter == nil && model.overlay == .none)
    }

    @Test("a query that is not a filter keeps the prompt open with the reason; typing again clears the reason")
    func badQuery() {
        var model = Self.paused()
        Self.search("kind:tmer", on: &model)
        #expect(model.overlay == .search(SearchPrompt(typed: "kind:tmer", problem: .unknownKind("tmer"))))
        #expect(model.filter == nil && model.cursor == 0)
        _ = UpdateTests.press(.backspace, on: &model)
        #expect(model.overlay == .search(SearchPrompt(typed: "kind:tme")))
    }

    @Test("* with no search says how to type one")
    func nextWithoutSearch() {
        var model = Self.paused()
        _ = UpdateTests.press(.character("*"), on: &model)
        #expect(model.flash == "no search yet: / types one (thread:NAME kind:KIND item:NAME mode:NAME or words)")
        #expect(model.cursor == 0)
    }

    @Test("the filtered log, the prompt and its problem at 80×24 and 132×43", arguments: [(80, 24), (132, 43)])
    func screens(_ size: (Int, Int)) {
        var model = Self.paused(width: size.0, height: size.1)
        Self.search("kind:timer", on: &model)
        _ = UpdateTests.press(.character("*"), .character("*"), on: &model)
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/filter-\(size.0)x\(size.1)-timers.screen", target: "loopvizTests")
        _ = UpdateTests.press(.character("/"), on: &model)
        Self.type(" kind:sleeep", on: &model)
        _ = UpdateTests.press(.enter, on: &model)
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/filter-\(size.0)x\(size.1)-problem.screen", target: "loopvizTests")
    }

    @Test("a filter by thread keeps only its rows on the timeline, and the status bar names the filter")
    func timelineByThread() {
        var model = Self.paused(width: 132, height: 43)
        Self.search("thread:nobody", on: &model)
        _ = UpdateTests.press(.character("v"), on: &model)
        let lines = render(model).lines
        #expect(!lines.contains { $0.hasPrefix("worker ") })
        #expect(lines.last?.contains("filter thread:nobody (Esc clears)") == true)
    }
}
