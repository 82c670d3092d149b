import Foundation
import SnapshotSupport
import Testing

@testable import loopviz

/// The UI with a keymap file: the keys it gives act, the keys it takes away do not, and every text that names a
/// key names the one in force.
@Suite("the UI uses the keys of a keymap file")
struct KeyMapUITests {
    /// `u` steps and `n` is free; `F` is the help and `Q` quits.
    static let file = "bind step-forward u Right\nbind help F\nbind quit Q\nbind close-overlay Backspace\n"

    static func keys(_ text: String = file) -> KeyMap {
        guard case .success(let map) = KeyMapFile.parse(text, file: "keys") else { fatalError("refused: \(text)") }
        return map
    }

    static func model(width: Int = 80, height: Int = 24, step: Int = 12, keys: KeyMap = keys()) -> AppModel {
        var model = RenderTests.model(width: width, height: height, step: step)
        model.keys = keys
        return model
    }

    @Test("a rebound key does its command; the key it replaced does nothing")
    func reboundKeyActs() {
        var model = Self.model()
        model.isPaused = true
        _ = UpdateTests.press(.character("u"), on: &model)
        #expect(model.cursor == 13 && model.flash == nil)
        _ = UpdateTests.press(.character("n"), on: &model)
        #expect(model.cursor == 13 && model.flash == nil && model.overlay == .none)
        _ = UpdateTests.press(.right, on: &model)
        #expect(model.cursor == 14)
    }

    @Test("the help opens and closes with its new key; the quit key quits from it; the old ones do not")
    func helpAndQuitKeys() {
        var model = Self.model()
        _ = UpdateTests.press(.character("?"), on: &model)
        #expect(model.overlay == .none)
        _ = UpdateTests.press(.character("F"), on: &model)
        #expect(model.overlay == .help)
        _ = UpdateTests.press(.character("q"), on: &model)
        #expect(!model.quitRequested && model.overlay == .help)
        _ = UpdateTests.press(.character("F"), on: &model)
        #expect(model.overlay == .none)
        _ = UpdateTests.press(.character("F"), on: &model)
        #expect(UpdateTests.press(.character("Q"), on: &model) == [.quit] && model.quitRequested)
    }

    @Test("the help lists the keys in force and closes with the help key it names")
    func helpLists() {
        let lines = helpLines(.loop, Glyphs(theme: .init()), keys: Self.keys()).map(\.0)
        #expect(lines.first == "Keys (/ filters, Esc or F closes)")
        #expect(lines.contains("  u →     next event (pool view: next pool event)"))
        #expect(lines.contains("  F       this help") && lines.contains("  Q       quit"))
        #expect(lines.contains("  Backspace close the overlay, else clear the filter"))
        #expect(!lines.contains { $0.hasPrefix("  n →") || $0.hasPrefix("  ?  ") })
        #expect(lines.contains("  PAUSED  nothing moves until Space, u or p"))
    }

    @Test("a command left without a key is not in the help, and a hint that needs it names the command")
    func unboundCommand() {
        let keys = Self.keys("unbind End\n")
        #expect(!helpLines(.loop, Glyphs(theme: .init()), keys: keys).contains { $0.0.contains("follow the newest") })
        #expect(Session.followPausedMarker(keys) == "following paused: follow-newest (no key) to follow again")
        #expect(Session.followPausedMarker() == "following paused: End to follow again")
    }

