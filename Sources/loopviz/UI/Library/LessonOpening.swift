import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lesson of the library that `update` asks the runtime to open (``Effect/openLesson(_:)``): reading a file is
/// I/O, which stays outside `update`.
struct LessonRequest: Equatable {
    /// The entry of the library.
    var index: Int
    var path: String
    /// `R`: the step to show again (clamped to the lesson's events); nil: the lesson starts from its first step.
    var keepStep: Int?
    var iterationCost: Duration?
}

/// What the runtime read for a ``LessonRequest`` (``AppMessage/lessonOpened(_:)``): the script with its
/// refreshed picker entry, or the file's diagnostics.
struct LessonOpening: Equatable {
    struct Loaded: Equatable {
        var script: LoopScript
        var entry: LessonLibrary.Entry
    }

    var request: LessonRequest
    var result: Result<Loaded, LessonProblem>
    /// The lesson's bookmarks, read from beside it.
    var bookmarks = Bookmarks()

    /// Reads and parses the request's file (regular files only, at most ``ScriptLoader/maxFileSize`` bytes, as
    /// the commands read them).
    static func load(_ request: LessonRequest) -> LessonOpening {
        let path = request.path
        let shown = TerminalSafeText.terminalSafe(path)
        func problem(_ lines: [String]) -> LessonOpening {
            LessonOpening(request: request, result: .failure(LessonProblem(path: path, lines: lines)))
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return problem(["\(shown): no such file (was it moved or deleted?)"]) }
        guard info.st_mode & S_IFMT == S_IFREG else { return problem(["\(shown): not a regular file"]) }
        let bytes: [UInt8]
        switch ScriptLoader.read(path, limit: ScriptLoader.maxFileSize) {
        case .success(let read): bytes = read
        case .failure(.unreadable): return problem(["\(shown): cannot read"])
        case .failure(.tooLarge):
            return problem(["\(shown): larger than \(ScriptLoader.maxFileSize >> 20) MiB, not a scenario file"])
        }
        do {
            var script = try ScenarioParser.parse(utf8: bytes, file: path)
            if let cost = request.iterationCost { script.scenario.iterationCost = cost }
            var entry = LessonLibrary.Entry(path: path, position: request.index + 1)
            entry.adopt(script)
            return LessonOpening(
                request: request, result: .success(Loaded(script: script, entry: entry)),
                bookmarks: BookmarkFile.read(BookmarkFile.path(for: path)))
        } catch {
            return problem(error.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
    }
}
