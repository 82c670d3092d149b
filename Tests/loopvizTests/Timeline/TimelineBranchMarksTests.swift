import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The timeline marks the schedule's branch points: a fork (`Y` in ASCII) on the lane of each event a schedule choice
/// placed, at every zoom, above every callout letter; the screen reader counts them.
@Suite("the timeline marks the schedule's branch points")
struct TimelineBranchMarksTests {
    static let races = [
        "54-perform-right-after-start.loop", "55-stop-overtakes-the-work.loop", "56-stop-during-a-callout.loop",
        "57-timer-and-wakeup-in-one-instant.loop",
    ]

    /// A race lesson at its last step, paused.
    static func lesson(_ name: String, width: Int = 80, height: Int = 24, unicode: Bool = true) -> AppModel {
        var model = ThreadPickerTests.lesson(name, width: width, height: height)
        model.theme.unicode = unicode
        BookmarkTests.go(to: model.trace.count, &model)
        // The lesson's end card closed: the timeline under it is what is looked at.
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.overlay == .none)
        return model
    }

    /// The timeline's lanes by thread: each row's cells, without its label (the rows under the panel's title).
    static func lanes(_ model: AppModel) -> [String: [Character]] {
        let screen = render(model)
        let lines = screen.lines
        guard let title = lines.firstIndex(where: { $0.contains("Timeline") }) else { return [:] }
        let threads = model.session.snapshots(after: model.cursor).map(\.thread)
        var lanes: [String: [Character]] = [:]
        for y in (title + 1)..<lines.count {
            let label = String(lines[y].prefix(10)).trimmingCharacters(in: .whitespaces)
            guard let thread = threads.first(where: { !label.isEmpty && String($0.prefix(9)) == label }) else { break }
            lanes[thread] = (0..<model.timelineColumns).map { screen[10 + $0, y].character }
        }
        return lanes
    }

    /// The columns of the events a schedule choice placed that the window shows (the steps shown only), by thread.
    static func markedColumns(_ model: AppModel) -> [String: [Int]] {
        let window = model.timelineZoom.window(now: model.now, columns: model.timelineColumns)
        var columns: [String: [Int]] = [:]
        for index in model.session.branchMarks.marked(in: 0..<model.cursor) {
            let event = model.trace[index]
            let column = window.column(of: event.time.nanoseconds)
            if column >= 0 && column < window.columns { columns[event.loop, default: []].append(column) }
        }
        return columns
    }

    @Test(
        "every race lesson: a fork within two columns of each marked event, and nowhere else, at every zoom",
        arguments: races)
    func forksAtEveryZoom(_ name: String) {
        var model = Self.lesson(name)
        #expect(!model.session.branchMarks.isEmpty)
        for _ in 0..<40 where model.flash != "the timeline is at its finest: 1µs a column" {
            ThreadPickerTests.press(">", &model)
        }
        var zooms = 0
        repeat {
            let marked = Self.markedColumns(model)
            for (thread, lane) in Self.lanes(model) {
                let forks = lane.indices.filter { lane[$0] == "⑂" }
                let expected = marked[thread] ?? []
                let scale = model.timelineZoom.bucket ?? 0
                // Each marked event's fork is in its column or drifted at most two columns later; every fork is one's.
                for column in expected {
                    #expect(forks.contains { (column...column + 2).contains($0) }, "\(name) \(thread) at \(scale) ns")
                }
                for fork in forks {
                    #expect(expected.contains { (fork - 2...fork).contains($0) }, "\(name) \(thread) at \(scale) ns")
                }
            }
            zooms += 1
            ThreadPickerTests.press("<", &model)
        } while model.flash != "the timeline shows the whole run" && zooms < 40
        ThreadPickerTests.press("0", &model)
        let whole = Self.lanes(model).values.reduce(0) { $0 + $1.filter { $0 == "⑂" }.count }
        #expect(whole >= 1)
        #expect(zooms > 10)
    }

    @Test("the fork stands at its event's column, a letter that falls there moves a column later; ASCII draws it Y")
    func forkAndLetter() {
        for unicode in [true, false] {
            var model = Self.lesson("57-timer-and-wakeup-in-one-instant.loop", unicode: unicode)
            // The event a schedule choice placed: the client's signal of `job` at 100 ms (step 9), before the
            // timer's callout (step 13) in the same instant.
            #expect(model.session.branchMarks.marked(in: 0..<model.trace.count) == [8])
            #expect(model.trace[8].kind == .signal && model.trace[12].kind == .timer)
            let worker = model.trace[8].loop
            // 30 ms a column: 100 ms is column 3.
            let blank = { (used: Int) in String(repeating: " ", count: model.timelineColumns - used) }
            BookmarkTests.go(to: 9, &model)
            #expect(String(Self.lanes(model)[worker] ?? []) == (unicode ? "━┄┄⑂" : "=__Y") + blank(4))
            BookmarkTests.go(to: 13, &model)
            #expect(String(Self.lanes(model)[worker] ?? []) == (unicode ? "━┄┄⑂t" : "=__Yt") + blank(5))
        }
    }

    @Test(
        "lesson 57 at 80×24 and 132×43: following the step, at 1µs a column, zoomed out, and the whole run",
        arguments: [(80, 24), (132, 43)])
    func screens(_ size: (Int, Int)) {
        var model = Self.lesson("57-timer-and-wakeup-in-one-instant.loop", width: size.0, height: size.1)
        let name = "Screens/timeline-branch-\(size.0)x\(size.1)"
        Snapshot.assertMatches(RenderTests.text(model), "\(name)-step.screen", target: "loopvizTests")
        for _ in 0..<40 where model.flash != "the timeline is at its finest: 1µs a column" {
            ThreadPickerTests.press(">", &model)
        }
        Snapshot.assertMatches(RenderTests.text(model), "\(name)-finest.screen", target: "loopvizTests")
        ThreadPickerTests.press("<<<<<<<<<", &model)
        Snapshot.assertMatches(RenderTests.text(model), "\(name)-out.screen", target: "loopvizTests")
        ThreadPickerTests.press("0", &model)
        Snapshot.assertMatches(RenderTests.text(model), "\(name)-fit.screen", target: "loopvizTests")
        var ascii = model
        ascii.theme.unicode = false
        Snapshot.assertMatches(RenderTests.text(ascii), "\(name)-fit-ascii.screen", target: "loopvizTests")
    }

    @Test("--screen-reader counts the branch points of the steps shown in the window, per thread, after a timeline key")
    func screenReader() {
        var model = Self.lesson("57-timer-and-wakeup-in-one-instant.loop")
        #expect(model.session.branchMarks.points.count == 1)
        var before = model
        ThreadPickerTests.press("0", &model)
        #expect(
            ScreenReader.announce(.character("0"), before: before, after: model).last
                == "Timeline from 0ms to 138ms, 2ms a column: worker: 2 callouts, 1 sleep, 1 branch point.")
        // Before the timer's step, nothing the window shows was placed by a choice: no branch point is said.
        BookmarkTests.go(to: 8, &model)
        before = model
        ThreadPickerTests.press("<", &model)
        #expect(
            ScreenReader.announce(.character("<"), before: before, after: model).last
                == "Timeline from 0ms to 138ms, 2ms a column: worker: 0 callouts, 1 sleep.")
    }
}
