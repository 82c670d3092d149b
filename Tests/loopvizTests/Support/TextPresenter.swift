import LoopEngine

@testable import loopviz

/// A presenter without a terminal: it plays a script of input to the runtime, one step per wait, keeps every
/// frame drawn as text, and records what the runtime asked of the terminal. The script's end is the end of input.
final class TextPresenter: Presenter {
    /// One wait of the runtime: what arrives, or something to do first (an engine run answered).
    enum Step {
        case input([PresenterInput])
        case perform(() -> Void)
    }

    private var script: [Step]
    private(set) var size: (width: Int, height: Int)
    /// Every frame drawn, as its lines, and whether it was drawn whole.
    private(set) var frames: [(lines: [String], full: Bool)] = []
    /// The timeouts the runtime waited with (nil: until input).
    private(set) var timeouts: [Double?] = []
    private(set) var suspensions = 0
    private(set) var resumptions = 0
    /// True once the terminal was given back (and not taken again).
    private(set) var isRestored = false

    init(width: Int = 80, height: Int = 24, _ script: [Step]) {
        size = (width, height)
        self.script = script
    }

    /// The last frame's lines.
    var screen: [String] { frames.last?.lines ?? [] }

    func waitForInput(timeout: Double?, wakers: [Int32]) -> [PresenterInput] {
        timeouts.append(timeout)
        while !script.isEmpty {
            switch script.removeFirst() {
            case .perform(let action): action()
            case .input(let inputs):
                for case .message(.resize(let width, let height)) in inputs { size = (width, height) }
                return inputs
            }
        }
        return [.endOfInput]
    }

    func present(_ screen: Screen, full: Bool) {
        frames.append((screen.lines, full))
    }

    func suspend() {
        suspensions += 1
        restore()
    }

    func resume() {
        resumptions += 1
        isRestored = false
    }

    func restore() { isRestored = true }
}

extension TextPresenter.Step {
    /// The keys of `text`, typed at once (`q` quits).
    static func typed(_ text: String) -> Self { .input(text.map { .message(.key(.character($0))) }) }
}

/// An engine runner that answers each run only when told (``answer()``): the runtime's "computing…" state.
final class HeldEngine: EngineRunner {
    private(set) var requests: [EngineRequest] = []
    private var answers: [EngineResult] = []

    func start(_ request: EngineRequest) { requests.append(request) }

    /// Runs every request started and not answered yet; their answers come out of the next ``take()``.
    func answer() {
        answers += requests.map { $0.run() }
        requests = []
    }

    func take() -> [EngineResult] {
        defer { answers = [] }
        return answers
    }

    var readEnd: Int32? { nil }
}

/// An engine runner that answers each run as it starts (on the caller's thread).
final class InlineEngine: EngineRunner {
    private var answers: [EngineResult] = []
    private(set) var runs = 0

    func start(_ request: EngineRequest) {
        runs += 1
        answers.append(request.run())
    }

    func take() -> [EngineResult] {
        defer { answers = [] }
        return answers
    }

    var readEnd: Int32? { nil }
}
