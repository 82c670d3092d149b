#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--record FILE.cast`: the UI session as an asciicast v2 file (what `asciinema play` plays). A header line (a JSON
/// object: version 2, width, height, timestamp, env), then one `[time, "o", data]` line per frame drawn, `data`
/// being the bytes that draw it (``Screen/ansi(from:)``), and `[time, "r", "WxH"]` when the terminal is resized.
///
/// The cast is written by `-o`'s rule (``OutputFile``; docs/limits.md, "Files are never lost"): never onto an
/// input (the scenario played, however spelled), a regular file through a temporary file beside it, renamed to
/// FILE when the session ends (quit, end of input, a signal; after a crash, the crash guard renames it), a
/// symbolic link followed, a device or FIFO written directly (never replaced). Each line is written whole as it
/// comes (nothing waits in a buffer). A write that fails (a full disk) stops the recording: the status bar says
/// so, the temporary file is removed, FILE is left as it was, and the UI ends with a message and status 2. The
/// size is bounded: past ``limit`` bytes no more frames are written, and the status bar and the exit message say
/// so.
final class AsciicastRecorder {
    enum Failure: Error, CustomStringConvertible {
        /// The message to print (`loopviz: error: …`), from ``OutputFile``.
        case cannotWrite(String)

        var description: String {
            switch self {
            case .cannotWrite(let message): message
            }
        }
    }

    /// What the end of a recording says, and whether the cast was lost to a write error (the UI then ends with
    /// status 2, an unwritable cast).
    struct Outcome: Equatable {
        var message: String
        var failed: Bool
    }

    /// The default bound on a cast: 64 MiB, hours of a class.
    static let defaultLimit = 64 << 20

    let path: String
    let limit: Int
    /// Where the cast goes (internal for the tests, which make a write fail as a full disk would).
    let output: OutputFile
    private let title: String
    private let environment: [(String, String)]
    private let timestamp: Int
    private let clock: () -> Double
    private var start: Double?
    private var last: Screen?
    private(set) var bytes = 0
    private(set) var frames = 0
    private(set) var stoppedAtLimit = false
    /// True once a write failed (said once in the status bar): nothing more is recorded.
    private(set) var stoppedByError = false
    private var finished = false
    private var lastTime = 0.0

    /// Opens the cast (so that a path that cannot be written, or that names one of `inputs`, is refused before the
    /// UI starts); the header is written with the first frame, when the terminal's size is known.
    init(
        path: String, inputs: [String] = [], title: String, environment: [(String, String)], timestamp: Int,
        limit: Int = defaultLimit, clock: @escaping () -> Double
    ) throws(Failure) {
        guard path != "-" else {
            throw .cannotWrite("loopviz: error: --record -: the terminal is the UI's; name a file such as lesson.cast")
        }
        switch OutputFile.open(path, inputs: inputs, option: "--record") {
        case .success(let output): self.output = output
        case .failure(let failure): throw .cannotWrite(failure.message)
        }
        self.path = path
        self.title = title
        self.environment = environment
        self.timestamp = timestamp
        self.limit = max(1024, limit)
        self.clock = clock
    }

    /// The temporary file the cast is written to until the session ends; nil when FILE is written directly.
    var temporaryPath: String? { output.temporaryPath }

    /// Records `screen` as drawn (`full`: the terminal was cleared first). Returns a message the first time the size
    /// limit or a write error stops the recording.
    @discardableResult
    func record(_ screen: Screen, full: Bool = false) -> String? {
        guard !finished, !stoppedAtLimit, !stoppedByError else { return nil }
        let now = clock()
        if start == nil {
            start = now
            guard write(header(width: screen.width, height: screen.height) + "\n") else {
                return "recording stopped: \(reason)"
            }
        }
        // Times never go backwards, whatever the clock does.
        let time = max(lastTime, now - (start ?? now))
        lastTime = time
        var lines = ""
        if let last, last.width != screen.width || last.height != screen.height {
            lines += event(time, "r", "\(screen.width)x\(screen.height)")
        }
        let data = screen.ansi(from: full ? nil : last)
        if !data.isEmpty { lines += event(time, "o", data) }
        last = screen
        guard !lines.isEmpty else { return nil }
        guard bytes + lines.utf8.count <= limit else {
            stoppedAtLimit = true
            return "recording stopped at its size limit (\(limit >> 20) MiB); \(path) keeps the session until now"
        }
        guard write(lines) else { return "recording stopped: \(reason)" }
        frames += 1
        return nil
    }

    /// Ends the recording: the temporary file becomes FILE, unless a write failed (then FILE is left as it was).
    /// Returns what to tell the user (after the terminal is restored).
    func finish() -> Outcome {
        guard !finished else { return Outcome(message: "", failed: false) }
        finished = true
        if start == nil { _ = write(header(width: 80, height: 24) + "\n") }
        if let failure = output.commit() {
            let kept = temporaryPath == nil ? "" : "; the recording is not kept, \(path) is as it was"
            return Outcome(message: failure + kept, failed: true)
        }
        let size = bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(max(1, bytes >> 10)) KiB"
        let limitNote = stoppedAtLimit ? " (stopped at the size limit)" : ""
        return Outcome(
            message:
                "loopviz: recorded \(frames) frames, \(size), \(Int(lastTime.rounded())) s\(limitNote) to \(path); "
                + "play it with: asciinema play \(path)", failed: false)
    }

    /// Gives the recording up (the UI could not start): the temporary file is removed, FILE left as it was.
    func abandon() {
        guard !finished else { return }
        finished = true
        output.abandon()
    }

    /// After a crash, from the signal handler: only what is safe there (the lines are already written).
    func finishAfterCrash() {
        guard !finished else { return }
        finished = true
        output.keepAfterCrash()
    }

    /// The reason of the failed write, for the status bar (`cannot write x.cast: No space left on device`).
    private var reason: String {
        let number = output.writer.errorNumber ?? EIO
        return "cannot write \(path): \(String(cString: strerror(number)))"
    }

    /// Writes `text` out at once; false when the write failed (then the recording stops).
    private func write(_ text: String) -> Bool {
        output.writer.write(text)
        guard output.writer.flush() else {
            stoppedByError = true
            return false
        }
        bytes += text.utf8.count
        return true
    }

    func header(width: Int, height: Int) -> String {
        let env = environment.map { "\(Self.quoted($0.0)): \(Self.quoted($0.1))" }.joined(separator: ", ")
        return "{\"version\": 2, \"width\": \(width), \"height\": \(height), \"timestamp\": \(timestamp), "
            + "\"title\": \(Self.quoted(title)), \"env\": {\(env)}}"
    }

    private func event(_ time: Double, _ code: String, _ data: String) -> String {
        "[\(Self.seconds(time)), \(Self.quoted(code)), \(Self.quoted(data))]\n"
    }

    /// `time` with six decimals (microseconds), as asciinema writes it.
    static func seconds(_ time: Double) -> String {
        let micros = Int((time * 1e6).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped (ESC as `\u001b`).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
