/// Reads an event line of the shape loopviz and LoopRecorder write — one flat object with no spaces, its strings
/// plain printable ASCII without escapes, its numbers plain — straight from its bytes, with no JSON value, no
/// string per key and no array per line: a recording of an hour has 10⁷ such lines. Names and facts repeat, so the
/// last ones are kept by their bytes and given again without a new string. Any line of another shape gets nil, and
/// the reader parses it as JSON; what the scanner accepts it reads exactly as that parse would.
struct JSONLEventScanner {
    /// Recent strings by the hash of their bytes: a direct-mapped cache, so its size is bounded.
    private var strings = [String?](repeating: nil, count: 1 << 12)
    /// Recent facts by the hash of their bytes, with those bytes.
    private var facts = [([UInt8], LoopEvent.Fact)?](repeating: nil, count: 1 << 10)
    /// Kinds by the hash of their names (an index into `kinds`), found once.
    private var kindSlots = [Int](repeating: -1, count: 1 << 8)

    private static let kinds = LoopEvent.Kind.allCases
    private static let kindNames: [[UInt8]] = LoopEvent.Kind.allCases.map { Array($0.rawValue.utf8) }

    private enum Key: Int {
        case time, thread, depth, mode, iteration, kind, name, result, detail, fact
    }

    /// The keys by their bytes (a handful: a linear look-up by length first).
    private static let keys: [([UInt8], Key)] = {
        let named: [(String, Key)] = [
            ("t", .time), ("thread", .thread), ("depth", .depth), ("mode", .mode), ("iteration", .iteration),
            ("kind", .kind), ("name", .name), ("result", .result), ("detail", .detail), ("fact", .fact),
        ]
        return named.map { (Array($0.0.utf8), $0.1) }
    }()

    /// A plain string's bytes, or null (nil range).
    private enum Text {
        case null
        case bytes(Range<Int>)
    }

    /// The event of `line`, or nil when the line is not of the plain shape.
    mutating func event(_ line: UnsafeBufferPointer<UInt8>) -> LoopEvent? {
        var at = 0
        let end = line.count
        guard end > 1, line[0] == 0x7B else { return nil }
        at = 1
        var seen = 0
        var time: Int64?
        var thread: Range<Int>?
        var depth: Int?
        var iteration: Int?
        var mode: Text?
        var name: Text?
        var kind: LoopEvent.Kind?
        var fact: LoopEvent.Fact?
        while true {
            guard let keyRange = Self.plainString(line, &at), at < end, line[at] == 0x3A else { return nil }
            at += 1
            guard let key = Self.key(line, keyRange), seen & (1 << key.rawValue) == 0 else { return nil }
            seen |= 1 << key.rawValue
            switch key {
            case .time:
                guard let value = Self.seconds(line, &at) else { return nil }
                time = value
            case .thread:
                guard let range = Self.plainString(line, &at) else { return nil }
                thread = range
            case .depth:
                guard let value = Self.count(line, &at), value <= RunLoopCore.maximumNestingDepth else { return nil }
                depth = value
            case .iteration:
                guard let value = Self.count(line, &at), value <= Int(Int32.max) else { return nil }
                iteration = value
            case .mode:
                guard let text = Self.text(line, &at) else { return nil }
                mode = text
            case .name:
                guard let text = Self.text(line, &at) else { return nil }
                name = text
            case .kind:
                guard let range = Self.plainString(line, &at), let found = kindNamed(line, range) else { return nil }
                kind = found
            case .result, .detail:
                guard Self.text(line, &at) != nil else { return nil }
            case .fact:
                guard let found = factAt(line, &at) else { return nil }
                fact = found
            }
            guard at < end else { return nil }
            if line[at] == 0x2C {
                at += 1
                continue
            }
            guard line[at] == 0x7D, at + 1 == end else { return nil }
            break
        }
        guard let time, let thread, let depth, let iteration, let kind, let mode, let name else { return nil }
        return LoopEvent(
            time: LoopInstant(nanoseconds: time), loop: string(line, thread), depth: depth,
            mode: optionalString(line, mode), iteration: iteration, kind: kind, name: optionalString(line, name),
            fact: fact)
    }

    // MARK: Values

