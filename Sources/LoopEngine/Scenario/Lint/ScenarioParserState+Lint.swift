/// The lint: names that resolve to nothing (errors) and modes that are run empty or never run (warnings), checked
/// once the whole file is read, from what the parser noted (``LintRecord``).
extension ScenarioParserState {
    /// Notes the mode a run enters, at its mode's word (at the keyword for a run that names none).
    func noteRun(_ mode: ModeName, _ keyword: ScenarioToken, _ line: ScenarioLine) {
        let written = line.tokens.first { $0.column > keyword.column && $0.isWord && $0.text == mode.rawValue }
        lint.runs.append(.init(mode: mode, items: [], line: line, column: written?.column ?? keyword.column))
    }

    /// Notes a name an event pattern gives (`kind` nil: the mode of an `in` clause).
    func noteName(_ kind: LoopEvent.Kind?, _ token: ScenarioToken, _ line: ScenarioLine) {
        let name = LintRecord.PatternName(kind: kind, name: token.text, line: line, column: token.column)
        if kind == nil || kind == .runStart {
            lint.patternModes.append(name)
        } else if let kind, LintRecord.itemKinds.contains(kind) {
            lint.patternItems.append(name)
        } else if kind == .result, token.text == RunResult.finished.description {
            lint.expectsEmptyRun = true
        }
    }

    /// Every item an event pattern names is an item of some thread; every mode it names is one the file uses.
    func lintNames(_ threads: [ThreadSpec]) {
        var declared: Set<String> = []
        for names in items.values { declared.formUnion(names.keys) }
        // What the engine names itself: its perform sources and timers, a pool worker's idle timer, sockets.
        let made = LintRecord.madeItems.union(operationOrder.map(OperationQueueCore.socketName))
        // The list and the guess are made only for a diagnostic that is kept (`error` takes an autoclosure).
        var known: [String]?
        for use in lint.patternItems where !declared.contains(use.name) && !made.contains(use.name) {
            error(
                use.line, use.column,
                {
                    let names = known ?? Self.fileOrder(declared, threads)
                    known = names
                    let guess = EditDistance.nearest(to: use.name, among: names + made.sorted())
                    return .unknownItemInPattern(use.name, known: names, guess: guess)
                }())
        }
        var modes: Set<String> = [ModeName.default.rawValue, ModeName.common.rawValue]
        for use in lint.runs + lint.declarations + lint.additions { modes.insert(use.mode.rawValue) }
        for thread in threads { modes.formUnion(thread.commonModes.map(\.rawValue)) }
        for use in lint.patternModes where !modes.contains(use.name) {
            error(use.line, use.column, .unknownModeInPattern(use.name, known: modes.sorted()))
        }
    }

