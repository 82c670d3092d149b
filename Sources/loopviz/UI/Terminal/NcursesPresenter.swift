import CNcurses

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The only code that talks to ncurses: sets the terminal up, draws screens (only the cells that changed),
/// reads keys and the signal pipe, and restores the terminal. Everything else in the UI is pure.
final class NcursesPresenter: Presenter {
    /// Why the terminal cannot be used, for a one-line message.
    enum Unavailable: Error, CustomStringConvertible {
        case notATerminal
        case unknownTerminal(String)

        var description: String {
            switch self {
            case .notATerminal: "standard input and output must be a terminal"
            case .unknownTerminal(let name): name.isEmpty ? "TERM is not set" : "the terminal type '\(name)' is unknown"
            }
        }
    }

    private let screenPointer: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private var last: Screen?
    private var pairs: [Int: Int16] = [:]
    private let hasColors: Bool
    /// Polls that found standard input readable but nothing to read, in a row: the end of input.
    private var emptyReads = 0
    /// True once input has ended (the terminal went away): the UI then quits instead of spinning.
    var reachedEndOfInput: Bool { emptyReads >= 3 }

    init() throws(Unavailable) {
        guard isatty(0) == 1, isatty(1) == 1 else { throw .notATerminal }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty, term != "dumb" else { throw .unknownTerminal(term) }
        setlocale(LC_ALL, "")
        if lv_codeset_is_utf8() == 0 { setlocale(LC_ALL, "C.UTF-8") }
        _ = Self.capSizeForNcurses()
        // newterm returns nil for an unknown terminal where initscr would exit the process.
        guard let created = lv_newterm() else { throw .unknownTerminal(term) }
        screenPointer = created
        set_term(created)
        guard let standard = lv_stdscr() else { throw .unknownTerminal(term) }
        window = standard
        cbreak()
        noecho()
        nonl()
        keypad(window, true)
        nodelay(window, true)
        curs_set(0)
        set_escdelay(25)
        hasColors = has_colors()
        if hasColors {
            start_color()
            use_default_colors()
        }
    }

    /// The terminal's size in cells, at most ``maximumSide`` each way.
    var size: (width: Int, height: Int) {
        (min(Int(getmaxx(window)), Self.maximumSide), min(Int(getmaxy(window)), Self.maximumSide))
    }

    /// The most cells the UI draws across and down, as `screen --size` allows; beyond it nothing is drawn. A
    /// 10000x10000 window made ncurses keep 2.2 GB of cells and then fail as if the terminal type were unknown.
    static let maximumSide = 1000

    /// Sets `LINES` and `COLUMNS` to the terminal's size capped at ``maximumSide``: ncurses reads them instead of
    /// the terminal's own size (its `use_env`, on by default) when it sets up and on every resize, so its screens
    /// stay within the cap. Returns the capped size; nil when the terminal does not say its size.
    private static func capSizeForNcurses() -> (width: Int, height: Int)? {
        var window = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        let capped = (width: min(Int(window.ws_col), maximumSide), height: min(Int(window.ws_row), maximumSide))
        setenv("COLUMNS", String(capped.width), 1)
        setenv("LINES", String(capped.height), 1)
        return capped
    }

    /// Draws `screen`, writing only the cells that differ from the last one drawn.
    func present(_ screen: Screen, full: Bool) {
        if full || last?.width != screen.width || last?.height != screen.height {
            last = nil
            wclear(window)
        }
        for y in 0..<screen.height {
            for x in 0..<screen.width {
                let cell = screen[x, y]
                if let last, last[x, y] == cell { continue }
                // The right half of a wide character: the terminal drew it with the character on its left.
                if cell.isTrailing { continue }
                // The bottom-right cell would scroll some terminals; skip it.
                if y == screen.height - 1 && x == screen.width - 1 { continue }
                let scalar = cell.character.unicodeScalars.first?.value ?? 32
                _ = lv_put_wchar(window, Int32(y), Int32(x), wchar_t(scalar), attributes(cell.style), pair(cell.style))
            }
        }
        wrefresh(window)
        last = screen
    }

    private func attributes(_ style: Screen.Style) -> Int32 {
        var value: Int32 = 0
        if style.bold { value |= lv_attr_bold() }
        if style.dim { value |= lv_attr_dim() }
        if style.reverse { value |= lv_attr_reverse() }
        if style.underline { value |= lv_attr_underline() }
        return value
    }

