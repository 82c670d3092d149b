import LoopEngine

/// Lesson-sized scenarios whose every text carries the control sequences a hostile file could send to the
/// terminal: ESC/CSI (`\e[2J` clears the screen), OSC 0 (retitles the window) and OSC 52 (writes the clipboard)
/// ended by BEL, the C1 CSI 0x9B, DEL, NUL, the bidirectional override U+202E and the isolate U+2066.
enum HostileLesson {
    /// Each control sequence once, for titles and `say` texts.
    static let sequences =
        "\u{1B}]0;PWNED\u{7} \u{1B}[2J \u{1B}]52;c;SGVsbG8=\u{7} \u{9B}31m \u{7F} \u{0} \u{202E}txet \u{2066}iso\u{2069}"
    /// The same, as every output must show it.
    static let shownSequences =
        "\\e]0;PWNED\\u{7} \\e[2J \\e]52;c;SGVsbG8=\\u{7} \\u{9B}31m \\u{7F} \\0 \\u{202E}txet \\u{2066}iso\\u{2069}"

    /// A file name with an OSC 0 and a bidirectional override in it, and how outputs show it.
    static let fileName = "evil\u{1B}]0;PWNED\u{7}\u{202E}.loop"
    static let shownFileName = "evil\\e]0;PWNED\\u{7}\\u{202E}.loop"

    /// A run-loop lesson (comparable with the real CFRunLoop): hostile title, callout `say`, narration; it keeps
    /// its promise.
    static let loop = """
        # A lesson whose texts carry every kind of control sequence
        scenario "Loop \(sequences)"
        thread T
          source0 touch
            say "touched \(sequences)"
          timer tick at 5ms
            say "tick \(sequences)"
          run default for 30ms
        at 10ms on T
          signal touch
          wakeup
        say "narration \(sequences)" at 2ms
        expect in order
          timer tick
          source0 touch
        """

    /// A pool lesson (compared with Foundation's OperationQueue), whose `say` shows in the pool events.
    static let pool = """
        scenario "Pool \(sequences)"
        queue uploads limit 1
        thread T
          operation up1 on uploads work 1ms
          say "pool \(sequences)"
          wait for uploads
        """

    /// A broken file with control characters in names, a title, a `say` text and an expectation: every
    /// diagnostic quotes them.
    static let broken = """
        scenario "Broken \u{1B}]0;PWNED\u{7}" "and \u{1B}[2J"
        thread T\u{202E}x
          source0 \u{1B}[2Jtouch
          say \u{9B}"hi"
          signal t\u{2066}ouch\u{7F}
        expect in order
          timer \u{0}tick
        """

    /// Whether `text` holds a character a terminal would act on (its own line breaks and tabs aside).
    static func hasUnsafe(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && $0 != "\t" && TerminalSafeText.isUnsafe($0) }
    }

    /// The unsafe characters of `text`, for a readable failure.
    static func unsafe(_ text: String) -> [String] {
        text.unicodeScalars.filter { $0 != "\n" && $0 != "\t" && TerminalSafeText.isUnsafe($0) }
            .map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }
}
