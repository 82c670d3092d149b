/// Objects (by identity) in the order they were added, with O(1) membership tests, appends and removals.
///
/// A mode's port sources and a loop's common items were arrays searched from the front on every add and every
/// remove: adding thousands of items took a time that grew with their square (issue 10). A removal here leaves a
/// hole, and the holes are squeezed out once they outnumber the members, so iteration stays in insertion order
/// and costs O(count) amortised.
struct OrderedObjectSet<Element: AnyObject>: Sequence {
    /// Members in insertion order, with holes where members were removed.
    private var slots: [Element?] = []
    /// Where each member is in `slots`.
    private var positions: [ObjectIdentifier: Int] = [:]

    init() {}

    var count: Int { positions.count }
    var isEmpty: Bool { positions.isEmpty }

    func contains(_ element: Element) -> Bool { positions[ObjectIdentifier(element)] != nil }

    /// Adds `element` at the end; false (and nothing changes) when it is a member already.
    @discardableResult
    mutating func append(_ element: Element) -> Bool {
        let id = ObjectIdentifier(element)
        guard positions[id] == nil else { return false }
        positions[id] = slots.count
        slots.append(element)
        return true
    }

    /// Removes `element`; false when it is not a member.
    @discardableResult
    mutating func remove(_ element: Element) -> Bool {
        guard let index = positions.removeValue(forKey: ObjectIdentifier(element)) else { return false }
        slots[index] = nil
        if slots.count - positions.count > Swift.max(positions.count, 16) { compact() }
        return true
    }

    /// The members in insertion order, as an array.
    var elements: [Element] { slots.compactMap { $0 } }

    func makeIterator() -> Iterator { Iterator(slots: slots) }

    struct Iterator: IteratorProtocol {
        fileprivate let slots: [Element?]
        fileprivate var index = 0

        mutating func next() -> Element? {
            while index < slots.count {
                defer { index += 1 }
                if let element = slots[index] { return element }
            }
            return nil
        }
    }

    private mutating func compact() {
        slots = slots.filter { $0 != nil }
        for (index, element) in slots.enumerated() {
            if let element { positions[ObjectIdentifier(element)] = index }
        }
    }
}
