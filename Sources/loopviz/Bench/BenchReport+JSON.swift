#if os(Linux)
extension BenchReport {
    /// The results for machines: one JSON object, `{"format":"loopviz-bench","version":1,…}`. A figure that does
    /// not exist (a p99 without a distribution, a ratio to zero) is `null`, never NaN.
    var json: String {
        let counts = goalCounts
        return Self.object([
            ("format", Self.quoted("loopviz-bench")),
            ("version", "1"),
            ("quick", quick ? "true" : "false"),
            ("rounds", "\(rounds)"),
            ("build", Self.quoted(Self.buildConfiguration)),
            ("cores", "\(cores)"),
            ("cpu", cpuModel.map(Self.quoted) ?? "null"),
            ("loadAverage", Self.object([("before", Self.number(loadBefore)), ("after", Self.number(loadAfter))])),
            ("rows", "[" + rows.map(Self.json(_:)).joined(separator: ",") + "]"),
            (
                "goals",
                Self.object([
                    ("met", "\(counts.met)"), ("notMet", "\(counts.notMet)"), ("undecided", "\(counts.undecided)"),
                ])
            ),
        ])
    }

    private static func json(_ row: BenchRow) -> String {
        object([
            ("id", quoted(row.id)),
            ("workload", quoted(row.workload)),
            ("title", quoted(row.title)),
            ("unit", quoted(row.unit.rawValue)),
            ("variants", "[" + row.variants.map { json($0, noise: row.checksNoise) }.joined(separator: ",") + "]"),
            ("engineOverCF", number(row.engineOverCF)),
            ("notes", "[" + row.notes.map(quoted).joined(separator: ",") + "]"),
            (
                "goals",
                "["
                    + row.goals.map { goal in
                        let (achieved, met) = goal.evaluate(in: row)
                        return object([
                            ("text", quoted(goal.text)), ("statistic", quoted(goal.statistic.rawValue)),
                            ("against", goal.against.map { quoted(row.variants[$0].name) } ?? "null"),
                            ("factor", number(goal.factor)), ("achieved", number(achieved)),
                            ("met", met.map { $0 ? "true" : "false" } ?? "null"),
                        ])
                    }.joined(separator: ",") + "]"
            ),
        ])
    }

    private static func json(_ variant: BenchVariant, noise: Bool) -> String {
        let figure = variant.figure
        let measured = variant.isMeasured
        return object([
            ("name", quoted(variant.name)),
            ("role", quoted(variant.role.rawValue)),
            ("median", number(measured ? figure.median : nil)),
            ("p99", number(measured ? figure.p99 : nil)),
            ("min", number(measured ? figure.minimum : nil)),
            ("max", number(measured ? figure.maximum : nil)),
            ("rounds", "[" + figure.rounds.map { number($0) }.joined(separator: ",") + "]"),
            ("samples", "\(figure.samples.count)"),
            ("noisy", measured && noise && figure.isNoisy ? "true" : "false"),
        ])
    }

    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// A JSON number, or `null` for nil, NaN and infinities.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
#endif
