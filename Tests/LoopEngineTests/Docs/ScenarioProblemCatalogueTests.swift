import Foundation
import LoopEngine
import SnapshotSupport
import Testing

/// docs/language.md's error catalogue lists what the parser can say: every ``ScenarioProblem`` case, worded as
/// users read it, appears there verbatim (with `…` for the words of the file), so a diagnostic added to the parser
/// without its row, or reworded without the catalogue, fails here.
@Suite("the error catalogue of docs/language.md lists every diagnostic")
struct ScenarioProblemCatalogueTests {
    /// One of each case, with `…` for every word from the file (the catalogue's placeholder) and the numbers the
    /// catalogue shows.
    static let samples: [ScenarioProblem] = [
        .invalidUTF8(firstBytes: [0xE9], count: 1),
        .invalidUTF8(firstBytes: [0xC3, 0x28, 0xA0, 0xA1], count: 6),
        .tabIndentation,
        .unterminatedString,
        .notANumber("…"),
        .unexpectedCharacters("…", count: 1),
        .unexpectedCharacters("…", count: 3),
        .firstLineIndented,
        .indentedWithoutBlock,
        .indentationMismatch(expected: 2),
        .indentationOff(found: 5, expected: 4),
        .nestedTooDeep(limit: 100),
        .takesNoBlock("…"),
        .unexpectedAtEndOfLine("…"),
        .negativeDuration,
        .durationWithoutUnit("…"),
        .spaceBeforeUnit("300", unit: "ms"),
        .unknownUnit("…", in: "…"),
        .durationTooLong("…"),
        .commonNotAllowed,
        .modeListedTwice("…"),
        .unknownActivity("…"),
        .givenTwice("…"),
        .unknownTopLevel(found: "…"),
        .scenarioAlreadyNamed,
        .unknownProfile("…"),
        .iterationCostAlreadyGiven,
        .iterationWithoutCost,
        .iterationCostTooHigh,
        .noThread,
        .severalMainThreads,
        .outsideEventWithoutThread,
        .missingAnchor(.say),
        .missingAnchor(.ask),
        .stepsCountedFromOne,
        .unknownLanguage("…"),
        .translationWithoutOriginal(.zh),
        .choicesNotClosed,
        .tooManyChoices(count: 5, limit: 4),
        .notAClaim(found: "…"),
        .unknownClaimReach("…"),
        .countInNextClaim,
        .duplicateThread("…"),
        .threadWithoutContent("…"),
        .asyncWithoutMain,
        .duplicateItem("…", thread: "…"),
        .keywordAsName("…"),
        .unexpectedItemClause("…", item: "timer", stillAllowed: ["every", "tolerance", "in"], modesGiven: false),
        .unexpectedItemClause("…", item: "port", stillAllowed: [], modesGiven: true),
        .timerWithoutFirstFire("…"),
        .foundationTimerForm,
        .observerWithoutActivities("…"),
        .unknownCondition,
        .callsCountedFromOne,
        .callsWordMissing,
        .activityConditionOutsideObserver,
        .actionMissingAfterColon,
        .unknownAction("…"),
        .sendNoMessage,
        .sendTimesMissing,
        .wakeWithoutUp,
        .modePrepositionMissing("to"),
        .modePrepositionMissing("from"),
        .rescheduleWithoutIn,
        .mainQueueWithoutMainThread,
        .awaitOutsideTask,
        .awaitWithoutWhat,
        .performWithoutOn,
        .performFromOutside,
        .runFromOutside,
        .queryUnknownQuestion,
        .queryContainsWithoutIn,
        .runWithoutFor("…"),
        .runUntilInOtherMode("…"),
        .runLoopRunWithoutBefore,
        .acceptInputWithoutBefore,
        .expectedDate,
        .nilDate,
        .conditionNotEnded("RunLoop.run"),
        .ifWithoutBlock,
        .ownerNameWithDot,
        .ownerNameTaken("…"),
        .unknownOwner("…", known: []),
        .unknownOwner("…", known: ["…"]),
        .ownerPropertyExpected(owner: "…"),
        .ownerInCondition("…"),
        .ownerAssigned("…"),
        .threadNotLater("…"),
        .unexpectedQueueClause("…"),
        .duplicateQueue("…", firstLine: 2),
        .queueNamedLikeThread("…"),
        .badLimit(found: nil),
        .badLimit(found: "…"),
        .cancelAllWithoutOn,
        .waitWithoutFor,
        .operationNamedAll,
        .operationWithoutOn("OP"),
        .unexpectedOperationClause("…"),
        .checkOutOfPlace,
        .replyOutOfPlace,
        .unknownPriority("…"),
        .workAndAsync,
        .operationWithoutBody("…"),
        .checkWithoutEvery,
        .checkIntervalNotPositive,
        .replyWithoutAfter,
        .duplicateOperation("…", firstLine: 2),
        .badRange("…"),
        .rangeEndsFirst("…", first: 5),
        .rangeTooLong("…", count: 2000, limit: 1000),
        .tooManyRangeNames(limit: 100_000),
        .tooManyModes(limit: 1000),
        .finishNotAsync("…"),
        .waitsForItself("…"),
        .dependencyCycle(["a", "b", "a"]),
        .unknownItem("…", thread: "…", known: ["…"]),
        .unknownItem("…", thread: "…", known: []),
        .wrongItemKind("…", is: .timer, needed: .port, allowed: [.port]),
        .wrongItemKind("…", is: .source0, needed: .port, allowed: [.port]),
        .unknownThread("…", known: ["…"]),
        .unknownQueue("…", known: ["…"]),
        .unknownQueue("…", known: []),
        .unknownOperation("…", known: ["…"]),
        .unknownOperation("…", known: []),
        .flagNeverSet("…"),
        .unknownItemInPattern("…", known: ["…"], guess: nil),
        .unknownItemInPattern("…", known: [], guess: nil),
        .unknownItemInPattern("…", known: ["…"], guess: "…"),
        .unknownModeInPattern("…", known: ["…"]),
        .runModeHasNoItems("…", guess: "…"),
        .runModeHasNoItems("…", guess: nil),
        .modeNeverRun("…", item: "…", guess: nil),
        .modeNeverRun("…", item: "…", guess: "…"),
        .unknownExpectSection,
        .expectOrderMissing,
        .emptyExpectSection,
        .unknownEvent("…"),
        .unknownResult("…"),
        .returnedNotBool("…"),
        .countOutsideClaims,
        .neverWithCount,
        .neverGoesFirst("…"),
        .atWithoutMostOrLeast,
        .timesMissing,
        .negativeCount,
        .rangeWithoutAnd,
        .timeRangeEndsFirst,
        .timeAndRange,
        .answerNotADate("…"),
        .answerNotBool("…"),
        .negativeOrder,
        .orderedPerformFromOutside,
        .cancelPerformsWithoutTarget,
        .portHasNoCallouts,
        .commandCapacity(0),
        .postWithoutTo,
        .cancelOfBlock("…", queue: "…"),
        .operationOnDispatchQueue("…"),
        .asyncOnOperationQueue("…"),
        .notForDispatchQueue("…", queue: "…"),
        .clauseWithDispatch("…"),
        .finishOfBlock("…"),
        .asyncWithoutWork,
        .asyncWithoutOn("…"),
        .performWithoutOrderOrDelay,
        .delayedPerformFromOutside,
        .cancelPreviousFromOutside,
        .itemOfTargetThread("…", thread: "…"),
    ]

