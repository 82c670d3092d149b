import LoopEngine
import Testing

/// The trace's seconds: milliseconds always, finer digits only when they are not zero, never an exponent.
@Suite("seconds as the trace writes them")
struct LoopInstantTextTests {
    @Test(
        "instants",
        arguments: [
            (0, "0.000"), (1, "0.000000001"), (1_000_000, "0.001"), (1_500_000, "0.0015"), (250_000_000, "0.250"),
            (1_000_000_000, "1.000"), (12_345_678_901, "12.345678901"), (100_000_000_000_000, "100000.000"),
            (Int64.max - 1, "9223372036.854775806"),
        ] as [(Int64, String)])
    func instants(nanoseconds: Int64, text: String) {
        #expect(LoopInstant(nanoseconds: nanoseconds).description == text)
    }

    @Test("durations, negative ones too")
    func durations() {
        #expect(LoopEvent.seconds(.milliseconds(-1500)) == "-1.500s")
        #expect(LoopEvent.seconds(.nanoseconds(-7)) == "-0.000000007s")
        #expect(LoopEvent.seconds(.seconds(3)) == "3.000s")
    }

    @Test("the far future is never")
    func never() {
        #expect(LoopInstant.distantFuture.description == "never")
    }
}
