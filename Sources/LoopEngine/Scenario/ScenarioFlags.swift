/// The scenario's flags and owners, which any thread may set or test (`set`, `clear`, `while`, `if`,
/// `dealloc`), and the rules of an owner going away. Package access: the engine's interpreter and the CF oracle
/// share these rules instead of copying them.
///
/// An owner is alive, then deallocating (its `dealloc` runs: weak references to it are already nil, its own
/// code still works on its memory), then freed (its `dealloc` returned: whatever uses it through a strong
/// reference reads freed memory - a bad access on a real device, a ``LoopEvent/Note/usesDeallocatedOwner(owner:property:)``
/// note here, the use itself skipped and a read false).
///
/// Guarded by a lock: on real threads the flags are set and read at the same time.
package final class ScenarioFlags: @unchecked Sendable {
    package enum OwnerState: Sendable, Equatable {
        case alive, deallocating, freed
    }

    private var flags: Set<String> = []
    private var owners: [String: OwnerState] = [:]
    private let lock = LoopLock()

    package init(owners: [OwnerSpec] = []) {
        for owner in owners { self.owners[owner.name] = .alive }
    }

    package func state(of owner: String) -> OwnerState {
        lock.withLock { owners[owner] ?? .alive }
    }

    /// Sets (`value` true) or clears a flag; returns the note to record when the write reaches a freed owner.
    package func assign(_ reference: FlagReference, _ value: Bool) -> LoopEvent.Note? {
        lock.withLock {
            switch reference {
            case .flag(let name):
                write(name, value)
                return nil
            case .property(let owner, let name, let weak):
                switch owners[owner] ?? .alive {
                case .alive:
                    write(reference.key, value)
                case .deallocating where !weak:
                    write(reference.key, value)
                case .deallocating:
                    // A message to nil: nothing happens.
                    break
                case .freed where weak:
                    break
                case .freed:
                    return .usesDeallocatedOwner(owner: owner, property: name)
                }
                return nil
            }
        }
    }

    private func write(_ key: String, _ value: Bool) {
        if value { flags.insert(key) } else { flags.remove(key) }
    }

    /// Whether a plain flag is set.
    package func isSet(_ flag: String) -> Bool {
        lock.withLock { flags.contains(flag) }
    }

    /// Tests `condition`, left to right as C's `&&` does; `notes` are the bad accesses the test made.
    package func holds(_ condition: Condition, notes: inout [LoopEvent.Note]) -> Bool {
        switch condition {
        case .isSet(let reference):
            return read(reference, notes: &notes)
        case .ownerAlive(let owner):
            return state(of: owner) == .alive
        case .not(let inner):
            return !holds(inner, notes: &notes)
        case .all(let conditions):
            for inner in conditions where !holds(inner, notes: &notes) { return false }
            return true
        }
    }

    private func read(_ reference: FlagReference, notes: inout [LoopEvent.Note]) -> Bool {
        lock.withLock {
            guard case .property(let owner, let name, let weak) = reference else {
                return flags.contains(reference.key)
            }
            switch owners[owner] ?? .alive {
            case .alive:
                return flags.contains(reference.key)
            case .deallocating:
                // `weakSelf.stopped` is `[nil stopped]`: NO. The owner's own code still reads its memory.
                return weak ? false : flags.contains(reference.key)
            case .freed:
                if !weak { notes.append(.usesDeallocatedOwner(owner: owner, property: name)) }
                return false
            }
        }
    }

    /// The owner's `dealloc` begins: weak references to it read nil from now on. Nil when it is not alive
    /// (a second `dealloc` does nothing).
    package func beginDealloc(_ owner: String) -> LoopEvent.Note? {
        lock.withLock {
            guard (owners[owner] ?? .alive) == .alive else { return nil }
            owners[owner] = .deallocating
            return .ownerDeallocating(owner: owner)
        }
    }

    /// The owner's `dealloc` has returned: its memory is freed.
    package func endDealloc(_ owner: String) -> LoopEvent.Note? {
        lock.withLock {
            guard owners[owner] == .deallocating else { return nil }
            owners[owner] = .freed
            return .ownerFreed(owner: owner)
        }
    }
}

extension LoopEvent.Note {
    /// The owner an owner's note is about: the name its event carries (so that `expect … note vc` matches it).
    package var ownerName: String? {
        switch self {
        case .ownerDeallocating(let owner), .ownerFreed(let owner), .usesDeallocatedOwner(let owner, _): owner
        default: nil
        }
    }
}
