extension ScenarioParser {
    /// Parses the bytes of a `.loop` file, which must be UTF-8.
    ///
    /// Bytes that are not UTF-8 are reported where they are, `file:line:column` (the column counts the
    /// characters before them, an invalid sequence counting as one), one diagnostic per run of invalid bytes,
    /// and the file is not parsed further: what a parser would say about replacement characters is noise.
    /// - Throws: the encoding problems, or every problem the parser finds.
    public static func parse(utf8 bytes: [UInt8], file: String = "<input>") throws(ScenarioDiagnostics) -> LoopScript {
        if let source = String(validating: bytes, as: UTF8.self) {
            return try parse(source, file: file)
        }
        throw UTF8Scan.problems(bytes, file: file)
    }
}

/// Finds the runs of bytes that are not UTF-8 in one pass, keeping the first few with their positions.
enum UTF8Scan {
    static func problems(_ bytes: [UInt8], file: String) -> ScenarioDiagnostics {
        var diagnostics = DiagnosticCollector()
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            var line = 1
            var lineStart = 0
            // Columns on the current line: the column at `countedTo`, so each byte is counted once.
            var countedTo = 0
            var column = 1
            var lineText: (start: Int, text: String)?
            while index < buffer.count {
                let byte = buffer[index]
                if byte < 0x80 {
                    if byte == 0x0A {
                        line += 1
                        lineStart = index + 1
                        countedTo = lineStart
                        column = 1
                    }
                    index += 1
                    continue
                }
                let length = sequenceLength(buffer, index)
                if length > 0 {
                    index += length
                    continue
                }
                let runStart = index
                index += 1
                while index < buffer.count && buffer[index] >= 0x80 && sequenceLength(buffer, index) == 0 {
                    index += 1
                }
                // Positions only grow, so once the shown diagnostics are kept the rest are only counted.
                guard diagnostics.total < ScenarioDiagnostics.shownLimit else {
                    diagnostics.countUnshown()
                    continue
                }
                column +=
                    String(decoding: UnsafeBufferPointer(rebasing: buffer[countedTo..<runStart]), as: UTF8.self)
                    .count
                let runColumn = column
                column += 1
                countedTo = index
                if lineText?.start != lineStart {
                    var end = index
                    while end < buffer.count && buffer[end] != 0x0A { end += 1 }
                    var text = String(decoding: UnsafeBufferPointer(rebasing: buffer[lineStart..<end]), as: UTF8.self)
                    if text.hasSuffix("\r") { text.removeLast() }
                    lineText = (lineStart, text)
                }
                let firstBytes = Array(buffer[runStart..<min(index, runStart + 4)])
                diagnostics.add(
                    file: file, line: line, column: runColumn,
                    problem: { .invalidUTF8(firstBytes: firstBytes, count: index - runStart) },
                    sourceLine: lineText?.text ?? "")
            }
        }
        return diagnostics.sorted
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (Unicode's table 3-7), or 0.
    private static func sequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        let first = buffer[index]
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < buffer.count && range.contains(buffer[index + offset])
        }
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return continuation(1) ? 2 : 0
        case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : 0
        case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default: return 0
        }
    }
}
