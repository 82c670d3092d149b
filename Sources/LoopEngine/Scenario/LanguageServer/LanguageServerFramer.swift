/// Splits the bytes a language client sends into messages: each is a header (`Content-Length: N`, other fields
/// ignored, lines ending in CRLF, an empty line) and N bytes of JSON — the Language Server Protocol's base
/// protocol. Bounded: a header longer than `maxHeaderBytes` is an error, and a body longer than
/// `maxBodyBytes` is skipped as it arrives (never held) and reported, so no client can make the server hold
/// more than about one message of the limit's size.
package struct LanguageServerFramer {
    /// The largest message body kept: a scenario file is at most 4 MiB, and its text in JSON, with escapes, is
    /// rarely much more.
    package static let maxBodyBytes = 8 << 20
    /// The longest header: two short fields are all a client sends.
    package static let maxHeaderBytes = 8 << 10

    /// What the next message is.
    package enum Frame: Equatable {
        /// A whole body.
        case message([UInt8])
        /// A body of this many bytes, over `maxBodyBytes`: skipped.
        case tooLarge(Int)
        /// A header that cannot be read: the stream cannot be followed after it.
        case badHeader(String)
    }

    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start (dropped in one go once past half, so appends stay amortised O(1)).
    private var start = 0
    /// Bytes of a too-large body still to skip.
    private var skipping = 0
    /// The body length read from the current header, waiting for its bytes.
    private var pendingLength: Int?
    /// True after a bad header: nothing more is read.
    private(set) var isBroken = false

    package init() {}

    /// Takes more bytes from the client.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        guard !isBroken else { return }
        var bytes = bytes[...]
        if skipping > 0 {
            let skipped = min(skipping, bytes.count)
            skipping -= skipped
            bytes = bytes.dropFirst(skipped)
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message, or nil until more bytes come.
    package mutating func next() -> Frame? {
        guard !isBroken else { return nil }
        if pendingLength == nil {
            guard let header = readHeader() else { return nil }
            switch header {
            case .failure(let failure):
                isBroken = true
                buffer = []
                start = 0
                return .badHeader(failure.message)
            case .success(let length):
                if length > Self.maxBodyBytes {
                    let available = min(length, buffer.count - start)
                    start += available
                    skipping = length - available
                    compact()
                    return .tooLarge(length)
                }
                pendingLength = length
            }
        }
        guard let length = pendingLength, buffer.count - start >= length else { return nil }
        let body = Array(buffer[start..<start + length])
        start += length
        pendingLength = nil
        compact()
        return .message(body)
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.count <= Self.maxHeaderBytes)
            start = 0
        } else if start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// The body length of the header at `start`, consumed; nil while the header is not whole.
    private mutating func readHeader() -> Result<Int, HeaderFailure>? {
        let crlfcrlf: [UInt8] = [13, 10, 13, 10]
        let window = buffer[start...]
        guard let end = window.firstRange(of: crlfcrlf) else {
            if window.count > Self.maxHeaderBytes {
                return .failure(HeaderFailure("a header longer than \(Self.maxHeaderBytes) bytes"))
            }
            return nil
        }
        guard end.lowerBound - start <= Self.maxHeaderBytes else {
            return .failure(HeaderFailure("a header longer than \(Self.maxHeaderBytes) bytes"))
        }
        let header = String(decoding: buffer[start..<end.lowerBound], as: UTF8.self)
        start = end.upperBound
        var length: Int?
        for field in header.split(separator: "\r\n") {
            guard let colon = field.firstIndex(of: ":") else {
                return .failure(HeaderFailure("a header field without ':'"))
            }
            let name = field[..<colon].lowercased()
            let value = field[field.index(after: colon)...].drop { $0 == " " }
            if name == "content-length" {
                guard let number = Int(value), number >= 0 else {
                    return .failure(HeaderFailure("a Content-Length that is not a number"))
                }
                length = number
            }
        }
        guard let length else { return .failure(HeaderFailure("a header without Content-Length")) }
        return .success(length)
    }

    private struct HeaderFailure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// `body` with its header, as the server sends it.
    package static func frame(_ body: String) -> [UInt8] {
        Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
    }
}
