import Foundation
import Testing

@testable import loopviz

/// The keymap file: what a file makes of the defaults, and each problem at its line and column.
@Suite("a keymap file rebinds the UI's keys")
struct KeyMapFileTests {
    static func parse(_ text: String) -> Result<KeyMap, KeyMapProblem> { KeyMapFile.parse(text, file: "keys") }

    static func keys(_ text: String) -> KeyMap {
        guard case .success(let map) = parse(text) else {
            Issue.record("\(text) was refused")
            return .standard
        }
        return map
    }

    @Test("an empty file, blank lines and comments keep every default")
    func emptyKeepsDefaults() {
        #expect(Self.keys("") == .standard)
        #expect(Self.keys("# my keys\n\n   # indented comment\n\t\n") == .standard)
    }

    @Test("bind gives a command exactly the keys listed; the commands not named keep theirs")
    func bindReplaces() {
        let map = Self.keys("unbind j\nbind step-forward j Right\n")
        #expect(map.command(for: .character("j")) == .stepForward)
        #expect(map.command(for: .right) == .stepForward)
        #expect(map.command(for: .character("n")) == nil)
        #expect(map.command(for: .down) == .scrollDown)
        #expect(map.command(for: .character("k")) == .scrollUp)
        // Only the lines changed differ from the defaults.
        let changed = zip(map.bindings, KeyMap.bindings).filter { $0.0 != $0.1 }.map(\.0.command)
        #expect(changed == [.stepForward, .selectNextOperation, .scrollDown])
    }

    @Test("a rebound command's help label names its new keys; a command bound to its default keys keeps its label")
    func labels() {
        let map = Self.keys("unbind j\nbind step-forward j Right\nbind toggle-pause Space\n")
        #expect(map.bindings.first { $0.command == .stepForward }?.label == "j →")
        #expect(map.bindings.first { $0.command == .scrollDown }?.label == "↓")
        #expect(map.bindings.first { $0.command == .togglePause }?.label == "Space")
    }

