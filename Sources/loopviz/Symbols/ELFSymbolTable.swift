import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The functions of one ELF file (an executable or a shared object), read from its symbol tables (`.symtab`, and
/// `.dynsym` when the file was stripped): enough to name the function an address of a stack sample lies in. A
/// recording names the files, so each is read as hostile input: a regular file only (checked on the descriptor
/// opened, never by path first), 64-bit little-endian, every offset and size checked against the file and the
/// bounds below; a file that breaks one has no functions. Names are decoded only for the functions looked up.
struct ELFSymbolTable {
    struct Function {
        var start: UInt64
        var size: UInt64
        /// Where its name starts in the string table.
        var nameOffset: UInt32
    }

    /// The most symbols read from one file, the largest string table, the longest name.
    static let maximumSymbols = 4_000_000
    static let maximumStrings = 128 << 20
    static let maximumNameLength = 4_096

    /// Sorted by start.
    private(set) var functions: [Function] = []
    /// The string table the names are in.
    private var names = Data()
    /// The file's GNU build ID in hexadecimal (its `.note.gnu.build-id`), if it has one.
    private(set) var buildID: String?
    /// True when the file was read as an ELF file (it may still have no functions).
    private(set) var isReadable = false

    /// The table of the file at `path`; empty when it cannot be read.
    init(path: String) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return }
        let size = UInt64(info.st_size)
        func read(_ offset: UInt64, _ count: UInt64) -> Data? {
            guard count <= size, offset <= size - count, count <= UInt64(Int32.max) else { return nil }
            var data = Data(count: Int(count))
            let done = data.withUnsafeMutableBytes { buffer -> Int in
                var total = 0
                while total < buffer.count {
                    let got = pread(
                        descriptor, buffer.baseAddress! + total, buffer.count - total, off_t(offset) + off_t(total))
                    if got <= 0 { break }
                    total += got
                }
                return total
            }
            return done == Int(count) ? data : nil
        }
        guard let header = read(0, 64), header.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), header[4] == 2,
            header[5] == 1
        else { return }
        let sectionsAt = header.le64(0x28)
        let entrySize = UInt64(header.le16(0x3A))
        let count = UInt64(header.le16(0x3C))
        // An ELF64 section header is 64 bytes; there are at most 65,535 of them.
        guard entrySize == 64, count > 0, let sections = read(sectionsAt, entrySize * count) else { return }
        struct Section {
            var type: UInt32
            var offset: UInt64
            var size: UInt64
            var link: UInt32
            var entrySize: UInt64
        }
        let all = (0..<Int(count)).map { index -> Section in
            let at = index * 64
            return Section(
                type: sections.le32(at + 4), offset: sections.le64(at + 0x18), size: sections.le64(at + 0x20),
                link: sections.le32(at + 0x28), entrySize: sections.le64(at + 0x38))
        }
        isReadable = true
        for section in all where section.type == 7 && section.size <= 4_096 {
            if let notes = read(section.offset, section.size), let found = Self.buildID(in: notes) {
                buildID = found
                break
            }
        }
        // The full table when there is one; the dynamic one (exported names only) of a stripped file. An ELF64
        // symbol is 24 bytes.
        let table = all.first { $0.type == 2 } ?? all.first { $0.type == 11 }
        guard let table, table.entrySize == 24, Int(table.link) < all.count else { return }
        let strings = all[Int(table.link)]
        let symbolBytes = min(table.size / 24, UInt64(Self.maximumSymbols)) * 24
        guard strings.size <= UInt64(Self.maximumStrings), let names = read(strings.offset, strings.size),
            let symbols = read(table.offset, symbolBytes)
        else { return }
        var found: [Function] = []
        for at in stride(from: 0, to: symbols.count - 23, by: 24) {
            let kind = symbols[symbols.startIndex + at + 4] & 0xF
            // Functions, and GNU indirect functions (a libc's memcpy).
            guard kind == 2 || kind == 10 else { continue }
            let value = symbols.le64(at + 8)
            let nameOffset = symbols.le32(at)
            guard value != 0, symbols.le16(at + 6) != 0, Int(nameOffset) < names.count else { continue }
            found.append(Function(start: value, size: symbols.le64(at + 16), nameOffset: nameOffset))
        }
        found.sort { $0.start < $1.start }
        functions = found
        self.names = names
    }

    /// A function's name: up to its terminating zero, at most ``maximumNameLength`` bytes.
    func name(_ function: Function) -> String {
        let start = names.startIndex + Int(function.nameOffset)
        guard start < names.endIndex else { return "" }
        let limit = min(names.endIndex, start + Self.maximumNameLength)
        let end = names[start..<limit].firstIndex(of: 0) ?? limit
        return String(decoding: names[start..<end], as: UTF8.self)
    }

    /// The GNU build ID among ELF notes (type 3, name `GNU`), in hexadecimal.
    static func buildID(in notes: Data) -> String? {
        var at = 0
        while at + 12 <= notes.count {
            let nameSize = Int(notes.le32(at))
            let descSize = Int(notes.le32(at + 4))
            let type = notes.le32(at + 8)
            guard nameSize <= notes.count, descSize <= notes.count else { return nil }
            let descAt = at + 12 + (nameSize + 3) / 4 * 4
            let next = descAt + (descSize + 3) / 4 * 4
            guard next <= notes.count else { return nil }
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
        guard candidate.size == 0 || address - candidate.start < candidate.size else { return nil }
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
