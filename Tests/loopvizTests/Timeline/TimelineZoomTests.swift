import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// `>` `<` `(` `)` `0`: the timeline zooms around the step, pans and fits the whole run; its ticks read in µs, ms or s
/// by zoom, and its marks stay at every zoom.
@Suite("the timeline zooms and pans")
struct TimelineZoomTests {
    static func paused(width: Int = 80, height: Int = 24, step: Int = 90) -> AppModel {
        var model = RenderTests.model(width: width, height: height, step: step)
        model.isPaused = true
        return model
    }

    /// The timeline panel's lines, header to axis.
    static func panel(_ model: AppModel) -> [String] {
        let layout = Layout(width: model.width, height: model.height, threads: 1)
        let lines = render(model).lines
        return Array(lines[layout.timeline.y..<layout.timeline.maxY])
    }

    @Test("tick labels read in seconds, milliseconds or microseconds by their spacing, with no trailing zeros")
    func tickWording() {
        #expect(TimelineWindow.label(1_500_000_000) == "1.5s")
        #expect(TimelineWindow.label(2_000_000_000, spacing: 500_000_000) == "2s")
        #expect(TimelineWindow.label(250_000_000, spacing: 250_000_000) == "0.25s")
        #expect(TimelineWindow.label(12_250_000, spacing: 250_000) == "12.25ms")
        #expect(TimelineWindow.label(40_000_000, spacing: 1_000_000) == "40ms")
        #expect(TimelineWindow.label(1_250_000, spacing: 10_000) == "1250µs")
        #expect(TimelineWindow(end: 0, bucket: 1000, columns: 69).scale == "1µs a column")
        #expect(TimelineWindow(end: 0, bucket: 5_000_000, columns: 69).scale == "5ms a column")
        #expect(TimelineWindow(end: 0, bucket: 2_000_000_000, columns: 69).scale == "2s a column")
        let window = TimelineWindow(end: 1_000_000, bucket: 10_000, columns: 69)
        #expect(window.words == "from 0.32ms to 1.01ms, 10µs a column")
        #expect(window.ticks.map(\.label) == ["0.4ms", "0.5ms", "0.6ms", "0.7ms", "0.8ms", "0.9ms", "1ms"])
    }

    @Test("> zooms in a level at a time around the step, down to 1µs a column, and says so at the bound")
    func zoomIn() {
        var model = Self.paused()
        let step = model.now
        _ = UpdateTests.press(.character(">"), on: &model)
        #expect(model.timelineZoom == TimelineZoom(bucket: 20_000_000, end: nil))
        #expect(model.flash?.text.hasPrefix("timeline: from ") == true)
        for _ in 0..<30 { _ = UpdateTests.press(.character(">"), on: &model) }
        #expect(model.timelineZoom == TimelineZoom(bucket: 1000, end: nil))
        #expect(model.flash == "the timeline is at its finest: 1µs a column")
        // The step stays in the last column at every zoom.
        let window = model.timelineZoom.window(now: step, columns: model.timelineColumns)
        #expect(window.column(of: step.nanoseconds) == window.columns - 1)
    }

    @Test("< zooms out to the whole run and no further; 0 fits the whole run at once")
    func zoomOutAndFit() {
        var model = Self.paused()
        for _ in 0..<4 { _ = UpdateTests.press(.character(">"), on: &model) }
        for _ in 0..<40 { _ = UpdateTests.press(.character("<"), on: &model) }
        #expect(model.flash == "the timeline shows the whole run")
        let columns = Int64(model.timelineColumns)
        let bucket = model.timelineZoom.bucket ?? 0
        #expect(bucket * columns > model.runEnd)
        #expect(TimelineZoom.levels.filter { $0 < bucket }.allSatisfy { $0 * columns <= model.runEnd })
        var fitted = Self.paused()
        _ = UpdateTests.press(.character("0"), on: &fitted)
        #expect(fitted.timelineZoom == TimelineZoom(bucket: bucket, end: max(fitted.runEnd, fitted.now.nanoseconds)))
        #expect(fitted.timelineZoom.window(now: fitted.now, columns: fitted.timelineColumns).start == 0)
    }

