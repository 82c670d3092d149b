/// Timer ports armed as one (``LoopWaiter/makeArmGroup()``): the ports of modes that hold the same timers and do
/// not run, which the core moves as one queue (`RunLoopCore`'s resting modes).
///
/// A fire arms every such port for the same deadline at the same instant, one sequence number after the other:
/// 1,000 modes cost 1,000 arms a fire. A port of a group is not armed at each of the group's arms; it is brought
/// up to date when anything looks at it (a wait or a look at one of its sets, a poll, a change of its sets, an arm
/// of its own), from what those arms left, which is little:
///
/// - the last arm: its deadline, instant and sequence number are the port's (an arm overwrites every earlier one);
/// - on linux, where an arm whose previous deadline had passed first expires the port, which puts an entry on its
///   sets' ready lists that later arms leave in place: the first such expiry after the port joined.
///
/// The port's first arm after it joined is made for real: before it, the port's previous arming is its own; after
/// it, the group's. Members that took their first arm before the same expiry share its place (``ArmCohort``).
///
/// Every member takes the group's sequence number where an arm of each would have taken one number each, one
/// after the other, with nothing between them: a readiness key orders a port only against the other ports of its
/// set, and those numbers stand in the same place among theirs. Two ports of one group must never share a set
/// (the core groups mode timer ports, each in its own mode's set only).
extension VirtualWorld {
    public func makeArmGroup() -> ArmGroupID? {
        if let reused = freeArmGroups.popLast() {
            armGroups[reused] = VirtualArmGroup()
            return ArmGroupID(rawValue: reused)
        }
        armGroups.append(VirtualArmGroup())
        return ArmGroupID(rawValue: armGroups.count - 1)
    }

    public func join(_ port: PortID, armGroup group: ArmGroupID) {
        settle(port)
        armGroupJoins += 1
        let index = port.rawValue
        ports[index].armGroup = group.rawValue
        ports[index].cohort = nil
        armGroups[group.rawValue].pending.append(port)
        armGroups[group.rawValue].members += 1
        for set in ports[index].sets { portSets[set].groupedMembers.insert(port) }
    }

    public func arm(group id: ArmGroupID, at instant: LoopInstant?) {
        let group = id.rawValue
        armGroupArms += 1
        // Linux: members whose previous arming was the group's last expire if its deadline has passed; their
        // entries take that place, and keep it through later arms.
        if profile == .linux, let last = armGroups[group].last, let deadline = last.deadline, deadline <= current,
            let open = armGroups[group].openCohort
        {
            open.stale = PortOrder(time: max(deadline, last.when), sequence: last.sequence)
            armGroups[group].openCohort = nil
        }
        // Members that joined since the last arm take this one for real: until now their arming was their own.
        if !armGroups[group].pending.isEmpty {
            let pending = armGroups[group].pending
            armGroups[group].pending = []
            let cohort = armGroups[group].openCohort ?? ArmCohort()
            armGroups[group].openCohort = cohort
            for port in pending where ports[port.rawValue].armGroup == group && ports[port.rawValue].cohort == nil {
                armAlone(port, at: instant)
                ports[port.rawValue].cohort = cohort
            }
        }
        armGroups[group].last = VirtualArmGroup.Arm(deadline: instant, when: current, sequence: nextSequence())
    }

    public func leaveArmGroup(_ port: PortID) {
        settle(port)
    }

    public func closeArmGroup(_ group: ArmGroupID) {
        precondition(armGroups[group.rawValue].members == 0, "an arm group closed with members")
        armGroups[group.rawValue] = VirtualArmGroup()
        freeArmGroups.append(group.rawValue)
    }

    /// Brings a port of a group up to date and takes it out of the group: what every arm of the group since it
    /// joined would have left it in (see the extension's comment). A port in no group is left as it is.
    func settle(_ port: PortID) {
        let index = port.rawValue
        guard let group = ports[index].armGroup else { return }
        ports[index].armGroup = nil
        armGroups[group].members -= 1
        for set in ports[index].sets { portSets[set].groupedMembers.remove(port) }
        guard let cohort = ports[index].cohort else { return }  // no arm of the group since it joined
        ports[index].cohort = nil
        guard let last = armGroups[group].last else { return }
        if profile == .linux, let stale = cohort.stale {
            for set in ports[index].sets { portSets[set].makeReadyKeepingPlace(port, stale) }
        }
        ports[index].armedAt = last.deadline
        ports[index].armedWhen = last.when
        ports[index].armSequence = last.sequence
        ports[index].count = 0
        let deadline = last.deadline.map { PortOrder(time: $0, sequence: last.sequence) }
        for set in ports[index].sets { portSets[set].rearm(port, at: deadline, keepingPlace: profile == .linux) }
    }

    /// Brings every grouped port of `set` up to date: what a look at the set does first.
    func settleGroupedPorts(in set: PortSetID) {
        for port in portSets[set.rawValue].groupedMembers { settle(port) }
    }
}

/// One group of ``VirtualWorld``'s arm groups.
struct VirtualArmGroup {
    struct Arm {
        var deadline: LoopInstant?
        var when: LoopInstant
        var sequence: UInt64
    }

    /// The group's latest arm (nil before the first).
    var last: Arm?
    /// Ports that joined since the latest arm: the next arms each of them alone.
    var pending: [PortID] = []
    /// Members armed with the group whose previous deadline has not expired since (linux): the next expiry gives
    /// them their place.
    var openCohort: ArmCohort?
    var members = 0
}

/// Ports of one group that took their first arm before the same expiry of the group's deadline (linux): where that
/// expiry put their entries in their sets' ready lists, once it happened.
final class ArmCohort {
    var stale: PortOrder?
}
