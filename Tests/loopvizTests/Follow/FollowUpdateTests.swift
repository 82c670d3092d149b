import LoopEngine
import Testing

@testable import loopviz

/// `--follow` without a terminal: a fake growing file is fed to `update` look by look (``FollowBatch``), as the
/// runtime's ``FollowFeed`` would; the view follows the newest event until the user steps back.
@Suite("following a file: the UI")
struct FollowUpdateTests {
    static let header = JSONLTraceHeader(
        scenario: "loopviz-demo", clock: .real, events: nil,
        recording: .init(process: "loopviz-demo", pid: 2011, thread: "main"))

    /// The model after the header and the first `count` events arrived, one look.
    static func following(_ count: Int, width: Int = 80) -> AppModel {
        var model = FollowFixture.model(width: width)
        let events = Array(FollowFixture.events.prefix(count))
        _ = updateInline(&model, .followed(FollowBatch(header: header, events: events)))
        return model
    }

    /// The recording's events as the UI keeps them: to the millisecond, as every real-clock time.
    static let rounded = FollowFixture.events.map { $0.rounded(to: Session.liveResolution) }

    static func status(_ model: AppModel) -> String { render(model).lines.last ?? "" }

    @Test("the view follows each look's newest event, and the title names the recording")
    func followsTheNewestEvent() {
        var model = Self.following(10)
        #expect(model.cursor == 10 && model.isFollowing)
        _ = updateInline(&model, .followed(FollowBatch(events: Array(FollowFixture.events[10..<15]))))
        #expect(model.cursor == 15 && model.trace.count == 15)
        #expect(model.session.script.scenario.name == "loopviz-demo")
        #expect(
            render(model).lines.first
                == " loopviz  loopviz-demo  (demo.jsonl)           real clock  t=0.111s  step 15/15")
        #expect(
            Self.status(model) == " LIVE  following, read-only  t=0.111s  ? help  q quit  Space play/pause")
    }

    @Test("every thread's loop recorded: a lane appears at each thread's first entry, and the header counts them")
    func laneForEachThread() {
        var model = Self.following(10)
        let lanes = { (model: AppModel) in model.session.snapshots(after: model.trace.count).map(\.thread) }
        #expect(lanes(model) == ["main"])
        #expect(
            model.session.script.header == [
                "A recording followed as it is written from loopviz-demo (pid 2011), thread main: read-only (pokes are unavailable)."
            ])
        let time = FollowFixture.events[9].time
        let worker = [LoopEvent.Kind.entry, .beforeTimers, .beforeSources, .beforeWaiting].map { kind in
            LoopEvent(
                time: time, loop: "worker", depth: 1, mode: "default", iteration: kind == .entry ? 0 : 1, kind: kind,
                name: nil, fact: nil)
        }
        _ = updateInline(&model, .followed(FollowBatch(events: worker)))
        #expect(lanes(model) == ["main", "worker"])
        #expect(
            model.session.script.header == [
                "A recording followed as it is written from loopviz-demo (pid 2011), 2 threads: read-only (pokes are unavailable)."
            ])
        #expect(render(model).lines.contains { $0.hasPrefix("worker ") })
    }

    @Test("a step back pauses following and says how to follow again; End follows again")
    func stepBackPausesFollowing() {
        var model = Self.following(10)
        _ = updateInline(&model, .key(.character("p")))
        _ = updateInline(&model, .followed(FollowBatch(events: Array(FollowFixture.events[10..<15]))))
        #expect(model.cursor == 9 && !model.isFollowing)
        #expect(Self.status(model) == " PAUSED  following, read-only  t=0.061s  following paused: End to follow again")
        _ = updateInline(&model, .key(.end))
        #expect(model.cursor == 15 && model.isFollowing)
        _ = updateInline(&model, .followed(FollowBatch(events: Array(FollowFixture.events[15..<20]))))
        #expect(model.cursor == 20)
    }

    @Test("the hang mark appears once the busy segment has ended")
    func hangAppearsAsItHappens() {
        // Line 40 of the file (event 39) ends the deliberate hang's mark; the loop sleeps a few events later.
        var model = Self.following(39)
        #expect(model.session.hangs == TimelineHangs(Self.rounded.prefix(39)))
        let before = model.session.hangs
        _ = updateInline(&model, .followed(FollowBatch(events: Array(FollowFixture.events[39...]))))
        #expect(model.session.hangs == TimelineHangs(Self.rounded))
        #expect(model.session.hangs != before)
    }

    @Test("the recording's end says the program ended, and nothing more is read")
    func endSaysTheProgramEnded() {
        var model = Self.following(FollowFixture.events.count)
        _ = updateInline(&model, .followed(FollowBatch(ended: true)))
        #expect(model.session.liveEnded)
        #expect(
            Self.status(model) == " END  the program has ended: its recording is complete  following, read-only…")
    }

    @Test("a truncated file stops following with the sizes, and keeps the events read")
    func truncationStopsFollowing() {
        var model = Self.following(10)
        _ = updateInline(&model, .followed(FollowBatch(problem: .truncated(size: 12, read: 2048))))
        #expect(model.trace.count == 10)
        #expect(
            Self.status(model) == " END  following stopped: the file was truncated (it has 12 bytes, 2048 were…)")
        #expect(
            model.flash
                == StatusMessage(
                    "following stopped: the file was truncated",
                    detail: "it has 12 bytes, 2048 were read; the events read are kept"))
    }

    @Test("a program that ended without recording anything: following stops and says why")
    func nothingRecordedSaysWhy() {
        var model = Self.following(0)
        _ = updateInline(&model, .followed(FollowBatch(problem: .nothingRecorded)))
        #expect(model.session.followProblem == .nothingRecorded)
        #expect(
            model.flash
                == StatusMessage(
                    "the program ended without recording anything",
                    detail: "a statically linked or set-user-ID program ignores LD_PRELOAD"))
        #expect(Self.status(model).hasPrefix(" END  the program ended without recording anything"))
    }

    @Test("pokes are refused: the recording is read-only")
    func pokesRefused() {
        var model = Self.following(10)
        _ = updateInline(&model, .key(.character("w")))
        #expect(model.flash == StatusMessage(Session.replayPokeMessage))
        #expect(model.trace.count == 10)
    }

    @Test("past the live budget the oldest events are forgotten, and the status bar says how many")
    func budgetForgetsTheOldest() {
        var model = Self.following(0)
        let event = FollowFixture.events[1]
        let many = [LoopEvent](repeating: event, count: Session.maximumLiveEvents + 1)
        _ = updateInline(&model, .followed(FollowBatch(events: many)))
        #expect(model.trace.count == Session.maximumLiveEvents * 3 / 4)
        #expect(model.session.forgottenEvents == Session.maximumLiveEvents / 4 + 1)
        #expect(model.cursor == model.trace.count)
        #expect(Self.status(model).contains("50001 oldest events forgotten"))
    }
}