    @Test("key names are read in any case; one character stands for itself, # and ' too")
    func keyNames() {
        let map = Self.keys("bind quit Q esc\nbind close-overlay BACKSPACE\nbind previous-match # %\nbind help ? F\n")
        #expect(map.command(for: .character("Q")) == .quit && map.command(for: .escape) == .quit)
        #expect(map.command(for: .character("q")) == nil)
        #expect(map.command(for: .backspace) == .closeOverlay)
        #expect(
            map.command(for: .character("#")) == .previousMatch && map.command(for: .character("%")) == .previousMatch)
        #expect(map.command(for: .character("F")) == .help)
    }

    @Test("a file with Windows line ends reads as with Unix ones")
    func crlf() {
        let map = Self.keys("# mine\r\nbind quit Q\r\nbind help F\r\n")
        #expect(map.command(for: .character("Q")) == .quit && map.command(for: .character("F")) == .help)
        #expect(
            Self.parse("\r\nbind jump j\r\n")
                == .failure(KeyMapProblem("keys", line: 2, column: 6, .unknownCommand("jump", suggestion: nil))))
    }

    @Test("unbinding a digit frees it from the item keys; the other digits still select their item")
    func digits() {
        let map = Self.keys("unbind 0 5\nbind fit-timeline 5\n")
        #expect(map.command(for: .character("5")) == .fitTimeline)
        #expect(map.command(for: .character("0")) == nil)
        #expect(map.command(for: .character("6")) == .selectItem(5))
        #expect(map.bindings.first { $0.command == .selectItem(0) }?.label == "1 2 3 4 6 7 8 9")
    }

    /// Each problem and where it is.
    static let problems: [(text: String, problem: KeyMapProblem)] = [
        ("bnd quit q\n", KeyMapProblem("keys", line: 1, column: 1, .unknownDirective("bnd"))),
        ("# ok\n  bind\n", KeyMapProblem("keys", line: 2, column: 3, .missingCommand)),
        ("bind quit\n", KeyMapProblem("keys", line: 1, column: 10, .missingKey(directive: "bind"))),
        ("unbind\n", KeyMapProblem("keys", line: 1, column: 7, .missingKey(directive: "unbind"))),
        (
            "\nbind step-foward j\n",
            KeyMapProblem("keys", line: 2, column: 6, .unknownCommand("step-foward", suggestion: "step-forward"))
        ),
        ("bind jump j\n", KeyMapProblem("keys", line: 1, column: 6, .unknownCommand("jump", suggestion: nil))),
        ("bind select-item a\n", KeyMapProblem("keys", line: 1, column: 6, .fixedKeys(command: "select-item"))),
        ("bind quit q Ctrl-X\n", KeyMapProblem("keys", line: 1, column: 13, .unknownKey("Ctrl-X"))),
        ("unbind F1\n", KeyMapProblem("keys", line: 1, column: 8, .unknownKey("F1"))),
        (
            "bind quit q a b c d e f g h i j k l\n",
            KeyMapProblem("keys", line: 1, column: 35, .tooManyKeys(command: "quit", limit: 12))
        ),
        (
            "bind step-forward j\n",
            KeyMapProblem(
                "keys", line: 1, column: 19,
                .conflict(key: "j", command: "step-forward", other: "select-next-operation", views: ["pool"]))
        ),
        (
            "bind quit u\nbind help u\n",
            KeyMapProblem(
                "keys", line: 2, column: 11,
                .conflict(key: "u", command: "help", other: "quit", views: ["loop", "pool"]))
        ),
        ("unbind q\n", KeyMapProblem("keys", line: 1, column: 8, .noKeyLeft(command: "quit"))),
        ("bind help h\nunbind h\n", KeyMapProblem("keys", line: 2, column: 8, .noKeyLeft(command: "help"))),
        ("unbind ?\n", KeyMapProblem("keys", line: 1, column: 8, .noKeyLeft(command: "help"))),
    ]

    @Test("each problem is refused at its line and column", arguments: problems.indices)
    func problem(_ index: Int) {
        let row = Self.problems[index]
        #expect(Self.parse(row.text) == .failure(row.problem))
    }

    @Test("a key that would do two things is refused wherever the other binding comes in the file")
    func conflictOrder() {
        // The later line makes the conflict either way.
        #expect(
            Self.parse("bind help u\nbind quit u\n")
                == .failure(
                    KeyMapProblem(
                        "keys", line: 2, column: 11,
                        .conflict(key: "u", command: "quit", other: "help", views: ["loop", "pool"]))))
        // Freeing the key later in the file resolves it: the whole file is checked at the end.
        let moved = Self.keys("bind step-forward j\nbind scroll-down Down\nbind select-next-operation Down\n")
        #expect(moved.command(for: .character("j")) == .stepForward)
        // A key of the loop view only may do something else in the pool view.
        #expect(Self.keys("bind add-operation a o\n").command(for: .character("o"), in: .pool) == .addOperation)
    }

    @Test("a file over 64 KiB or 2000 lines is refused whole; so is one that is not UTF-8")
    func bounds() {
        let large = String(repeating: "#", count: KeyMapFile.maximumBytes + 1)
        #expect(Self.parse(large) == .failure(KeyMapProblem("keys", .tooLarge(limit: 65536))))
        let long = String(repeating: "\n", count: KeyMapFile.maximumLines + 1)
        #expect(Self.parse(long) == .failure(KeyMapProblem("keys", .tooManyLines(limit: 2000))))
        #expect(
            Self.parse(String(repeating: "\n", count: KeyMapFile.maximumLines)).map { $0 == .standard }
                == .success(true))
        #expect(
            KeyMapFile.parse(utf8: [0x62, 0xFF, 0x0A], file: "keys") == .failure(KeyMapProblem("keys", .notUTF8)))
    }

    @Test("the printed defaults read back as the defaults, and a printed keymap as itself")
    func roundTrip() {
        #expect(Self.keys(KeyMapFile.text(.standard)) == .standard)
        let custom = Self.keys("unbind j 5 q\nbind step-forward j Right\nbind quit Q\nbind zoom-in 5 >\n")
        let printed = KeyMapFile.text(custom)
        #expect(Self.keys(printed) == custom)
        #expect(printed.contains("\nunbind n\nunbind 5\nunbind j\nunbind q\n"))
        #expect(printed.contains("\n# next event (pool view: next pool event)\nbind step-forward j Right\n"))
    }

    @Test("every command of the table has its own name in the file, which reads back as that command")
    func commandNames() {
        let names = KeyMap.bindings.map(\.command.fileName)
        #expect(Set(names).count == names.count)
        for binding in KeyMap.bindings {
            #expect(binding.command.fileName.allSatisfy { $0.isLowercase || $0 == "-" }, "\(binding.command)")
        }
        for (name, key) in Key.fileNames {
            #expect(Key(fileName: name) == key)
            #expect(key.fileName == name)
        }
        #expect(Key(fileName: " ") == nil && Key(fileName: "\u{7}") == nil && Key(fileName: "ab") == nil)
    }

    @Test("--keymap wins over LOOPVIZ_KEYMAP, which wins over the configuration file; none: the defaults")
    func precedence() {
        let all = ["LOOPVIZ_KEYMAP": "/env/keys", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"]
        func locate(_ option: String?, _ environment: [String: String], exists: Set<String>) -> KeyMapFile.Source? {
            KeyMapFile.locate(option: option, environment: { environment[$0] }, exists: { exists.contains($0) })
        }
        let both: Set = ["/xdg/loopviz/keymap", "/home/u/.config/loopviz/keymap"]
        #expect(locate("mine", all, exists: both) == .option("mine"))
        #expect(locate(nil, all, exists: both) == .environment("/env/keys"))
        var noVariable = all
        noVariable["LOOPVIZ_KEYMAP"] = ""
        #expect(locate(nil, noVariable, exists: both) == .config("/xdg/loopviz/keymap"))
        // XDG_CONFIG_HOME, when set, is the one place looked at; else HOME's .config.
        #expect(locate(nil, noVariable, exists: ["/home/u/.config/loopviz/keymap"]) == nil)
        noVariable["XDG_CONFIG_HOME"] = nil
        #expect(locate(nil, noVariable, exists: both) == .config("/home/u/.config/loopviz/keymap"))
        #expect(locate(nil, noVariable, exists: []) == nil)
        // A relative XDG_CONFIG_HOME is ignored, as the XDG rules say.
        noVariable["XDG_CONFIG_HOME"] = "relative"
        #expect(locate(nil, noVariable, exists: both) == .config("/home/u/.config/loopviz/keymap"))
    }
}

