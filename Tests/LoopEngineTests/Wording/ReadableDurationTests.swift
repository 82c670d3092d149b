import Testing

@testable import LoopEngine

/// The aggregate views' durations (`H`, `loopviz stats`): short, in the unit that fits, legible on a projector.
@Suite("durations in tables read in the unit that fits")
struct ReadableDurationTests {
    @Test(
        "each magnitude has its unit and its decimals, rounded half up, never 1000 of a unit",
        arguments: [
            (Duration.zero, "0", "0"),
            (.nanoseconds(800), "800 ns", "800 ns"),
            (.nanoseconds(1_500), "1.5 µs", "1.5 us"),
            (.nanoseconds(6_000), "6.0 µs", "6.0 us"),
            (.nanoseconds(999_949), "999.9 µs", "999.9 us"),
            (.nanoseconds(999_950), "1.0 ms", "1.0 ms"),
            (.nanoseconds(11_668_166), "11.7 ms", "11.7 ms"),
            (.nanoseconds(174_997_000), "175.0 ms", "175.0 ms"),
            (.nanoseconds(999_950_000), "1.00 s", "1.00 s"),
            (.milliseconds(1_250), "1.25 s", "1.25 s"),
            (.seconds(3_600), "3600.00 s", "3600.00 s"),
            (.nanoseconds(-1_500), "-1.5 µs", "-1.5 us"),
        ] as [(Duration, String, String)])
    func readable(_ duration: Duration, _ unicode: String, _ ascii: String) {
        #expect(LoopEvent.readable(duration) == unicode)
        #expect(LoopEvent.readable(duration, ascii: true) == ascii)
    }
}
