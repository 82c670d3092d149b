import LoopEngine
import Testing

@Test("the version string is a semantic version: three numbers in canonical form (no sign, no leading zero)")
func versionIsSemantic() throws {
    let parts = LoopEngineVersion.string.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    #expect(parts.count == 3)
    for part in parts {
        let number = try #require(Int(part), "\(part) is not a number")
        #expect(number >= 0 && String(number) == part, "\(part) is not in canonical form")
    }
}
