import Testing

@testable import LoopEngine

/// An open file's places, names and problems, in the protocol's terms.
@Suite("an open .loop file")
struct LoopDocumentTests {
    @Test(
        "a column counts UTF-16 code units: after a Chinese word and an emoji, a diagnostic's range is where the editor shows it"
    )
    func utf16Columns() {
        let document = LoopDocument(uri: "file:///x.loop", text: "say zh \"循环😀\" after sleep\nthread T\n  work 1ms\n")
        // `after` is the 14th character and starts at UTF-16 offset 14: the emoji takes two units, `循` and `环` one.
        #expect(document.place(of: .init(line: 0, character: 14)).map { [$0.line, $0.column] } == [1, 14])
        #expect(document.place(of: .init(line: 0, character: 11)).map { [$0.line, $0.column] } == [1, 11])
        #expect(
            document.tokenRange(line: 1, column: 14)
                == .init(start: .init(line: 0, character: 14), end: .init(line: 0, character: 19)))
        #expect(
            document.tokenRange(line: 1, column: 8)
                == .init(start: .init(line: 0, character: 7), end: .init(line: 0, character: 13)))
    }

    @Test("a file that parses has the lint's warnings, each a warning over its word")
    func warnings() {
        let document = LoopDocument(
            uri: "file:///x.loop", text: "thread T\n  timer tick at 100ms in Tracking\n  run Trackng for 300ms\n")
        #expect(
            document.problems() == [
                .init(
                    range: .init(start: .init(line: 2, character: 6), end: .init(line: 2, character: 13)),
                    isWarning: true, message: "mode 'Trackng' has no items; did you mean 'Tracking'?")
            ])
    }

    @Test("a file over 4 MiB is not parsed: one error at its start says why")
    func tooLarge() {
        let text = "thread T\n" + String(repeating: "  work 1ms\n", count: LoopDocument.maxBytes / 11 + 1)
        let start = LoopDocument.Position(line: 0, character: 0)
        #expect(
            LoopDocument(uri: "file:///big.loop", text: text).problems() == [
                .init(
                    range: .init(start: start, end: start), isWarning: false,
                    message: "larger than 4 MiB; a scenario file is at most 4194304 bytes")
            ])
    }

    @Test("names: threads, items (a range for each name), modes, queues, operations, owners and their weak references")
    func symbols() {
        let document = LoopDocument(
            uri: "file:///x.loop",
            text: """
                owner vc weak weakSelf
                queue uploads limit 2
                thread T
                  common Tracking
                  port p1..3 in default
                  timer tick at 1ms
                    call 2: operation up on uploads work 1ms
                  run default for 1s
                """)
        let names = document.symbols.map { "\($0.kind.rawValue) \($0.name) \($0.line):\($0.column)" }
        #expect(
            names == [
                "owner vc 1:7", "weak reference weakSelf 1:15", "queue uploads 2:7", "thread T 3:8",
                "mode Tracking 4:10", "port p1 5:8", "port p2 5:8", "port p3 5:8", "mode default 5:17",
                "timer tick 6:9", "operation up 7:23",
            ])
    }

    @Test("completion at the start of a line offers the words that start a line there; elsewhere names first")
    func completions() {
        let document = LoopDocument(uri: "file:///x.loop", text: "thread T\n  port keep\n  ru\nex\n")
        #expect(document.completions(at: .init(line: 3, character: 2)).map(\.label) == ScenarioKeywords.topLevel)
        let indented = document.completions(at: .init(line: 2, character: 4)).map(\.label)
        #expect(indented.prefix(5) == ["source0", "port", "timer", "observer", "common"])
        #expect(indented.contains("run") && !indented.contains("scenario"))
        let inLine = document.completions(at: .init(line: 1, character: 11))
        #expect(inLine.prefix(2).map(\.label) == ["T", "keep"])
        #expect(inLine.count <= LoopDocument.maxCompletions)
    }

    @Test(
        "hover inside a line explains its construct: `every` in a timer line is the timer's row, `limitDate` the query's"
    )
    func hoverInsideALine() throws {
        let document = LoopDocument(
            uri: "file:///x.loop", text: "thread T\n  timer tick at 1ms every 2ms\n  query limitDate default\n")
        let every = try #require(document.hover(at: .init(line: 1, character: 23)))
        #expect(every.text.hasPrefix("`timer NAME at DURATION [every DURATION]"))
        let limitDate = try #require(document.hover(at: .init(line: 2, character: 10)))
        #expect(
            limitDate.text.hasPrefix(
                "`query limitDate M`: `limitDate(forMode:)`; on the loop's own thread it first polls M once"))
        #expect(document.hover(at: .init(line: 1, character: 16)) == nil)
    }

    @Test("hover on an event an expect or say line names gives the Expectations list item that names it")
    func hoverOnAnEvent() throws {
        let document = LoopDocument(
            uri: "file:///x.loop", text: "thread T\n  port k\n  run default for 1s\nsay \"a\" after sleep\n")
        let sleep = try #require(document.hover(at: .init(line: 3, character: 17)))
        #expect(
            sleep.text
                == "steps only `expect in order` and claims can name: a source's `schedule` and `cancel` callouts, a "
                + "custom source's `command` (posted, refused, performed or dropped; its name is the command), an item "
                + "the program invalidated (`invalidate NAME`: `CFRunLoop…Invalidate` took it out of every mode; no "
                + "callout, so the real CFRunLoop shows nothing for it and `compare` leaves it out), and the "
                + "loop's own steps `sleep`, `wake`, `enqueue`, `signal`, `send`, `wakeUp`, `stop`, `note`;"
                + "\n\n(docs/language.md, Expectations)")
    }
}
