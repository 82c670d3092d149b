/// The work budget (``WorkLimit``): the loops report their item operations, and the world halts once they pass
/// ``VirtualWorld/workLimit``.
extension VirtualWorld {
    public func spendWork(_ operations: Int) {
        workDone &+= operations
        guard let workLimit, workDone > workLimit, haltReason == nil else { return }
        haltReason = .workLimit(WorkLimit(operations: workLimit))
    }
}

extension VirtualWorld {
    /// True when the work budget halted the world.
    package var reachedWorkLimit: Bool {
        if case .workLimit = haltReason { return true }
        return false
    }
}
