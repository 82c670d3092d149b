/// The recorder's events as lines of the loopviz JSONL trace format, version 1 (LoopEngine's
/// `JSONLTraceFormatter` writes the same bytes for the same event; a test holds the two together).
extension RecordedEvent {
    /// One line, with its newline, appended to `bytes`; `thread` is the thread's name already quoted. The
    /// writer thread formats every event, on the same cores as the loop: no allocation per value.
    func appendLine(thread: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "{\"t\":".utf8)
        bytes.append(contentsOf: Self.seconds(nanoseconds).utf8)
        bytes.append(contentsOf: ",\"thread\":".utf8)
        bytes.append(contentsOf: thread)
        bytes.append(contentsOf: ",\"depth\":".utf8)
        bytes.append(contentsOf: String(min(max(0, depth), LoopRecorder.maximumDepth)).utf8)
        bytes.append(contentsOf: ",\"mode\":".utf8)
        Self.appendQuoted(mode.map(Self.bounded), to: &bytes)
        bytes.append(contentsOf: ",\"iteration\":".utf8)
        bytes.append(contentsOf: String(iteration).utf8)
        bytes.append(contentsOf: ",\"kind\":\"".utf8)
        bytes.append(contentsOf: kind.rawValue.utf8)
        bytes.append(contentsOf: "\",\"name\":".utf8)
        Self.appendQuoted(name.map(Self.bounded), to: &bytes)
        bytes.append(contentsOf: ",\"detail\":".utf8)
        switch fact {
        case nil: bytes.append(contentsOf: "null}\n".utf8)
        case .activity(let bit, let name):
            bytes.append(contentsOf: "\"\(name)\",\"fact\":[\"activity\",\(bit)]}\n".utf8)
        case .mark(let mark):
            bytes.append(contentsOf: "\"\(mark == "point" ? "mark" : mark)\",\"fact\":[\"mark\",\"\(mark)\"]}\n".utf8)
        case .dropped(let count):
            let words = "the recorder dropped \(count) event\(count == 1 ? "" : "s"): its buffer was full"
            bytes.append(contentsOf: "\"\(words)\",\"fact\":[\"dropped\",\(count)]}\n".utf8)
        case .stack(let frames):
            let words = "a stack sample of \(frames.count) frame\(frames.count == 1 ? "" : "s")"
            bytes.append(contentsOf: "\"\(words)\",\"fact\":[\"stack\"".utf8)
            for frame in frames {
                bytes.append(0x2C)
                bytes.append(contentsOf: String(Int64(bitPattern: frame)).utf8)
            }
            bytes.append(contentsOf: "]}\n".utf8)
        case .paused(let nanoseconds):
            let words =
                "the recorder's sampler did not run for \(Self.seconds(nanoseconds))s: the process was stopped or had no CPU"
            bytes.append(contentsOf: "\"\(words)\",\"fact\":[\"paused\",\(nanoseconds)]}\n".utf8)
        case .module(let base, let low, let high, let buildID):
            let words = "a loaded object: its addresses from \(Self.hex(low)) to \(Self.hex(high))"
            bytes.append(contentsOf: "\"\(words)\",\"fact\":[\"module\",".utf8)
            for (index, value) in [base, low, high].enumerated() {
                if index > 0 { bytes.append(0x2C) }
                bytes.append(contentsOf: String(Int64(bitPattern: value)).utf8)
            }
            if let buildID { bytes.append(contentsOf: ",\"\(buildID)\"".utf8) }
            bytes.append(contentsOf: "]}\n".utf8)
        }
    }

    /// `0x7f3a…`: an address as the detail of an event says it.
    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// `text` cut to ``LoopRecorder/maximumNameLength`` Unicode scalars: at the last whole character that leaves
    /// room for `…`, which ends it. A shorter text (nearly every one: checked by its byte count) is as it is.
    static func bounded(_ text: String) -> String {
        let limit = LoopRecorder.maximumNameLength
        guard text.utf8.count > limit, text.unicodeScalars.count > limit else { return text }
        var kept = ""
        var scalars = 0
        for character in text {
            let count = character.unicodeScalars.count
            guard scalars + count <= limit - 1 else { break }
            kept.append(character)
            scalars += count
        }
        return kept + "…"
    }

    /// Seconds with three decimals at least and nine at most, no exponent (`0.020`, `0.0000015`).
    static func seconds(_ nanoseconds: Int64) -> String {
        let magnitude = nanoseconds.magnitude
        var fraction = magnitude % 1_000_000_000
        var digits = 9
        while digits > 3 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let text = String(fraction)
        return (nanoseconds < 0 ? "-" : "") + String(magnitude / 1_000_000_000) + "."
            + String(repeating: "0", count: digits - text.count) + text
    }

    /// A JSON string, or `null`: quotes and backslashes escaped, and as `\uXXXX` every character a terminal would
    /// act on (controls, C1, bidirectional and invisible marks, line separators), as the trace format promises.
    static func appendQuoted(_ text: String?, to bytes: inout [UInt8]) {
        guard let text else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        // Most names are plain printable ASCII: copied as they are.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            bytes.append(0x22)
            bytes.append(contentsOf: text.utf8)
            bytes.append(0x22)
            return
        }
        bytes.append(0x22)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069,
                0x200B, 0x2060, 0xFEFF:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                bytes.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(0x22)
    }
}
