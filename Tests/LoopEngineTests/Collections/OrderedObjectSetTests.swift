import Testing

@testable import LoopEngine

@Suite("OrderedObjectSet: objects in insertion order, O(1) membership and removal")
struct OrderedObjectSetTests {
    final class Item {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test("random appends and removals keep the insertion order of an array, through compactions")
    func agreesWithArray() {
        var random = SplitMix64(seed: 11)
        let items = (0..<200).map(Item.init)
        var set = OrderedObjectSet<Item>()
        var model: [Item] = []
        for step in 0..<6_000 {
            let item = items[random.below(items.count)]
            // Phases of mostly adding and mostly removing, so holes pile up and get squeezed out.
            let adding = (step / 1_000) % 2 == 0 ? random.below(4) != 0 : random.below(4) == 0
            if adding {
                let isNew = !model.contains { $0 === item }
                let appended = set.append(item)
                #expect(appended == isNew)
                if isNew { model.append(item) }
            } else {
                let index = model.firstIndex { $0 === item }
                let removed = set.remove(item)
                #expect(removed == (index != nil))
                if let index { model.remove(at: index) }
            }
            #expect(set.count == model.count)
            #expect(set.isEmpty == model.isEmpty)
            #expect(set.contains(item) == model.contains { $0 === item })
            if step % 50 == 0 {
                #expect(set.elements.map(\.number) == model.map(\.number))
                #expect(Array(set).map(\.number) == model.map(\.number))
            }
        }
        #expect(set.elements.map(\.number) == model.map(\.number))
    }

    @Test("appending a member again does nothing; a removed member appended again goes last")
    func duplicates() {
        let (a, b, c) = (Item(1), Item(2), Item(3))
        var set = OrderedObjectSet<Item>()
        let firsts = [set.append(a), set.append(b), set.append(c), set.append(a)]
        #expect(firsts == [true, true, true, false])
        #expect(set.elements.map(\.number) == [1, 2, 3])
        let removals = [set.remove(a), set.remove(a), set.append(a)]
        #expect(removals == [true, false, true])
        #expect(set.elements.map(\.number) == [2, 3, 1])
    }
}
