/// The loop's common modes in the order CF walks them (docs/cfrunloop.md §11.1).
///
/// CF keeps the common modes in a `CFSet` of mode names (`rl->_commonModes`) and, to add an item to
/// `kCFRunLoopCommonModes` or remove it from them, applies a function over a copy of that set: a source's schedule
/// and cancel callouts come in the set's bucket order, not in the order the modes became common. That order is a
/// function of the names alone, so the engine reproduces it: CFString's hash of each name (`__CFStrHashCharacters`,
/// CFString.c) and CFBasicHash's table (CFBasicHash.c: linear probing from `hash % buckets`, 3, 7, 13, 23, …
/// buckets, grown when a table holds 3, 6, 11, 19, … names, the old buckets re-inserted in index order;
/// `CFSetCreateCopy` keeps the layout). Common modes are never removed, so no deleted bucket ever exists.
package struct CommonModeSet {
    /// CF's table sizes (`__CFBasicHashTableSizes`) and the most names each holds (`__CFBasicHashTableCapacities`),
    /// as far as a loop's common modes can grow here: beyond 2,376,191 buckets the model stops growing.
    private static let sizes: [Int] = [
        0, 3, 7, 13, 23, 41, 71, 127, 191, 251, 383, 631, 1087, 1723, 2803, 4523, 7351, 11959, 19447, 31231, 50683,
        81919, 132607, 214519, 346607, 561109, 907759, 1468927, 2376191,
    ]
    private static let capacities: [Int] = [
        0, 3, 6, 11, 19, 32, 52, 85, 118, 155, 237, 390, 672, 1065, 1732, 2795, 4543, 7391, 12019, 19302, 31324,
        50629, 81956, 132580, 214215, 346784, 561026, 907847, 1468567,
    ]

    /// The buckets: a mode and its name's hash, or nil.
    private var buckets: [(mode: ModeName, hash: UInt64)?] = []
    private var sizeIndex = 0
    package private(set) var count = 0

    /// A new loop's common modes: `{kCFRunLoopDefaultMode}`.
    package init() {
        insert(.default)
    }

    /// The modes in CF's bucket order: the order of the callouts of an add to, or a remove from, the common modes.
    package var modes: [ModeName] { buckets.compactMap { $0?.mode } }

    package func contains(_ mode: ModeName) -> Bool { find(mode, hash: Self.hash(of: mode)).found }

    /// `CFSetAddValue`: nothing if the name is there; otherwise into the first free bucket from its hash, after
    /// growing the table (and re-inserting every name, in bucket order) if it is full.
    package mutating func insert(_ mode: ModeName) {
        let hash = Self.hash(of: mode)
        var slot = find(mode, hash: hash)
        if slot.found { return }
        if count + 1 > Self.capacities[sizeIndex], sizeIndex + 1 < Self.sizes.count {
            var next = sizeIndex + 1
            while Self.capacities[next] < count + 1, next + 1 < Self.sizes.count { next += 1 }
            let old = buckets
            sizeIndex = next
            buckets = Array(repeating: nil, count: Self.sizes[next])
            for case let entry? in old { buckets[freeBucket(from: entry.hash)] = entry }
            slot = (false, freeBucket(from: hash))
        }
        guard let index = slot.index else { return }
        buckets[index] = (mode, hash)
        count += 1
    }

    /// Where `mode` is, or the free bucket it would take (nil: the table is full or empty).
    private func find(_ mode: ModeName, hash: UInt64) -> (found: Bool, index: Int?) {
        guard !buckets.isEmpty else { return (false, nil) }
        var probe = Int(hash % UInt64(buckets.count))
        for _ in 0..<buckets.count {
            guard let entry = buckets[probe] else { return (false, probe) }
            if entry.mode == mode { return (true, probe) }
            probe = (probe + 1) % buckets.count
        }
        return (false, nil)
    }

    private func freeBucket(from hash: UInt64) -> Int {
        var probe = Int(hash % UInt64(buckets.count))
        while buckets[probe] != nil { probe = (probe + 1) % buckets.count }
        return probe
    }

    /// The name CF gives the mode: `kCFRunLoopDefaultMode` for `default`, the name itself otherwise.
    static func cfName(of mode: ModeName) -> String {
        mode == .default ? "kCFRunLoopDefaultMode" : mode.rawValue
    }

    static func hash(of mode: ModeName) -> UInt64 { stringHash(Array(cfName(of: mode).utf16)) }

    /// `__CFStrHashCharacters` (CFString.c) on a 64-bit `CFHashCode`: every UTF-16 unit of a name up to 96 long
    /// (in fours, then one by one), else the first, middle and last 32; then mixed with the length.
    package static func stringHash(_ units: [UInt16]) -> UInt64 {
        let length = units.count
        var result = UInt64(length)
        func four(_ at: Int) {
            let c = (0..<4).map { UInt64(units[at + $0]) }
            result = result &* 67_503_105 &+ ((c[0] &* 257 &+ c[1]) &* 257 &+ c[2]) &* 257 &+ c[3]
        }
        if length <= 96 {
            var index = 0
            while index + 4 <= length {
                four(index)
                index += 4
            }
            while index < length {
                result = result &* 257 &+ UInt64(units[index])
                index += 1
            }
        } else {
            for start in [0, (length >> 1) - 16, length - 32] {
                for offset in stride(from: 0, to: 32, by: 4) { four(start + offset) }
            }
        }
        return result &+ (result << UInt64(length & 31))
    }
}
