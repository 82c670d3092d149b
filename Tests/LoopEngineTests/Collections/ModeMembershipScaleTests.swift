import Testing

@testable import LoopEngine

/// Adding an item to a mode asks whether it is there already; with 100,000 version-0 sources, or a port in 1,000
/// modes' port sets, that question is one lookup, not a walk of what is there (issue 38, D3).
@Suite("membership in a mode is one lookup whatever the mode holds")
struct ModeMembershipScaleTests {
    @Test("100,000 sources: each new one is added, the same one or a CF-equal one is not, a removed one may come back")
    func manySources0() {
        let mode = LoopModeState(name: .default, timerPort: PortID(rawValue: 0), portSet: PortSetID(rawValue: 0))
        var sources: [LoopSource] = []
        for index in 0..<100_000 {
            let source = LoopSource(name: "s\(index)", equalityKey: index.isMultiple(of: 2) ? "k\(index)" : nil) {}
            #expect(!mode.containsSource0EqualForCF(source))
            mode.appendSource0(source)
            sources.append(source)
        }
        #expect(mode.sources0.count == 100_000)
        #expect(mode.containsSource0EqualForCF(sources[99_999]))
        #expect(mode.containsSource0EqualForCF(LoopSource(name: "twin", equalityKey: "k42") {}))
        #expect(!mode.containsSource0EqualForCF(LoopSource(name: "other order", order: 1, equalityKey: "k42") {}))
        #expect(!mode.containsSource0EqualForCF(LoopSource(name: "no key") {}))
        mode.removeSource0(at: 42)
        #expect(!mode.containsSource0EqualForCF(sources[42]))
        #expect(!mode.containsSource0EqualForCF(LoopSource(name: "twin", equalityKey: "k42") {}))
        #expect(mode.containsSource0EqualForCF(sources[43]))
    }

    @Test("a port in 1,000 port sets joins each once, and a second insert changes nothing")
    func portInManySets() {
        let world = VirtualWorld()
        let port = world.makePort(.message, label: "wake")
        let sets = (0..<1_000).map { _ in world.makePortSet() }
        for set in sets { world.insert(port, into: set) }
        for set in sets { world.insert(port, into: set) }
        #expect(sets.allSatisfy { world.portSets[$0.rawValue].members == [port] })
        world.remove(port, from: sets[7])
        #expect(world.portSets[sets[7].rawValue].members.isEmpty)
    }
}
