import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// Naming a recording's stack samples: the functions of an ELF file's symbol table, an address found in its
/// loaded object, a Swift name demangled, and the lines `hangs` prints under a hang.
@Suite("stack samples named from the ELF symbol tables")
struct StackSymbolizerTests {
    /// The built loopviz: an ELF file whose functions the tests know by name.
    static let binary = LoopvizProcess.executable.path

    static func function(startingWith text: String) -> ELFSymbolTable.Function? {
        {
            let table = ELFSymbolTable(path: binary);
            return table.functions.first { StackSymbolizer.demangled(table.name($0)).hasPrefix(text) }
        }()
    }

    @Test("the symbol table of an executable: functions sorted, each address inside one found by it")
    func table() throws {
        let table = ELFSymbolTable(path: Self.binary)
        #expect(table.functions.count > 1_000)
        #expect(zip(table.functions, table.functions.dropFirst()).allSatisfy { $0.start <= $1.start })
        let run = try #require(Self.function(startingWith: "static loopviz.HangsCommand.run("))
        #expect(run.size > 0)
        #expect(table.function(at: run.start)?.start == run.start)
        #expect(table.function(at: run.start + run.size - 1)?.start == run.start)
        #expect(table.function(at: 0) == nil)
    }

    @Test("a file that is not a 64-bit ELF, a truncated one, none, a FIFO or a device: no functions, at once")
    func notAnELF() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-elf-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("text")
        try Data("not an ELF file".utf8).write(to: text)
        let truncated = folder.appendingPathComponent("truncated")
        try Data(try Data(contentsOf: URL(fileURLWithPath: Self.binary)).prefix(100)).write(to: truncated)
        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for path in [text.path, truncated.path, folder.appendingPathComponent("missing").path, fifo.path, "/dev/zero"] {
            #expect(ELFSymbolTable(path: path).functions.isEmpty, "\(path)")
        }
    }

    @Test("an address in a loaded object: its function demangled, the file's name; a return address one byte back")
    func frames() throws {
        let run = try #require(Self.function(startingWith: "static loopviz.HangsCommand.run("))
        let base: UInt64 = 0x5500_0000_0000
        var symbolizer = StackSymbolizer()
        symbolizer.add(
            module: LoopEvent.LoadedModule(base: base, low: base, high: base + 0x1000_0000), path: Self.binary)
        let top = symbolizer.frame(base + run.start + 4, isReturnAddress: false)
        #expect(top.function?.hasPrefix("static loopviz.HangsCommand.run(") == true)
        #expect(top.module == "loopviz")
        #expect(top.words.hasSuffix(" in loopviz"))
        // A call as the last instruction of a function returns to the first byte of the next one.
        let after = symbolizer.frame(base + run.start + run.size, isReturnAddress: true)
        #expect(after.function == top.function)
        let outside = symbolizer.frame(0x10, isReturnAddress: false)
        #expect(outside == StackSymbolizer.Frame(function: nil, module: nil, address: 0x10))
        #expect(outside.words == "0x10")
        #expect(StackSymbolizer.demangled("memcpy") == "memcpy")
        #expect(StackSymbolizer.shortened(String(repeating: "a", count: 200)).count == StackSymbolizer.maximumName)
    }

    @Test("crafted files: sizes past the file or absurd entry sizes are no table, never a trap")
    func crafted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-elf-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.binary))
        func patched(_ name: String, _ change: (inout Data) -> Void) throws -> String {
            var data = original
            change(&data)
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return url.path
        }
        func put64(_ data: inout Data, _ at: Int, _ value: UInt64) {
            for byte in 0..<8 { data[at + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }
        let sectionsAt = Int((0..<8).reduce(UInt64(0)) { $0 | UInt64(original[0x28 + $1]) << (8 * $1) })
        let count = Int(original[0x3C]) | Int(original[0x3D]) << 8
        // Every section's entry size made huge, every size past the file, the section table moved off the end.
        let huge = try patched("huge-entries") { data in
            for index in 0..<count { put64(&data, sectionsAt + index * 64 + 0x38, UInt64.max / 3) }
        }
        let sizes = try patched("huge-sizes") { data in
            for index in 0..<count { put64(&data, sectionsAt + index * 64 + 0x20, UInt64.max - 7) }
        }
        let moved = try patched("moved-table") { data in put64(&data, 0x28, UInt64.max - 100) }
        for path in [huge, sizes, moved] { #expect(ELFSymbolTable(path: path).functions.isEmpty, "\(path)") }
        // An unreadable file is not a changed one: its frames keep their address, without the words.
        var symbolizer = StackSymbolizer()
        symbolizer.add(
            module: LoopEvent.LoadedModule(base: 0, low: 0x1000, high: 0x2000, buildID: "ab"),
            path: folder.appendingPathComponent("missing.so").path)
        symbolizer.add(
            module: LoopEvent.LoadedModule(base: 0, low: 0x3000, high: 0x4000), path: "linux-vdso.so.1")
        #expect(symbolizer.frame(0x1010, isReturnAddress: false).words == "0x1010 in missing.so")
        #expect(symbolizer.frame(0x3010, isReturnAddress: false).words == "0x3010 in linux-vdso.so.1")
    }

    @Test("a build ID recorded: the same file is named, a file rebuilt since is not (its frames say so)")
    func buildID() throws {
        let table = ELFSymbolTable(path: Self.binary)
        let identity = try #require(table.buildID)
        #expect(identity.count == 40 && identity.allSatisfy(\.isHexDigit))
        let run = try #require(Self.function(startingWith: "static loopviz.HangsCommand.run("))
        let base: UInt64 = 0x5500_0000_0000
        func frame(recorded: String?) -> StackSymbolizer.Frame {
            var symbolizer = StackSymbolizer()
            symbolizer.add(
                module: LoopEvent.LoadedModule(base: base, low: base, high: base + 0x1000_0000, buildID: recorded),
                path: Self.binary)
            return symbolizer.frame(base + run.start + 4, isReturnAddress: false)
        }
        #expect(frame(recorded: identity).function?.hasPrefix("static loopviz.HangsCommand.run(") == true)
        let changed = frame(recorded: String(repeating: "0", count: 40))
        #expect(changed.function == nil && changed.fileChanged)
        #expect(
            changed.words
                == "0x\(String(base + run.start + 4, radix: 16)) in loopviz (the file changed since the recording)")
    }

    @Test("a hang's lines: the hottest frames with their share of the samples, then the most frequent stack")
    func lines() {
        var symbolizer = StackSymbolizer()
        let samples = [[0x30, 0x20, 0x10], [0x30, 0x20, 0x10], [0x40, 0x20, 0x10], []].map {
            LoopEvent.StackSample(frames: $0)
        }
        let summary = HangReport.StackSummary(samples, symbolizer: &symbolizer)
        #expect(
            HangReport.stackLines(summary) == """
                  hottest frames (3 stack samples): 0x30 2/3, 0x40 1/3
                  most frequent stack (2/3):
                    0x30
                    0x20
                    0x10

                """)
        #expect(HangReport.stackLines(HangReport.StackSummary([], symbolizer: &symbolizer)) == "")
    }
}
