#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output for the whole executable: one ``OutputWriter`` on descriptor 1, and how the command's exit
/// status changes when writing to it failed.
enum StandardOutput {
    /// Used from the main thread only (the commands and the UI's runtime run there).
    nonisolated(unsafe) static let writer = OutputWriter(
        descriptor: 1, name: "standard output", flushesLines: isatty(1) == 1)

    /// Flushes standard output and returns the status to exit with: `status`, unless a write failed (then
    /// ``ExitStatus/writeError`` with a one-line message on standard error) or the reader has gone (then
    /// ``ExitStatus/brokenPipe``, quietly).
    static func finish(_ status: ExitStatus) -> ExitStatus {
        writer.flush()
        if writer.readerHasGone { return .brokenPipe }
        if let message = writer.errorMessage {
            CommandLine.printError(message)
            return .writeError
        }
        return status
    }
}

/// Every `print` of the executable goes to ``StandardOutput/writer``, whose errors are reported, instead of
/// stdio's, whose errors are lost (`check > /dev/full` used to exit 0 with nothing written). Same signature as
/// the standard library's, so this module's declaration is the one every call here finds.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    StandardOutput.writer.write(items.map { "\($0)" }.joined(separator: separator) + terminator)
}
