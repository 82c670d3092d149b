import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// 80×24, the projector size: every panel and overlay as a teacher sees it after zooming the font. The screens
/// at 80×24 of RenderTests and PoolRenderTests show the panels of both views; these add the other views and the
/// overlays. Re-record with `RECORD_SNAPSHOTS=1`.
@Suite("every panel and overlay at 80×24")
struct ProjectorSizeTests {
    static func keys(_ text: String, _ model: inout AppModel) {
        for key in text { _ = updateInline(&model, .key(key == "\n" ? .enter : .character(key))) }
    }

    static func screen(_ name: String) -> AppModel {
        var model = UpdateTests.model(width: 80, height: 24)
        model.isPaused = true
        switch name {
        case "documented":
            keys("g40\nv", &model)
        case "help-last":
            keys("g12\n?", &model)
            for _ in 0..<6 { _ = updateInline(&model, .key(.pageDown)) }
        case "goto":
            keys("g40\ng12", &model)
        case "ten-items":
            keys("g12\naAOaA", &model)
            for _ in 0..<9 { keys("e", &model) }
        case "threads":
            model = ThreadPickerTests.lesson("18-upload-pool.loop")
            keys("Pg60\nt", &model)
        case "worker-loop":
            model = ThreadPickerTests.lesson("18-upload-pool.loop")
            keys("Pg60\n", &model)
        case "pool-help":
            model = PoolFixture.model()
            model.isPaused = true
            keys("?", &model)
        case "pool-help-last":
            model = PoolFixture.model()
            model.isPaused = true
            keys("?", &model)
            for _ in 0..<6 { _ = updateInline(&model, .key(.pageDown)) }
        case "poke-flash":
            keys("g44\n3S", &model)
        default:
            preconditionFailure(name)
        }
        return model
    }

    @Test(
        "each view and overlay at 80×24",
        arguments: [
            "documented", "help-last", "goto", "ten-items", "threads", "worker-loop", "pool-help", "pool-help-last",
            "poke-flash",
        ])
    func screens(_ name: String) {
        let model = Self.screen(name)
        let lines = render(model).lines
        #expect(lines.count == 24 && lines.allSatisfy { $0.count <= 80 })
        Snapshot.assertMatches(
            lines.joined(separator: "\n") + "\n", "Screens/projector-80x24-\(name).screen", target: "loopvizTests")
    }

    @Test("the help of both views pages to its end at 80×24, every entry whole")
    func helpReachesEveryKey() {
        for view in [AppModel.View.loop, .pool] {
            var model = view == .loop ? UpdateTests.model(width: 80, height: 24) : PoolFixture.model()
            model.isPaused = true
            Self.keys("?", &model)
            var seen = render(model).lines.joined(separator: "\n")
            // Down to the help's last line (it grows with the keys), within a bound.
            for _ in 0..<200 where !seen.contains("end: ↑ k or PgUp back") {
                _ = updateInline(&model, .key(.down))
                seen += render(model).lines.joined(separator: "\n")
            }
            #expect(seen.contains("end: ↑ k or PgUp back"), "\(view): the help's last line")
            for binding in KeyMap.bindings(in: view) {
                #expect(seen.contains("  " + binding.label.padded(8) + binding.help + " "), "\(view): \(binding.help)")
            }
        }
    }

    @Test("the documented view at 80×24 cuts none of Apple's steps and none of CF's notes: the brief words fit")
    func documentedViewIsWholeAt80() {
        var model = UpdateTests.model(width: 80, height: 24)
        model.isPaused = true
        Self.keys("v", &model)
        let briefNotes = Set(CycleSteps.documented.compactMap(\.briefDiffers).map { "≠ CF: " + $0 })
        var notesShown: Set<String> = []
        for step in 1...model.trace.count {
            Self.keys("g\(step)\n", &model)
            let lines = render(model).lines
            // The cycle panel: its ten rows and the note under them, left of the loop panel (34 columns).
            for line in lines[2...12] {
                let panel = String(line.prefix(33))
                #expect(!panel.contains("…"), "step \(step): \(panel)")
            }
            let note = String(lines[12].prefix(33)).trimmingCharacters(in: .whitespaces)
            if !note.isEmpty { notesShown.insert(note) }
        }
        #expect(notesShown.isSubset(of: briefNotes), "\(notesShown.subtracting(briefNotes))")
        #expect(notesShown.count >= 6, "\(notesShown)")
        let rows = render(model).lines[2...11].map { String($0.dropFirst(4).prefix(27)) }
        #expect(rows.map { $0.trimmingCharacters(in: .whitespaces) } == CycleSteps.documented.map(\.brief))
    }
}
