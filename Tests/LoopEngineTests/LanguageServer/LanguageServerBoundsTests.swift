import Testing

@testable import LoopEngine

/// The server's answers to what an editor should not send, and its bounds: every case a clear error, never a
/// crash or a hang.
@Suite("the language server's errors and bounds")
struct LanguageServerBoundsTests {
    static let uri = LanguageServerTests.uri

    /// A client past `initialize`.
    static func running() -> LanguageServerClient {
        var client = LanguageServerClient()
        _ = client.request("initialize", "{}")
        return client
    }

    @Test("a request before initialize is refused (-32002); initialize twice is an invalid request")
    func initializeFirst() {
        var client = LanguageServerClient()
        #expect(
            client.request("textDocument/hover", LanguageServerTests.at(0, 0)) == [
                #"{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"send initialize first"}}"#
            ])
        _ = client.request("initialize", "{}")
        #expect(
            client.request("initialize", "{}") == [
                #"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"initialize was already sent"}}"#
            ])
    }

    @Test("text that is not JSON, JSON that is not an object, an unknown method, a file not open: each its error")
    func clearErrors() {
        var client = Self.running()
        #expect(
            client.send("{\"id\":1,") == [
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not JSON: expected a key in quotes (byte 9)"}}"#
            ])
        #expect(
            client.send("[1]") == [
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"a message must be a JSON object"}}"#
            ])
        #expect(
            client.request("textDocument/rename", "{}") == [
                #"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"unknown method 'textDocument/rename'"}}"#
            ])
        #expect(
            client.request("textDocument/hover", LanguageServerTests.at(0, 0)) == [
                #"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"'file:///lessons/lesson.loop' is not open: send didOpen first"}}"#
            ])
        #expect(
            client.request("textDocument/hover", "{}") == [
                #"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"expected textDocument.uri and a position"}}"#
            ])
        #expect(client.notify("$/cancelRequest", #"{"id":4}"#) == [])
    }

    @Test("JSON nested deeper than 64 levels is refused, not recursed into")
    func deepNesting() {
        var client = Self.running()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(
            client.send(deep) == [
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not JSON: nested deeper than 64 levels (byte 65)"}}"#
            ])
    }

    @Test("a message over 8 MiB is skipped as it arrives and answered with an error; the next one is read")
    func tooLarge() {
        var client = Self.running()
        let size = LanguageServerFramer.maxBodyBytes + 1
        var replies = LanguageServerClient.bodies(
            client.session.receive(Array("Content-Length: \(size)\r\n\r\n".utf8) + [UInt8](repeating: 32, count: 1000)))
        replies += LanguageServerClient.bodies(client.session.receive([UInt8](repeating: 32, count: size - 1000)))
        #expect(
            replies == [
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"a message of 8388609 bytes is over the limit of 8388608 bytes: skipped"}}"#
            ])
        #expect(client.request("shutdown") == [#"{"jsonrpc":"2.0","id":2,"result":null}"#])
    }

    @Test("a header without Content-Length, or longer than 8 KiB, ends the session with status 2 and says why")
    func badHeader() {
        var session = LanguageServerSession()
        #expect(session.receive(Array("Content-Type: x\r\n\r\n{}".utf8)) == [])
        #expect(
            session.failure
                == "unreadable input: a header without Content-Length; the messages after it cannot be found")
        #expect(session.exitStatus == 2)
        var long = LanguageServerSession()
        _ = long.receive([UInt8](repeating: 65, count: LanguageServerFramer.maxHeaderBytes + 1))
        #expect(
            long.failure == "unreadable input: a header longer than 8192 bytes; the messages after it cannot be found")
    }

    @Test("a message split anywhere, and several in one read, are read the same")
    func framingIsByteExact() {
        var client = LanguageServerClient()
        let bytes =
            LanguageServerFramer.frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
            + LanguageServerFramer.frame(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)
        var replies: [UInt8] = []
        for byte in bytes { replies += client.session.receive([byte]) }
        let bodies = LanguageServerClient.bodies(replies)
        #expect(bodies.count == 2)
        #expect(bodies.last == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
        var together = LanguageServerSession()
        #expect(LanguageServerClient.bodies(together.receive(bytes)) == bodies)
    }

    @Test("exit without shutdown is status 1; after shutdown only exit is accepted")
    func exitStatus() {
        var client = Self.running()
        _ = client.notify("exit", "null")
        #expect(client.session.exitStatus == 1)
        var polite = Self.running()
        _ = polite.request("shutdown")
        #expect(
            polite.request("textDocument/hover", LanguageServerTests.at(0, 0)) == [
                #"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"the server is shut down: only exit is accepted"}}"#
            ])
    }

    @Test("at most 100 open files: the next is refused with a message; closing one clears its diagnostics")
    func documentLimit() {
        var client = Self.running()
        for index in 0..<LanguageServer.maxDocuments {
            _ = client.notify(
                "textDocument/didOpen",
                #"{"textDocument":{"uri":"file:///\#(index).loop","text":"thread T\n  work 1ms"}}"#)
        }
        #expect(
            client.notify("textDocument/didOpen", #"{"textDocument":{"uri":"file:///more.loop","text":""}}"#) == [
                #"{"jsonrpc":"2.0","method":"window/showMessage","params":{"type":1,"message":"loopviz lsp: 100 files are open, the most it checks at once: close one"}}"#
            ])
        #expect(
            client.notify("textDocument/didClose", #"{"textDocument":{"uri":"file:///0.loop"}}"#) == [
                #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///0.loop","diagnostics":[]}}"#
            ])
    }
}
