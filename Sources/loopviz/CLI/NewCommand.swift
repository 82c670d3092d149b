import LoopEngine

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `loopviz new NAME [--from default]`: writes a lesson to start from (`LessonTemplate`, or the built-in lesson
/// with `--from default`) as `NAME.loop`, never over an existing file.
enum NewCommand {
    static let command = LoopvizCommand(
        name: "new", synopsis: "new NAME",
        summary: "Write a new lesson to start from, NAME.loop (--from default: the built-in lesson).",
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption(
            "--from", .text(placeholder: "default"),
            help: "Write the built-in lesson (what `loopviz` opens without a file) instead.")
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Write a new lesson file to start from: one that `loopviz check --strict` passes.

            USAGE: loopviz new NAME [--from default]

            Writes NAME.loop (NAME itself when it ends in .loop): a card with its [zh] section, a main thread and a
            worker with a timer, a port, a version-0 source and an observer, narration with its claims, an `ask`
            and `expect` lines. Change it, then run `loopviz check --strict NAME.loop`. An existing file is never
            replaced.
            """,
        afterOptions: """
            EXIT STATUS:
              0    the file was written
              2    invalid usage, or the file exists (left as it is)
              4    the file could not be written; the message names it and why (nothing is left behind)
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        guard let name = scanner.positional.first, !name.isEmpty else { throw .missingArgument("NAME") }
        guard scanner.positional.count == 1 else { throw .takesOneArgument(command: "new", argument: "NAME") }
        let from = scanner.value("--from")
        if let from, from != "default" { throw .notAChoice(from, option: "--from", expected: ["default"]) }
        let path = name.hasSuffix(".loop") ? name : name + ".loop"
        let text = from == nil ? LessonTemplate.text(title: title(of: path)) : DefaultLesson.text + "\n"
        let shown = TerminalSafeText.terminalSafe(path)
        switch create(path, text) {
        case .success:
            print("wrote \(shown); check it with: loopviz check --strict \(shown)")
            return .success
        case .failure(let failure):
            CommandLine.printError(failure.message)
            return failure.status
        }
    }

    /// The lesson's title: the file's name without its folder and `.loop` (`lessons/my-timer.loop`: `my-timer`).
    static func title(of path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return String(last.dropLast(".loop".count))
    }

    struct Failure: Error {
        var message: String
        var status: ExitStatus
    }

    /// Creates `path` holding `text`, only if nothing is there: `O_CREAT | O_EXCL` refuses an existing file (a
    /// link, even one to nothing, too) in the same call that creates it, so no other writer can slip in between.
    /// A failed write removes the file it created.
    static func create(_ path: String, _ text: String) -> Result<Void, Failure> {
        let shown = TerminalSafeText.terminalSafe(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = errno
            if reason == EEXIST {
                return .failure(
                    Failure(
                        message: "loopviz: error: \(shown) already exists; left as it is (give another NAME)",
                        status: .usage))
            }
            return .failure(
                Failure(
                    message: "loopviz: error: cannot create \(shown): \(String(cString: strerror(reason)))",
                    status: .writeError))
        }
        var failure: Int32 = 0
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                failure = count < 0 ? errno : EIO
                break
            }
            written += count
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(path)
            return .failure(
                Failure(
                    message: "loopviz: error: cannot write \(shown): \(String(cString: strerror(failure))); removed",
                    status: .writeError))
        }
        return .success(())
    }
}
