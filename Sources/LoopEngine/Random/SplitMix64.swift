/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast generator whose whole state is one `UInt64`, so a
/// fuzz case is reproducible from its seed alone on every platform and Swift version (the standard library's
/// generator is neither seedable nor stable). One generator for the package: the differential fuzzer's cases and
/// the randomised model tests' operations (package access: not part of LoopEngine's API).
package struct SplitMix64: RandomNumberGenerator {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed of case `index` of a campaign seeded with `seed`: each case can be replayed on its own.
    package static func caseSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    /// A number in `range`, uniformly (by the standard library's unbiased reduction).
    package mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// True with probability `percent` / 100.
    package mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    /// One of `choices` (not empty).
    package mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...choices.count - 1)] }

    /// A number in `0..<bound` (`bound` positive).
    package mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }
}
