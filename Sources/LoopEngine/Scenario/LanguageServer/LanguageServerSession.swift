/// A `LanguageServer` on a byte stream: the client's bytes in (`LanguageServerFramer` splits them into
/// messages), the framed replies out. What `loopviz lsp` runs on standard input and output, and what a test
/// drives in-process.
package struct LanguageServerSession: Sendable {
    package private(set) var server = LanguageServer()
    private var framer = LanguageServerFramer()
    /// Why the stream cannot be read on (a bad header), once it cannot.
    package private(set) var failure: String?

    package init() {}

    /// Takes bytes from the client; returns the bytes to send back.
    package mutating func receive(_ bytes: some Collection<UInt8>) -> [UInt8] {
        framer.append(bytes)
        var out: [UInt8] = []
        while server.exitStatus == nil, failure == nil, let frame = framer.next() {
            switch frame {
            case .message(let body):
                for reply in server.handle(body) { out += LanguageServerFramer.frame(reply) }
            case .tooLarge(let size):
                out += LanguageServerFramer.frame(LanguageServer.tooLarge(size))
            case .badHeader(let message):
                failure = "unreadable input: \(message); the messages after it cannot be found"
            }
        }
        return out
    }

    /// The process's exit status, once it should end: the client's `exit` (0 after `shutdown`, else 1), 2 for a
    /// stream that cannot be read on; nil while it goes on.
    package var exitStatus: Int32? {
        if let status = server.exitStatus { return status }
        return failure == nil ? nil : 2
    }

    /// The exit status when the input ends without `exit` (the client went away): 1, as for `exit` without
    /// `shutdown`.
    package static let endOfInputStatus: Int32 = 1
}
