extension Scenario {
    /// Every mode a run of any of the scenario's loops can wait on: the modes its run calls name (`run M …`, the
    /// Foundation forms, the keep-alive idioms; `default` for `run` and `run until …`) and the modes whose
    /// `limitDate` it asks (which polls the mode), wherever they are written - programs, callouts, a source's
    /// schedule and cancel callouts, blocks, tasks, outside events and the UI's pokes. Its loops arm the timer
    /// ports of these modes only (`RunLoopCore.limitTimerPorts(toModes:)`): no wait could see another's.
    package var modesRunsCanWaitOn: Set<ModeName> {
        var names: Set<ModeName> = [.default]
        var lists = actionLists()
        for thread in threads {
            for item in thread.items {
                lists.append(item.sourceCallouts.schedule.map(\.action))
                lists.append(item.sourceCallouts.cancel.map(\.action))
            }
        }
        for list in lists {
            Action.forEach(in: list) { action in
                switch action {
                case .run(let call): names.insert(call.mode)
                case .query(.limitDate(let mode)): names.insert(mode)
                default: break
                }
            }
        }
        return names
    }
}