/// docs/classroom.md's "Your own keys": its example is a keymap the UI takes, and it names every command.
@Suite("the keymap's documentation is a keymap and names every command")
struct KeyMapDocTests {
    static let page: String = {
        let url = LoopvizProcess.packageRoot.appendingPathComponent("docs/classroom.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    static var section: Substring {
        guard let start = page.range(of: "## Your own keys") else { return "" }
        let rest = page[start.upperBound...]
        return rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
    }

    @Test("the example file is read without a problem and does what its comments say")
    func example() throws {
        let fence = try #require(Self.section.range(of: "```\n"))
        let body = Self.section[fence.upperBound...]
        let end = try #require(body.range(of: "```"))
        let map = KeyMapFileTests.keys(String(body[..<end.lowerBound]))
        #expect(map.command(for: .character("j")) == .stepForward && map.command(for: .character("k")) == .stepBack)
        #expect(map.command(for: .down) == .scrollDown && map.command(for: .character("n")) == nil)
        #expect(map.command(for: .character("p"), in: .pool) == .togglePoolView)
    }

    @Test("every command's name is in the list of names, with its default keys")
    func everyName() {
        for binding in KeyMap.bindings where binding.command != .selectItem(0) {
            let keys = binding.keys.map(\.fileName).joined(separator: " ")
            #expect(Self.section.contains("`\(binding.command.fileName)` (\(keys))"), "\(binding.command.fileName)")
        }
    }
}

/// The defaults are read only where a keymap is made: everything else asks the keys in force (`model.keys`), so a
/// key a user moved can never act or be named by its default somewhere.
@Suite("the UI reads the keys in force, not the defaults")
struct KeyMapInForceTests {
    @Test("no source outside KeyMap.swift and UI/Keys/ asks the default table for a key or a command")
    func noDefaultLookups() throws {
        let root = LoopvizProcess.packageRoot.appendingPathComponent("Sources/loopviz")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        var offenders: [String] = []
        for file in files where file.hasSuffix(".swift") && file != "UI/App/KeyMap.swift" && !file.hasPrefix("UI/Keys/")
        {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for pattern in ["KeyMap.command(", "KeyMap.bindings"] where text.contains(pattern) {
                offenders.append("\(file): \(pattern)")
            }
        }
        #expect(files.contains("UI/App/Update.swift"))
        #expect(offenders == [])
    }
}
