/// What the runtime needs of a screen: keys, resizes and signals in, frames out. ``NcursesPresenter`` is the
/// terminal; the tests drive the runtime through a text presenter that plays scripted input and keeps the frames.
protocol Presenter: AnyObject {
    /// The screen's size in cells.
    var size: (width: Int, height: Int) { get }

    /// Waits until the user or a signal does something, a descriptor of `wakers` becomes readable (the live
    /// feed, the engine's answers), or `timeout` seconds pass (nil: no limit), and says what came in.
    func waitForInput(timeout: Double?, wakers: [Int32]) -> [PresenterInput]

    /// Draws `screen`; `full`: everything on the screen may be stale (after a resume), draw every cell.
    func present(_ screen: Screen, full: Bool)

    /// Ctrl-Z: gives the terminal back and stops the process until it is continued (SIGCONT).
    func suspend()

    /// Takes the terminal again after ``suspend()``.
    func resume()

    /// Gives the terminal back; idempotent, and called on every way out.
    func restore()
}

/// What a presenter hands the runtime.
enum PresenterInput: Equatable {
    /// A key, or the screen's new size.
    case message(AppMessage)
    /// A signal arrived (SIGTSTP, SIGCONT, or one that ends the process).
    case signal(Int32)
    /// Input has ended (standard input closed): the UI quits when nothing else came in.
    case endOfInput
    /// The terminal went away: the UI quits at once.
    case hangUp
}
