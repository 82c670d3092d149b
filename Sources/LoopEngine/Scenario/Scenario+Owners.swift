/// An object that owns a thread and goes away (`owner vc weak weakSelf`): the keep-alive article's view
/// controller. Its properties are flags (`vc.stopped`); its weak reference (`weakSelf`) becomes nil when its
/// `dealloc` begins, and its memory is freed when the `dealloc` returns.
public struct OwnerSpec: Sendable, Equatable {
    package var name: String
    /// The name of the weak reference to it (`__weak typeof(self) weakSelf = self`), if the scenario has one.
    package var weakName: String?

    package init(name: String, weakName: String? = nil) {
        self.name = name
        self.weakName = weakName
    }
}

/// A flag a scenario sets, clears or tests.
public enum FlagReference: Sendable, Hashable {
    /// A flag of the scenario (`set stopped`).
    case flag(String)
    /// A property of an owner (`vc.stopped`), through the owner itself (`weak` false: `self.stopped`, a bad
    /// access once it is freed) or through its weak reference (`weak` true: `weakSelf.stopped`, nil - so false,
    /// and writes do nothing - once its `dealloc` has begun).
    case property(owner: String, name: String, weak: Bool)

    /// The name the value is stored under: a property of `vc` is `vc.NAME` whichever reference reaches it.
    package var key: String {
        switch self {
        case .flag(let name): name
        case .property(let owner, let name, _): "\(owner).\(name)"
        }
    }
}

/// What a `while` or an `if` tests: flags, properties and weak references, with `not` and `and`.
public indirect enum Condition: Sendable, Equatable {
    /// A flag or property is set (`while running`, `if owner.done`).
    case isSet(FlagReference)
    /// A weak reference to the owner is not nil (`while (weakSelf && …)`): true until its `dealloc` begins.
    case ownerAlive(String)
    /// The condition does not hold (`not`, C's `!`).
    case not(Condition)
    /// Every condition holds, tested left to right and no further than the first that fails (C's `&&`).
    case all([Condition])
}
