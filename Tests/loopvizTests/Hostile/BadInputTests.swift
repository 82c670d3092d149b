import Foundation
import Testing

/// Bad input costs little: random bytes, huge files and lines of garbage end with exit 2 and a short report.
@Suite("bad input costs little, on the command line")
struct BadInputTests {
    /// Deterministic "random" bytes (a linear congruential generator): the same input on every run.
    static func noise(count: Int, seed: UInt64 = 0x2545_F491_4F6C_DD1D) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test("a file over 4 MiB is refused before it is read, with exit 2")
    func oversizedFile() throws {
        let result = try HostileProcess.run(["run", "big.loop"], sparse: ["big.loop": 100 << 20])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(
            result.stderr == "loopviz: error: big.loop: larger than 4 MiB; a scenario file is at most 4194304 bytes\n"
        )
    }

    @Test("a device that never ends is refused after 4 MiB, with exit 2")
    func endlessDevice() throws {
        let result = try HostileProcess.run(["check", "/dev/zero"])
        #expect(result.status == 2)
        #expect(result.stdout == "ERROR /dev/zero\n")
        #expect(
            result.stderr
                == "loopviz: error: /dev/zero: larger than 4 MiB; a scenario file is at most 4194304 bytes\n")
    }

    @Test("a megabyte of random bytes: the first 20 problems, how many more, a true count, exit 2")
    func randomBytes() throws {
        let result = try HostileProcess.run(["run", "noise.loop"], files: ["noise.loop": Self.noise(count: 1 << 20)])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        // 20 diagnostics of 3 lines, "and N more errors", "M errors generated.", and the final line break.
        try #require(lines.count == 20 * 3 + 3, "\(result.stderr.prefix(2000))")
        #expect(lines.prefix(60).enumerated().allSatisfy { $0.offset % 3 != 0 || $0.element.contains(": error: ") })
        let more = try #require(Int(lines[60].dropFirst("and ".count).prefix { $0.isNumber }))
        #expect(lines[60] == "and \(more) more errors")
        #expect(lines[61] == "\(more + 20) errors generated.")
        #expect(result.stderr.utf8.count < 20 * 400)
        #expect(!HostileLesson.hasUnsafe(result.stderr))
    }

    @Test("a line of 10,000 bad bytes gives one short error, exit 2")
    func lineOfBadBytes() throws {
        let bytes = Array("thread T\n  wakeup ".utf8) + [UInt8](repeating: 0x1B, count: 10_000) + [0x0A]
        let result = try HostileProcess.run(["run", "bad.loop"], files: ["bad.loop": bytes])
        #expect(result.status == 2)
        let expected = [
            "bad.loop:2:10: error: 10000 unexpected characters '" + String(repeating: "\\e", count: 40) + "…'",
            "    wakeup " + String(repeating: "\\e", count: 25) + "…",
            "           ^",
            "1 error generated.",
        ]
        #expect(result.stderr == expected.joined(separator: "\n") + "\n")
    }

    @Test("a file that is not UTF-8 is reported at line and column, exit 2")
    func invalidUTF8() throws {
        let bytes = Array("thread T\n  wakeup\n  say \"caf".utf8) + [0xE9] + Array("\"\n".utf8)
        let result = try HostileProcess.run(["check", "latin1.loop"], files: ["latin1.loop": bytes])
        #expect(result.status == 2)
        #expect(result.stdout == "ERROR latin1.loop\n")
        let expected = [
            "latin1.loop:3:11: error: invalid UTF-8: byte 0xE9; save the file as UTF-8",
            "    say \"caf\u{FFFD}\"",
            "            ^",
            "1 error generated.",
        ]
        #expect(result.stderr == expected.joined(separator: "\n") + "\n")
    }
}
