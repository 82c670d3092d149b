#if os(Linux)
import LoopEngine

/// The UI rows: the interactive UI's own code in this process, on the long trace (``LongTrace``), without a
/// terminal. The UI is a pure `update(&model, message)` and a pure `render(model) -> Screen`; the runtime
/// (`TerminalApp`) calls `update` for each key or tick and then `render` once, and hands the screen to ncurses.
/// Each figure is that much: `update` for the keys, then one `render`, on a 120×40 screen — the presenter's diff
/// and the terminal's write are not in it.
///
/// Every round computes a fresh session (not timed) whose trace the event budget stops at exactly `events`
/// events, opened at event 1, then measures at `target`:
///
/// - goTo: `g`, the digits of `target`, Enter, and the render, from event 1. The first jump of a session: the
///   states it shows are folded from the start (later ones start from a checkpoint).
/// - step: `n` and the render, from `target - 1` to `target` (stepped back with `p` first, not timed);
///   `stepSamples` times, each a sample.
/// - play: playing at the default speed near `target` (from `target - 10`), as the runtime does at 30 frames a
///   second: `playFrames` `.tick(seconds: 1/30)` (30; 3 with `--quick`), each followed by a render when the
///   screen would change (`AppModel.drawsLike`, as in `TerminalApp`). The figure is
///   their CPU time (`CLOCK_THREAD_CPUTIME_ID`) over the wall time they stand for (`playFrames / 30` s), as % of
///   a core; above 100 % the UI could not keep up with 30 frames a second.
/// - poke: `s` (signal the source0 `work` and wake the loop up) at `target` and the render: an outside event,
///   for which the session runs the whole scenario again and folds the new trace's states.
///
/// - search: `/`, a query no event matches, Enter, and the filtered log drawn.
/// - filterChange: with that filter on (set first, not timed), `/`, the query erased and `T` typed (a word every
///   event has: its thread's name), Enter, and the render: the filter's index made again, keeping every event.
/// - zoom: from the step's default axis, each of `>`, `<` and `0` (fit the whole run computed) and the render: the
///   timeline's new window folded (at `0`, every event up to the step).
///
/// goTo, step, poke, search, filterChange and zoom are wall time (one thread, nothing else to wait for).
enum UIBench {
    struct Round {
        /// Milliseconds each.
        var step: [Double]
        var goTo: Double
        var poke: Double
        /// `/` and a query no event matches, Enter, and the filtered log drawn: the worst case of a search (the
        /// filter's index made over every event, then a binary search for the search and for the log).
        var search: Double
        /// `/` from one query to another that keeps every event, Enter, and the filtered log drawn.
        var filterChange: Double
        /// `>`, `<`, `0`, each from the default axis, with the render.
        var zoomIn: Double
        var zoomOut: Double
        var fit: Double
        /// % of a core.
        var playCPU: Double
    }

    static let size = (width: 120, height: 40)

    /// A session on the long trace, shown at event 1, drawn once.
    final class Fixture {
        let events: Int
        let start: AppModel

        init(events: Int) {
            let text = LongTrace.script(events: events)
            let script: LoopScript
            do {
                script = try ScenarioParser.parse(text, file: "bench-long.loop")
            } catch {
                preconditionFailure("the long trace does not parse: \(error)")
            }
            let session = Session(script: script, maxEvents: events)
            precondition(
                session.trace.count == events && session.reachedEventBudget,
                "the long trace holds \(session.trace.count) events, not \(events)")
            var model = AppModel(session: session, fileName: "bench-long.loop")
            _ = updateInline(&model, .resize(width: UIBench.size.width, height: UIBench.size.height))
            _ = updateInline(&model, .key(.character("n")))
            precondition(model.cursor == 1, "the UI did not open at event 1")
            keep(render(model))
            self.events = events
            start = model
        }
    }

    /// Shares one fixture between the variants of a round: the first makes it, the second uses it.
    final class Shared {
        var fixture: Fixture?
    }

