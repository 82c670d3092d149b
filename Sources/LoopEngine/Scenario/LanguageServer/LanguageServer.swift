/// `loopviz lsp`'s server: the Language Server Protocol over JSON-RPC, one message in, the messages to send out.
/// No input or output of its own (`LanguageServerSession` frames the bytes, the command reads and writes them),
/// so a test drives it as an editor would, in-process.
///
/// It knows `initialize`, `initialized`, `shutdown` and `exit`; `textDocument/didOpen`, `didChange` (the whole
/// text each time) and `didClose`, after each of which it publishes the file's problems (`LoopDocument/problems()`);
/// `textDocument/completion`, `hover` and `definition`. Any other request gets a "method not found" error, any
/// other notification is ignored, as the protocol asks. Bounded: at most `maxDocuments` open files, each read as
/// large as any command reads one.
package struct LanguageServer: Sendable {
    /// The JSON-RPC and protocol error codes the server answers with.
    package enum ErrorCode: Int, Sendable {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case serverNotInitialized = -32002
    }

    /// Where the server is in its life: `initialize` starts it, `shutdown` ends it, `exit` ends the process.
    package enum State: Sendable {
        case waiting, running, shutDown
    }

    /// How many files may be open at once.
    package static let maxDocuments = 100
    /// How deep a message's JSON may nest: an editor's capabilities nest about ten levels.
    static let maxDepth = 64

    package internal(set) var state = State.waiting
    /// The process's exit status once `exit` came: 0 after `shutdown`, else 1 (the protocol's rule).
    package internal(set) var exitStatus: Int32?
    var documents: [String: LoopDocument] = [:]

    package init() {}

    /// Handles one message's body; returns the bodies to send, in order (a response, diagnostics, …).
    package mutating func handle(_ body: [UInt8]) -> [String] {
        let message: JSONValue
        do {
            message = try JSONLineParser.parse(body, maximumDepth: Self.maxDepth)
        } catch {
            return [Self.error(nil, .parseError, "not JSON: \(error.message) (byte \(error.column))")]
        }
        guard case .object = message else {
            return [Self.error(nil, .invalidRequest, "a message must be a JSON object")]
        }
        let id = message["id"]
        guard let method = message["method"]?.string else {
            // A response to a request of the server's: it sends none, so there is nothing to match it with.
            if message["result"] != nil || message["error"] != nil { return [] }
            return [Self.error(id, .invalidRequest, "a request needs a method")]
        }
        let params = message["params"] ?? .null
        guard let id else { return notify(method, params) }
        switch state {
        case .waiting where method != "initialize":
            return [Self.error(id, .serverNotInitialized, "send initialize first")]
        case .running where method == "initialize":
            return [Self.error(id, .invalidRequest, "initialize was already sent")]
        case .shutDown:
            return [Self.error(id, .invalidRequest, "the server is shut down: only exit is accepted")]
        default:
            break
        }
        switch request(method, params) {
        case .success(let result): return [Self.response(id, result)]
        case .failure(let failure): return [Self.error(id, failure.code, failure.message)]
        }
    }

    /// A response carrying `result`.
    static func response(_ id: JSONValue, _ result: JSONValue) -> String {
        JSONValue.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]).text
    }

    /// An error response (`id` nil when the message's id could not be read).
    static func error(_ id: JSONValue?, _ code: ErrorCode, _ message: String) -> String {
        JSONValue.object([
            ("jsonrpc", .string("2.0")), ("id", id ?? .null),
            ("error", .object([("code", .int(code.rawValue)), ("message", .string(message))])),
        ]).text
    }

    /// A notification from the server.
    static func notification(_ method: String, _ params: JSONValue) -> String {
        JSONValue.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]).text
    }

    /// What a request failed with.
    struct Failure: Error {
        var code: ErrorCode
        var message: String
    }

    /// The answer to a message too large to read (`LanguageServerFramer/maxBodyBytes`): its id is unknown.
    package static func tooLarge(_ size: Int) -> String {
        error(
            nil, .invalidRequest,
            "a message of \(size) bytes is over the limit of \(LanguageServerFramer.maxBodyBytes) bytes: skipped")
    }
}
