import Foundation
import LoopEngine

@testable import loopviz

/// Lessons and libraries for the lesson-library tests: small lessons with a card and a promise, and a library of
/// entries that need no file (the runtime's reads are replaced by ``opened(_:_:)``).
enum LibraryFixture {
    /// A lesson with a card (teaches, Watch for, Try, Topics) and an `expect in order` it keeps.
    static let oneTimer = """
        # A timer fires once, then the run times out with nothing left to do.
        #
        # Watch for: the timer callout at 100 ms, then sleep until 300 ms.
        #
        # Try: press f to fire the timer at once, or w to wake the loop: the run still ends at 300 ms.
        #
        # Topics: timers

        scenario "One timer, one run"

        thread T
          port keepAlive in default
          timer tick at 100ms in default
          run default for 300ms

        expect in order
          0.100 timer tick
          result timedOut
        """

    /// A lesson without a card or a promise, with a source0 to signal.
    static let plain = """
        scenario "A source0 and a port"

        thread T
          port keepAlive in default
          source0 work in default
          run default for 200ms
        """

    /// Three entries as a scan would list them (no file behind them).
    static let entries = [
        LessonLibrary.Entry(
            path: "lessons/01-one-timer.loop", number: "01", title: "One timer, one run",
            teaches: "A timer fires once, then the run times out with nothing left to do.", topics: ["timers"],
            problem: nil),
        LessonLibrary.Entry(
            path: "lessons/02-source.loop", number: "02", title: "A source0 and a port",
            teaches: "A version-0 source is only a flag.", topics: ["sources", "ports"], problem: nil),
        LessonLibrary.Entry(
            path: "lessons/03-broken.loop", number: "03", title: "03-broken.loop", teaches: nil, topics: [],
            problem: "does not parse (1 error, first at 2:3)"),
    ]

    /// A model showing `text` as entry `current` of ``entries``.
    static func model(
        _ text: String = oneTimer, current: Int = 0, width: Int = 80, height: Int = 24
    ) -> AppModel {
        let script = try! ScenarioParser.parse(text, file: entries[current].path)
        var model = AppModel(session: Session(script: script), fileName: entries[current].path)
        model.library = LessonLibrary(entries: entries, current: current)
        _ = updateInline(&model, .resize(width: width, height: height))
        return model
    }

    /// What the runtime answers to `request` when the file holds `text`: parsed as `LessonOpening.load` does.
    static func opened(_ request: LessonRequest, _ text: String) -> LessonOpening {
        do {
            let script = try ScenarioParser.parse(text, file: request.path)
            var entry = LessonLibrary.Entry(path: request.path, position: request.index + 1)
            entry.adopt(script)
            return LessonOpening(request: request, result: .success(.init(script: script, entry: entry)))
        } catch {
            return LessonOpening(
                request: request,
                result: .failure(
                    LessonProblem(path: request.path, lines: error.description.split(separator: "\n").map(String.init)))
            )
        }
    }

    static func press(_ keys: Key..., on model: inout AppModel) -> [Effect] {
        keys.flatMap { updateInline(&model, .key($0)) }
    }

    /// The keys of `text` typed one by one.
    static func type(_ text: String, on model: inout AppModel) -> [Effect] {
        text.flatMap { updateInline(&model, .key(.character($0))) }
    }

    /// Performs the effects as the runtime does, reading the files for real.
    static func run(_ effects: [Effect], on model: inout AppModel) {
        for case .openLesson(let request) in effects {
            _ = updateInline(&model, .lessonOpened(LessonOpening.load(request)))
        }
    }

    /// A fresh temporary folder, removed by the caller.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static var examples: String { LoopvizProcess.packageRoot.appendingPathComponent("examples").path }
}
