import LoopEngine
import Testing

@Test("the version string is a semantic version")
func versionIsSemantic() {
    let parts = LoopEngineVersion.string.split(separator: ".")
    #expect(parts.count == 3)
    #expect(parts.allSatisfy { Int($0) != nil })
}
