import Testing

@testable import LoopEngine

/// `loopviz lsp`'s server, driven in-process by a scripted editor: every reply asserted whole.
@Suite("the language server")
struct LanguageServerTests {
    static let uri = "file:///lessons/lesson.loop"

    /// A lesson with one error: `tikc` in its `expect` names no item.
    static let broken = """
        thread worker
          port keepAlive
          timer tick at 100ms every 200ms
          run default for 1s

        expect
          timer tikc 5 times
        """

    static func open(_ text: String) -> String {
        #"{"textDocument":{"uri":"\#(uri)","languageId":"loop","version":1,"text":\#(LanguageServerClient.quoted(text))}}"#
    }

    static func at(_ line: Int, _ character: Int) -> String {
        #"{"textDocument":{"uri":"\#(uri)"},"position":{"line":\#(line),"character":\#(character)}}"#
    }

    @Test(
        "a scripted session: initialize, open a file with an error, its diagnostic, complete, hover, definition, fix it, shutdown, exit"
    )
    func scriptedSession() {
        var client = LanguageServerClient()
        #expect(
            client.request("initialize", #"{"processId":null,"rootUri":null,"capabilities":{}}"#) == [
                #"{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"textDocumentSync":{"openClose":true,"change":1},"completionProvider":{},"hoverProvider":true,"definitionProvider":true},"serverInfo":{"name":"loopviz","version":"\#(LoopEngineVersion.string)"}}}"#
            ])
        #expect(client.notify("initialized", "{}") == [])
        #expect(
            client.notify("textDocument/didOpen", Self.open(Self.broken)) == [
                #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"\#(Self.uri)","diagnostics":[{"range":{"start":{"line":6,"character":8},"end":{"line":6,"character":12}},"severity":1,"source":"loopviz","message":"unknown item 'tikc' (known: keepAlive, tick); did you mean 'tick'?"}]}}"#
            ])
        let completion = client.request("textDocument/completion", Self.at(6, 8))
        #expect(completion.count == 1)
        #expect(
            completion[0].hasPrefix(
                #"{"jsonrpc":"2.0","id":2,"result":{"isIncomplete":false,"items":[{"label":"worker","kind":6,"detail":"thread"},{"label":"keepAlive","kind":6,"detail":"port"},{"label":"tick","kind":6,"detail":"timer"},{"label":"default","kind":6,"detail":"mode"},{"label":"CFRunLoopRun","kind":14}"#
            ))
        #expect(
            client.request("textDocument/hover", Self.at(2, 3)) == [
                #"{"jsonrpc":"2.0","id":3,"result":{"contents":{"kind":"markdown","value":"`timer NAME at DURATION [every DURATION] [tolerance DURATION] [in …]`: a timer, first fired `at` that time from the start; without `every` it fires once; tolerance is ignored on linux\u000A\u000A`timer tick at 100ms every 200ms in common`\u000A\u000A(docs/language.md, Items)\u000A\u000A---\u000A\u000A`timer NAME every DURATION foundation init` / `… foundation scheduled` (`interval DURATION` instead of `every`: `repeats: false`) `[tolerance DURATION] [in …]`: a timer made by Foundation's `Timer(timeInterval:repeats:block:)` (`init`, added to its modes) or `Timer.scheduledTimer(withTimeInterval:repeats:block:)` (`scheduled`, the default mode only) at its thread's start, first fired when that call dates it on the profile: `init` at once on linux, one interval later on darwin; `scheduled` one interval later on both ([Timers and dates](#timers-and-dates))\u000A\u000A`timer poll every 100ms foundation init`\u000A\u000A(docs/language.md, Items)"},"range":{"start":{"line":2,"character":2},"end":{"line":2,"character":7}}}}"#
            ])
        #expect(
            client.request("textDocument/hover", Self.at(2, 9)) == [
                #"{"jsonrpc":"2.0","id":4,"result":{"contents":{"kind":"markdown","value":"timer `tick` of thread `worker`, line 3:\u000A\u000A```loop\u000Atimer tick at 100ms every 200ms\u000A```\u000A\u000A`timer NAME at DURATION [every DURATION] [tolerance DURATION] [in …]`: a timer, first fired `at` that time from the start; without `every` it fires once; tolerance is ignored on linux\u000A\u000A`timer tick at 100ms every 200ms in common`\u000A\u000A(docs/language.md, Items)"},"range":{"start":{"line":2,"character":8},"end":{"line":2,"character":12}}}}"#
            ])
        #expect(
            client.request("textDocument/definition", Self.at(3, 2)) == [
                #"{"jsonrpc":"2.0","id":5,"result":null}"#
            ])
        let fixed = Self.broken.replacingTikc()
        #expect(
            client.notify(
                "textDocument/didChange",
                #"{"textDocument":{"uri":"\#(Self.uri)","version":2},"contentChanges":[{"text":\#(LanguageServerClient.quoted(fixed))}]}"#
            ) == [
                #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"\#(Self.uri)","diagnostics":[]}}"#
            ])
        #expect(
            client.request("textDocument/definition", Self.at(6, 9)) == [
                #"{"jsonrpc":"2.0","id":6,"result":{"uri":"\#(Self.uri)","range":{"start":{"line":2,"character":8},"end":{"line":2,"character":12}}}}"#
            ])
        #expect(client.request("shutdown") == [#"{"jsonrpc":"2.0","id":7,"result":null}"#])
        #expect(client.session.exitStatus == nil)
        #expect(client.notify("exit", "null") == [])
        #expect(client.session.exitStatus == 0)
    }
}

extension String {
    fileprivate func replacingTikc() -> String {
        split(separator: "tikc", omittingEmptySubsequences: false).joined(separator: "tick")
    }
}