    @Test("( pans half a window earlier, ) back later until the window follows the step again")
    func pan() {
        var model = Self.paused(step: 200)
        for _ in 0..<3 { _ = UpdateTests.press(.character(">"), on: &model) }
        let columns = model.timelineColumns
        let following = model.timelineZoom.window(now: model.now, columns: columns)
        _ = UpdateTests.press(.character("("), on: &model)
        let earlier = model.timelineZoom.window(now: model.now, columns: columns)
        #expect(earlier.bucket == following.bucket)
        #expect(earlier.start == following.start - following.bucket * Int64(columns / 2))
        _ = UpdateTests.press(.character(")"), on: &model)
        #expect(model.timelineZoom.end == nil)
        _ = UpdateTests.press(.character(")"), on: &model)
        #expect(model.flash == "the timeline ends at the step")
        for _ in 0..<10_000 where model.flash != "the timeline is at the run's start" {
            _ = UpdateTests.press(.character("("), on: &model)
        }
        #expect(model.timelineZoom.window(now: model.now, columns: columns).start == 0)
    }

    @Test("the existing keys keep their meanings: z and Z hide and show panels, < and > the pool view's limit")
    func bindingsKept() {
        #expect(KeyMap.command(for: .character("z")) == .hidePanel)
        #expect(KeyMap.command(for: .character("Z")) == .showPanel)
        #expect(KeyMap.command(for: .character(">"), in: .pool) == .raiseLimit)
        #expect(KeyMap.command(for: .character("<"), in: .pool) == .lowerLimit)
        #expect(KeyMap.command(for: .character(">")) == .zoomIn)
        #expect(KeyMap.command(for: .character("0")) == .fitTimeline)
    }

    @Test("a recording's observer and hang marks stay on the lane at every zoom out to the whole run")
    func marksSurviveZoomingOut() throws {
        var model = try TimelineHangsTests.demo(step: 60)
        var lanes: [String] = []
        repeat {
            lanes.append(TimelineHangsTests.lane(model))
            _ = UpdateTests.press(.character("<"), on: &model)
        } while model.flash != "the timeline shows the whole run" && lanes.count < 40
        _ = UpdateTests.press(.character("0"), on: &model)
        lanes.append(TimelineHangsTests.lane(model))
        for lane in lanes {
            #expect(lane.contains("o") && lane.contains("▓"), "\(lane)")
        }
        #expect(lanes.count > 1)
    }

    @Test("the zoomed timeline at 80×24 and 132×43: zoomed in, panned, fitted", arguments: [(80, 24), (132, 43)])
    func screens(_ size: (Int, Int)) {
        var model = Self.paused(width: size.0, height: size.1)
        let name = "Screens/timeline-\(size.0)x\(size.1)"
        for _ in 0..<3 { _ = UpdateTests.press(.character(">"), on: &model) }
        Snapshot.assertMatches(RenderTests.text(model), "\(name)-in.screen", target: "loopvizTests")
        for _ in 0..<6 { _ = UpdateTests.press(.character(">"), on: &model) }
        Snapshot.assertMatches(RenderTests.text(model), "\(name)-micro.screen", target: "loopvizTests")
        _ = UpdateTests.press(.character("0"), .character("("), on: &model)
        Snapshot.assertMatches(RenderTests.text(model), "\(name)-fit.screen", target: "loopvizTests")
    }

    @Test("--screen-reader says the range, the scale and the marks in range after a timeline key")
    func screenReader() {
        var model = Self.paused()
        let before = model
        _ = UpdateTests.press(.character("0"), on: &model)
        let lines = ScreenReader.announce(.character("0"), before: before, after: model)
        #expect(lines.count == 3)
        #expect(lines.last?.hasPrefix("Timeline from 0s to ") == true)
        #expect(lines.last?.contains("callouts") == true)
    }
}
