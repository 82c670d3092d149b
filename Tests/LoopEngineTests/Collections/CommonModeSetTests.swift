import LoopEngine
import Testing

/// docs/cfrunloop.md §11.1: the order in which CF walks a loop's common modes, computed from their names. The
/// orders are those the real CFRunLoop gave (`CommonModeOrderTests` in the real-time judges probes them again).
@Suite("§11.1 the common modes in CF's set order")
struct CommonModeSetTests {
    @Test("CFString's hash of a name: its UTF-16 units mixed in fours, then the length")
    func stringHash() {
        // Worked out from __CFStrHashCharacters (CFString.c) on a 64-bit CFHashCode, by another implementation.
        #expect(CommonModeSet.stringHash([]) == 0)
        #expect(CommonModeSet.stringHash(Array("A".utf16)) == 966)
        #expect(CommonModeSet.stringHash(Array("ModeY".utf16)) == 14_009_903_211_843)
        #expect(CommonModeSet.stringHash(Array("Tracking".utf16)) == 15_789_172_926_519_994_427)
        #expect(CommonModeSet.stringHash(Array("kCFRunLoopDefaultMode".utf16)) == 2_444_061_682_897_183_778)
    }

    static let orders: [(common: [String], walked: [String])] = [
        (["Tracking"], ["Tracking", "default"]),
        (["ModeY"], ["ModeY", "default"]),
        (["M1", "M2"], ["M1", "M2", "default"]),
        (["A", "B", "C"], ["A", "default", "B", "C"]),
        (["C", "B", "A"], ["A", "default", "B", "C"]),
        (["ModeA", "ModeB", "ModeC", "ModeD"], ["ModeD", "default", "ModeC", "ModeB", "ModeA"]),
        (["x", "y", "z", "w", "v", "u", "t"], ["default", "x", "t", "y", "u", "z", "v", "w"]),
        (
            (1...12).map { "Mode\($0)" },
            [
                "Mode11", "Mode7", "Mode10", "default", "Mode5", "Mode3", "Mode1", "Mode8", "Mode6", "Mode4", "Mode12",
                "Mode2", "Mode9",
            ]
        ),
        (["é", "ü", "Ω"], ["é", "ü", "default", "Ω"]),
    ]

    @Test("the walk follows the names' hashes and the table's growth, not the order the modes became common")
    func walkOrder() {
        for (common, walked) in Self.orders {
            var set = CommonModeSet()
            for name in common { set.insert(ModeName(name)) }
            #expect(set.modes.map(\.rawValue) == walked, "common \(common)")
            #expect(set.count == common.count + 1)
        }
    }

    @Test("a name already common changes nothing")
    func insertTwice() {
        var set = CommonModeSet()
        set.insert("Tracking")
        set.insert("Tracking")
        set.insert(.default)
        #expect(set.modes == ["Tracking", .default])
        #expect(set.contains("Tracking") && !set.contains("Modal"))
    }
}