    @Test("the hints name the keys in force: the filter, matches, lessons, bookmarks, the quiz")
    func hints() {
        let keys = Self.keys("bind next-match N\nbind nested-run J\nbind reload-lesson K\nbind toggle-bookmark W\n")
        #expect(matchKeys(keys) == "N next, # previous, Esc clears")
        #expect(
            LessonProblem.hint(keys)
                == "this lesson does not open: fix the file and press K, or { } L for another lesson")
        var model = Self.model(keys: keys)
        _ = UpdateTests.press(.character("W"), on: &model)
        #expect(model.flash == StatusMessage("step 12 bookmarked", detail: "' next, \" previous, M lists, ; a note"))
        _ = UpdateTests.press(.character("W"), .character("'"), on: &model)
        #expect(model.flash == StatusMessage("no bookmark after step 12", detail: "W marks the step shown"))
    }

    @Test("presenter mode echoes the key that turned it on and names the presenter keys in force")
    func presenter() {
        var model = Self.model(keys: Self.keys("bind toggle-presenter J\nbind toggle-poke-lock K\n"))
        _ = UpdateTests.press(.character("D"), on: &model)
        #expect(!model.classroom.presenter.isOn)
        _ = UpdateTests.press(.character("J"), on: &model)
        #expect(model.classroom.presenter.isOn && model.classroom.presenter.lastKey == .character("J"))
        #expect(
            model.flash
                == StatusMessage(
                    "presenter mode: pokes locked (K), z hides a panel, Z shows one, d plays to the next narration"))
        _ = UpdateTests.press(.character("K"), on: &model)
        #expect(model.flash == StatusMessage("pokes unlocked: K locks them again"))
    }

    @Test("a box closes with the key that opened it and quits with the quit key in force, not the old ones")
    func boxesUseTheKeysInForce() {
        var model = Self.model(keys: Self.keys("bind show-stats J\nbind quit Q\nbind pick-thread W\n"))
        _ = UpdateTests.press(.character("J"), on: &model)
        guard case .stats = model.overlay else {
            Issue.record("J did not open the totals: \(model.overlay)")
            return
        }
        _ = UpdateTests.press(.character("H"), .character("q"), on: &model)
        #expect(!model.quitRequested)
        guard case .stats = model.overlay else {
            Issue.record("H or q closed the totals: \(model.overlay)")
            return
        }
        _ = UpdateTests.press(.character("J"), on: &model)
        #expect(model.overlay == .none)
        _ = UpdateTests.press(.character("W"), on: &model)
        #expect(model.overlay == .threads(0))
        _ = UpdateTests.press(.character("t"), on: &model)
        #expect(model.overlay == .threads(0))
        _ = UpdateTests.press(.character("W"), on: &model)
        #expect(model.overlay == .none)
        _ = UpdateTests.press(.character("J"), .character("Q"), on: &model)
        #expect(model.quitRequested)
    }

    @Test("the screen and its help with the rebound keys, at 80×24 and 132×43", arguments: [(80, 24), (132, 43)])
    func screens(size: (width: Int, height: Int)) {
        var model = Self.model(width: size.width, height: size.height)
        model.isPaused = true
        let main = RenderTests.text(model)
        #expect(main.contains("F help  Q quit  Space play/pause  u/p step"))
        let suffix = "\(size.width)x\(size.height)"
        Snapshot.assertMatches(main, "Screens/keymap-\(suffix).screen", target: "loopvizTests")
        _ = UpdateTests.press(.character("F"), on: &model)
        let help = RenderTests.text(model)
        #expect(help.contains("  u →     next event (pool view: next pool event)"))
        Snapshot.assertMatches(help, "Screens/keymap-help-\(suffix).screen", target: "loopvizTests")
    }

    @Test("the screen reader announces the keys in force, and Enter alone steps with them")
    func screenReader() {
        let introduction = ScreenReader.introduction(Self.keys())
        #expect(introduction[1].contains("u next, p previous") && introduction[1].hasSuffix("F every key, Q quit."))
    }
}

/// `loopviz keymap`, `--keymap` and their problems, on the built executable.
@Suite("loopviz keymap and --keymap")
struct KeyMapCommandTests {
    @Test("loopviz keymap --default prints the defaults as a keymap file")
    func printsDefaults() throws {
        let result = try LoopvizProcess.run(["keymap", "--default"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout == KeyMapFile.text(.standard))
    }

    @Test("loopviz keymap --keymap FILE prints the keys FILE gives")
    func printsFile() throws {
        let result = try LoopvizProcess.run(["keymap", "--keymap", "keys"], files: ["keys": KeyMapUITests.file])
        #expect(result.status == 0)
        #expect(result.stdout == KeyMapFile.text(KeyMapUITests.keys()))
    }

    @Test("a problem in the keymap stops the UI with exit 2 and its line and column, before any terminal")
    func problemStopsTheUI() throws {
        let files = ["keys": "# mine\nbind quit q\nbind jump j\n"]
        let expected = "loopviz: error: keys:3:6: unknown command 'jump' (`loopviz keymap` lists them)\n"
        for arguments in [["--keymap", "keys"], ["keymap", "--keymap", "keys"], ["screen", "--keymap", "keys"]] {
            let result = try LoopvizProcess.run(arguments, files: files)
            #expect(result.status == 2 && result.stderr == expected && result.stdout.isEmpty, "\(arguments)")
        }
        let missing = try LoopvizProcess.run(["--keymap", "nowhere"])
        #expect(missing.status == 2 && missing.stderr == "loopviz: error: nowhere: no such keymap file\n")
    }

    @Test("screen --keymap shows the status bar's hints with the file's keys")
    func screenUsesKeys() throws {
        let result = try LoopvizProcess.run(
            ["screen", "--keymap", "keys", "--step", "3"], files: ["keys": KeyMapUITests.file])
        #expect(result.status == 0)
        #expect(result.stdout.contains("F help  Q quit  Space play/pause  u/p step"))
    }
}
