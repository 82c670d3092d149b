import Foundation

/// The functions of one ELF file (an executable or a shared object), read from its symbol tables (`.symtab`, and
/// `.dynsym` when the file was stripped): enough to name the function an address of a stack sample lies in. Read
/// once per file, with bounds: a file that is not a 64-bit little-endian ELF, or whose tables lie outside it,
/// has no functions.
struct ELFSymbolTable {
    struct Function {
        var start: UInt64
        var size: UInt64
        var name: String
    }

    /// The most symbols read from one file, and the largest string table.
    static let maximumSymbols = 4_000_000
    static let maximumStrings = 512 << 20

    /// Sorted by start.
    private(set) var functions: [Function] = []
    /// The file's GNU build ID in hexadecimal (its `.note.gnu.build-id`), if it has one.
    private(set) var buildID: String?

    /// The table of the file at `path`; empty when it cannot be read.
    init(path: String) {
        // A regular file only (a library is often named by a link to it): a recording names the files, and a FIFO
        // or a device would block or never end.
        let path = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let handle = FileHandle(forReadingAtPath: path)
        else { return }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return }
        func read(_ offset: UInt64, _ count: UInt64) -> Data? {
            guard count <= size, offset <= size - count else { return nil }
            guard (try? handle.seek(toOffset: offset)) != nil else { return nil }
            return try? handle.read(upToCount: Int(count))
        }
        guard let header = read(0, 64), header.count == 64, header.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]),
            header[4] == 2, header[5] == 1
        else { return }
        let sectionsAt = header.le64(0x28)
        let entrySize = UInt64(header.le16(0x3A))
        let count = UInt64(header.le16(0x3C))
        guard entrySize >= 64, count > 0, let sections = read(sectionsAt, entrySize * count) else { return }
        struct Section {
            var type: UInt32
            var offset: UInt64
            var size: UInt64
            var link: UInt32
            var entrySize: UInt64
        }
        let all = (0..<Int(count)).map { index -> Section in
            let at = index * Int(entrySize)
            return Section(
                type: sections.le32(at + 4), offset: sections.le64(at + 0x18), size: sections.le64(at + 0x20),
                link: sections.le32(at + 0x28), entrySize: sections.le64(at + 0x38))
        }
        for section in all where section.type == 7 && section.size <= 4_096 {
            if let notes = read(section.offset, section.size), let found = Self.buildID(in: notes) {
                buildID = found
                break
            }
        }
        // The full table when there is one; the dynamic one (exported names only) of a stripped file.
        let table = all.first { $0.type == 2 } ?? all.first { $0.type == 11 }
        guard let table, table.entrySize >= 24, Int(table.link) < all.count else { return }
        let strings = all[Int(table.link)]
        guard strings.size <= UInt64(Self.maximumStrings), let names = read(strings.offset, strings.size),
            let symbols = read(table.offset, min(table.size, table.entrySize * UInt64(Self.maximumSymbols)))
        else { return }
        let stride = Int(table.entrySize)
        var found: [Function] = []
        for at in Swift.stride(from: 0, to: symbols.count - stride + 1, by: stride) {
            let kind = symbols[symbols.startIndex + at + 4] & 0xF
            // Functions, and GNU indirect functions (a libc's memcpy).
            guard kind == 2 || kind == 10 else { continue }
            let value = symbols.le64(at + 8)
            guard value != 0, symbols.le16(at + 6) != 0 else { continue }
            let nameAt = Int(symbols.le32(at))
            guard nameAt < names.count else { continue }
            let end = names[(names.startIndex + nameAt)...].firstIndex(of: 0) ?? names.endIndex
            let name = String(decoding: names[(names.startIndex + nameAt)..<end], as: UTF8.self)
            found.append(Function(start: value, size: symbols.le64(at + 16), name: name))
        }
        found.sort { $0.start < $1.start }
        functions = found
    }

    /// The GNU build ID among ELF notes (type 3, name `GNU`), in hexadecimal.
    static func buildID(in notes: Data) -> String? {
        var at = 0
        while at + 12 <= notes.count {
            let nameSize = Int(notes.le32(at))
            let descSize = Int(notes.le32(at + 4))
            let type = notes.le32(at + 8)
            let descAt = at + 12 + (nameSize + 3) / 4 * 4
            let next = descAt + (descSize + 3) / 4 * 4
            guard nameSize <= notes.count, descSize <= notes.count, next <= notes.count else { return nil }
            let name = notes[(notes.startIndex + at + 12)..<(notes.startIndex + at + 12 + nameSize)]
            if type == 3, name == Data("GNU\u{0}".utf8), descSize > 0, descSize <= 64 {
                let bytes = notes[(notes.startIndex + descAt)..<(notes.startIndex + descAt + descSize)]
                return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            }
            at = next
        }
        return nil
    }

    /// The function at `address` (an address of the file, before it was loaded), if a symbol covers it.
    func function(at address: UInt64) -> Function? {
        var low = 0
        var high = functions.count
        while low < high {
            let middle = (low + high) / 2
            if functions[middle].start <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        // Among symbols of one start (aliases), the last sorted; any covers the address if one does.
        let candidate = functions[low - 1]
        guard candidate.size == 0 || address < candidate.start &+ candidate.size else { return nil }
        return candidate
    }
}

extension Data {
    fileprivate func le16(_ at: Int) -> UInt16 {
        UInt16(self[startIndex + at]) | UInt16(self[startIndex + at + 1]) << 8
    }
    fileprivate func le32(_ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(self[startIndex + at + $1]) << (8 * $1) }
    }
    fileprivate func le64(_ at: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(self[startIndex + at + $1]) << (8 * $1) }
    }
}