    private func pair(_ style: Screen.Style) -> Int16 {
        guard hasColors, style.foreground != .normal || style.background != .normal else { return 0 }
        let key = (style.foreground.rawValue + 1) * 16 + style.background.rawValue + 1
        if let existing = pairs[key] { return existing }
        let next = Int16(pairs.count + 1)
        guard Int32(next) < lv_color_pairs() else { return 0 }
        init_pair(next, Int16(style.foreground.rawValue), Int16(style.background.rawValue))
        pairs[key] = next
        return next
    }

    /// Polls standard input, the signal pipe and `wakers`; then reads every signal and key waiting (a terminal
    /// resize interrupts poll and arrives as a key, so keys are always read).
    func waitForInput(timeout: Double?, wakers: [Int32]) -> [PresenterInput] {
        var fds = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        fds += wakers.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&fds, nfds_t(fds.count), timeout.map { Int32($0 * 1000) } ?? -1)
        if ready < 0 && errno != EINTR { return [.hangUp] }
        var inputs = SignalPipe.drain().map(PresenterInput.signal)
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return inputs + [.hangUp] }
        let keys = readKeys(inputWasReadable: fds[0].revents != 0)
        inputs += keys.map(PresenterInput.message)
        // End of input (stdin closed): the UI quits rather than spin.
        if reachedEndOfInput && keys.isEmpty { inputs.append(.endOfInput) }
        return inputs
    }

    /// Ctrl-Z: the terminal goes back to the shell first, then the process stops; SIGCONT (fg) comes through the
    /// signal pipe next.
    func suspend() {
        restore()
        SignalPipe.stopNow()
    }

    #if canImport(Glibc)
    private static let bytesReadable = UInt(FIONREAD)
    #else
    /// `FIONREAD`, Darwin's `_IOR('f', 127, int)`: Swift does not import macros built with `_IOR`.
    private static let bytesReadable: UInt = 0x4004_667F
    #endif

    /// Reads every key waiting, without blocking (a resize arrives here as `KEY_RESIZE`). `inputWasReadable`
    /// says whether poll reported standard input readable: only then does an empty read count towards the end of
    /// input.
    func readKeys(inputWasReadable: Bool) -> [AppMessage] {
        var messages: [AppMessage] = []
        // Before ncurses looks at a resize: the size it will read is capped; a change it has not seen yet is
        // made here (and arrives as `KEY_RESIZE`).
        if let capped = Self.capSizeForNcurses(), capped != size {
            resizeterm(Int32(capped.height), Int32(capped.width))
        }
        var character: wint_t = 0
        var reads = 0
        while true {
            let result = wget_wch(window, &character)
            if result == ERR { break }
            reads += 1
            if result == KEY_CODE_YES {
                if let message = Self.translate(keyCode: Int32(character), size: size) { messages.append(message) }
            } else if let scalar = Unicode.Scalar(UInt32(character)) {
                messages.append(Self.translate(character: scalar))
            }
        }
        var pending: Int32 = 0
        if inputWasReadable && reads == 0 && ioctl(0, Self.bytesReadable, &pending) == 0 && pending == 0 {
            emptyReads += 1
        } else if reads > 0 {
            emptyReads = 0
        }
        return messages
    }

    static func translate(keyCode: Int32, size: (width: Int, height: Int)) -> AppMessage? {
        switch keyCode {
        case KEY_UP: .key(.up)
        case KEY_DOWN: .key(.down)
        case KEY_LEFT: .key(.left)
        case KEY_RIGHT: .key(.right)
        case KEY_PPAGE: .key(.pageUp)
        case KEY_NPAGE: .key(.pageDown)
        case KEY_HOME: .key(.home)
        case KEY_END: .key(.end)
        case KEY_ENTER: .key(.enter)
        case KEY_BACKSPACE: .key(.backspace)
        case KEY_RESIZE: .resize(width: size.width, height: size.height)
        default: keyCode == lv_key_btab() ? .key(.backTab) : nil
        }
    }

    static func translate(character scalar: Unicode.Scalar) -> AppMessage {
        switch scalar.value {
        case 9: .key(.tab)
        case 10, 13: .key(.enter)
        case 27: .key(.escape)
        case 8, 127: .key(.backspace)
        default: .key(.character(Character(scalar)))
        }
    }

    /// Gives the terminal back (idempotent).
    func restore() {
        guard !isendwin() else { return }
        curs_set(1)
        endwin()
    }

    /// Takes the terminal again after a suspension and forces a full redraw.
    func resume() {
        wrefresh(window)
        last = nil
    }

    deinit {
        restore()
        delscreen(screenPointer)
    }
}
