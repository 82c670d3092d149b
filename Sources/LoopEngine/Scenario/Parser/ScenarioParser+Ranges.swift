/// Ranges: one word that names many items or operations (`port p1..128`, `operation upload1..10 on q …`),
/// bounded so that no file can make the parser build more names than ``maxExpandedNames``.
extension ScenarioParserState {
    /// The names a word stands for: itself, or the names of a range `PREFIX FIRST..LAST` (`upload1..10` is
    /// upload1 … upload10; a first number with a leading zero, `f01..12`, keeps its width).
    func expandRange(_ token: ScenarioToken, _ line: ScenarioLine) -> [String]? {
        let text = token.text
        guard let dots = text.firstRange(of: "..") else { return [text] }
        let left = text[..<dots.lowerBound]
        let right = text[dots.upperBound...]
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        let firstDigits = String(left.reversed().prefix(while: isDigit).reversed())
        let prefix = left.dropLast(firstDigits.count)
        guard !firstDigits.isEmpty, firstDigits.count <= 9, !right.isEmpty, right.count <= 9, right.allSatisfy(isDigit),
            let first = Int(firstDigits), let last = Int(right)
        else {
            error(line, at: token, .badRange(text))
            return nil
        }
        guard last >= first else {
            error(line, at: token, .rangeEndsFirst(text, first: first))
            return nil
        }
        guard last - first < Self.maxRange else {
            error(line, at: token, .rangeTooLong(text, count: last - first + 1, limit: Self.maxRange))
            return nil
        }
        guard expandedNames + (last - first + 1) <= Self.maxExpandedNames else {
            error(line, at: token, .tooManyRangeNames(limit: Self.maxExpandedNames))
            return nil
        }
        expandedNames += last - first + 1
        let width = firstDigits.first == "0" ? firstDigits.count : 0
        return (first...last).map { number in
            let digits = String(number)
            return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }

    static let maxRange = 1000
    /// The names all the ranges of one file may stand for together (definitions and uses): a file of ranges
    /// cannot make the parser build a billion names.
    static let maxExpandedNames = 100_000
}
