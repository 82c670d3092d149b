#if canImport(Glibc)
import Glibc

private let writeBytes = Glibc.write
#elseif canImport(Darwin)
import Darwin

private let writeBytes = Darwin.write
#endif

/// `--record FILE.cast`: the UI session as an asciicast v2 file (what `asciinema play` plays). A header line (a JSON
/// object: version 2, width, height, timestamp, env), then one `[time, "o", data]` line per frame drawn, `data`
/// being the bytes that draw it (``Screen/ansi(from:)``), and `[time, "r", "WxH"]` when the terminal is resized.
///
/// The file is never half-made: lines go to a temporary file next to it, each written whole as it comes (nothing
/// waits in a buffer), and the temporary file is renamed to FILE when the session ends, however it ends (quit,
/// end of input, a signal; after a crash, the crash guard renames it). The size is bounded: past ``limit``
/// bytes no more frames are written, and the status bar and the exit message say so.
final class AsciicastRecorder {
    enum Failure: Error, CustomStringConvertible {
        case cannotWrite(String, reason: String)

        var description: String {
            switch self {
            case .cannotWrite(let path, let reason): "cannot record to '\(path)': \(reason)"
            }
        }
    }

    /// The default bound on a cast: 64 MiB, hours of a class.
    static let defaultLimit = 64 << 20

    let path: String
    let temporaryPath: String
    let limit: Int
    private let title: String
    private let environment: [(String, String)]
    private let timestamp: Int
    private let clock: () -> Double
    private var start: Double?
    private var descriptor: Int32
    private var last: Screen?
    private(set) var bytes = 0
    private(set) var frames = 0
    private(set) var stoppedAtLimit = false
    private var finished = false
    private var lastTime = 0.0

    /// Creates the temporary file (so that a path that cannot be written is refused before the UI starts); the
    /// header is written with the first frame, when the terminal's size is known.
    init(
        path: String, title: String, environment: [(String, String)], timestamp: Int, limit: Int = defaultLimit,
        clock: @escaping () -> Double
    ) throws(Failure) {
        self.path = path
        self.title = title
        self.environment = environment
        self.timestamp = timestamp
        self.limit = max(1024, limit)
        self.clock = clock
        var status = stat()
        if stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            throw .cannotWrite(path, reason: "it is a directory")
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporaryPath = "\(directory).\(name).partial-\(getpid())"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 { throw .cannotWrite(path, reason: String(cString: strerror(errno))) }
    }

    /// Records `screen` as drawn (`full`: the terminal was cleared first). Returns a message the first time the size
    /// limit stops the recording.
    @discardableResult
    func record(_ screen: Screen, full: Bool = false) -> String? {
        guard !finished, !stoppedAtLimit else { return nil }
        let now = clock()
        if start == nil {
            start = now
            write(header(width: screen.width, height: screen.height) + "\n")
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
        write(lines)
        frames += 1
        return nil
    }

    /// Ends the recording: the temporary file becomes FILE. Returns what to tell the user (after the terminal is
    /// restored).
    func finish() -> String {
        guard !finished else { return "" }
        finished = true
        if start == nil { write(header(width: 80, height: 24) + "\n") }
        close(descriptor)
        guard rename(temporaryPath, path) == 0 else {
            return "loopviz: could not rename \(temporaryPath) to \(path) (\(String(cString: strerror(errno)))): "
                + "the recording is in \(temporaryPath)"
        }
        let size = bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(max(1, bytes >> 10)) KiB"
        let limitNote = stoppedAtLimit ? " (stopped at the size limit)" : ""
        return "loopviz: recorded \(frames) frames, \(size), \(Int(lastTime.rounded())) s\(limitNote) to \(path); "
            + "play it with: asciinema play \(path)"
    }

    /// After a crash, from the signal handler: only what is safe there (the lines are already written).
    func finishAfterCrash() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        _ = rename(temporaryPath, path)
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = writeBytes(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
        bytes += text.utf8.count
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
