import Foundation
import LoopEngine

/// Names the frames of a recording's stack samples: finds each address's loaded object among the recording's
/// `module` events, the function in that file's symbol table, and demangles a Swift name with the runtime's own
/// demangler. Each file is read once; at most ``maximumFiles`` are.
struct StackSymbolizer {
    /// One frame, named as far as the files allow.
    struct Frame: Hashable {
        /// The function's name, demangled; nil when no symbol covers the address.
        var function: String?
        /// The object's file name (its last path component); nil when no loaded object holds the address.
        var module: String?
        var address: UInt64
        /// The object's file is not the one that was loaded (its build ID differs): its names are not read.
        var fileChanged = false

        /// `decodeImage() in loopviz-sample`, or the address where the function is not known.
        var words: String {
            let place = module.map { " in \($0)" } ?? ""
            let changed = fileChanged ? " (the file changed since the recording)" : ""
            return (function ?? "0x" + String(address, radix: 16)) + place + changed
        }
    }

    /// A frame's address as a sample holds it, and whether it is a return address (every frame but the first):
    /// what ``frame(_:isReturnAddress:)`` names, the key of frames named elsewhere (`--follow` names them as it
    /// reads, ``FollowBatch/frames``).
    struct Lookup: Hashable {
        var address: UInt64
        var isReturnAddress: Bool
    }

    static let maximumFiles = 256
    /// The longest function name shown: longer ones are cut and end with `…`.
    static let maximumName = 160

    private var modules: [(path: String, module: LoopEvent.LoadedModule)] = []
    private var tables: [String: ELFSymbolTable] = [:]
    private var names: [UInt64: Frame] = [:]

    /// Takes a `module` event of the recording.
    mutating func add(module: LoopEvent.LoadedModule, path: String) {
        guard modules.count < 4_096, !modules.contains(where: { $0.module == module && $0.path == path }) else {
            return
        }
        // The latest first: an object loaded where another was unloaded names the addresses from then on.
        modules.insert((path, module), at: 0)
    }

    /// The frame at `address`; a return address (every frame but a sample's first) is looked up one byte before
    /// it, inside the call that returns there.
    mutating func frame(_ address: UInt64, isReturnAddress: Bool) -> Frame {
        let key = address &- (isReturnAddress ? 1 : 0)
        if let known = names[key] { return known }
        var frame = Frame(function: nil, module: nil, address: address)
        if let (path, module) = modules.first(where: { $0.module.contains(key) }) {
            frame.module = path.split(separator: "/").last.map(String.init) ?? path
            // A name without a folder is no file (the kernel's vDSO, `linux-vdso.so.1`): it is not looked for.
            if path.hasPrefix("/"), tables[path] == nil, tables.count < Self.maximumFiles {
                tables[path] = ELFSymbolTable(path: path)
            }
            if let table = tables[path], table.isReadable {
                if let recorded = module.buildID, table.buildID != recorded {
                    frame.fileChanged = true
                } else if let function = table.function(at: key &- module.base) {
                    frame.function = Self.shortened(Self.demangled(table.name(function)))
                }
            }
        }
        if names.count < 1_000_000 { names[key] = frame }
        return frame
    }

    /// A Swift symbol demangled by the runtime (`swift_demangle`); any other name as it is.
    static func demangled(_ name: String) -> String {
        guard name.hasPrefix("$s") || name.hasPrefix("_T") || name.hasPrefix("$S") else { return name }
        return name.withCString { pointer in
            guard let result = _swiftDemangle(pointer, UInt(strlen(pointer)), nil, nil, 0) else { return name }
            defer { free(result) }
            return String(cString: result)
        }
    }

    static func shortened(_ name: String) -> String {
        guard name.count > maximumName else { return name }
        return String(name.prefix(maximumName - 1)) + "…"
    }
}

/// The Swift runtime's demangler (a C entry point of libswiftCore): a string allocated with malloc, or nil.
@_silgen_name("swift_demangle")
private func _swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: UInt, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<UInt>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
