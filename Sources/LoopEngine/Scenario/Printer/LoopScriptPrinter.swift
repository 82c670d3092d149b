/// Prints a `LoopScript` as `.loop` text: `ScenarioParser.parse(LoopScriptPrinter.text(of: script))` gives the
/// same script back (its values, line numbers aside). One printer for every command that writes `.loop` text (the
/// fuzzer's saved cases, `loopviz fmt`'s check), so that the language is written in one place, next to the parser.
///
/// Every keyword it writes goes through `ScenarioKeywords.word(_:)`, which holds it to the language's word list:
/// the printer cannot write a word the parser does not know.
package enum LoopScriptPrinter {
    /// The whole file: the header (the lesson card, `[zh]` sections included), the scenario's lines, the threads,
    /// the queues, the outside events, the narration, the questions and the `expect` sections.
    package static func text(of script: LoopScript) -> String {
        var printer = Lines(script: script)
        printer.header(script.header)
        printer.scenarioLines(script)
        printer.threads(script.scenario.threads)
        printer.queues(script.scenario.queues)
        printer.outside(script.scenario.outside)
        printer.narration(script)
        printer.questions(script.questions)
        printer.expectations(script.expectations)
        return printer.lines.joined(separator: "\n") + "\n"
    }

    /// A scenario alone (no narration, no expectations): what the fuzzer saves.
    package static func text(of scenario: Scenario) -> String {
        text(of: LoopScript(scenario: scenario))
    }
}

extension LoopScriptPrinter {
    /// The lines written so far, and what the script tells about the words of its actions.
    struct Lines {
        var lines: [String] = []
        let words: OwnerWords
        let translations: [Language: [String: String]]
        /// The claims of `say` actions, by their words, each used once in the order the parser read them.
        var noteClaims: [String: [[NarrationClaim]]]
        /// The claims of top-level `say` lines, in the order the parser read them.
        var narrationClaims: [SayClaims]

        init(script: LoopScript) {
            words = OwnerWords(owners: script.scenario.owners)
            translations = script.noteTranslations
            var noteClaims: [String: [[NarrationClaim]]] = [:]
            var narrationClaims: [SayClaims] = []
            for claims in script.sayClaims {
                switch claims.anchor {
                case .note(let text): noteClaims[text, default: []].append(claims.claims)
                case .narration: narrationClaims.append(claims)
                }
            }
            self.noteClaims = noteClaims
            self.narrationClaims = narrationClaims
        }

        mutating func append(_ line: String) { lines.append(line) }

        /// A blank line between sections (never at the start, never two).
        mutating func section() {
            if let last = lines.last, !last.isEmpty { lines.append("") }
        }

        mutating func header(_ header: [String]) {
            for line in header { append(line.isEmpty ? "#" : "# " + line) }
        }

        mutating func scenarioLines(_ script: LoopScript) {
            let scenario = script.scenario
            section()
            append(w("scenario") + " " + quoted(scenario.name))
            if scenario.profile != .linux { append(w("profile") + " " + scenario.profile.rawValue) }
            if let until = script.until { append(w("until") + " " + duration(until)) }
            if scenario.iterationCost != VirtualWorld.defaultIterationCost {
                append(w("iteration") + " " + w("cost") + " " + duration(scenario.iterationCost))
            }
            for owner in scenario.owners {
                append(w("owner") + " " + owner.name + (owner.weakName.map { " " + w("weak") + " " + $0 } ?? ""))
            }
        }

        mutating func queues(_ queues: [QueueSpec]) {
            guard !queues.isEmpty else { return }
            section()
            for queue in queues { append(queueLine(queue)) }
        }

        func queueLine(_ queue: QueueSpec) -> String {
            var line = w("queue") + " " + queue.name
            if let kind = queue.dispatch {
                // A dispatch queue's width and state come from its kind (`makeDispatchQueue`).
                line += " " + w("dispatch") + " " + w(kind == .serial ? "serial" : "concurrent")
            } else {
                if let limit = queue.limit { line += " " + w("limit") + " \(limit)" }
                if queue.suspended { line += " " + w("suspended") }
            }
            if queue.idleTimeout != QueueSpec(name: queue.name).idleTimeout {
                line += " " + w("idle") + " " + duration(queue.idleTimeout)
            }
            return line
        }

        mutating func outside(_ events: [OutsideEvent]) {
            for event in events {
                section()
                append(w("at") + " " + duration(event.time) + " " + w("on") + " " + event.thread)
                for action in event.actions { actionLines(action, indent: 1) }
            }
        }

        mutating func narration(_ script: LoopScript) {
            guard !script.narration.isEmpty else { return }
            section()
            for line in script.narration {
                var text = w("say")
                if line.language != .en { text += " " + w(line.language.rawValue) }
                text += " " + quoted(line.text) + " " + anchorText(line.anchor)
                append(text)
                if let index = narrationClaims.firstIndex(where: {
                    $0.anchor == .narration(line.anchor) && $0.text == line.text
                }) {
                    claimLines(narrationClaims[index].claims, indent: 1)
                    narrationClaims.remove(at: index)
                }
            }
        }

        mutating func claimLines(_ claims: [NarrationClaim], indent: Int) {
            let pad = String(repeating: "  ", count: indent)
            for claim in claims {
                append(pad + w("claims") + " " + w(claim.reach.rawValue) + " " + stepText(claim.step, claim: true))
            }
        }

        mutating func questions(_ questions: [Question]) {
            guard !questions.isEmpty else { return }
            section()
            for question in questions {
                var line = w("ask") + " " + quoted(question.prompt) + " " + anchorText(question.anchor)
                if !question.choices.isEmpty {
                    line += " (" + question.choices.map { stepText($0, claim: false) }.joined(separator: ", ") + ")"
                }
                append(line)
            }
        }

        mutating func expectations(_ expectations: [Expectation]) {
            for expectation in expectations {
                section()
                switch expectation.mode {
                case .exactly: append(w("expect") + " " + w("exactly"))
                case .inOrder: append(w("expect") + " " + w("in") + " " + w("order"))
                case .claims where expectation.everySchedule:
                    append(w("expect") + " " + w("in") + " " + w("every") + " " + w("schedule"))
                case .claims: append(w("expect"))
                }
                for step in expectation.steps {
                    append("  " + stepText(step, claim: expectation.mode == .claims))
                }
            }
        }

        func anchorText(_ anchor: Narration.Anchor) -> String {
            switch anchor {
            case .time(let time): w("at") + " " + duration(time)
            case .step(let step): w("at") + " " + w("step") + " \(step)"
            case .after(let step): w("after") + " " + stepText(step, claim: false)
            }
        }
    }
}