    static func measure(_ fixture: Fixture, at target: Int, stepSamples: Int, playFrames: Int) -> Round {
        precondition(target >= 11 && target <= fixture.events)
        var model = fixture.start
        // As the runtime does: one render cache from frame to frame.
        var cache = RenderCache()
        let goTo = timed {
            press([.character("g")] + String(target).map { Key.character($0) } + [.enter], &model)
            keep(render(model, cache: &cache))
        }
        precondition(model.cursor == target, "g \(target) went to \(model.cursor)")

        var step: [Double] = []
        for _ in 0..<max(stepSamples, 1) {
            var stepped = model
            press([.character("p")], &stepped)
            keep(render(stepped, cache: &cache))
            precondition(stepped.cursor == target - 1, "p went to \(stepped.cursor)")
            step.append(
                timed {
                    press([.character("n")], &stepped)
                    keep(render(stepped, cache: &cache))
                })
            precondition(stepped.cursor == target, "n went to \(stepped.cursor)")
        }

        var playing = model
        press([.character("g")] + String(target - 10).map { Key.character($0) } + [.enter], &playing)
        if playing.isPaused { press([.character(" ")], &playing) }
        keep(render(playing, cache: &cache))
        let before = playing.cursor
        let cpuStart = BenchPlatform.threadCPUTime()
        let frames = max(playFrames, 1)
        var drawn = playing
        for _ in 0..<frames {
            _ = updateInline(&playing, .tick(seconds: 1 / TerminalApp.frameRate))
            // As the runtime does: a frame that would look like the last one drawn is not drawn.
            if !playing.drawsLike(drawn) {
                keep(render(playing, cache: &cache))
                drawn = playing
            }
        }
        let cpu = BenchPlatform.threadCPUTime() - cpuStart
        // A few frames at 4 steps a second may not make a whole step; the step credit says they were played.
        precondition(
            !playing.isPaused && (playing.cursor > before || playing.stepCredit > 0),
            "playing did not advance from \(before)")

        var searched = model
        let search = timed {
            press([.character("/")] + "item:nothing".map { Key.character($0) } + [.enter], &searched)
            keep(render(searched, cache: &cache))
        }
        precondition(
            searched.filter?.items == ["nothing"] && searched.cursor == target,
            "the search moved to \(searched.cursor) or set no filter")

        // The filter changed: from the query above to one every event matches.
        var changed = searched
        let changedQuery = "T"
        let erase = [Key](repeating: .backspace, count: searched.filter?.typed.count ?? 0)
        let filterChange = timed {
            press([.character("/")] + erase + changedQuery.map { Key.character($0) } + [.enter], &changed)
            keep(render(changed, cache: &cache))
        }
        precondition(
            changed.filter?.typed == changedQuery && changed.filterIndex?.kept.count == changed.trace.count
                && changed.cursor == target,
            "the filter did not change to one keeping every event")

        // The zooms, each from the step's default axis.
        let zooms = [">", "<", "0"].map { key -> Double in
            var zoomed = model
            let figure = timed {
                press([.character(Character(key))], &zoomed)
                keep(render(zoomed, cache: &cache))
            }
            precondition(zoomed.timelineZoom != model.timelineZoom, "\(key) did not change the timeline")
            return figure
        }

        var poked = model
        let poke = timed {
            press([.character("s")], &poked)
            keep(render(poked, cache: &cache))
        }
        precondition(
            poked.session.interventions.count == 1 && poked.trace.count == fixture.events,
            "the poke did not add an outside event to a trace of \(fixture.events) events")
        // CPU nanoseconds over the wall nanoseconds the frames stand for, as a percentage.
        let played = Double(frames) / TerminalApp.frameRate * 1e9
        return Round(
            step: step, goTo: goTo, poke: poke, search: search, filterChange: filterChange, zoomIn: zooms[0],
            zoomOut: zooms[1], fit: zooms[2], playCPU: Double(cpu) / played * 100)
    }

    private static func press(_ keys: [Key], _ model: inout AppModel) {
        for key in keys { _ = updateInline(&model, .key(key)) }
    }

    /// Milliseconds of wall time `body` took.
    private static func timed(_ body: () -> Void) -> Double {
        let start = BenchPlatform.now()
        body()
        return Double(BenchPlatform.now() - start) / 1e6
    }

    /// Keeps a screen from being optimised away.
    @inline(never)
    static func keep(_ screen: Screen) {
        withExtendedLifetime(screen) {}
    }
}
#endif
