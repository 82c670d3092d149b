/// A JSON value of one trace line. Numbers keep their text, so `t` is read to the nanosecond without a `Double`.
enum JSONValue: Equatable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Members in file order; a trace line has a handful, so a list is cheaper than a dictionary.
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members.first { $0.0 == key }?.1 } else { nil }
    }
}

/// A strict JSON parser for one line (LoopEngine has no Foundation). Errors carry the 1-based column (in bytes).
struct JSONLineParser {
    struct Failure: Error, Equatable {
        var column: Int
        var message: String
    }

    /// How deep arrays and objects may nest: a trace line needs two levels.
    static let maximumDepth = 16

    private let bytes: [UInt8]
    private var index = 0
    private let depthLimit: Int

    /// The line's one value; anything after it but spaces is an error. `maximumDepth` bounds the nesting (and the
    /// parser's recursion): a language server's message nests deeper than a trace line.
    static func parse(
        _ line: some Collection<UInt8>, maximumDepth: Int = JSONLineParser.maximumDepth
    ) throws(Failure) -> JSONValue {
        var parser = JSONLineParser(bytes: Array(line), depthLimit: maximumDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        if parser.index < parser.bytes.count { throw parser.failure("unexpected text after the object") }
        return value
    }

    private init(bytes: [UInt8], depthLimit: Int) {
        self.bytes = bytes
        self.depthLimit = depthLimit
    }

    private func failure(_ message: String) -> Failure { Failure(column: index + 1, message: message) }

    private mutating func skipSpace() {
        // A line feed never occurs inside a trace line; a language server's message may hold one between values.
        while index < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
    }

    private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard let byte = next else { throw failure("the line ends where a value should be") }
        switch byte {
        case 0x7B, 0x5B:
            guard depth < depthLimit else { throw failure("nested deeper than \(depthLimit) levels") }
            return byte == 0x7B ? try object(depth: depth + 1) : try array(depth: depth + 1)
        case 0x22: return .string(try string())
        case 0x74: return try literal("true", .bool(true))
        case 0x66: return try literal("false", .bool(false))
        case 0x6E: return try literal("null", .null)
        case 0x2D, 0x30...0x39: return try number()
        default: throw failure("expected a value")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected)
        else { throw failure("expected \(word)") }
        index += expected.count
        return value
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if next == 0x7D {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard next == 0x22 else { throw failure("expected a key in quotes") }
            let key = try string()
            skipSpace()
            guard next != nil else { throw failure("the line ends inside an object") }
            guard next == 0x3A else {
                throw failure("expected ':' after the key \"\(TerminalSafeText.terminalSafe(key))\"")
            }
            index += 1
            skipSpace()
            members.append((key, try value(depth: depth)))
            skipSpace()
            switch next {
            case 0x2C: index += 1
            case 0x7D:
                index += 1
                return .object(members)
            case nil: throw failure("the line ends inside an object")
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if next == 0x5D {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth))
            skipSpace()
            switch next {
            case 0x2C: index += 1
            case 0x5D:
                index += 1
                return .array(items)
            case nil: throw failure("the line ends inside a list")
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        if next == 0x2D { index += 1 }
        guard let first = next, (0x30...0x39).contains(first) else { throw failure("expected a digit") }
        if first == 0x30 {
            index += 1
        } else {
            while let byte = next, (0x30...0x39).contains(byte) { index += 1 }
        }
        if next == 0x2E {
            index += 1
            guard let byte = next, (0x30...0x39).contains(byte) else { throw failure("expected a digit after '.'") }
            while let byte = next, (0x30...0x39).contains(byte) { index += 1 }
        }
        if next == 0x65 || next == 0x45 {
            index += 1
            if next == 0x2B || next == 0x2D { index += 1 }
            guard let byte = next, (0x30...0x39).contains(byte) else { throw failure("expected an exponent") }
            while let byte = next, (0x30...0x39).contains(byte) { index += 1 }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func string() throws(Failure) -> String {
        let open = index
        index += 1
        // The string's UTF-8, gathered as bytes and decoded once: appending to a `String` piece by piece copied
        // it at each escape (a language server's 3 MB file of short lines took minutes).
        var utf8: [UInt8] = []
        var plainStart = index
        func flushPlain(_ parser: JSONLineParser, _ end: Int) throws(Failure) {
            guard plainStart < end else { return }
            let plain = parser.bytes[plainStart..<end]
            var decoder = UTF8()
            var iterator = plain.makeIterator()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: break decoding
                case .error: throw Failure(column: plainStart + 1, message: "the text is not UTF-8")
                }
            }
            utf8.append(contentsOf: plain)
        }
        func append(_ scalar: Unicode.Scalar) {
            UTF8.encode(scalar) { utf8.append($0) }
        }
        while true {
            guard let byte = next else { throw Failure(column: open + 1, message: "the line ends inside a string") }
            if byte == 0x22 {
                try flushPlain(self, index)
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte < 0x20 { throw failure("a control character inside a string") }
            guard byte == 0x5C else {
                index += 1
                continue
            }
            try flushPlain(self, index)
            index += 1
            guard let escape = next else { throw failure("the line ends inside an escape") }
            index += 1
            switch escape {
            case 0x22: append("\"")
            case 0x5C: append("\\")
            case 0x2F: append("/")
            case 0x62: append("\u{08}")
            case 0x66: append("\u{0C}")
            case 0x6E: append("\n")
            case 0x72: append("\r")
            case 0x74: append("\t")
            case 0x75:
                var value = try hex4()
                if (0xD800..<0xDC00).contains(value) {
                    guard next == 0x5C, index + 1 < bytes.count, bytes[index + 1] == 0x75 else {
                        throw failure("a lone surrogate in \\u escapes")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate in \\u escapes") }
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(value) else { throw failure("a lone surrogate in \\u escapes") }
                append(scalar)
            default:
                index -= 2
                throw failure("an unknown escape")
            }
            plainStart = index
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("expected four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw failure("expected four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
