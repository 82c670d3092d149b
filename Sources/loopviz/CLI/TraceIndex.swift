import Foundation
import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `open(2)` of `path` for reading (the type's own `open` hides the function's name).
private func openForReading(_ path: String) -> Int32 {
    #if canImport(Glibc)
    return Glibc.open(path, O_RDONLY | O_CLOEXEC)
    #else
    return Darwin.open(path, O_RDONLY | O_CLOEXEC)
    #endif
}

/// A long trace file's lines, found without being read: the header, how many events there are, and where every
/// `stride`-th event's line starts. A replay of a recording of an hour (10⁷ events, 1.4 GB) reads only the events it
/// shows, a window at a time (``read(_:)``): it opens in the time a pass of `memchr` over the file takes, and a jump
/// anywhere reads a few megabytes. The lines are checked as they are read; the pass checks only what it sees: each
/// line's length, the event budget, the header's promise and a last line cut short (as the stream reader does).
struct TraceIndex: Equatable, Sendable {
    let path: String
    let header: JSONLTraceHeader
    /// The events in the file (a last line cut short is one only if it reads as an event).
    let count: Int
    /// Events between two offsets kept.
    let stride: Int
    /// `offsets[i]`: the byte at which the line of event `i * stride` starts.
    private let offsets: [Int]
    /// What the pass forgave, as the stream reader words it (a last line cut short, the promise then broken).
    let warnings: [JSONLTraceReader.Failure]

    /// Events between two offsets kept: 10⁷ events keep 2,442 offsets, and a window starts fewer than this many
    /// lines after the nearest (skipped with `memchr`, not read).
    static let defaultStride = 4096

    /// A problem with the file: what to print after its name, or that it could not be read.
    enum Problem: Error, Equatable {
        case invalid(JSONLTraceReader.Failure)
        case cannotRead
    }

    /// The index of the file at `path`, its warnings printed on standard error; or the error printed (with the
    /// file, line and column, as ``TraceLoader`` prints them) and the usage status.
    static func open(_ path: String, maxEvents: Int, printsWarnings: Bool = true) -> Result<TraceIndex, ExitStatus> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return .failure(CommandLine.report(.noSuchTrace(path: path)))
        }
        do throws(Problem) {
            let index = try build(path, maxEvents: maxEvents)
            let shown = TerminalSafeText.terminalSafe(path)
            for warning in index.warnings where printsWarnings {
                CommandLine.printError("loopviz: warning: \(shown):\(warning)")
            }
            return .success(index)
        } catch .cannotRead {
            return .failure(CommandLine.report(.cannotRead(path: path)))
        } catch {
            CommandLine.printError("loopviz: error: " + describe(error, path: path))
            return .failure(.usage)
        }
    }

    /// `FILE:LINE:COLUMN: message`, or that the file could not be read.
    static func describe(_ problem: Problem, path: String) -> String {
        let shown = TerminalSafeText.terminalSafe(path)
        switch problem {
        case .invalid(let failure): return "\(shown):\(failure)"
        case .cannotRead: return "cannot read \(shown)"
        }
    }

    /// Indexes the file at `path`, refusing more than `maxEvents` events.
    static func build(_ path: String, maxEvents: Int, stride: Int = defaultStride) throws(Problem) -> TraceIndex {
        let descriptor = openForReading(path)
        guard descriptor >= 0 else { throw .cannotRead }
        defer { close(descriptor) }
        let file = ChunkedLines(descriptor: descriptor, offset: 0)
        var reader = JSONLTraceReader(maximumEvents: maxEvents)
        // The header: the first line, read as any reader reads it.
        guard let first = try lines(file) else {
            throw .invalid(.init(line: 1, column: nil, message: "no header line"))
        }
        do throws(JSONLTraceReader.Failure) {
            if first.isLast {
                _ = try reader.nextUnterminated(line: first.bytes)
            } else {
                _ = try reader.next(line: first.bytes)
            }
        } catch {
            throw .invalid(error)
        }
        guard let header = reader.header else { throw .invalid(.init(line: 1, column: nil, message: "no header line")) }
        var offsets: [Int] = []
        var count = 0
        var warnings: [JSONLTraceReader.Failure] = []
        while let line = try lines(file) {
            let lineNumber = count + 2
            guard line.bytes.count <= JSONLTraceReader.maximumLineLength else {
                throw .invalid(JSONLTraceReader.tooLong(line: lineNumber))
            }
            if line.isLast {
                // A last line with no newline: an event if it reads as one, else left out with a warning.
                var last = JSONLTraceReader(header: header, afterLine: lineNumber - 1)
                var event: LoopEvent?
                do throws(JSONLTraceReader.Failure) {
                    event = try last.nextUnterminated(line: line.bytes)
                } catch {
                    throw .invalid(error)
                }
                warnings += last.warnings
                if event == nil { break }
            }
            guard count < maxEvents else {
                throw .invalid(
                    JSONLTraceReader.overBudget(line: lineNumber, maximumEvents: maxEvents, promised: header.events))
            }
            if count % stride == 0 { offsets.append(line.offset) }
            count += 1
        }
        do throws(JSONLTraceReader.Failure) {
            warnings = try JSONLTraceReader.checkPromise(of: header, count: count, warnings: warnings)
        } catch {
            throw .invalid(error)
        }
        return TraceIndex(
            path: path, header: header, count: count, stride: stride, offsets: offsets, warnings: warnings)
    }

    /// The next line of `file`; a read error is the file that cannot be read.
    private static func lines(_ file: ChunkedLines) throws(Problem) -> ChunkedLines.Line? {
        do {
            return try file.nextLine()
        } catch {
            throw .cannotRead
        }
    }

    /// The events of `range` (clamped to the file's), read from the file now. A line that does not read as an
    /// event ends the window there: its events are those before it, and `problem` says which line and why.
    func read(_ range: Range<Int>) -> TraceWindow {
        let lower = min(max(0, range.lowerBound), count)
        let upper = min(max(lower, range.upperBound), count)
        var window = TraceWindow(base: lower, events: [], problem: nil)
        guard lower < upper else { return window }
        window.events.reserveCapacity(upper - lower)
        let descriptor = openForReading(path)
        guard descriptor >= 0 else {
            window.problem = .cannotRead
            return window
        }
        defer { close(descriptor) }
        let first = lower / stride * stride
        let file = ChunkedLines(descriptor: descriptor, offset: offsets[lower / stride])
        var reader = JSONLTraceReader(header: header, afterLine: lower + 1)
        var index = first
        do throws(Problem) {
            while index < upper, let line = try Self.lines(file) {
                defer { index += 1 }
                guard index >= lower else { continue }
                let event: LoopEvent?
                do throws(JSONLTraceReader.Failure) {
                    event =
                        try line.isLast ? reader.nextUnterminated(line: line.bytes) : reader.next(line: line.bytes)
                } catch {
                    throw .invalid(error)
                }
                guard let event else { break }
                window.events.append(event)
            }
            if window.events.count < upper - lower, window.problem == nil {
                // The file is shorter than when it was indexed.
                throw .invalid(
                    .init(
                        line: lower + window.events.count + 2, column: nil,
                        message: "the file ends here (it changed since it was opened)"))
            }
        } catch {
            window.problem = error
        }
        return window
    }
}

/// Events `base ..< base + events.count` of a trace file, and why the window ends before what was asked, if it
/// does.
struct TraceWindow: Equatable, Sendable {
    var base: Int
    var events: [LoopEvent]
    var problem: TraceIndex.Problem?
}
