/// The methods the server knows, each from its JSON parameters to its JSON result.
extension LanguageServer {
    /// A request's result, or why it has none.
    mutating func request(_ method: String, _ params: JSONValue) -> Result<JSONValue, Failure> {
        switch method {
        case "initialize":
            state = .running
            return .success(Self.capabilities)
        case "shutdown":
            state = .shutDown
            return .success(.null)
        case "textDocument/completion":
            return document(params).map { document, position in
                let items = document.completions(at: position).map { completion -> JSONValue in
                    var members: [(String, JSONValue)] = [
                        ("label", .string(completion.label)),
                        // The protocol's CompletionItemKind: 6 variable (a name of the file), 14 keyword.
                        ("kind", .int(completion.symbol == nil ? 14 : 6)),
                    ]
                    if let kind = completion.symbol { members.append(("detail", .string(kind.rawValue))) }
                    return .object(members)
                }
                return .object([("isIncomplete", .bool(false)), ("items", .array(items))])
            }
        case "textDocument/hover":
            return document(params).map { document, position in
                guard let (text, range) = document.hover(at: position) else { return .null }
                return .object([
                    ("contents", .object([("kind", .string("markdown")), ("value", .string(text))])),
                    ("range", Self.json(range)),
                ])
            }
        case "textDocument/definition":
            return document(params).map { document, position in
                guard let range = document.definition(at: position) else { return .null }
                return .object([("uri", .string(document.uri)), ("range", Self.json(range))])
            }
        default:
            return .failure(Failure(code: .methodNotFound, message: "unknown method '\(method)'"))
        }
    }

    /// What the server does, told to the client in answer to `initialize`.
    static let capabilities = JSONValue.object([
        (
            "capabilities",
            .object([
                // 1: the client sends the whole text on every change.
                ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .int(1))])),
                ("completionProvider", .object([])),
                ("hoverProvider", .bool(true)),
                ("definitionProvider", .bool(true)),
            ])
        ),
        ("serverInfo", .object([("name", .string("loopviz")), ("version", .string(LoopEngineVersion.string))])),
    ])

    /// Handles a notification; returns what to send (diagnostics after a change).
    mutating func notify(_ method: String, _ params: JSONValue) -> [String] {
        if method == "exit" {
            exitStatus = state == .shutDown ? 0 : 1
            return []
        }
        guard state == .running else { return [] }
        let textDocument = params["textDocument"]
        guard let uri = textDocument?["uri"]?.string else { return [] }
        switch method {
        case "textDocument/didOpen":
            guard let text = textDocument?["text"]?.string else { return [] }
            return open(uri, text)
        case "textDocument/didChange":
            // Full sync: the last change holds the whole text.
            guard case .array(let changes) = params["contentChanges"] ?? .null,
                let text = changes.last?["text"]?.string
            else { return [] }
            return open(uri, text)
        case "textDocument/didClose":
            documents[uri] = nil
            return [Self.publish(uri, [])]
        default:
            return []
        }
    }

    /// Keeps `text` as the file at `uri` and publishes its problems; refuses a file past `maxDocuments`.
    private mutating func open(_ uri: String, _ text: String) -> [String] {
        guard documents[uri] != nil || documents.count < Self.maxDocuments else {
            let message = "loopviz lsp: \(Self.maxDocuments) files are open, the most it checks at once: close one"
            // 1: an error message.
            return [
                Self.notification(
                    "window/showMessage", .object([("type", .int(1)), ("message", .string(message))]))
            ]
        }
        let document = LoopDocument(uri: uri, text: text)
        documents[uri] = document
        return [Self.publish(uri, document.problems())]
    }

    /// `textDocument/publishDiagnostics` of `problems`.
    static func publish(_ uri: String, _ problems: [LoopDocument.Problem]) -> String {
        let diagnostics = problems.map { problem -> JSONValue in
            .object([
                ("range", json(problem.range)),
                // 1: an error, 2: a warning.
                ("severity", .int(problem.isWarning ? 2 : 1)),
                ("source", .string("loopviz")),
                ("message", .string(problem.message)),
            ])
        }
        return notification(
            "textDocument/publishDiagnostics", .object([("uri", .string(uri)), ("diagnostics", .array(diagnostics))]))
    }

    /// The open document and the position a request names.
    private func document(_ params: JSONValue) -> Result<(LoopDocument, LoopDocument.Position), Failure> {
        guard let uri = params["textDocument"]?["uri"]?.string, let line = params["position"]?["line"]?.int,
            let character = params["position"]?["character"]?.int
        else {
            return .failure(Failure(code: .invalidParams, message: "expected textDocument.uri and a position"))
        }
        guard let document = documents[uri] else {
            return .failure(Failure(code: .invalidParams, message: "'\(uri)' is not open: send didOpen first"))
        }
        return .success((document, LoopDocument.Position(line: line, character: character)))
    }

    static func json(_ range: LoopDocument.Range) -> JSONValue {
        .object([("start", json(range.start)), ("end", json(range.end))])
    }

    static func json(_ position: LoopDocument.Position) -> JSONValue {
        .object([("line", .int(position.line)), ("character", .int(position.character))])
    }
}