    /// The items declared, in declaration order (ranges and shared items, which are not in a thread's list,
    /// last, sorted).
    private static func fileOrder(_ known: Set<String>, _ threads: [ThreadSpec]) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        for thread in threads {
            for item in thread.items where seen.insert(item.name).inserted { names.append(item.name) }
        }
        return names + known.subtracting(seen).sorted()
    }

    /// Warnings: a run of a mode that has nothing in it (unless the file expects `result finished`), and a mode
    /// items are declared in or added to that no run enters.
    func lintModes(_ scenario: Scenario) -> [ScenarioDiagnostic] {
        let content = Self.modesWithContent(scenario)
        var run = Set(lint.runs.map(\.mode))
        // Darwin's async main runs `CFRunLoopRun()` (default) at its first await; Linux's runs no loop.
        if scenario.profile == .darwin, scenario.hasAsyncMain { run.insert(.default) }
        var warnings: [ScenarioDiagnostic] = []
        func warn(_ use: LintRecord.ModeUse, _ problem: ScenarioProblem) {
            guard warnings.count < ScenarioDiagnostics.shownLimit else { return }
            var diagnostic = ScenarioDiagnostic(
                file: file, line: use.line.number, column: use.column, problem: problem, sourceLine: use.line.text)
            diagnostic.isWarning = true
            warnings.append(diagnostic)
        }
        var warned: Set<ModeName> = []
        // A hint costs up to 1,000 comparisons: none is sought once the warnings shown are full (a file of 490
        // misspelt modes took 30 s when every run got its hint).
        let contentNames = content.map(\.rawValue).sorted()
        for use in lint.runs where !content.contains(use.mode) && warned.insert(use.mode).inserted {
            guard warnings.count < ScenarioDiagnostics.shownLimit else { break }
            let guess = EditDistance.nearest(to: use.mode.rawValue, among: contentNames)
            if guess != nil || !lint.expectsEmptyRun {
                warn(use, .runModeHasNoItems(use.mode, guess: guess))
            }
            // The mode meant has its items: no second warning that no run enters it.
            if let guess { warned.insert(ModeName(guess)) }
        }
        // A mode counts as run when a run enters it, or when it is common and a run enters a common mode.
        let commonRun = !run.isDisjoint(with: Self.commonModes(scenario))
        func isRun(_ mode: ModeName) -> Bool {
            run.contains(mode) || (mode == .common && commonRun)
        }
        let runNames = run.map(\.rawValue).sorted()
        let (queriedModes, queriedItems) = Self.queried(scenario)
        // The item lines with a mode some run enters: O(1) a look-up, whatever the number of items.
        var linesRun: Set<Int> = []
        for use in lint.declarations where isRun(use.mode) { linesRun.insert(use.line.number) }
        for use in lint.declarations + lint.additions where !isRun(use.mode) && !queriedModes.contains(use.mode) {
            if use.items.contains(where: queriedItems.contains) { continue }
            if !use.items.isEmpty, use.items.allSatisfy(lint.itemsClaimedNever.contains) { continue }
            // An item declared in several modes is fine while one of them is run.
            guard !linesRun.contains(use.line.number), warned.insert(use.mode).inserted else { continue }
            guard warnings.count < ScenarioDiagnostics.shownLimit else { break }
            let guess = EditDistance.nearest(to: use.mode.rawValue, among: runNames)
            warn(use, .modeNeverRun(use.mode, item: use.items.first ?? "", guess: guess))
        }
        return warnings.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// The modes that hold something a run services: items (declared or added), blocks and performs in them,
    /// and every common mode once anything is in `common` (the main queue counts there too).
    static func modesWithContent(_ scenario: Scenario) -> Set<ModeName> {
        var modes: Set<ModeName> = []
        var common = false
        for thread in scenario.threads {
            for item in thread.items { modes.formUnion(item.modes) }
        }
        for list in scenario.actionLists() {
            Action.forEach(in: list) { action in
                switch action {
                case .add(_, let mode), .addOn(_, _, let mode): modes.insert(mode)
                case .performBlock(_, let blockModes, _), .performOrdered(_, _, _, let blockModes, _),
                    .performDelayed(_, _, _, let blockModes, _):
                    modes.formUnion(blockModes)
                case .mainQueue, .mainActorTask, .asyncAfter, .performOn: common = true
                default: break
                }
            }
        }
        // The main thread's common modes hold the main queue's port: they are never empty there.
        if scenario.threads.contains(where: \.isMain) { common = true }
        if common || modes.contains(.common) { modes.formUnion(commonModes(scenario)) }
        return modes
    }

    /// The modes and items the file's queries ask about: items there may be meant for the question alone.
    static func queried(_ scenario: Scenario) -> (modes: Set<ModeName>, items: Set<String>) {
        var modes: Set<ModeName> = []
        var items: Set<String> = []
        for list in scenario.actionLists() {
            Action.forEach(in: list) { action in
                guard case .query(let question) = action else { return }
                if let mode = question.mode { modes.insert(mode) }
                if let item = question.item { items.insert(item) }
            }
        }
        return (modes, items)
    }

    /// `default`, `common` and every mode a thread declares common or makes common.
    static func commonModes(_ scenario: Scenario) -> Set<ModeName> {
        var modes: Set<ModeName> = [.default, .common]
        for thread in scenario.threads { modes.formUnion(thread.commonModes) }
        for list in scenario.actionLists() {
            Action.forEach(in: list) { action in
                if case .addCommonMode(let mode) = action { modes.insert(mode) }
            }
        }
        return modes
    }

    /// `never` moved to the front of the claim `line` (whose misplaced `never` is `never`), for the hint.
    static func withNeverFirst(_ line: ScenarioLine, never: ScenarioToken) -> String {
        var words = line.tokens.filter { $0.column != never.column }.map(\.text)
        words.insert("never", at: words.first == "claims" ? min(2, words.count) : 0)
        var text = ""
        for word in words {
            text += text.isEmpty || word == ":" || word == "," ? word : " " + word
        }
        return text
    }
}

extension LintRecord {
    /// Names of items the engine makes itself, which patterns may name (`timer delayedPerform`: a delayed
    /// perform's timer).
    static let madeItems: Set<String> = [
        RunLoopCore.delayedPerformTimerName, RunLoopCore.orderedPerformTimerName, RunLoopCore.performSourceName,
        OperationQueueCore.idleTimerName,
    ]
}
