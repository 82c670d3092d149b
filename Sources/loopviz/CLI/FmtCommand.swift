import LoopEngine

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `loopviz fmt [--check] FILE...`: gives `.loop` files the canonical layout (``LoopFormatter``), in place, each
/// file replaced atomically as `-o` writes one (``OutputFile``); `--check` only lists the files it would change.
enum FmtCommand {
    static let command = LoopvizCommand(
        name: "fmt", synopsis: "fmt FILE...",
        summary: """
            Give .loop files the canonical layout, keeping their comments (--check: list the
            files that would change).
            """,
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption("--check", help: "Change no file: list the files that would change (exit 1 if any).")
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Give .loop files the canonical layout, keeping every comment, card and [zh] section.

            USAGE: loopviz fmt [--check] FILE...

            Indents two spaces per block level, writes one space between words (`a, b`, `worker: sleep`), drops
            trailing blanks and repeated blank lines, and ends the file with a line break. Words, strings and
            comments are kept as written; a comment alone on its line takes the indentation of the line after it.
            A file is written only when its new text parses to the same scenario and keeps every comment; it is
            replaced atomically (a temporary file beside it, then renamed), so a failure or a signal leaves it as
            it was. Running fmt twice changes nothing the second time.
            """,
        afterOptions: """
            EXIT STATUS (when several apply: 2, then 4, then 1):
              0    every file has the canonical layout (or now has it)
              1    with --check: a file would change (each is listed on standard output)
              2    invalid input or usage: a file that does not parse (file:line:column), cannot be read, or
                   that the layout would change (left as it is)
              4    a file could not be written; the message names it and why (the file is left as it was)
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        guard !scanner.positional.isEmpty else { throw .missingArgument("FILE") }
        let checkOnly = scanner.has("--check")
        var invalid = false
        var unwritten = false
        var wouldChange = false
        for path in scanner.positional where StandardOutput.writer.isWorking {
            guard let (source, formatted) = formatted(path) else {
                invalid = true
                continue
            }
            guard formatted != source else { continue }
            let shown = TerminalSafeText.terminalSafe(path)
            if checkOnly {
                wouldChange = true
                print(shown)
                continue
            }
            if let failure = write(formatted, to: path) {
                CommandLine.printError(failure)
                unwritten = true
            } else {
                print("formatted \(shown)")
            }
        }
        return invalid ? .usage : unwritten ? .writeError : wouldChange ? .failure : .success
    }

    /// The text of `path` and its formatted text; nil (reported) when it cannot be read, does not parse, or the
    /// layout would change it.
    private static func formatted(_ path: String) -> (source: String, formatted: String)? {
        let bytes: [UInt8]
        switch ScriptLoader.read(path, limit: ScriptLoader.maxFileSize) {
        case .success(let read): bytes = read
        case .failure(.unreadable):
            CommandLine.report(.cannotRead(path: path))
            return nil
        case .failure(.tooLarge):
            CommandLine.report(.tooLarge(path: path, maximum: ScriptLoader.maxFileSize))
            return nil
        }
        do {
            // Invalid UTF-8 is reported where it is, as every command reports it.
            guard let source = String(validating: bytes, as: UTF8.self) else {
                _ = try ScenarioParser.parse(utf8: bytes, file: path)
                return nil
            }
            guard let formatted = try LoopFormatter.format(source, file: path) else {
                CommandLine.report(.layoutWouldChange(path: path))
                return nil
            }
            return (source, formatted)
        } catch {
            CommandLine.printError(error.description)
            return nil
        }
    }

    /// Replaces `path` with `text` as `-o` writes a file: a temporary file beside it, synced, renamed over it.
    /// Returns the message of a failure (the file left as it was), or nil.
    private static func write(_ text: String, to path: String) -> String? {
        if let refusal = refusal(path) { return "loopviz: error: \(refusal)" }
        switch OutputFile.open(path, inputs: []) {
        case .success(let output):
            output.writer.write(text)
            return output.commit()
        case .failure(let failure):
            return failure.message
        }
    }

    /// Why `path` must be left as it is, or nil: a read-only file stays read-only (a rename would replace it
    /// all the same), and a file with other hard links keeps them (a rename would give this name new text and
    /// leave the others the old one).
    private static func refusal(_ path: String) -> CommandLineProblem? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        if access(path, W_OK) != 0 { return .readOnly(path: path) }
        if (status.st_mode & S_IFMT) == S_IFREG, status.st_nlink > 1 {
            return .hardLinks(path: path, count: Int(status.st_nlink))
        }
        return nil
    }
}