    /// A string of printable ASCII with no escape, its bytes between the quotes; `at` moves past it.
    private static func plainString(_ line: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> Range<Int>? {
        guard at < line.count, line[at] == 0x22 else { return nil }
        let start = at + 1
        var index = start
        while index < line.count {
            let byte = line[index]
            if byte == 0x22 {
                at = index + 1
                return start..<index
            }
            guard byte >= 0x20, byte < 0x7F, byte != 0x5C else { return nil }
            index += 1
        }
        return nil
    }

    /// A plain string or `null`.
    private static func text(_ line: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> Text? {
        if line.count - at >= 4, line[at] == 0x6E, line[at + 1] == 0x75, line[at + 2] == 0x6C, line[at + 3] == 0x6C {
            at += 4
            return .null
        }
        return plainString(line, &at).map { .bytes($0) }
    }

    /// A whole number of up to 18 digits, with no sign, fraction or exponent (nor a leading zero JSON refuses).
    private static func count(_ line: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> Int? {
        var value = 0
        var index = at
        while index < line.count, line[index] >= 0x30, line[index] <= 0x39 {
            // Past 18 digits the line goes to the JSON parse: no overflow here.
            guard index - at < 18 else { return nil }
            value = value * 10 + Int(line[index] - 0x30)
            index += 1
        }
        let digits = index - at
        guard digits >= 1, digits <= 18, digits == 1 || line[at] != 0x30 else { return nil }
        at = index
        return value
    }

    /// Seconds written `S.F` with at most nine digits each (no sign, no exponent), as nanoseconds.
    private static func seconds(_ line: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> Int64? {
        var index = at
        guard let whole = count(line, &index), index - at <= 9 else { return nil }
        var value = Int64(whole) * 1_000_000_000
        if index < line.count, line[index] == 0x2E {
            index += 1
            var scale: Int64 = 100_000_000
            let start = index
            while index < line.count, line[index] >= 0x30, line[index] <= 0x39 {
                guard index - start < 9 else { return nil }
                value += Int64(line[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index >= line.count || (line[index] != 0x65 && line[index] != 0x45) else { return nil }
        at = index
        return value
    }

    private static func key(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Key? {
        for (bytes, key) in keys where bytes.count == range.count {
            if same(line, range, bytes) { return key }
        }
        return nil
    }

    private static func same(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ bytes: [UInt8]) -> Bool {
        guard bytes.count == range.count else { return false }
        var index = range.lowerBound
        for byte in bytes {
            guard line[index] == byte else { return false }
            index += 1
        }
        return true
    }

    private static func hash(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for index in range {
            hash = (hash ^ UInt64(line[index])) &* 0x0000_0100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    // MARK: Kept values

    private mutating func kindNamed(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> LoopEvent.Kind? {
        let slot = Self.hash(line, range) & (kindSlots.count - 1)
        let known = kindSlots[slot]
        if known >= 0, Self.same(line, range, Self.kindNames[known]) { return Self.kinds[known] }
        guard let found = Self.kindNames.firstIndex(where: { Self.same(line, range, $0) }) else { return nil }
        kindSlots[slot] = found
        return Self.kinds[found]
    }

    private mutating func string(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let slot = Self.hash(line, range) & (strings.count - 1)
        if let known = strings[slot], known.utf8.count == range.count,
            known.utf8.elementsEqual(UnsafeBufferPointer(rebasing: line[range]))
        {
            return known
        }
        let made = String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
        strings[slot] = made
        return made
    }

    private mutating func optionalString(_ line: UnsafeBufferPointer<UInt8>, _ text: Text) -> String? {
        switch text {
        case .null: nil
        case .bytes(let range): string(line, range)
        }
    }

    /// A fact: a flat list of plain strings, whole numbers, `true`, `false` and `null` that makes a fact.
    private mutating func factAt(_ line: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> LoopEvent.Fact? {
        let start = at
        guard at < line.count, line[at] == 0x5B else { return nil }
        // Its end first: a list of plain values holds no `]` but in a string.
        var index = at + 1
        var quoted = false
        while index < line.count {
            let byte = line[index]
            if byte == 0x22 {
                quoted.toggle()
            } else if byte == 0x5C {
                return nil
            } else if byte == 0x5D, !quoted {
                break
            }
            index += 1
        }
        guard index < line.count else { return nil }
        let range = start..<(index + 1)
        let slot = Self.hash(line, range) & (facts.count - 1)
        if let (bytes, fact) = facts[slot], Self.same(line, range, bytes) {
            at = range.upperBound
            return fact
        }
        var tokens: [FactToken] = []
        var cursor = start + 1
        if line[cursor] != 0x5D {
            while true {
                guard let token = token(line, &cursor) else { return nil }
                tokens.append(token)
                guard cursor < line.count else { return nil }
                if line[cursor] == 0x2C {
                    cursor += 1
                    continue
                }
                guard line[cursor] == 0x5D else { return nil }
                break
            }
        }
        guard cursor == index, let fact = LoopEvent.Fact(tokens: tokens) else { return nil }
        facts[slot] = (Array(UnsafeBufferPointer(rebasing: line[range])), fact)
        at = range.upperBound
        return fact
    }

    private mutating func token(_ line: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> FactToken? {
        switch line[at] {
        case 0x22: return Self.plainString(line, &at).map { .text(string(line, $0)) }
        case 0x6E: return Self.word(line, &at, "null") ? FactToken.none : nil
        case 0x74: return Self.word(line, &at, "true") ? .flag(true) : nil
        case 0x66: return Self.word(line, &at, "false") ? .flag(false) : nil
        case 0x2D:
            at += 1
            guard let value = Self.count(line, &at) else { return nil }
            return .number(-Int64(value))
        default:
            guard let value = Self.count(line, &at) else { return nil }
            return .number(Int64(value))
        }
    }

    private static func word(_ line: UnsafeBufferPointer<UInt8>, _ at: inout Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard line.count - at >= count else { return false }
        for offset in 0..<count where line[at + offset] != word.utf8Start[offset] { return false }
        at += count
        return true
    }
}