    /// Every problem the catalogue must show: the samples, and `expected …` for each place in the grammar.
    static let allSamples = samples + ScenarioProblem.Expected.allCases.map { .expected($0) }

    static func message(_ problem: ScenarioProblem) -> String {
        ScenarioDiagnostic(file: "t.loop", line: 1, column: 1, problem: problem, sourceLine: "").message
    }

    /// The name of a case (`unknownItem` of `.unknownItem("x", …)`).
    static func caseName(_ problem: ScenarioProblem) -> String {
        String(String(describing: problem).prefix { $0 != "(" })
    }

    /// The cases declared in ScenarioProblem.swift, read from its text: the `case` lines of the enum's body.
    static let declaredCases: [String] = {
        let url = Snapshot.packageRoot.appendingPathComponent(
            "Sources/LoopEngine/Scenario/Parser/ScenarioProblem.swift")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var names: [String] = []
        var inEnum = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("package enum ScenarioProblem") {
                inEnum = true
            } else if inEnum && line.hasPrefix("}") {
                break
            } else if inEnum, line.hasPrefix("    case ") {
                names.append(String(line.dropFirst(9).prefix { $0.isLetter || $0.isNumber }))
            }
        }
        return names
    }()

    @Test("every case of ScenarioProblem has a sample here")
    func everyCaseSampled() {
        #expect(Self.declaredCases.count > 100, "ScenarioProblem.swift was not read")
        let sampled = Set(Self.allSamples.map(Self.caseName))
        let missing = Self.declaredCases.filter { !sampled.contains($0) }
        #expect(missing.isEmpty, "add a sample of each to ScenarioProblemCatalogueTests.samples: \(missing)")
    }

    /// The parser files, read as text: where a description of what is expected could be written inline.
    static let parserSources: [(name: String, text: String)] = {
        let folder = Snapshot.packageRoot.appendingPathComponent("Sources/LoopEngine/Scenario/Parser")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("ScenarioParser") && $0.hasSuffix(".swift") }.sorted().compactMap { name in
            (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).map { (name, $0) }
        }
    }()

    @Test("no parser call site words what it expects: each place names a ScenarioProblem.Expected case")
    func noInlineDescriptions() {
        #expect(Self.parserSources.count > 10, "the parser's files were not read")
        // `what:` takes a ScenarioProblem.Expected; a `String` parameter or a literal would bring text back.
        let inline = Self.parserSources.flatMap { file in
            file.text.split(separator: "\n").enumerated()
                .filter { $0.element.contains("what: \"") || $0.element.contains("what: String") }
                .map { "\(file.name):\($0.offset + 1): \($0.element.trimmingCharacters(in: .whitespaces))" }
        }
        #expect(inline.isEmpty, "add a case to ScenarioProblem.Expected instead:\n\(inline.joined(separator: "\n"))")
    }

    @Test("every place that expects something has its own phrase")
    func expectedPhrasesDistinct() {
        let phrases = ScenarioProblem.Expected.allCases.map { Self.message(.expected($0)) }
        let repeated = Dictionary(grouping: phrases, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "two cases of ScenarioProblem.Expected read the same: \(repeated)")
    }

    @Test("every diagnostic's wording appears in docs/language.md's error catalogue")
    func everyMessageCatalogued() throws {
        let url = Snapshot.packageRoot.appendingPathComponent("docs/language.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let catalogue = try #require(text.range(of: "## Errors").map { String(text[$0.lowerBound...]) })
        let missing = Self.allSamples.map(Self.message).filter { !catalogue.contains($0) }
        #expect(
            missing.isEmpty,
            "add these to the Errors section of docs/language.md, verbatim:\n\(missing.joined(separator: "\n"))")
    }
}
