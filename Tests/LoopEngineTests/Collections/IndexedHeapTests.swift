import Testing

@testable import LoopEngine

@Suite("IndexedHeap: a min-heap found by identity")
struct IndexedHeapTests {
    @Test("pops every entry in key order, whatever the order of the inserts")
    func popsInKeyOrder() {
        var random = SplitMix64(seed: 1)
        var heap = IndexedHeap<Int, Int, String>()
        let keys = Array(0..<500).shuffled(using: &random)
        for (id, key) in keys.enumerated() { heap.set(id, key: key, value: "v\(key)") }
        #expect(heap.count == 500)
        var popped: [Int] = []
        while let entry = heap.popMin() {
            #expect(entry.value == "v\(entry.key)")
            #expect(keys[entry.id] == entry.key)
            popped.append(entry.key)
        }
        #expect(popped == Array(0..<500))
        #expect(heap.isEmpty && heap.min == nil)
    }

    @Test("random inserts, re-keys, removals and pops agree with a sorted array", arguments: [2, 3, 4, 5] as [UInt64])
    func agreesWithSortedArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var heap = IndexedHeap<Int, Int, Int>()
        // The model: id -> key; keys unique (as every user of the heap makes them).
        var model: [Int: Int] = [:]
        var nextKey = 0
        func freshKey() -> Int {
            nextKey += 1
            return nextKey * 7919 % 100_003
        }
        for _ in 0..<4_000 {
            let id = random.below(300)
            switch random.below(5) {
            case 0, 1:
                let key = freshKey()
                heap.set(id, key: key, value: id * 2)
                model[id] = key
            case 2:
                let removed = heap.remove(id)
                #expect(removed?.key == model.removeValue(forKey: id))
            case 3:
                let expected = model.min { $0.value < $1.value }
                let popped = heap.popMin()
                #expect(popped?.id == expected?.key && popped?.key == expected?.value)
                if let expected { model[expected.key] = nil }
            default:
                #expect(heap.contains(id) == (model[id] != nil))
                #expect(heap.entry(id)?.key == model[id])
                #expect(heap.entry(id).map { $0.value == id * 2 } ?? true)
            }
            #expect(heap.count == model.count)
            #expect(heap.min?.key == model.values.min())
        }
        #expect(heap.sorted().map(\.key) == model.values.sorted())
        #expect(heap.sorted().map(\.id) == model.sorted { $0.value < $1.value }.map(\.key))
    }

    @Test("a bounded visit sees exactly the entries up to the bound (and the first children past it)")
    func boundedVisit() {
        var random = SplitMix64(seed: 6)
        var heap = IndexedHeap<Int, Int, Void>()
        for (id, key) in Array(0..<1_000).shuffled(using: &random).enumerated() { heap.set(id, key: key, value: ()) }
        for bound in [-1, 0, 1, 17, 500, 999, 2_000] {
            var accepted: [Int] = []
            var looked = 0
            heap.visit { entry in
                looked += 1
                guard entry.key <= bound else { return false }
                accepted.append(entry.key)
                return true
            }
            #expect(accepted.sorted() == Array(0..<min(bound + 1, 1_000)).filter { $0 >= 0 })
            // Each accepted entry has at most two children that were looked at and refused.
            #expect(looked <= 1 + 2 * accepted.count)
        }
    }

    @Test("set on an existing identity moves it, up or down; removing what is not there changes nothing")
    func rekeyAndMissing() {
        var heap = IndexedHeap<String, Int, Int>()
        for (index, name) in ["a", "b", "c", "d", "e"].enumerated() { heap.set(name, key: index * 10, value: index) }
        heap.set("a", key: 45, value: 99)
        #expect(heap.min?.id == "b")
        heap.set("e", key: -1, value: 4)
        #expect(heap.min?.id == "e")
        let missing = heap.remove("zz")
        #expect(missing == nil)
        #expect(heap.count == 5)
        #expect(heap.sorted().map(\.id) == ["e", "b", "c", "d", "a"])
        #expect(heap.entry("a")?.value == 99)
        heap.removeAll()
        #expect(heap.isEmpty && !heap.contains("a"))
    }
}
