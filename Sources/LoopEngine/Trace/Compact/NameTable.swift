/// The strings of one trace (threads, modes, items), each kept once and named by a small number.
///
/// Interning is on the recording's hot path, so strings seen lately are found again by their bits before any
/// hashing: a loop's name, its mode's and its items' are the same `String` values event after event, and equal
/// bits are the same characters (the cache keeps each string it remembers alive, so its storage is never
/// reused for other characters). A miss falls back to the dictionary, so equal strings always get one id.
struct NameTable: Sendable {
    private(set) var names: [String] = []
    private var ids: [String: UInt32] = [:]
    private var cache = [CacheEntry](repeating: CacheEntry(), count: NameTable.cacheSize)

    private struct CacheEntry: Sendable {
        var bits: (UInt64, UInt64) = (0, 0)
        var id: UInt32 = .max
        /// Holds the string whose bits these are.
        var string: String = ""
    }

    private static let cacheSize = 256

    /// The id of `string`, adding it when it is new.
    @inline(__always)
    mutating func id(_ string: String) -> UInt32 {
        let bits = unsafeBitCast(string, to: (UInt64, UInt64).self)
        let mixed = (bits.0 &* 0x9E37_79B9_7F4A_7C15) ^ (bits.1 &* 0xC2B2_AE3D_27D4_EB4F)
        let slot = Int(truncatingIfNeeded: mixed >> 56)
        if cache[slot].id != .max && cache[slot].bits == bits { return cache[slot].id }
        let id = lookUp(string)
        cache[slot] = CacheEntry(bits: bits, id: id, string: string)
        return id
    }

    private mutating func lookUp(_ string: String) -> UInt32 {
        if let known = ids[string] { return known }
        let id = UInt32(names.count)
        names.append(string)
        ids[string] = id
        return id
    }

    subscript(id: UInt32) -> String { names[Int(id)] }
}
