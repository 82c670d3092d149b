import LoopEngine

/// The fuzzer's conditions: an owner's properties through either reference, the flag, `if` terms and the owner's
/// keep-alive loop with what ends it.
extension FuzzGenerator {
    /// `vc.stopped` through the owner itself, or `weakSelf.stopped` through its weak reference.
    func property(weak: Bool) -> FlagReference {
        .property(owner: Self.owner, name: "stopped", weak: weak)
    }

    /// One term of a condition: the weak reference, a property through either reference, the flag; maybe negated.
    mutating func term() -> Condition {
        var options: [Condition] = []
        if hasOwner {
            options += [.ownerAlive(Self.owner), .isSet(property(weak: true)), .isSet(property(weak: false))]
        }
        if let flag { options.append(.isSet(.flag(flag))) }
        let base = rng.pick(options)
        return rng.chance(50) ? .not(base) : base
    }

    /// An `if` condition: one term or two joined by `and` (needs an owner or a flag).
    mutating func condition() -> Condition {
        let first = term()
        return rng.chance(40) ? .all([first, term()]) : first
    }

    /// The condition of the owner's keep-alive loop: the keep-alive article's fix, its bug, and simpler ones.
    mutating func ownerWhileCondition() -> Condition {
        switch rng.int(0...3) {
        case 0: .all([.ownerAlive(Self.owner), .not(.isSet(property(weak: true)))])
        case 1: .not(.isSet(property(weak: true)))
        case 2: .ownerAlive(Self.owner)
        default: .not(.isSet(property(weak: false)))
        }
    }

    /// What ends the owner's loop `condition`: its property set (through either reference) or its `dealloc`, whose
    /// body may set the property itself (it must when the loop tests only the property: the parser wants a loop's
    /// flag set somewhere).
    mutating func ownerEnding(_ condition: Condition) -> Action {
        if !deallocated, rng.chance(50) {
            deallocated = true
            var body: [Action] = []
            if case .not = condition {
                body = [.assign(property(weak: false), true)]
            } else if rng.chance(50) {
                body = [.assign(property(weak: rng.chance(50)), true)]
            }
            return .dealloc(owner: Self.owner, body)
        }
        return .assign(property(weak: rng.chance(50)), true)
    }
}
