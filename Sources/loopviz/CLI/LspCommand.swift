import LoopEngine

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `loopviz lsp`: the language server (`LanguageServerSession`) on standard input and output, for editors.
enum LspCommand {
    static let command = LoopvizCommand(
        name: "lsp", synopsis: "lsp", summary: "A language server for editors (docs/editors.md).",
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption(
            "--stdio",
            help: """
                Accepted and ignored: standard input and output are the only channel (some
                clients pass it).
                """)
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: A language server for .loop files (the Language Server Protocol on standard input and output).

            USAGE: loopviz lsp [--stdio]

            An editor starts it and talks to it: as you type, it underlines the problems `loopviz check` finds
            (the parser's errors, the lint's warnings), completes the language's words and the file's names,
            explains a word or a name on hover (the words of docs/language.md), and goes to where a name is
            declared. docs/editors.md says how to set it up in VS Code, Neovim and Helix.
            """,
        afterOptions: """
            EXIT STATUS:
              0    the editor sent shutdown, then exit
              1    the editor sent exit without shutdown, or went away (end of input)
              2    invalid usage, or input that is not the protocol's (a header without Content-Length)
              4    standard output could not be written
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        if let other = scanner.positional.first { throw .unexpectedArgument(other) }
        var session = LanguageServerSession()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return ExitStatus(rawValue: LanguageServerSession.endOfInputStatus) }
            let reply = session.receive(buffer[..<count])
            guard writeAll(reply) else {
                CommandLine.printError(
                    "loopviz lsp: error: cannot write standard output: \(String(cString: strerror(errno)))")
                return .writeError
            }
            if let failure = session.failure { CommandLine.printError("loopviz lsp: error: \(failure)") }
            if let status = session.exitStatus { return ExitStatus(rawValue: status) }
        }
    }

    /// Writes `bytes` whole to standard output; false on an error.
    private static func writeAll(_ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
