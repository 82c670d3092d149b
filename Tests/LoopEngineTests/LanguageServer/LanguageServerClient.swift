@testable import LoopEngine

/// A scripted editor: it frames each message as a client does, feeds the bytes to an in-process
/// `LanguageServerSession`, and reads the framed replies back into their bodies.
struct LanguageServerClient {
    var session = LanguageServerSession()
    private var nextID = 0

    /// Sends `body` as one framed message; returns the bodies of the replies.
    mutating func send(_ body: String) -> [String] {
        Self.bodies(session.receive(LanguageServerFramer.frame(body)))
    }

    /// Sends a request `method` with `params` (JSON text), numbered in order from 1.
    mutating func request(_ method: String, _ params: String = "null") -> [String] {
        nextID += 1
        return send(#"{"jsonrpc":"2.0","id":\#(nextID),"method":"\#(method)","params":\#(params)}"#)
    }

    mutating func notify(_ method: String, _ params: String) -> [String] {
        send(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#)
    }

    /// The bodies of framed messages, in order; a frame that is not whole ends the list.
    static func bodies(_ bytes: [UInt8]) -> [String] {
        var bodies: [String] = []
        var rest = bytes[...]
        let separator: [UInt8] = [13, 10, 13, 10]
        while let end = rest.firstRange(of: separator) {
            let header = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
            guard header.hasPrefix("Content-Length: "), let length = Int(header.dropFirst(16)),
                rest[end.upperBound...].count >= length
            else { break }
            bodies.append(String(decoding: rest[end.upperBound..<end.upperBound + length], as: UTF8.self))
            rest = rest[(end.upperBound + length)...]
        }
        return bodies
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}
