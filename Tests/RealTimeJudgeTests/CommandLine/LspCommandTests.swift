import Foundation
import Testing

/// `loopviz lsp` as an editor starts it: a process whose standard input is the client's messages and whose
/// standard output is the server's, each framed with `Content-Length`. The in-process `LanguageServerTests` assert
/// every reply; this checks the command carries them over real pipes and ends with the protocol's statuses.
@Suite("loopviz lsp as a process", .timeLimit(.minutes(5)))
struct LspCommandTests {
    static func frame(_ body: String) -> Data {
        Data("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    /// Runs `loopviz lsp` with `input` on its standard input (a file: the process reads it to its end).
    static func run(
        _ input: Data, arguments: [String] = ["lsp"]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-lsp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("input")
        try input.write(to: inputURL)
        let process = Process()
        process.executableURL = LoopvizProcess.executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }

    @Test("initialize, open a file with an error, shutdown, exit: the replies framed on standard output, status 0")
    func session() throws {
        let open =
            #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///t.loop","text":"thread T\n  timr x\n"}}}"#
        let input =
            Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
            + Self.frame(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#) + Self.frame(open)
            + Self.frame(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)
            + Self.frame(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let result = try Self.run(input)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let diagnostics =
            #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///t.loop","diagnostics":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":6}},"severity":1,"source":"loopviz","message":"unknown action 'timr'; did you mean 'timer'?"}]}}"#
        let shutdown = #"{"jsonrpc":"2.0","id":2,"result":null}"#
        #expect(result.stdout.hasPrefix("Content-Length: 222\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":"))
        #expect(
            result.stdout.hasSuffix(
                "Content-Length: \(diagnostics.utf8.count)\r\n\r\n\(diagnostics)"
                    + "Content-Length: \(shutdown.utf8.count)\r\n\r\n\(shutdown)"))
    }

    @Test(
        "the input ends without exit: status 1; a header without Content-Length: status 2 and why; an unknown argument: usage"
    )
    func endings() throws {
        let ended = try Self.run(Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#))
        #expect(ended.status == 1)
        let broken = try Self.run(Data("Content-Type: text\r\n\r\n{}".utf8))
        #expect(broken.status == 2)
        #expect(broken.stdout == "")
        #expect(
            broken.stderr
                == "loopviz lsp: error: unreadable input: a header without Content-Length; the messages after it cannot be found\n"
        )
        let usage = try Self.run(Data(), arguments: ["lsp", "--stdio", "--tcp"])
        #expect(usage.status == 2)
        #expect(usage.stderr == "loopviz: error: unknown option '--tcp'\nSee 'loopviz lsp --help'.\n")
        // `--stdio`, which some clients pass, is accepted: an empty input then ends as any input ends.
        #expect(try Self.run(Data(), arguments: ["lsp", "--stdio"]).status == 1)
    }
}
